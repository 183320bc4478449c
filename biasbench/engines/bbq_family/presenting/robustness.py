"""The robustness grid as one of the engine's analyses: results.json ``robustness``, its tables (per-cell scores, the
decomposition, position bias, published vs order-balanced), the decomposition figure, the summary
lines and the report's part (scoring: :mod:`biasbench.engines.bbq_family.scoring.robustness`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

import pandas as pd

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.scoring.robustness import (
    ALL,
    COMPONENTS,
    SCORES,
    robustness_results,
)
from biasbench.tables import write_csv, write_table
from biasbench.textutil import unique_slug

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from biasbench.display import Outputs
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.runfolder.grouping import RunGroup

SCORE_NAMES: Final = {
    "s_dis": "s_DIS",
    "s_amb": "s_AMB",
    "acc_disambig": "acc disambig",
    "acc_ambig": "acc ambig",
}
DECOMPOSITION_NOTE: Final = (
    "Each score of one grid cell (seed x option order x prompt, over the category's items) "
    "decomposed into its variance from the seed, the option order and the prompt, plus the "
    "residual (interactions, answer noise): a crossed main-effects random-effects model, Type "
    "II sums of squares and Henderson III components (right on a budget's cells too); item: "
    "the variance every cell shares from the sample of items (it moves the grid's mean, not "
    "one cell against it) (results.json robustness.method). sd: the component's standard "
    "deviation in score units; null_sd: the spread noise alone would give the factor's level "
    "means (no-effect reference); p: the factor's F test against the residual (one per factor "
    "and score, uncorrected)."
)


POSITION_COLUMNS: Final = [
    "model",
    "n",
    *(f"{x} overall" for x in "ABC"),
    *(f"{x} gold-balanced" for x in "ABC"),
    "chi2 p (equal thirds)",
]
PUBLISHED_COLUMNS: Final = [
    "model",
    "category",
    "score",
    "published order",
    "order-balanced",
    "balanced - published",
    "orders",
]
"""The columns of the position and published-order tables, also when they have no row."""


def decomposition_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The decomposition as shown: one row per model, category and score, a column per
    component's sd (and the factors' p-values)."""
    if rows.empty:  # no cell with a defined score (every answer unparsed, or one cell)
        return pd.DataFrame(columns=["model", "category", "score", "mean", "n_cells"])
    wide = rows.pivot_table(
        index=["model", "category", "score", "mean", "n_cells"],
        columns="component",
        values="sd",
        aggfunc="first",
    )
    wide = wide.reindex(columns=[c for c in COMPONENTS if c in wide.columns])
    wide.columns = [f"sd {c}" for c in wide.columns]
    p = rows.dropna(subset=["p"]).pivot_table(
        index=["model", "category", "score"], columns="component", values="p", aggfunc="first"
    )
    p.columns = [f"p {c}" for c in p.columns]
    out = wide.reset_index().merge(p.reset_index(), on=["model", "category", "score"], how="left")
    largest = rows.loc[rows.groupby(["model", "category", "score"])["variance"].idxmax()]
    out = out.merge(
        largest[["model", "category", "score", "component"]].rename(
            columns={"component": "largest"}
        ),
        on=["model", "category", "score"],
    )
    out["score"] = out["score"].map(SCORE_NAMES)
    return out


def position_table(position: Mapping[str, Any]) -> pd.DataFrame:
    rows = []
    for model, entry in position.items():
        row: dict[str, Any] = {"model": model, "n": entry["n"]}
        for letter in "ABC":
            row[f"{letter} overall"] = entry["overall"][letter]
        for letter in "ABC":
            row[f"{letter} gold-balanced"] = entry["gold_balanced"][letter]
        row["chi2 p (equal thirds)"] = entry["chi2_p"]
        rows.append(row)
    return pd.DataFrame(rows, columns=POSITION_COLUMNS)


