"""Report figures (matplotlib, Agg) and the intervals they draw.

Every figure function returns a :class:`~matplotlib.figure.Figure`; :func:`save_figure` writes it
as PNG and PDF and hands back the PNG bytes for embedding in the HTML report. Labels are in
English: matplotlib's fonts do not shape Bengali script (the HTML shows the Bengali terms).

Intervals:

- proportions (occupation rates, GSR, primed/unprimed, singular they): Wilson score intervals;
- HAI, a difference of paired proportions (male minus female honorific share over the same
  matched pairs): Newcombe's hybrid score interval for paired data (Newcombe 1998, method 10),
  built from the Wilson intervals of the two marginal shares and their correlation;
- FilBBQ scores: the t-interval across seeds already in the results.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import matplotlib

matplotlib.use("Agg")  # headless: figures are written to files, never shown
# Labels are data (model names, templates): "$...$" in one must print as text, not math.
matplotlib.rcParams["text.parse_math"] = False

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from biasbench.benchmarks.bbq.plots import jitter_figure  # noqa: E402
from biasbench.stats import (  # noqa: E402
    wilson_pct,
)

CONFIDENCE: Final = 0.95
PNG_DPI: Final = 150
BBQ_SCORE_TITLES: Final = {"s_amb": "s_AMB (ambiguous contexts)",
                           "s_dis": "s_DIS (disambiguated contexts)",
                           "acc_ambig": "accuracy, ambiguous contexts",
                           "acc_disambig": "accuracy, disambiguated contexts"}
UNPARSED_REASONS: Final = ("empty", "refusal", "ambiguous", "conflict", "no_answer")


# --------------------------------------------------------------------------- saving


@dataclass(frozen=True)
class FigureFile:
    """A figure written to disk: its PNG and PDF files and the PNG bytes (for embedding)."""

    name: str
    title: str
    png: Path
    pdf: Path
    png_bytes: bytes


def save_figure(fig: Figure, stem: Path, title: str) -> FigureFile:
    """Write ``stem``.png and ``stem``.pdf and close the figure."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=PNG_DPI)
    png, pdf = stem.with_suffix(".png"), stem.with_suffix(".pdf")
    png.write_bytes(buffer.getvalue())
    # The layout is settled by the PNG's draw: keep it rather than solve it again (half the
    # time of a PDF). No creation date: the same data gives the same PDF bytes.
    fig.set_layout_engine("none")
    fig.savefig(pdf, format="pdf", metadata={"CreationDate": None})
    plt.close(fig)
    return FigureFile(name=stem.name, title=title, png=png, pdf=pdf, png_bytes=buffer.getvalue())


# --------------------------------------------------------------------------- helpers


def _offsets(n_series: int, spread: float = 0.6) -> np.ndarray:
    """Vertical offsets that keep ``n_series`` markers of one row apart."""
    if n_series == 1:
        return np.zeros(1)
    return np.linspace(-spread / 2, spread / 2, n_series)


