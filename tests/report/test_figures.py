"""Report figures and the intervals they draw."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from biasbench import figures as figs
from biasbench.engines.bbq_family.presenting import report_figures as bbq_figs
from biasbench.engines.honorific import figures as honorific_figs
from biasbench.stats import paired_difference_interval, wilson_pct

Z2 = stats.norm.ppf(0.975) ** 2
ONE_SIDED_LOW = 1 - math.sqrt(2) * (1 - 14 / (14 + Z2))
"""Newcombe's lower bound for 14 of 14 pairs discordant one way: both marginal Wilson intervals
have half-width 1 - 14 / (14 + z^2) at the boundary and phi = 0."""


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ((0, 14, 0, 0), (ONE_SIDED_LOW, 1.0)),
        ((0, 0, 14, 0), (-1.0, -ONE_SIDED_LOW)),
        ((0, 0, 0, 0), (math.nan, math.nan)),
    ],
)
def test_paired_difference_interval_hand_computed(
    table: tuple[int, int, int, int], expected: tuple[float, float]
) -> None:
    low, high = paired_difference_interval(*table)
    assert low == pytest.approx(expected[0], nan_ok=True)
    assert high == pytest.approx(expected[1], nan_ok=True)


def test_paired_difference_interval_without_correlation_is_square_and_add() -> None:
    # a, b, c, d = 2, 3, 3, 5: ad - bc = 1 lies in [0, n/2], so the corrected phi is 0 and the
    # bounds are the Wilson distances added in quadrature.
    n = 13
    l1, u1 = proportion_confint(5, n, method="wilson")
    l2, u2 = proportion_confint(5, n, method="wilson")
    p = 5 / n
    low, high = paired_difference_interval(2, 3, 3, 5)
    assert low == pytest.approx(-math.hypot(p - l1, u2 - p))
    assert high == pytest.approx(math.hypot(p - l2, u1 - p))


@pytest.mark.parametrize(
    "table", [(10, 5, 5, 10), (40, 3, 9, 50), (1, 0, 6, 2), (0, 7, 1, 0), (100, 20, 5, 300)]
)
def test_paired_difference_interval_contains_the_estimate_and_narrows(
    table: tuple[int, int, int, int],
) -> None:
    a, b, c, d = table
    estimate = (b - c) / (a + b + c + d)
    low, high = paired_difference_interval(*table)
    assert -1 <= low <= estimate <= high <= 1
    low10, high10 = paired_difference_interval(*(10 * x for x in table))
    assert high10 - low10 < high - low


def test_paired_difference_interval_is_symmetric_for_symmetric_tables() -> None:
    low, high = paired_difference_interval(10, 5, 5, 10)
    assert low == pytest.approx(-high)


@pytest.mark.parametrize(("k", "n"), [(5, 10), (0, 7), (7, 7), (123, 504)])
def test_wilson_pct_matches_statsmodels(k: int, n: int) -> None:
    expected = proportion_confint(k, n, method="wilson")
    assert wilson_pct(k, n) == pytest.approx(tuple(100 * x for x in expected))


def test_save_figure_writes_png_and_reproducible_pdf(tmp_path: Path) -> None:
    def draw() -> plt.Figure:
        fig, ax = plt.subplots(layout="constrained")
        ax.plot([0, 1], [0, 1])
        return fig

    first = figs.save_figure(draw(), tmp_path / "a", "A")
    second = figs.save_figure(draw(), tmp_path / "b", "B")
    assert first.png.read_bytes() == first.png_bytes
    assert first.pdf.read_bytes() == second.pdf.read_bytes()


RATES = pd.DataFrame(
    {
        "model": ["m1", "m1", "m1", "m2", "m2", "m2"],
        "occupation_en": ["cook", "judge", "maid", "cook", "judge", "maid"],
        "occupation_bn": ["বাবুর্চি", "বিচারক", "কাজের বুয়া"] * 2,
        "n_items": [7] * 6,
        "n_usable": [7, 7, 0, 7, 7, 7],
        "n_honorific": [2, 7, 0, 4, 5, 1],
        "honorific_pct": [200 / 7, 100.0, math.nan, 400 / 7, 500 / 7, 100 / 7],
    }
)


def test_occupation_figure_sorts_occupations_by_mean_rate() -> None:
    fig = honorific_figs.occupation_rates_figure(RATES, ["m1", "m2"])
    ax = fig.axes[0]
    # Means: judge 85.7, cook 42.9, maid 14.3 (m1 has no usable maid item).
    assert [t.get_text() for t in ax.get_yticklabels()] == ["judge", "cook", "maid"]
    assert [c.get_label() for c in ax.containers] == ["m1", "m2"]
    plt.close(fig)


def test_grouped_rates_figure_draws_each_share() -> None:
    fig = figs.grouped_rates_figure(
        ["m1", "m2"], [("x", [1, 3], [4, 4]), ("y", [0, 2], [0, 8])], "%", "title"
    )
    widths = [
        [round(p.get_width(), 6) for p in c.patches]
        for c in fig.axes[0].containers
        if hasattr(c, "patches")
    ]
    assert widths == [[25.0, 75.0], [0.0, 25.0]]  # an undefined share (0 of 0) draws no bar
    plt.close(fig)


def test_unparsed_figure_stacks_reasons_to_the_unparsed_share() -> None:
    by_run = pd.DataFrame(
        {
            "model": ["a", "a", "b"],
            "seed": [0, 1, 0],
            "n_responses": [10, 10, 20],
            "n_unparsed": [2, 1, 0],
            "n_empty": [1, 0, 0],
            "n_refusal": [1, 1, 0],
            "n_ambiguous": [0] * 3,
            "n_conflict": [0] * 3,
            "n_no_answer": [0] * 3,
        }
    )
    fig = bbq_figs.unparsed_figure(by_run, ["a", "b"])
    totals = [0.0, 0.0]
    for patch in fig.axes[0].patches:
        totals[round(patch.get_y() + patch.get_height() / 2)] += patch.get_width()
    assert totals == pytest.approx([15.0, 0.0])
    plt.close(fig)


def test_bbq_scores_figure_has_one_panel_per_score() -> None:
    frame = pd.DataFrame(
        {
            "model": ["m"],
            "category": ["Gender_identity"],
            "s_amb_mean": [0.2],
            "s_amb_ci_low": [0.1],
            "s_amb_ci_high": [0.3],
            "s_dis_mean": [math.nan],
            "s_dis_ci_low": [math.nan],
            "s_dis_ci_high": [math.nan],
        }
    )
    fig = bbq_figs.bbq_scores_figure(frame, ("s_amb", "s_dis"), ["m"])
    assert [ax.get_xlabel() for ax in fig.axes] == [
        bbq_figs.BBQ_SCORE_TITLES["s_amb"],
        bbq_figs.BBQ_SCORE_TITLES["s_dis"],
    ]
    assert fig.axes[0].get_xlim() == (-1.05, 1.05)
    plt.close(fig)
