"""honorific-bn's figures: occupation rates, HAI against GSR, primed frames, singular they.

Intervals: proportions (occupation rates, GSR, primed/unprimed, singular they) get Wilson score
intervals; HAI, a difference of paired proportions, Newcombe's hybrid score interval for paired
data (computed in the report's tables). Labels are in English: matplotlib's fonts do not shape
Bengali script (the HTML shows the Bengali terms).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from biasbench.figures import (
    errors,
    grouped_rates_figure,
    model_rows,
    offsets,
    plt,
    to_float,
)
from biasbench.stats import wilson_pct


def occupation_rates_figure(rates: pd.DataFrame, models: Sequence[str]) -> Figure:
    """No-pronoun honorific rate per occupation and model, occupations sorted by mean rate.

    ``rates`` is the output of
    :func:`biasbench.engines.honorific.occupation_scores.occupation_rates`.
    Each point has its Wilson interval; occupations without a usable item are left out.
    """
    rates = rates.dropna(subset=["honorific_pct"])
    order = (
        rates.groupby("occupation_en")["honorific_pct"]
        .mean()
        .sort_values(ascending=False, kind="stable")
        .index.tolist()
    )
    position = {occupation: i for i, occupation in enumerate(order)}
    height = 1.6 + 0.17 * max(len(order), 4) * max(1.0, len(models) / 4)
    fig, ax = plt.subplots(figsize=(7.5, height), layout="constrained")
    shifts = offsets(len(models), 0.5)
    for index, model in enumerate(models):
        rows = rates[rates["model"] == model]
        if rows.empty:
            continue
        y = rows["occupation_en"].map(position).to_numpy(float) + shifts[index]
        values = rows["honorific_pct"].to_numpy(float)
        bounds = np.array(
            [wilson_pct(k, n) for k, n in zip(rows["n_honorific"], rows["n_usable"], strict=True)]
        )
        ax.errorbar(
            values,
            y,
            xerr=errors(values, bounds[:, 0], bounds[:, 1]),
            fmt="o",
            ms=3.5,
            lw=0.8,
            capsize=0,
            color=f"C{index % 10}",
            label=model,
        )
    ax.set_yticks(range(len(order)), order, fontsize=7)
    ax.set_ylim(-0.8, len(order) - 0.2)
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("honorific rate, no-pronoun sentences (%), 95% Wilson interval")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Honorific register per occupation (sorted by mean rate)")
    if len(models) > 1:
        ax.legend(loc="lower right", fontsize=7, frameon=True)
    return fig


def hai_gsr_figure(intervals: pd.DataFrame) -> Figure:
    """HAI (Newcombe interval) and GSR (Wilson interval) per model.

    ``intervals`` has one row per model with the columns ``model``, ``HAI (pp)``, ``HAI low``,
    ``HAI high``, ``GSR (%)``, ``GSR low``, ``GSR high`` and ``p (Holm)``
    (:func:`biasbench.report.html.pair_interval_table`).
    """
    models = intervals["model"].astype(str).tolist()
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9.0, 1.4 + 0.45 * len(models)), layout="constrained", sharey=True
    )
    y = np.arange(len(models))
    for ax, (value, low, high), colour, label in (
        (
            left,
            ("HAI (pp)", "HAI low", "HAI high"),
            "C0",
            "HAI (pp): male minus female honorific share",
        ),
        (right, ("GSR (%)", "GSR low", "GSR high"), "C1", "GSR (%): pairs whose register changes"),
    ):
        values = intervals[value].map(to_float).to_numpy(float)
        lows = intervals[low].map(to_float).to_numpy(float)
        highs = intervals[high].map(to_float).to_numpy(float)
        ax.errorbar(
            values, y, xerr=errors(values, lows, highs), fmt="o", color=colour, capsize=3, lw=1.2
        )
        for row, v in enumerate(values):
            if math.isnan(v):
                ax.annotate(
                    "undefined", (0, row), ha="center", va="center", fontsize=8, color="grey"
                )
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
    left.axvline(0.0, color="grey", lw=0.8, ls="--")
    model_rows(left, models)
    for row, p in enumerate(intervals["p (Holm)"].map(to_float)):
        if not math.isnan(p):
            text = "p(Holm) < .001" if p < 0.001 else f"p(Holm) = {p:.3f}"
            right.annotate(
                text, (1.01, row), xycoords=("axes fraction", "data"), va="center", fontsize=7
            )
    right.set_xlim(left=0)
    fig.suptitle("Gender asymmetry over matched he/she pairs (95% intervals)")
    return fig


def primed_figure(models: Sequence[str], scores: dict[str, dict[str, Any]]) -> Figure:
    """Honorific rate in frames that state respect (P*) versus the other frames, per model."""
    primed = [scores[m]["primed"] for m in models]
    return grouped_rates_figure(
        models,
        [
            (
                "primed frames (P*)",
                [p["primed_honorific_n"] for p in primed],
                [p["primed_usable_n"] for p in primed],
            ),
            (
                "unprimed frames (T*)",
                [p["unprimed_honorific_n"] for p in primed],
                [p["unprimed_usable_n"] for p in primed],
            ),
        ],
        "honorific rate over all conditions (%), 95% Wilson interval",
        "Primed versus unprimed frames",
    )


def they_figure(models: Sequence[str], scores: dict[str, dict[str, Any]]) -> Figure:
    """Singular *they*: its honorific rate next to *she*'s, and how often it is pluralised."""
    they = [scores[m]["they"] for m in models]
    return grouped_rates_figure(
        models,
        [
            (
                "they: honorific",
                [t["they_honorific_n"] for t in they],
                [t["they_usable_n"] for t in they],
            ),
            (
                "she: honorific",
                [t["female_honorific_n"] for t in they],
                [t["female_usable_n"] for t in they],
            ),
            (
                "they kept singular: honorific",
                [t["singular_honorific_n"] for t in they],
                [t["singular_usable_n"] for t in they],
            ),
            (
                "they translated as plural",
                [t["plural_n"] for t in they],
                [t["plural_denominator"] for t in they],
            ),
        ],
        "% of outputs, 95% Wilson interval",
        "The singular-they analysis",
    )


# --------------------------------------------------------------------------- BBQ / FilBBQ
