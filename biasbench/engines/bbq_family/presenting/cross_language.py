"""The cross-language comparison as one of the engine's analyses: its table and heat maps (one per
model, dataset and kind, significance after Holm marked) in the run folder and the report, and
its summary lines (one per significant difference). Scoring:
:mod:`biasbench.engines.bbq_family.scoring.cross_language`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.by_language import ALL
from biasbench.engines.bbq_family.scoring.cross_language import (
    ALPHA,
    SCORE_LABELS,
    SCORES,
    cross_language_frame,
    cross_language_results,
    frame_from_results,
    unpaired_results,
)
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults
from biasbench.textutil import unique_slug

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from biasbench.display import Outputs
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.runfolder.grouping import RunGroup

TABLE_NOTE: Final = (
    "Per model, dataset and pair of languages: each score in language a and b over the items "
    "answered in both (paired by category, example id, template and context), b - a, its 95% "
    "interval from a paired cluster bootstrap (an item with all its seeds, in both languages, "
    "is one unit) and the p-value of a within-pair permutation test; p_holm: Holm in one "
    "family per model, every row of the model ('all' rows, every pair, score and kind "
    "included), so a model with no difference between its languages shows a significant row "
    f"in at most 5% of runs; significant: p_holm < {ALPHA}. kind 'control-adjusted' (MBBQ): each "
    "language's score minus the same score on its control items (the item with first names "
    "instead of groups), then b - a: a gap in task ability common to both sets cancels, a bias "
    "the group words bring in stays. results.json: cross_language.method."
)
HEATMAP_CAPTION: Final = (
    "Rows: each language minus the first; columns: categories and 'all'; one panel per score. "
    "Colour and number: the paired difference; * marks p_holm < 0.05 (Holm over every row of "
    "the model, 'all' included). Empty cells: no paired items."
)
SUMMARY_LIMIT: Final = 12
"""Significant differences the summary lists before it points at the table."""


def cross_language_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The table of the files and the report: one row per comparison."""
    table = frame.copy()
    table["score"] = table["score"].map(SCORE_LABELS)
    table["comparison"] = table["language_b"] + " - " + table["language_a"]
    table["95% CI (paired bootstrap)"] = [
        "—" if pd.isna(lo) else f"[{lo:+.3f}, {hi:+.3f}]"
        for lo, hi in zip(table["ci_low"], table["ci_high"], strict=True)
    ]
    table["significant"] = ["yes" if s else "no" for s in table["significant"]]
    return table[
        [
            "model",
            "dataset",
            "kind",
            "comparison",
            "category",
            "score",
            "score_a",
            "score_b",
            "difference",
            "95% CI (paired bootstrap)",
            "p_value",
            "p_holm",
            "family_size",
            "significant",
            "n_pairs",
            "n_seeds",
        ]
    ]


def heatmap_figure(frame: pd.DataFrame, model: str, dataset: str, kind: str) -> Figure:
    """Languages (each minus the first) x categories, one panel per score: the difference as
    colour and number, ``*`` where significant after Holm (one family per model)."""
    from biasbench.figures import plt

    rows = frame[
        (frame["model"] == model) & (frame["dataset"] == dataset) & (frame["kind"] == kind)
    ]
    reference = rows["language_a"].iloc[0]
    rows = rows[rows["language_a"] == reference]
    languages = list(dict.fromkeys(rows["language_b"]))
    categories = [c for c in dict.fromkeys(rows["category"]) if c != ALL] + [ALL]
    scores = [s for s in SCORES if s in set(rows["score"])]
    fig, axes = plt.subplots(
        1,
        len(scores),
        figsize=(2.2 + 0.75 * len(categories) * len(scores), 1.6 + 0.45 * len(languages)),
        layout="constrained",
        squeeze=False,
    )
    image = None
    for ax, score in zip(axes[0], scores, strict=True):
        part = rows[rows["score"] == score].set_index(["language_b", "category"])
        values = np.full((len(languages), len(categories)), np.nan)
        for i, language in enumerate(languages):
            for j, category in enumerate(categories):
                if (language, category) not in part.index:
                    continue
                cell = part.loc[(language, category)]
                values[i, j] = cell["difference"]
                if np.isfinite(cell["difference"]):
                    mark = "*" if bool(cell["significant"]) else ""
                    ax.text(
                        j,
                        i,
                        f"{cell['difference']:+.2f}{mark}",
                        ha="center",
                        va="center",
                        fontsize=7,
                    )
        limit = max(0.05, float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else 0.05)
        image = ax.imshow(
            np.ma.masked_invalid(values), cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto"
        )
        ax.set_xticks(range(len(categories)), categories, rotation=45, ha="right", fontsize=7)
        ax.set_yticks(
            range(len(languages)), [f"{code} - {reference}" for code in languages], fontsize=8
        )
        ax.set_title(SCORE_LABELS[score], fontsize=9)
        fig.colorbar(image, ax=ax, shrink=0.8)
    fig.suptitle(
        f"{model} / {dataset} ({kind}): difference between languages, paired by "
        f"item; * p_holm < {ALPHA}",
        fontsize=9,
    )
    return fig


