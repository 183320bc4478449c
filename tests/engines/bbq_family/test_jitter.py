"""Jitter plot of per-seed scores (FilBBQ Figures 1-2): structure checked on the figure itself."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection

from biasbench.engines.bbq_family.presenting.jitter import jitter_figure, jitter_plot
from biasbench.errors import InputError

# model -> per-seed s_amb for template T1 (one undefined seed for "beta")
SCORES = {
    "alpha": [1.0, 0.5, 0.0, -1.0, 0.75],
    "beta": [0.2, 0.4, math.nan, 0.6, 0.3],
    "gamma": [-0.5, -0.5, -0.5, -0.5, -0.5],
}


def _per_seed() -> pd.DataFrame:
    rows = []
    for model, values in SCORES.items():
        for seed, value in enumerate(values):
            rows.append(
                {
                    "model": model,
                    "seed": seed,
                    "category": "Gender_identity",
                    "question_index": "T1",
                    "s_amb": value,
                    "s_dis": -value,
                }
            )
            rows.append(
                {
                    "model": model,
                    "seed": seed,
                    "category": "Gender_identity",
                    "question_index": "T2",
                    "s_amb": 0.0,
                    "s_dis": 0.0,
                }
            )
    return pd.DataFrame(rows)


def _rows(ax) -> list[str]:
    """Row labels from the bottom row up (by tick position, not by set order)."""
    pairs = zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels()), strict=True)
    return [label for _, label in sorted(pairs)]


def test_one_row_per_model_one_point_per_defined_seed() -> None:
    fig = jitter_figure(_per_seed(), "T1", "s_amb")
    (ax,) = fig.axes
    points = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(points) == 3
    assert [len(c.get_offsets()) for c in points] == [5, 4, 5]
    # x = the seed's score; y jittered within its row (first model on top)
    for collection, (model, values), row_y in zip(points, SCORES.items(), [2, 1, 0], strict=True):
        offsets = np.asarray(collection.get_offsets())
        defined = [v for v in values if not math.isnan(v)]
        assert sorted(offsets[:, 0]) == sorted(defined)
        assert np.all(np.abs(offsets[:, 1] - row_y) < 0.25)
        assert collection.get_label() == model
    assert _rows(ax) == ["gamma", "beta\n(1 undefined)", "alpha"]  # bottom to top
    # the mean of each row is marked by a vertical segment at the mean of defined seeds
    mean_lines = [
        line
        for line in ax.lines
        if len(set(line.get_xdata())) == 1 and np.ptp(line.get_ydata()) < 1
    ]
    means = sorted(float(line.get_xdata()[0]) for line in mean_lines)
    assert means == pytest.approx(sorted([0.25, 0.375, -0.5]))
    assert ax.get_xlim() == pytest.approx((-1.05, 1.05))


def test_model_order_and_disambiguated_score() -> None:
    fig = jitter_figure(_per_seed(), "T1", "s_dis", models=["gamma", "alpha"])
    (ax,) = fig.axes
    assert _rows(ax) == ["alpha", "gamma"]  # bottom to top
    points = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert sorted(np.asarray(points[0].get_offsets())[:, 0]) == [0.5] * 5  # gamma: -(-0.5)
    assert "s_DIS" in ax.get_xlabel()


@pytest.mark.parametrize(
    ("name", "magic"), [("fig.png", b"\x89PNG\r\n\x1a\n"), ("sub/fig.pdf", b"%PDF")]
)
def test_file_written_in_the_suffix_format(tmp_path: Path, name: str, magic: bytes) -> None:
    path = tmp_path / name
    fig = jitter_plot(_per_seed(), "T1", "s_amb", path)
    assert path.read_bytes().startswith(magic)
    assert len(fig.axes) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"template": "T9", "score": "s_amb"}, "T9"),
        ({"template": "T1", "score": "acc"}, "score must be"),
    ],
)
def test_bad_requests(kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        jitter_figure(_per_seed(), **kwargs)


def test_bad_suffix_and_ambiguous_template(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="format"):
        jitter_plot(_per_seed(), "T1", "s_amb", tmp_path / "fig.jpeg")
    both = pd.concat([_per_seed(), _per_seed().assign(category="Other")])
    with pytest.raises(InputError, match="category"):
        jitter_figure(both, "T1", "s_amb")
    fig = jitter_figure(both, "T1", "s_amb", category="Other")
    assert len(fig.axes[0].collections) == 3