def _errors(values: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> np.ndarray:
    """Matplotlib's ``xerr`` from interval bounds (0 where a bound is undefined)."""
    below = np.where(np.isnan(lows), 0.0, values - lows)
    above = np.where(np.isnan(highs), 0.0, highs - values)
    return np.vstack([np.clip(below, 0, None), np.clip(above, 0, None)])


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


def _model_rows(ax: Axes, models: Sequence[str]) -> None:
    ax.set_yticks(range(len(models)), list(models))
    ax.set_ylim(-0.6, len(models) - 0.4)
    ax.invert_yaxis()  # first model on top


# --------------------------------------------------------------------------- honorific-bn


def occupation_rates_figure(rates: pd.DataFrame, models: Sequence[str]) -> Figure:
    """No-pronoun honorific rate per occupation and model, occupations sorted by mean rate.

    ``rates`` is :func:`biasbench.benchmarks.honorific_bn.metrics.occupation_rates` output.
    Each point has its Wilson interval; occupations without a usable item are left out.
    """
    rates = rates.dropna(subset=["honorific_pct"])
    order = (rates.groupby("occupation_en")["honorific_pct"].mean()
             .sort_values(ascending=False, kind="stable").index.tolist())
    position = {occupation: i for i, occupation in enumerate(order)}
    height = 1.6 + 0.17 * max(len(order), 4) * max(1.0, len(models) / 4)
    fig, ax = plt.subplots(figsize=(7.5, height), layout="constrained")
    offsets = _offsets(len(models), 0.5)
    for index, model in enumerate(models):
        rows = rates[rates["model"] == model]
        if rows.empty:
            continue
        y = rows["occupation_en"].map(position).to_numpy(float) + offsets[index]
        values = rows["honorific_pct"].to_numpy(float)
        bounds = np.array([wilson_pct(k, n) for k, n in zip(rows["n_honorific"],
                                                             rows["n_usable"], strict=True)])
        ax.errorbar(values, y, xerr=_errors(values, bounds[:, 0], bounds[:, 1]), fmt="o",
                    ms=3.5, lw=0.8, capsize=0, color=f"C{index % 10}", label=model)
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
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.0, 1.4 + 0.45 * len(models)),
                                      layout="constrained", sharey=True)
    y = np.arange(len(models))
    for ax, (value, low, high), colour, label in (
            (left, ("HAI (pp)", "HAI low", "HAI high"), "C0",
             "HAI (pp): male minus female honorific share"),
            (right, ("GSR (%)", "GSR low", "GSR high"), "C1",
             "GSR (%): pairs whose register changes")):
        values = intervals[value].map(_float).to_numpy(float)
        lows = intervals[low].map(_float).to_numpy(float)
        highs = intervals[high].map(_float).to_numpy(float)
        ax.errorbar(values, y, xerr=_errors(values, lows, highs), fmt="o", color=colour,
                    capsize=3, lw=1.2)
        for row, v in enumerate(values):
            if math.isnan(v):
                ax.annotate("undefined", (0, row), ha="center", va="center", fontsize=8,
                            color="grey")
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
    left.axvline(0.0, color="grey", lw=0.8, ls="--")
    _model_rows(left, models)
    for row, p in enumerate(intervals["p (Holm)"].map(_float)):
        if not math.isnan(p):
            text = "p(Holm) < .001" if p < 0.001 else f"p(Holm) = {p:.3f}"
            right.annotate(text, (1.01, row), xycoords=("axes fraction", "data"), va="center",
                           fontsize=7)
    right.set_xlim(left=0)
    fig.suptitle("Gender asymmetry over matched he/she pairs (95% intervals)")
    return fig


def grouped_rates_figure(models: Sequence[str], series: Sequence[tuple[str, Sequence[int],
                                                                        Sequence[int]]],
                         xlabel: str, title: str) -> Figure:
    """Horizontal grouped bars of percentages ``k / n`` with Wilson intervals, one group per model.

    ``series`` holds (legend label, k per model, n per model).
    """
    fig, ax = plt.subplots(figsize=(7.5, 1.9 + 0.3 * len(models) * len(series)),
                           layout="constrained")
    height = 0.8 / len(series)
    offsets = _offsets(len(series), 0.8 - height)
    y = np.arange(len(models))
    for index, (label, ks, ns) in enumerate(series):
        values = np.array([100.0 * k / n if n else math.nan for k, n in zip(ks, ns, strict=True)])
        bounds = np.array([wilson_pct(k, n) for k, n in zip(ks, ns, strict=True)])
        ax.barh(y + offsets[index], np.nan_to_num(values), height=height, color=f"C{index}",
                label=label, xerr=_errors(values, bounds[:, 0], bounds[:, 1]),
                error_kw={"lw": 1, "capsize": 2})
    _model_rows(ax, models)
    ax.set_xlim(0, 100)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    # Outside the axes: bars reach 100% and would hide under a legend inside.
    fig.legend(loc="outside lower center", ncols=min(len(series), 2), fontsize=8)
    ax.set_title(title)
    return fig


