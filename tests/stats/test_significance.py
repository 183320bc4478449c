"""McNemar's exact test, Holm correction and Connor's detectable difference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from biasbench.stats import (
    holm,
    mcnemar_exact,
    mcnemar_min_detectable_difference,
    mcnemar_required_pairs,
)

NAN = float("nan")


@pytest.mark.parametrize(("b", "c", "expected"), [
    (0, 0, 1.0),                      # no discordant pair: no evidence
    (0, 3, 0.25),                     # 2 * (1/2)^3
    (3, 0, 0.25),                     # symmetric in b and c
    (1, 1, 1.0),                      # 2 * P(X <= 1 | n=2) = 1.5, capped at 1
    (10, 4, 2 * 1471 / 2**14),        # 2 * (1 + 14 + 91 + 364 + 1001) / 16384
    (5, 5, 1.0),
])
def test_mcnemar_exact_hand_values(b: int, c: int, expected: float) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("b", "c"), [
    (1, 0), (0, 5), (8, 44), (46, 9), (32, 17), (24, 28), (12, 6), (10, 9), (100, 130), (250, 3),
])
def test_mcnemar_exact_matches_statsmodels(b: int, c: int) -> None:
    expected = mcnemar([[7, b], [c, 11]], exact=True).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-10)


def test_mcnemar_exact_rejects_negative_counts() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(-1, 3)


@pytest.mark.parametrize(("pvalues", "expected"), [
    ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),           # 3p, then max(2p, previous), then p
    ([0.01, NAN, 0.04, 0.03], [0.03, NAN, 0.06, 0.06]),  # NaN stays NaN, family of three
    ([0.5, 0.6], [1.0, 1.0]),                            # capped at 1
    ([NAN, NAN], [NAN, NAN]),
    ([], []),
    ([0.02], [0.02]),
])
def test_holm_hand_values(pvalues: list[float], expected: list[float]) -> None:
    np.testing.assert_allclose(holm(pvalues), expected, rtol=1e-12)


def test_holm_matches_statsmodels() -> None:
    pvalues = np.random.default_rng(7).uniform(0, 0.2, size=9)
    np.testing.assert_allclose(holm(pvalues), multipletests(pvalues, method="holm")[1])


def test_connor_formula_hand_example() -> None:
    # d = 0.05, psi = 0.1: (1.959964 * 0.316228 + 0.841621 * 0.312250)^2 / 0.0025 = 311.59
    assert mcnemar_required_pairs(0.05, 0.1) == pytest.approx(311.587, abs=0.01)
    assert mcnemar_required_pairs(-0.05, 0.1) == mcnemar_required_pairs(0.05, 0.1)


@pytest.mark.parametrize(("n_pairs", "psi"), [
    (504, 0.104), (476, 46 / 476 + 9 / 476), (312, 0.1), (50, 0.5), (4, 1.0), (10_000, 0.01),
])
def test_min_detectable_difference_round_trips(n_pairs: int, psi: float) -> None:
    d = mcnemar_min_detectable_difference(n_pairs, psi)
    assert 0 < d <= math.sqrt(psi)
    assert mcnemar_required_pairs(d, psi) == pytest.approx(n_pairs, rel=1e-9)


def test_min_detectable_difference_hand_example() -> None:
    # The hand example above needs 311.59 pairs for d = 0.05, so 312 pairs detect just below it.
    d = mcnemar_min_detectable_difference(312, 0.1)
    assert 0.0499 < d < 0.05


def test_min_detectable_difference_shrinks_with_more_pairs() -> None:
    small, large = (mcnemar_min_detectable_difference(n, 0.1) for n in (200, 800))
    assert large < small
    assert large == pytest.approx(small / 2, rel=0.05)  # roughly 1/sqrt(n)


@pytest.mark.parametrize(("n_pairs", "psi"), [
    (500, 0.0),   # no discordant pair: no difference can be detected
    (0, 0.3),     # no pair at all
    (3, 1.0),     # fewer than z_{a/2}^2 = 3.84 pairs: unreachable even at d = sqrt(psi)
])
def test_min_detectable_difference_undefined(n_pairs: int, psi: float) -> None:
    assert math.isnan(mcnemar_min_detectable_difference(n_pairs, psi))


def test_min_detectable_difference_rejects_bad_share() -> None:
    with pytest.raises(ValueError, match="discordant_share"):
        mcnemar_min_detectable_difference(100, 1.5)


def test_required_pairs_undefined_outside_range() -> None:
    assert math.isnan(mcnemar_required_pairs(0.0, 0.1))
    assert math.isnan(mcnemar_required_pairs(0.5, 0.1))  # |d| > sqrt(psi)
