"""The paired difference of ratio scores (cross-language comparison): its estimate, that its
permutation p-value is calibrated under no effect, that its interval covers the true difference
at about its nominal rate, and its edge cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from biasbench.stats.paired import MIN_PAIRS, paired_ratio_difference

N_DATASETS = 200
ITEMS, SEEDS = 40, 3


def _dataset(seed: int, delta: float) -> tuple[np.ndarray, ...]:
    """Per item a propensity shared by both languages (the pairing), language b shifted by
    ``delta``; each item answered under SEEDS seeds: per-item totals over seeds."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.3, 0.7, ITEMS)
    trials = np.full(ITEMS, SEEDS)
    return rng.binomial(SEEDS, p), trials, rng.binomial(SEEDS, p + delta), trials


def _band(rate: float, n: int = N_DATASETS, mass: float = 0.998) -> tuple[float, float]:
    """The central ``mass`` of the binomial(n, rate) share."""
    low, high = binom.interval(mass, n, rate)
    return low / n, high / n


@pytest.fixture(scope="module")
def runs() -> dict[float, list]:
    return {
        delta: [
            paired_ratio_difference(*_dataset(seed, delta), n_resamples=999, rng=10**6 + seed)
            for seed in range(N_DATASETS)
        ]
        for delta in (0.0, 0.15)
    }


def test_null_rejection_rate_is_in_the_binomial_band(runs: dict[float, list]) -> None:
    # 200 datasets with no language effect: rejected at 0.05 about 5% of the time (measured
    # 3.5%: the permutation test is exact, a little conservative on counts), never 0.
    rate = float(np.mean([r.p_value < 0.05 for r in runs[0.0]]))
    low, high = _band(0.05)
    assert low <= rate <= high, rate
    # p-values spread out under the null: about a fifth below 0.2, about half below 0.5
    for cut in (0.2, 0.5):
        share = float(np.mean([r.p_value < cut for r in runs[0.0]]))
        assert _band(cut)[0] <= share <= _band(cut)[1] + 0.02, (cut, share)


@pytest.mark.parametrize("delta", [0.0, 0.15])
def test_interval_covers_the_true_difference_at_its_nominal_rate(
    runs: dict[float, list], delta: float
) -> None:
    covered = float(np.mean([r.ci_low <= delta <= r.ci_high for r in runs[delta]]))
    low, high = _band(0.95)
    assert low <= covered <= high, covered


def test_a_planted_difference_is_recovered_and_rejected(runs: dict[float, list]) -> None:
    estimates = np.array([r.difference for r in runs[0.15]])
    # the mean estimate within 0.01 of the planted 0.15 (its standard error over 200 datasets
    # is about 0.004); most datasets reject (power at 40 items x 3 seeds)
    assert abs(estimates.mean() - 0.15) < 0.01
    assert np.mean([r.p_value < 0.05 for r in runs[0.15]]) > 0.6


def test_estimate_is_the_difference_of_ratios_of_totals() -> None:
    a_num, a_den = [1, 2, 3], [2, 2, 4]
    b_num, b_den = [2, 2, 1], [2, 4, 2]
    result = paired_ratio_difference(a_num, a_den, b_num, b_den, n_resamples=200)
    assert result.score_a == pytest.approx(6 / 8)
    assert result.score_b == pytest.approx(5 / 8)
    assert result.difference == pytest.approx(-1 / 8)
    assert result.n_pairs == 3


def test_swapping_the_sides_negates_the_difference_and_keeps_p() -> None:
    a = _dataset(7, 0.1)
    forward = paired_ratio_difference(*a, n_resamples=500, rng=1)
    backward = paired_ratio_difference(a[2], a[3], a[0], a[1], n_resamples=500, rng=1)
    assert backward.difference == pytest.approx(-forward.difference)
    assert backward.p_value == pytest.approx(forward.p_value)
    assert backward.ci_low == pytest.approx(-forward.ci_high)


def test_identical_sides_give_p_one() -> None:
    y, x = [1, 2, 0, 3], [3, 3, 3, 3]
    result = paired_ratio_difference(y, x, y, x, n_resamples=300)
    assert result.difference == 0.0
    assert result.p_value == 1.0


def test_too_few_pairs_have_no_interval_and_no_p() -> None:
    result = paired_ratio_difference(
        [1] * (MIN_PAIRS - 1), [2] * (MIN_PAIRS - 1), [2] * (MIN_PAIRS - 1), [2] * (MIN_PAIRS - 1)
    )
    assert result.difference == pytest.approx(0.5)
    assert math.isnan(result.ci_low) and math.isnan(result.p_value)


def test_signed_components_difference_in_differences() -> None:
    # side = main - control: a: 3/4 - 1/4 = 0.5; b: 2/4 - 2/4 = 0
    a_num, a_den = [[2, 1], [1, 0]], [[2, 2], [2, 2]]
    b_num, b_den = [[1, 1], [1, 1]], [[2, 2], [2, 2]]
    result = paired_ratio_difference(a_num, a_den, b_num, b_den, signs=(1.0, -1.0), n_resamples=100)
    assert result.score_a == pytest.approx(0.5)
    assert result.score_b == pytest.approx(0.0)
    assert result.difference == pytest.approx(-0.5)