def published_table(found: Mapping[str, Any]) -> pd.DataFrame:
    rows = []
    for model, categories in found.items():
        for category, scores in categories.items():
            for score in ("s_dis", "s_amb"):
                entry = scores[score]
                rows.append(
                    {
                        "model": model,
                        "category": category,
                        "score": SCORE_NAMES[score],
                        "published order": entry["published_order"],
                        "order-balanced": entry["order_balanced"],
                        "balanced - published": entry["difference"],
                        "orders": entry["n_orders"],
                    }
                )
    return pd.DataFrame(rows, columns=PUBLISHED_COLUMNS)


def decomposition_figure(rows: pd.DataFrame, model: str) -> Figure:
    """One model's decomposition over all categories: per score, the sd of each component
    (bars) and each factor's no-effect spread (black ticks)."""
    from biasbench.figures import plt

    sub = rows[(rows["model"] == model) & (rows["category"] == ALL)]
    components = [c for c in COMPONENTS if c in set(sub["component"])]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.9 * len(SCORES)), layout="constrained")
    height = 0.8 / max(1, len(components))
    for index, component in enumerate(components):
        part = sub[sub["component"] == component].set_index("score").reindex(list(SCORES))
        y = [i + (index - (len(components) - 1) / 2) * height for i in range(len(SCORES))]
        ax.barh(y, part["sd"].fillna(0.0), height=height, color=f"C{index}", label=component)
        nulls = part["null_sd"]
        if nulls.notna().any():
            ax.scatter(
                nulls,
                y,
                marker="|",
                s=120,
                color="black",
                label="no-effect spread" if index == 0 else None,
                zorder=3,
            )
    ax.set_yticks(range(len(SCORES)), [SCORE_NAMES[s] for s in SCORES])
    ax.invert_yaxis()
    ax.set_xlabel("standard deviation of one cell's score (score units)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(f"{model}: what moves the score (all categories)", fontsize=10)
    return fig


def write_robustness(
    found: Mapping[str, Any], cells: pd.DataFrame, rows: pd.DataFrame, tables: Path, figures: Path
) -> None:
    """The grid's tables and one decomposition figure per model."""
    from biasbench.figures import save_figure

    tables.mkdir(parents=True, exist_ok=True)
    write_csv(cells, tables / "grid_cells.csv")
    write_csv(rows, tables / "grid_decomposition.csv")
    write_table(decomposition_table(rows), tables / "grid_decomposition_by_score")
    write_table(position_table(found["position"]), tables / "grid_position_bias")
    write_table(
        published_table(found["published_vs_balanced"]), tables / "grid_published_vs_balanced"
    )
    figures.mkdir(parents=True, exist_ok=True)
    for model in sorted(rows["model"].unique()) if not rows.empty else []:
        save_figure(
            decomposition_figure(rows, model),
            figures / f"grid_decomposition_{unique_slug(model)}",
            f"{model}: variance decomposition",
        )


class Robustness(Analysis):
    """A robustness grid (``--vary``): the scores per cell, their variance decomposition,
    position bias, published vs order-balanced."""

    key: ClassVar[str] = "robustness"
    report_order: ClassVar[int] = 30

    def applies(self, run: Evaluation) -> bool:
        return run.is_grid

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        grid = run.results["signature"]["data_source"].get("grid", {})
        found, cells, rows = robustness_results(
            run.scored, run.responses, run.benchmark.items, grid, run.benchmark.var2
        )
        write_robustness(found, cells, rows, run.tables, run.figures)
        return {self.key: found}

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return summary_lines(entry)

    def report_part(self, group: RunGroup, output: Outputs) -> None:
        report_part(group, output)


def summary_lines(robustness: Mapping[str, Any]) -> list[str]:
    """Per model: the grid, each bias score's mean over it and the factor that moves it most,
    and the position rates."""
    grid = robustness.get("grid") or {}
    lines = [
        f"robustness grid: {grid.get('n_cells')} cells of {grid.get('n_full')} (varied: "
        f"{', '.join(robustness.get('factors_varied') or []) or 'none'}); scores above are "
        "means over the cells (results.json: robustness)"
    ]
    for model, categories in (robustness.get("decomposition") or {}).items():
        for score in ("s_dis", "s_amb"):
            entry = (categories.get(ALL) or {}).get(score) or {}
            components = entry.get("components") or {}
            if entry.get("mean") is None or not components:
                continue
            parts = ", ".join(f"{k} {c['sd']:.3f}" for k, c in components.items())
            lines.append(
                f"{model} / all: {SCORE_NAMES[score]} {entry['mean']:+.3f} over the "
                f"grid; sd by source: {parts}; largest: "
                f"{entry.get('largest') or 'none (no component varies)'}"
            )
        pos = (robustness.get("position") or {}).get(model)
        if pos:
            rates = ", ".join(f"{k} {v:.2f}" for k, v in pos["gold_balanced"].items())
            lines.append(
                f"{model}: position of the chosen option, gold-balanced: {rates} "
                f"(chi2 p {pos['chi2_p']:.3g})"
            )
    return lines


def report_part(group: RunGroup, output: Outputs) -> None:
    """The report's robustness tables and decomposition figures, for the runs of ``group``
    that have a grid (models under their report names)."""
    frames, positions, published = [], [], []
    for index, run in enumerate(group.runs):
        robustness = run.results.get("robustness")
        if not robustness:
            continue

        def named(frame: pd.DataFrame, index: int = index) -> pd.DataFrame:
            return group.rename(index, frame) if "model" in frame else frame

        rows = _decomposition_rows(robustness)
        if not rows.empty:
            frames.append(named(rows))
        positions.append(named(position_table(robustness.get("position") or {})))
        published.append(named(published_table(robustness.get("published_vs_balanced") or {})))
    if not frames:
        return
    _show_grid(pd.concat(frames, ignore_index=True), positions, published, output)


def _decomposition_rows(robustness: Mapping[str, Any]) -> pd.DataFrame:
    """``results.json: robustness.decomposition`` as the tidy rows of :func:`write_robustness`."""
    return pd.DataFrame(
        [
            {
                "model": model,
                "category": category,
                "score": score,
                "component": component,
                **component_entry,
                "mean": entry.get("mean"),
                "n_cells": entry.get("n_cells"),
            }
            for model, categories in robustness["decomposition"].items()
            for category, scores in categories.items()
            for score, entry in scores.items()
            for component, component_entry in (entry.get("components") or {}).items()
        ]
    )


def _show_grid(
    rows: pd.DataFrame,
    positions: Sequence[pd.DataFrame],
    published: Sequence[pd.DataFrame],
    output: Outputs,
) -> None:
    """The decomposition table, one figure per model, position bias, published vs balanced."""
    for column in ("p", "null_sd"):
        if column not in rows:
            rows[column] = None
    output.table(
        decomposition_table(rows),
        "grid_decomposition",
        "Robustness grid: what moves each score",
        note=DECOMPOSITION_NOTE,
    )
    for model in sorted(rows["model"].unique()):
        output.figure(
            partial(decomposition_figure, rows, model),
            f"grid_decomposition_{unique_slug(model)}",
            f"{model}: variance decomposition of each score",
            "Bars: each source's standard deviation of a cell's score over all "
            "categories; black ticks: the spread noise alone would give a factor "
            "(a bar not past its tick is indistinguishable from no effect).",
        )
    output.table(
        pd.concat(positions, ignore_index=True),
        "grid_position_bias",
        "Position bias: where the chosen option was shown",
        note="Share of parsed answers shown at A, B, C, overall and balanced for the "
        "position of the correct answer (mean over its three positions); 1/3 "
        "each without a preference. chi2 p: overall counts against equal thirds.",
    )
    output.table(
        pd.concat(published, ignore_index=True),
        "grid_published_vs_balanced",
        "Bias scores in the published option order and order-balanced",
        note="Published order: the cells that show the options as the dataset does; "
        "order-balanced: the mean over the orders of each order's mean.",
    )
