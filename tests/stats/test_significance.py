"""McNemar's exact test, Holm correction and Connor's detectable difference."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from biasbench.stats import (
    design_effect,
    exact_min_detectable_difference,
    holm,
    mcnemar_exact,
    mcnemar_exact_power,
    mcnemar_min_detectable_difference,
    mcnemar_required_pairs,
    min_detectable_difference,
    proportion_design_effect,
    sign_flip_test,
)

NAN = float("nan")


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        (0, 0, 1.0),  # no discordant pair: no evidence
        (0, 3, 0.25),  # 2 * (1/2)^3
        (3, 0, 0.25),  # symmetric in b and c
        (1, 1, 1.0),  # 2 * P(X <= 1 | n=2) = 1.5, capped at 1
        (10, 4, 2 * 1471 / 2**14),  # 2 * (1 + 14 + 91 + 364 + 1001) / 16384
        (5, 5, 1.0),
    ],
)
def test_mcnemar_exact_hand_values(b: int, c: int, expected: float) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("b", "c"),
    [
        (1, 0),
        (0, 5),
        (8, 44),
        (46, 9),
        (32, 17),
        (24, 28),
        (12, 6),
        (10, 9),
        (100, 130),
        (250, 3),
    ],
)
def test_mcnemar_exact_matches_statsmodels(b: int, c: int) -> None:
    expected = mcnemar([[7, b], [c, 11]], exact=True).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-10)


def test_mcnemar_exact_rejects_negative_counts() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(-1, 3)


@pytest.mark.parametrize(
    ("pvalues", "expected"),
    [
        ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),  # 3p, then max(2p, previous), then p
        ([0.01, NAN, 0.04, 0.03], [0.03, NAN, 0.06, 0.06]),  # NaN stays NaN, family of three
        ([0.5, 0.6], [1.0, 1.0]),  # capped at 1
        ([NAN, NAN], [NAN, NAN]),
        ([], []),
        ([0.02], [0.02]),
    ],
)
def test_holm_hand_values(pvalues: list[float], expected: list[float]) -> None:
    np.testing.assert_allclose(holm(pvalues), expected, rtol=1e-12)


def test_holm_matches_statsmodels() -> None:
    pvalues = np.random.default_rng(7).uniform(0, 0.2, size=9)
    np.testing.assert_allclose(holm(pvalues), multipletests(pvalues, method="holm")[1])


def test_connor_formula_hand_example() -> None:
    # d = 0.05, psi = 0.1: (1.959964 * 0.316228 + 0.841621 * 0.312250)^2 / 0.0025 = 311.59
    assert mcnemar_required_pairs(0.05, 0.1) == pytest.approx(311.587, abs=0.01)
    assert mcnemar_required_pairs(-0.05, 0.1) == mcnemar_required_pairs(0.05, 0.1)


@pytest.mark.parametrize(
    ("n_pairs", "psi"),
    [
        (504, 0.104),
        (476, 46 / 476 + 9 / 476),
        (312, 0.1),
        (50, 0.5),
        (4, 1.0),
        (10_000, 0.01),
    ],
)
def test_min_detectable_difference_round_trips(n_pairs: int, psi: float) -> None:
    d = mcnemar_min_detectable_difference(n_pairs, psi)
    assert 0 < d <= psi  # |p10 - p01| <= p10 + p01
    assert mcnemar_required_pairs(d, psi) == pytest.approx(n_pairs, rel=1e-9)


def test_min_detectable_difference_hand_example() -> None:
    # The hand example above needs 311.59 pairs for d = 0.05, so 312 pairs detect just below it.
    d = mcnemar_min_detectable_difference(312, 0.1)
    assert 0.0499 < d < 0.05


def test_min_detectable_difference_shrinks_with_more_pairs() -> None:
    small, large = (mcnemar_min_detectable_difference(n, 0.1) for n in (200, 800))
    assert large < small
    assert large == pytest.approx(small / 2, rel=0.05)  # roughly 1/sqrt(n)


@pytest.mark.parametrize(
    ("n_pairs", "psi"),
    [
        (500, 0.0),  # no discordant pair: no difference can be detected
        (0, 0.3),  # no pair at all
        (3, 1.0),  # fewer than z_{a/2}^2 = 3.84 pairs: unreachable even at d = psi = 1
        (10, 0.3),  # needs 24 pairs even at d = psi; the old search gave 45 pp > 30 pp
    ],
)
def test_min_detectable_difference_undefined(n_pairs: int, psi: float) -> None:
    assert math.isnan(mcnemar_min_detectable_difference(n_pairs, psi))


def test_min_detectable_difference_rejects_bad_share() -> None:
    with pytest.raises(ValueError, match="discordant_share"):
        mcnemar_min_detectable_difference(100, 1.5)


def test_required_pairs_undefined_outside_range() -> None:
    assert math.isnan(mcnemar_required_pairs(0.0, 0.1))
    assert math.isnan(mcnemar_required_pairs(0.5, 0.1))  # |d| > sqrt(psi)


# --------------------------------------------------------------- minimum detectable difference


# (n_pairs, discordant share) -> smallest detectable |d| in pp, or the start of the reason.
# The old search ran up to sqrt(psi), so rows marked "was" printed an impossible
# number, larger than the discordant share that bounds |d|.
@pytest.mark.parametrize(
    ("n_pairs", "psi", "expected"),
    [
        (456, 60 / 456, 4.746694911331),  # the worked one-seed example
        (476, 55 / 476, 4.354137558058),  # Llama 3.3 70B in the paper
        (20, 0.3, "not detectable: 20 pairs with 30.0% discordant"),  # was 32.3 pp > 30
        (10, 0.3, "not detectable: 10 pairs with 30.0% discordant"),  # was 43.0 pp > 30
        (8, 1.0, 84.979751437867),  # --limit 30, every pair favouring men: allowed
        (30, 0.1, "not detectable: 30 pairs with 10.0% discordant"),  # was 15.5 pp > 10
        (100, 0.0, "not detectable: no discordant pair"),
        (0, 0.5, "not detectable: no usable pairs"),
        (3, 1.0, "not detectable: 3 pairs with 100.0% discordant"),
    ],
)
def test_min_detectable_difference_is_never_impossible(
    n_pairs: int, psi: float, expected: float | str
) -> None:
    result = min_detectable_difference(n_pairs, psi)
    if isinstance(expected, str):
        assert result.value is None and result.reason is not None
        assert result.reason.startswith(expected)
        assert math.isnan(mcnemar_min_detectable_difference(n_pairs, psi))
    else:
        assert result.reason is None
        assert 100 * result.value == pytest.approx(expected, rel=1e-11)
        assert result.value <= psi


def test_min_detectable_difference_never_exceeds_the_discordant_share() -> None:
    for n_pairs in (2, 5, 10, 20, 40, 80, 160, 504, 5000):
        for psi in np.linspace(0.01, 1.0, 100):
            d = mcnemar_min_detectable_difference(n_pairs, float(psi))
            assert math.isnan(d) or 0 < d <= psi


def test_required_pairs_undefined_above_the_discordant_share() -> None:
    # sqrt(0.1) = 0.316 > 0.2 > 0.1: impossible, so no sample size (Connor's root is defined).
    assert math.isnan(mcnemar_required_pairs(0.2, 0.1))
    assert mcnemar_required_pairs(0.1, 0.1) == pytest.approx(
        1.959964**2 * 0.1 / 0.01 * (1 + 0.841621 * 0.3 / (1.959964 * math.sqrt(0.1))) ** 2, rel=1e-5
    )


# --------------------------------------------------------------- sign-flip test over clusters


def brute_force_sign_flip(differences: list[int]) -> float:
    """P(|sum s_i d_i| >= |sum d_i|) over all 2^k sign vectors, by enumeration."""
    d = np.array(differences)
    signs = np.array(list(itertools.product((1, -1), repeat=d.size)))
    return float(np.mean(np.abs(signs @ d) >= abs(d.sum())))


@pytest.mark.parametrize(
    "differences",
    [
        [2, 2, -1, 3, 0, 1],
        [3, 3, 3, -3, 2],
        [1, -2, 4, 1, 1, 2, -1, 3, 2, 1, 1, -1],
        [5, -5, 0, 0],
        [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    ],
)
def test_sign_flip_test_is_exact(differences: list[int]) -> None:
    assert sign_flip_test(differences) == pytest.approx(
        brute_force_sign_flip(differences), rel=1e-12
    )


@pytest.mark.parametrize(("b", "c"), [(0, 0), (0, 3), (10, 4), (41, 19), (46, 9), (8, 44), (5, 5)])
def test_sign_flip_with_one_pair_per_item_is_mcnemar_exactly(b: int, c: int) -> None:
    differences = [1] * b + [-1] * c + [0] * 30
    assert sign_flip_test(differences) == mcnemar_exact(b, c)


@pytest.mark.parametrize("seeds", [2, 3, 10, 50])
def test_identical_seeds_leave_the_clustered_p_unchanged(seeds: int) -> None:
    # The worked example: b = 41, c = 19 under one seed; pooled McNemar on two copies gave
    # 7.3e-5 instead of 0.0062.
    one = sign_flip_test([1] * 41 + [-1] * 19)
    assert one == pytest.approx(0.0062176026593, rel=1e-10)
    assert sign_flip_test([seeds] * 41 + [-seeds] * 19) == one
    assert mcnemar_exact(2 * 41, 2 * 19) == pytest.approx(7.2915e-5, rel=1e-4)  # the old answer


@pytest.mark.parametrize(
    ("differences", "n_discordant", "expected"),
    [
        ([1, -1, 1, 0], 3, 1.0),  # one pair per item
        ([2, -2, 2], 6, 2.0),  # two identical seeds
        ([5, 5, -5], 15, 5.0),  # five identical seeds
        ([2, 0, 1], 5, 1.0),  # item 2's seeds disagree (1 - 1): 5/5
        ([0, 0], 4, 1.0),  # all cancel: floored at 1, never more pairs than N
        ([], 0, 1.0),  # nothing discordant
        ([3, 1, -1], 5, 11 / 5),
    ],
)
def test_design_effect(differences: list[int], n_discordant: int, expected: float) -> None:
    assert design_effect(differences, n_discordant) == pytest.approx(expected)


def test_min_detectable_with_effective_pairs_matches_one_seed() -> None:
    # Two identical seeds: 912 pairs, design effect 2 -> 456 effective pairs -> 4.75 pp, not 3.36.
    deff = design_effect([2] * 41 + [-2] * 19, 120)
    assert mcnemar_min_detectable_difference(
        912 / deff, 120 / 912
    ) == mcnemar_min_detectable_difference(456, 60 / 456)
    assert 100 * mcnemar_min_detectable_difference(912, 120 / 912) == pytest.approx(3.36, abs=0.01)


@pytest.mark.parametrize(
    ("successes", "trials", "expected"),
    [
        ([1, 0, 1, 0], [1, 1, 1, 1], 1.0),  # one trial per cluster: binomial
        ([2, 0, 2, 0], [2, 2, 2, 2], 2.0),  # two identical copies
        ([3, 0, 0], [3, 3, 3], 3.0),
        ([1, 1, 1, 1], [2, 2, 2, 2], 1.0),  # p = 0.5 in every cluster: floored at 1
        ([0, 0], [3, 3], 1.0),  # p = 0
        ([], [], 1.0),
        ([2, 0, 1], [2, 2, 1], (0.8**2 + 1.2**2 + 0.4**2) / (5 * 0.6 * 0.4)),
    ],
)
def test_proportion_design_effect(successes: list[int], trials: list[int], expected: float) -> None:
    assert proportion_design_effect(successes, trials) == pytest.approx(expected)


# --------------------------------------------------------------------------- round 3, item 6


def _brute_force_power(n: int, psi: float, d: float, alpha: float = 0.05) -> float:
    """Power of mcnemar_exact by enumerating every (b, c, concordant) outcome."""
    from scipy.stats import multinomial

    p10, p01 = (psi + d) / 2, (psi - d) / 2
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if mcnemar_exact(b, c) <= alpha:
                total += multinomial.pmf([b, c, n - b - c], n, [p10, p01, 1 - psi])
    return total


@pytest.mark.parametrize(
    ("n", "psi", "d"),
    [(12, 0.5, 0.3), (20, 0.4, 0.2), (25, 0.2, 0.2), (30, 0.3, 0.0), (16, 1.0, 0.5)],
)
def test_exact_power_equals_enumeration(n: int, psi: float, d: float) -> None:
    assert mcnemar_exact_power(n, psi, d) == pytest.approx(_brute_force_power(n, psi, d), abs=1e-12)


@pytest.mark.parametrize(
    ("n", "psi", "exact_pp", "connor_power"),
    [
        # (pairs, discordant share, exact detectable |d| in pp, exact power at Connor's value)
        (502, 14 / 502, 2.1212412, 0.7802),
        (504, 0.3, 6.9832464, 0.7802),
        (200, 0.3, 11.1237625, 0.7731),
        (2520, 0.2, 2.5311321, 0.7883),
    ],
)
def test_exact_detectable_difference_reaches_the_stated_power(
    n: int, psi: float, exact_pp: float, connor_power: float
) -> None:
    """The referee found 76-78% power at Connor's "80%"; the exact search reaches 80%."""
    found = exact_min_detectable_difference(n, psi)
    assert found.value == pytest.approx(exact_pp / 100, abs=1e-8)
    assert mcnemar_exact_power(n, psi, found.value) >= 0.8
    assert mcnemar_exact_power(n, psi, found.value - 1e-8) < 0.8  # the smallest such |d|
    connor = min_detectable_difference(n, psi).value
    assert mcnemar_exact_power(n, psi, connor) == pytest.approx(connor_power, abs=1e-4)


@pytest.mark.parametrize(
    ("n", "psi", "reason"),
    [
        (0, 0.3, "not detectable: no usable pairs"),
        (40, 0.0, "not detectable: no discordant pair"),
        (10, 0.3, "not detectable: 10 pairs with 30.0% discordant reach 5% exact power"),
    ],
)
def test_exact_detectable_difference_undefined_with_reason(n: int, psi: float, reason: str) -> None:
    found = exact_min_detectable_difference(n, psi)
    assert found.value is None and found.reason is not None and found.reason.startswith(reason)
