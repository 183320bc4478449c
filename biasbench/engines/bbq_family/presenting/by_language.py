"""Several languages (or datasets) in one BBQ run, as one of the engine's analyses: the table,
figure, summary lines and report part of the scores by namespace (scoring:
:mod:`biasbench.engines.bbq_family.scoring.by_language`): ``results.json: by_language``,
``tables/by_language.*``, ``figures/by_language.png``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.presenting.display import category_display
from biasbench.engines.bbq_family.scoring.bias_scores import is_scoped
from biasbench.engines.bbq_family.scoring.by_language import (
    ALL,
    KEY_COLUMNS,
    language_results,
    language_scores,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from biasbench.display import Outputs
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.runfolder.grouping import RunGroup


def language_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The cross-language table: per model, namespace, language and category, s_AMB, s_DIS and
    both accuracies with their intervals (worded as the per-category table)."""
    table = category_display(frame.reset_index(drop=True))
    table.insert(1, "namespace", frame["namespace"].to_numpy())
    table.insert(2, "language", frame["language"].to_numpy())
    return table


def frame_from_results(by_language: dict[str, Any]) -> pd.DataFrame:
    """``results.json: by_language`` back as :func:`language_scores`'s columns (the report)."""
    rows = []
    for model, spaces in by_language.items():
        for name, space in spaces.items():
            for category, entry in space["categories"].items():
                row: dict[str, Any] = {
                    "model": model,
                    "namespace": name,
                    "language": space.get("language", ""),
                    "category": category,
                }
                for score in ("s_amb", "s_dis", "acc_ambig", "acc_disambig"):
                    for stat, value in (entry.get(score) or {}).items():
                        row[f"{score}_{stat}"] = value
                row.update(
                    seeds_run=entry.get("seeds_run"),
                    unparsed_pct=entry.get("unparsed_pct"),
                    few_items=entry.get("few_items"),
                )
                rows.append(row)
    frame = pd.DataFrame(rows)
    numeric = [
        c
        for c in frame.columns
        if c not in (*KEY_COLUMNS, "few_items")
        and not c.endswith(("_ci_status", "_ci_reason", "_interval"))
    ]
    return frame.astype({c: float for c in numeric})


def language_figure(frame: pd.DataFrame, models: Sequence[str]) -> Figure:
    """Per namespace (language), s_AMB and s_DIS over all its categories: mean across seeds
    with its default interval (items+seeds), one marker per model."""
    from biasbench.figures import model_dots, plt

    rows = frame[frame["category"] == ALL]
    spaces = list(dict.fromkeys(rows["namespace"].astype(str)))
    scores = (("s_amb", "s_AMB (ambiguous contexts)"), ("s_dis", "s_DIS (disambiguated contexts)"))
    fig, axes = plt.subplots(
        1,
        len(scores),
        figsize=(4.6 * len(scores), 1.4 + 0.5 * len(spaces) * max(1.0, len(models) / 3)),
        layout="constrained",
        sharey=True,
        squeeze=False,
    )
    position = {name: i for i, name in enumerate(spaces)}
    for ax, (score, title) in zip(axes[0], scores, strict=True):
        model_dots(ax, rows, "namespace", position, score, models)
        ax.set_xlim(-1.05, 1.05)
        ax.axvline(0.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(title)
        ax.grid(axis="x", alpha=0.3)
    axes[0][0].set_yticks(range(len(spaces)), spaces)
    axes[0][0].set_ylim(-0.6, max(len(spaces), 1) - 0.4)
    axes[0][0].invert_yaxis()
    if len(models) > 1:
        axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle(
        "Bias by language (all categories): mean across seeds, 95% interval over items+seeds"
    )
    return fig


def write_language_outputs(frame: pd.DataFrame, tables: Path, figures: Path) -> None:
    """tables/by_language.{csv,md,tex} and figures/by_language.{png,pdf}."""
    from biasbench.figures import save_figure
    from biasbench.tables import write_table

    write_table(language_table(frame), tables / "by_language")
    models = list(dict.fromkeys(frame["model"].astype(str)))
    save_figure(
        language_figure(frame, models), figures / "by_language", "s_AMB and s_DIS by language"
    )


def summary_lines(by_language: dict[str, Any]) -> list[str]:
    """One line per model and namespace: its scores over all categories."""
    lines = []
    for model, spaces in by_language.items():
        for name, space in spaces.items():
            entry = space["categories"].get(ALL)
            if entry is None:
                continue
            parts = [
                f"{label} {_mean(entry[score])}"
                for score, label in (
                    ("s_amb", "s_AMB"),
                    ("s_dis", "s_DIS"),
                    ("acc_ambig", "acc ambig"),
                    ("acc_disambig", "acc disambig"),
                )
            ]
            lines.append(f"{model} / {name} (all categories): " + ", ".join(parts))
    return lines


def _mean(stat: dict[str, Any]) -> str:
    mean = stat.get("mean")
    if mean is None or (isinstance(mean, float) and np.isnan(mean)):
        return "undefined"
    low, high = stat.get("ci_low"), stat.get("ci_high")
    interval = (
        f" [{low:.3f}, {high:.3f}]"
        if low is not None and high is not None and stat.get("ci_status") in ("ok", "clipped")
        else ""
    )
    return f"{mean:.3f}{interval}"


class ByLanguage(Analysis):
    """Items of several namespaces (languages, datasets): per model, namespace and category
    (and ``all`` per namespace), every score with its interval."""

    key: ClassVar[str] = "by_language"
    report_order: ClassVar[int] = 10

    def applies(self, run: Evaluation) -> bool:
        return is_scoped(run.benchmark.items)

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        frame = language_scores(run.scored, run.benchmark.items)
        if frame.empty:
            return {}
        write_language_outputs(frame, run.tables, run.figures)
        return {self.key: language_results(frame)}

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return summary_lines(entry)

    def report_part(self, group: RunGroup, output: Outputs) -> None:
        """The cross-language table and figure."""
        frame = group.results_frame(self.key, frame_from_results)
        if frame is None:
            return
        output.table(
            language_table(frame),
            "by_language",
            "Bias scores and accuracy by language and category",
            note="Per namespace (dataset/language) and category, and 'all' pooling a "
            "namespace's categories: means across seeds with the intervals of the "
            "per-category table.",
        )
        output.figure(
            lambda: language_figure(frame, group.models),
            "by_language",
            "s_AMB and s_DIS by language",
            "Per namespace, over all its categories: mean bias score across seeds "
            "with its 95% interval over items and seeds.",
        )
