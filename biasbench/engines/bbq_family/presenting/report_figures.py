"""The BBQ engine's report figures: scores and accuracy per category (t-intervals across seeds,
already in the results), unparsed rates, and one template's per-seed jitter plot."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from biasbench.engines.bbq_family.presenting.jitter import jitter_figure
from biasbench.figures import model_dots, model_rows, plt, to_float

BBQ_SCORE_TITLES: Final = {
    "s_amb": "s_AMB (ambiguous contexts)",
    "s_dis": "s_DIS (disambiguated contexts)",
    "acc_ambig": "accuracy, ambiguous contexts",
    "acc_disambig": "accuracy, disambiguated contexts",
}
UNPARSED_REASONS: Final = ("empty", "refusal", "ambiguous", "conflict", "no_answer")


def bbq_scores_figure(
    by_category: pd.DataFrame, scores: Sequence[str], models: Sequence[str]
) -> Figure:
    """Per category: each score's mean across seeds with its t-interval, one marker per model.

    ``by_category`` has model, category and ``{score}_mean/_ci_low/_ci_high`` columns.
    """
    categories = sorted(by_category["category"].astype(str).unique())
    fig, axes = plt.subplots(
        1,
        len(scores),
        figsize=(4.6 * len(scores), 1.4 + 0.5 * len(categories) * max(1.0, len(models) / 3)),
        layout="constrained",
        sharey=True,
        squeeze=False,
    )
    position = {c: i for i, c in enumerate(categories)}
    for ax, score in zip(axes[0], scores, strict=True):
        model_dots(ax, by_category, "category", position, score, models)
        accuracy = score.startswith("acc")
        ax.set_xlim(*((-0.02, 1.02) if accuracy else (-1.05, 1.05)))
        if not accuracy:
            ax.axvline(0.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(BBQ_SCORE_TITLES.get(score, score))
        ax.grid(axis="x", alpha=0.3)
    axes[0][0].set_yticks(range(len(categories)), categories)
    axes[0][0].set_ylim(-0.6, len(categories) - 0.4)
    axes[0][0].invert_yaxis()
    if len(models) > 1:
        axes[0][-1].legend(fontsize=7, loc="lower right")
    kind = "Accuracy" if all(s.startswith("acc") for s in scores) else "Bias scores"
    fig.suptitle(f"{kind} per category: mean across seeds, 95% t-interval within the range")
    return fig


def unparsed_figure(unparsed_by_run: pd.DataFrame, models: Sequence[str]) -> Figure:
    """Share of responses the judge could not parse, per model and reason (all seeds pooled)."""
    totals = unparsed_by_run.groupby("model", sort=False).sum(numeric_only=True)
    fig, ax = plt.subplots(figsize=(7.5, 2.0 + 0.4 * len(models)), layout="constrained")
    y = np.arange(len(models))
    left = np.zeros(len(models))
    responses = np.array(
        [to_float(totals["n_responses"].get(m)) if m in totals.index else math.nan for m in models]
    )
    for index, reason in enumerate(UNPARSED_REASONS):
        column = f"n_{reason}"
        if column not in totals.columns:
            continue
        counts = np.array([totals[column].get(m, 0) for m in models], dtype=float)
        share = np.nan_to_num(100.0 * counts / responses)
        ax.barh(y, share, left=left, color=f"C{index}", label=reason.replace("_", " "))
        left += share
    for row, total in enumerate(left):
        ax.annotate(
            f"{total:.1f}%",
            (total, row),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    model_rows(ax, models)
    ax.set_xlim(0, max(5.0, float(left.max(initial=0.0)) * 1.15))
    ax.set_xlabel("unparsed responses (% of all responses, all seeds)")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(
        loc="outside lower center",
        ncols=len(UNPARSED_REASONS),
        fontsize=8,
        title="reason",
        title_fontsize=8,
    )
    ax.set_title("Unparsed answers by reason")
    return fig


def template_jitter_figure(
    per_seed: pd.DataFrame, category: str, template: str, score: str, models: Sequence[str]
) -> Figure:
    """The FilBBQ paper's jitter plot (Figures 1-2) of one template: one point per seed."""
    rows = per_seed[per_seed["model"].isin(models)]
    present = [m for m in models if m in set(rows["model"])]
    return jitter_figure(
        rows,
        template,
        score,  # type: ignore[arg-type]
        category=category,
        models=present,
        title=f"{category} / {template}: {BBQ_SCORE_TITLES[score]}",
    )