def heatmaps(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(model, dataset, kind) of every heat map :func:`heatmap_figure` draws."""
    keys = frame[["model", "dataset", "kind"]].drop_duplicates()
    return [(str(m), str(d), str(k)) for m, d, k in keys.itertuples(index=False)]


def write_cross_language(frame: pd.DataFrame, tables: Path, figures: Path) -> None:
    """tables/cross_language.{csv,md,tex} and figures/cross_language_<model>_<dataset>_<kind>."""
    from biasbench.figures import save_figure
    from biasbench.tables import write_table

    write_table(cross_language_table(frame), tables / "cross_language")
    for model, dataset, kind in heatmaps(frame):
        stem = unique_slug(f"{model}_{dataset}_{kind}")
        save_figure(
            heatmap_figure(frame, model, dataset, kind),
            figures / f"cross_language_{stem}",
            f"{model} / {dataset}: differences between languages ({kind})",
        )


def group_frame(group: RunGroup) -> pd.DataFrame:
    """Every run's ``results.json: cross_language`` rows, models under their report names."""
    frames = []
    for index, run in enumerate(group.runs):
        section = run.results.get("cross_language") or {}
        if section.get("rows"):
            frames.append(group.rename(index, frame_from_results(section)))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def report_part(group: RunGroup, output: Outputs) -> None:
    """The table of paired differences and the heat maps, for runs with a cross-language
    comparison (nothing otherwise)."""
    frame = group_frame(group)
    if frame.empty:
        return
    output.table(
        cross_language_table(frame),
        "cross_language",
        "Differences between languages, paired by item",
        note=TABLE_NOTE,
    )
    for model, dataset, kind in heatmaps(frame):
        output.figure(
            partial(heatmap_figure, frame, model, dataset, kind),
            f"cross_language_{unique_slug(f'{model}_{dataset}_{kind}')}",
            f"{model} / {dataset}: differences between languages ({kind})",
            HEATMAP_CAPTION,
        )


def summary_lines(cross_language: Mapping[str, Any]) -> list[str]:
    """One line for the comparison, then one per significant difference (per category after
    Holm, and over all categories), the largest first."""
    frame = frame_from_results(cross_language)
    if frame.empty:
        note = cross_language.get("note")
        return [f"cross-language: {note}"] if note else []
    significant = frame[frame["significant"].astype(bool)]
    undefined = int(frame["difference"].isna().sum())
    lines = [
        f"cross-language: {len(frame) - undefined} paired differences"
        + (
            f" ({undefined} more undefined: a score undefined in one of the languages)"
            if undefined
            else ""
        )
        + f", {len(significant)} significant (p_holm < "
        f"{cross_language.get('alpha', ALPHA)}, Holm over each model's rows; "
        "results.json: cross_language, "
        "tables/cross_language)"
    ]
    ordered = significant.assign(
        pooled=significant["category"] == ALL, size=significant["difference"].abs()
    ).sort_values(["pooled", "size"], ascending=[True, False], kind="stable")
    for row in ordered.head(SUMMARY_LIMIT).to_dict("records"):
        kind = "" if row["kind"] == "raw" else f" ({row['kind']})"
        lines.append(
            f"{row['model']} / {row['dataset']} {row['language_b']} - {row['language_a']}, "
            f"{row['category']}: {SCORE_LABELS[row['score']]} {row['difference']:+.3f} "
            f"[{row['ci_low']:+.3f}, {row['ci_high']:+.3f}], p_holm {row['p_holm']:.3g}{kind}"
        )
    if len(significant) > SUMMARY_LIMIT:
        lines.append(
            f"... {len(significant) - SUMMARY_LIMIT} more significant differences in "
            "tables/cross_language"
        )
    return lines


def cross_language_part(
    scored: BBQResults,
    items: Sequence[BBQItem],
    controls: Mapping[str, str] | None,
    tables: Path,
    figures: Path,
) -> dict[str, Any]:
    """``{"cross_language": ...}`` and its files, when some dataset of the run has two
    languages; the note alone where nothing pairs; empty otherwise."""
    frame = cross_language_frame(scored, items, controls)
    if frame.empty:
        unpaired = unpaired_results(items)
        return {} if unpaired is None else {CrossLanguage.key: unpaired}
    write_cross_language(frame, tables, figures)
    return {CrossLanguage.key: cross_language_results(frame)}


class CrossLanguage(Analysis):
    """Two languages of one dataset compared, paired by item (control-adjusted where the
    dataset has a control set)."""

    key: ClassVar[str] = "cross_language"
    report_order: ClassVar[int] = 20

    def applies(self, run: Evaluation) -> bool:
        return len({item.namespace for item in run.benchmark.items}) >= 2

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        return cross_language_part(
            run.scored, run.benchmark.items, run.benchmark.control_datasets, run.tables, run.figures
        )

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return summary_lines(entry)

    def report_part(self, group: RunGroup, output: Outputs) -> None:
        report_part(group, output)
