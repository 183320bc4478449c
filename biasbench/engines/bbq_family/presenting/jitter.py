"""Jitter plot of per-seed bias scores for one template (FilBBQ paper, Figures 1-2).

One row per model; the x axis is the score on [-1, 1]; each point is one seed's score, jittered
vertically within its row so that equal scores stay visible; a vertical bar marks the mean across
seeds. Seeds where the score is undefined (NaN) are not drawn and are counted in the row label.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final, Literal

import matplotlib

matplotlib.use("Agg")  # headless: figures are written to files, never shown
# Labels are data (model names, templates): "$...$" in one must print as text, not math.
matplotlib.rcParams["text.parse_math"] = False

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from biasbench.errors import InputError  # noqa: E402

Score = Literal["s_amb", "s_dis"]
SCORE_LABELS: Final = {
    "s_amb": "bias score, ambiguous contexts (s_AMB)",
    "s_dis": "bias score, disambiguated contexts (s_DIS)",
}
SAVE_FORMATS: Final = (".png", ".pdf", ".svg")
_JITTER: Final = 0.18  # half-height of a row's vertical jitter band (rows are 1 apart)


def jitter_figure(
    per_seed: pd.DataFrame,
    template: str,
    score: Score,
    *,
    category: str | None = None,
    models: Sequence[str] | None = None,
    title: str | None = None,
    jitter_seed: int = 0,
) -> Figure:
    """Build the jitter plot of ``score`` for ``template`` from a per-seed score table.

    ``per_seed`` is :attr:`BBQResults.per_seed` (columns model, seed, category, question_index,
    s_amb, s_dis). ``category`` disambiguates a template id used in several categories;
    ``models`` fixes the row order (top to bottom; default: sorted).
    """
    if score not in SCORE_LABELS:
        raise InputError(f"score must be one of {', '.join(SCORE_LABELS)}, not {score!r}")
    rows = per_seed[per_seed["question_index"].astype(str) == str(template)]
    if category is not None:
        rows = rows[rows["category"] == category]
    if rows.empty:
        raise InputError(f"no per-seed scores for template {template!r}", field="question_index")
    if category is None and rows["category"].nunique() > 1:
        raise InputError(
            f"template {template!r} occurs in several categories; pass category=", field="category"
        )
    models = list(models) if models is not None else sorted(rows["model"].unique())

    jitter_rng = np.random.default_rng(jitter_seed)  # fixed: the same data gives the same figure
    fig, ax = plt.subplots(figsize=(7.0, 1.0 + 0.7 * len(models)), layout="constrained")
    labels = []
    for row, model in enumerate(models):
        y_center = len(models) - 1 - row  # first model on top
        values = rows.loc[rows["model"] == model, score].to_numpy(dtype=float)
        defined = values[~np.isnan(values)]
        y = y_center + jitter_rng.uniform(-_JITTER, _JITTER, defined.size)
        ax.scatter(
            defined, y, s=22, alpha=0.65, color=f"C{row % 10}", edgecolors="none", label=model
        )
        if defined.size:
            mean = float(defined.mean())
            ax.plot([mean, mean], [y_center - 0.32, y_center + 0.32], color="black", lw=2)
            ax.annotate(
                f"mean {mean:.2f}", (mean, y_center + 0.34), ha="center", va="bottom", fontsize=8
            )
        undefined = values.size - defined.size
        labels.append(f"{model}\n({undefined} undefined)" if undefined else model)
    ax.set_yticks(range(len(models) - 1, -1, -1), labels)
    ax.set_ylim(-0.6, len(models) - 0.4)
    ax.set_xlim(-1.05, 1.05)
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(SCORE_LABELS[score])
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or f"Template {template}: one point per seed")
    return fig


def jitter_plot(
    per_seed: pd.DataFrame,
    template: str,
    score: Score,
    path: Path | str,
    *,
    category: str | None = None,
    models: Sequence[str] | None = None,
    title: str | None = None,
    jitter_seed: int = 0,
) -> Figure:
    """Draw :func:`jitter_figure` and save it to ``path`` (PNG, PDF or SVG, by its suffix).

    Returns the (closed) figure so callers can inspect its axes.
    """
    path = Path(path)
    if path.suffix.lower() not in SAVE_FORMATS:
        raise InputError(f"figure format must be one of {', '.join(SAVE_FORMATS)}", file=str(path))
    fig = jitter_figure(
        per_seed,
        template,
        score,
        category=category,
        models=models,
        title=title,
        jitter_seed=jitter_seed,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150)
    plt.close(fig)
    return fig
