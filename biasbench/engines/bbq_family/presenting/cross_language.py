"""The cross-language comparison's outputs beyond the run folder's files: the report's part (the
table of paired differences and one heat map per model, dataset and kind, significance after
Holm marked) and the summary lines (one per significant difference). Scoring:
:mod:`biasbench.engines.bbq_family.scoring.cross_language`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import pandas as pd

from biasbench.engines.bbq_family.scoring.by_language import ALL
from biasbench.engines.bbq_family.scoring.cross_language import (
    ALPHA,
    SCORE_LABELS,
    cross_language_table,
    frame_from_results,
    heatmap_figure,
    heatmaps,
)
from biasbench.textutil import unique_slug

if TYPE_CHECKING:
    from biasbench.display import Outputs
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
    "the group words bring in stays. results.json: cross_language.method.")
HEATMAP_CAPTION: Final = (
    "Rows: each language minus the first; columns: categories and 'all'; one panel per score. "
    "Colour and number: the paired difference; * marks p_holm < 0.05 (Holm over every row of "
    "the model, 'all' included). Empty cells: no paired items.")
SUMMARY_LIMIT: Final = 12
"""Significant differences the summary lists before it points at the table."""


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
    output.table(cross_language_table(frame), "cross_language",
                 "Differences between languages, paired by item", note=TABLE_NOTE)
    for model, dataset, kind in heatmaps(frame):
        output.figure(lambda m=model, d=dataset, k=kind: heatmap_figure(frame, m, d, k),
                      f"cross_language_{unique_slug(f'{model}_{dataset}_{kind}')}",
                      f"{model} / {dataset}: differences between languages ({kind})",
                      HEATMAP_CAPTION)


def summary_lines(cross_language: Mapping[str, Any]) -> list[str]:
    """One line for the comparison, then one per significant difference (per category after
    Holm, and over all categories), the largest first."""
    frame = frame_from_results(cross_language)
    if frame.empty:
        note = cross_language.get("note")
        return [f"cross-language: {note}"] if note else []
    significant = frame[frame["significant"].astype(bool)]
    undefined = int(frame["difference"].isna().sum())
    lines = [f"cross-language: {len(frame) - undefined} paired differences"
             + (f" ({undefined} more undefined: a score undefined in one of the languages)"
                if undefined else "")
             + f", {len(significant)} significant (p_holm < "
             f"{cross_language.get('alpha', ALPHA)}, Holm over each model's rows; "
             "results.json: cross_language, "
             "tables/cross_language)"]
    ordered = significant.assign(
        pooled=significant["category"] == ALL, size=significant["difference"].abs()
    ).sort_values(["pooled", "size"], ascending=[True, False], kind="stable")
    for row in ordered.head(SUMMARY_LIMIT).to_dict("records"):
        kind = "" if row["kind"] == "raw" else f" ({row['kind']})"
        lines.append(
            f"{row['model']} / {row['dataset']} {row['language_b']} - {row['language_a']}, "
            f"{row['category']}: {SCORE_LABELS[row['score']]} {row['difference']:+.3f} "
            f"[{row['ci_low']:+.3f}, {row['ci_high']:+.3f}], p_holm {row['p_holm']:.3g}{kind}")
    if len(significant) > SUMMARY_LIMIT:
        lines.append(f"... {len(significant) - SUMMARY_LIMIT} more significant differences in "
                     "tables/cross_language")
    return lines
