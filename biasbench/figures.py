"""Figures (matplotlib, Agg): saving, and the shapes shared by every benchmark's figures
(below the benchmarks; each benchmark draws its own in its package).

Every figure function returns a :class:`~matplotlib.figure.Figure`; :func:`save_figure` writes it
as PNG and PDF and hands back the PNG bytes for embedding in the HTML report. Labels are in
English: matplotlib's fonts do not shape every script (the HTML shows the original terms).
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

import matplotlib.pyplot as _pyplot  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from biasbench.stats import wilson_pct  # noqa: E402

plt = _pyplot
"""pyplot under the headless backend set above: modules that draw take it from here."""

CONFIDENCE: Final = 0.95
PNG_DPI: Final = 150


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


def offsets(n_series: int, spread: float = 0.6) -> np.ndarray:
    """Vertical offsets that keep ``n_series`` markers of one row apart."""
    if n_series == 1:
        return np.zeros(1)
    return np.linspace(-spread / 2, spread / 2, n_series)


def errors(values: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> np.ndarray:
    """Matplotlib's ``xerr`` from interval bounds (0 where a bound is undefined)."""
    below = np.where(np.isnan(lows), 0.0, values - lows)
    above = np.where(np.isnan(highs), 0.0, highs - values)
    return np.vstack([np.clip(below, 0, None), np.clip(above, 0, None)])


def to_float(value: Any) -> float:
    return math.nan if value is None else float(value)


def model_dots(
    ax: Any, frame: Any, row: str, position: dict[str, int], score: str, models: Sequence[str]
) -> None:
    """One marker per model and row of ``frame`` (a table of ``model``, ``row``, and
    ``{score}_mean``/``_ci_low``/``_ci_high``): the mean with its interval, the row's
    ``position`` on the y axis, models side by side in their own colours."""
    shifts = offsets(len(models), 0.5)
    for index, model in enumerate(models):
        rows = frame[frame["model"] == model]
        y = rows[row].astype(str).map(position).to_numpy(float) + shifts[index]
        values = rows[f"{score}_mean"].map(to_float).to_numpy(float)
        ax.errorbar(
            values,
            y,
            xerr=errors(
                values,
                rows[f"{score}_ci_low"].map(to_float).to_numpy(float),
                rows[f"{score}_ci_high"].map(to_float).to_numpy(float),
            ),
            fmt="o",
            capsize=3,
            color=f"C{index % 10}",
            label=model,
        )


def model_rows(ax: Axes, models: Sequence[str]) -> None:
    ax.set_yticks(range(len(models)), list(models))
    ax.set_ylim(-0.6, len(models) - 0.4)
    ax.invert_yaxis()  # first model on top


# --------------------------------------------------------------------------- shared shapes


def grouped_rates_figure(
    models: Sequence[str],
    series: Sequence[tuple[str, Sequence[int], Sequence[int]]],
    xlabel: str,
    title: str,
) -> Figure:
    """Horizontal grouped bars of percentages ``k / n`` with Wilson intervals, one group per model.

    ``series`` holds (legend label, k per model, n per model).
    """
    fig, ax = plt.subplots(
        figsize=(7.5, 1.9 + 0.3 * len(models) * len(series)), layout="constrained"
    )
    height = 0.8 / len(series)
    shifts = offsets(len(series), 0.8 - height)
    y = np.arange(len(models))
    for index, (label, ks, ns) in enumerate(series):
        values = np.array([100.0 * k / n if n else math.nan for k, n in zip(ks, ns, strict=True)])
        bounds = np.array([wilson_pct(k, n) for k, n in zip(ks, ns, strict=True)])
        ax.barh(
            y + shifts[index],
            np.nan_to_num(values),
            height=height,
            color=f"C{index}",
            label=label,
            xerr=errors(values, bounds[:, 0], bounds[:, 1]),
            error_kw={"lw": 1, "capsize": 2},
        )
    model_rows(ax, models)
    ax.set_xlim(0, 100)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    # Outside the axes: bars reach 100% and would hide under a legend inside.
    fig.legend(loc="outside lower center", ncols=min(len(series), 2), fontsize=8)
    ax.set_title(title)
    return fig