def primed_figure(models: Sequence[str], scores: dict[str, dict[str, Any]]) -> Figure:
    """Honorific rate in frames that state respect (P*) versus the other frames, per model."""
    primed = [scores[m]["primed"] for m in models]
    return grouped_rates_figure(
        models,
        [("primed frames (P*)", [p["primed_honorific_n"] for p in primed],
          [p["primed_usable_n"] for p in primed]),
         ("unprimed frames (T*)", [p["unprimed_honorific_n"] for p in primed],
          [p["unprimed_usable_n"] for p in primed])],
        "honorific rate over all conditions (%), 95% Wilson interval",
        "Primed versus unprimed frames")


def they_figure(models: Sequence[str], scores: dict[str, dict[str, Any]]) -> Figure:
    """Singular *they*: its honorific rate next to *she*'s, and how often it is pluralised."""
    they = [scores[m]["they"] for m in models]
    return grouped_rates_figure(
        models,
        [("they: honorific", [t["they_honorific_n"] for t in they],
          [t["they_usable_n"] for t in they]),
         ("she: honorific", [t["female_honorific_n"] for t in they],
          [t["female_usable_n"] for t in they]),
         ("they kept singular: honorific", [t["singular_honorific_n"] for t in they],
          [t["singular_usable_n"] for t in they]),
         ("they translated as plural", [t["plural_n"] for t in they],
          [t["plural_denominator"] for t in they])],
        "% of outputs, 95% Wilson interval", "The singular-they analysis")


# --------------------------------------------------------------------------- BBQ / FilBBQ


def bbq_scores_figure(by_category: pd.DataFrame, scores: Sequence[str],
                      models: Sequence[str]) -> Figure:
    """Per category: each score's mean across seeds with its t-interval, one marker per model.

    ``by_category`` has model, category and ``{score}_mean/_ci_low/_ci_high`` columns.
    """
    categories = sorted(by_category["category"].astype(str).unique())
    fig, axes = plt.subplots(1, len(scores), figsize=(4.6 * len(scores),
                                                      1.4 + 0.5 * len(categories)
                                                      * max(1.0, len(models) / 3)),
                             layout="constrained", sharey=True, squeeze=False)
    offsets = _offsets(len(models), 0.5)
    position = {c: i for i, c in enumerate(categories)}
    for ax, score in zip(axes[0], scores, strict=True):
        for index, model in enumerate(models):
            rows = by_category[by_category["model"] == model]
            y = rows["category"].astype(str).map(position).to_numpy(float) + offsets[index]
            values = rows[f"{score}_mean"].map(_float).to_numpy(float)
            ax.errorbar(values, y, xerr=_errors(values, rows[f"{score}_ci_low"].map(_float)
                                                .to_numpy(float),
                                                rows[f"{score}_ci_high"].map(_float)
                                                .to_numpy(float)),
                        fmt="o", capsize=3, color=f"C{index % 10}", label=model)
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
    responses = np.array([_float(totals["n_responses"].get(m)) if m in totals.index else math.nan
                          for m in models])
    for index, reason in enumerate(UNPARSED_REASONS):
        column = f"n_{reason}"
        if column not in totals.columns:
            continue
        counts = np.array([totals[column].get(m, 0) for m in models], dtype=float)
        share = np.nan_to_num(100.0 * counts / responses)
        ax.barh(y, share, left=left, color=f"C{index}", label=reason.replace("_", " "))
        left += share
    for row, total in enumerate(left):
        ax.annotate(f"{total:.1f}%", (total, row), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=8)
    _model_rows(ax, models)
    ax.set_xlim(0, max(5.0, float(left.max(initial=0.0)) * 1.15))
    ax.set_xlabel("unparsed responses (% of all responses, all seeds)")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=len(UNPARSED_REASONS), fontsize=8,
               title="reason", title_fontsize=8)
    ax.set_title("Unparsed answers by reason")
    return fig


def template_jitter_figure(per_seed: pd.DataFrame, category: str, template: str, score: str,
                           models: Sequence[str]) -> Figure:
    """The FilBBQ paper's jitter plot (Figures 1-2) of one template: one point per seed."""
    rows = per_seed[per_seed["model"].isin(models)]
    present = [m for m in models if m in set(rows["model"])]
    return jitter_figure(rows, template, score,  # type: ignore[arg-type]
                         category=category, models=present,
                         title=f"{category} / {template}: {BBQ_SCORE_TITLES[score]}")
