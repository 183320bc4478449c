"""biasbench.stats.binomial gives scipy.stats' and statsmodels' values to the last bit, so
McNemar's test and its power publish the same numbers without importing scipy.stats."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom, binomtest
from statsmodels.stats.multitest import multipletests

from biasbench.stats.binomial import (
    binom_cdf,
    binom_pmf,
    binom_ppf,
    binom_sf,
    binomtest_pvalue,
    holm_adjusted,
)

PROBABILITIES = [0.0, 1e-9, 0.025, 0.3, 0.5, 0.5 + 1e-12, 0.7, 0.975, 1.0]


def _bits(values: object) -> bytes:
    array = np.asarray(values, dtype=float)
    return array.tobytes() + str(array.shape).encode()


@pytest.mark.parametrize("p", PROBABILITIES)
@pytest.mark.parametrize(
    "ours, theirs",
    [
        (binom_pmf, binom.pmf),
        (binom_cdf, binom.cdf),
        (binom_sf, binom.sf),
    ],
    ids=["pmf", "cdf", "sf"],
)
def test_distribution_functions_match_scipy_bit_for_bit(ours, theirs, p: float) -> None:
    for n in [0, 1, 2, 7, 40, 97, 400]:
        k = np.arange(-2, n + 3)
        assert _bits(ours(k, n, p)) == _bits(theirs(k, n, p)), (n, p)
        # One n per k, as _mcnemar_critical and _power_from_critical call them.
        counts = np.arange(n + 1)
        assert _bits(ours(counts // 3, counts, p)) == _bits(theirs(counts // 3, counts, p))
        assert _bits(ours(counts, n, p)) == _bits(theirs(counts, n, p))
    assert _bits(ours(3, 10, p)) == _bits(theirs(3, 10, p))  # scalars stay scalars
    assert np.ndim(ours(3, 10, p)) == 0


def test_invalid_arguments_give_nan_as_scipy_does() -> None:
    for ours, theirs in [(binom_pmf, binom.pmf), (binom_cdf, binom.cdf), (binom_sf, binom.sf)]:
        args = ([1, 1, np.nan, 2], [3, 2.5, 3, 3], [1.5, 0.5, 0.5, -0.1])
        assert _bits(ours(*args)) == _bits(theirs(*args))


@pytest.mark.parametrize("q", [0.0, 1e-6, 0.025, 0.5, 0.975, 1.0])
def test_ppf_matches_scipy_bit_for_bit(q: float) -> None:
    for n in [1, 2, 7, 40, 400]:
        counts = np.arange(n + 1)
        for p in PROBABILITIES:
            assert _bits(binom_ppf(q, counts, p)) == _bits(binom.ppf(q, counts, p)), (q, n, p)


def test_binomtest_pvalue_matches_scipy_bit_for_bit() -> None:
    for n in [*range(1, 60), 97, 200, 401]:
        for k in range(n + 1):
            for p in [0.5, 0.3, 0.81]:
                assert binomtest_pvalue(k, n, p) == binomtest(k, n, p).pvalue, (k, n, p)


def test_binomtest_pvalue_refuses_what_scipy_refuses() -> None:
    with pytest.raises(ValueError, match="0 <= k <= n"):
        binomtest_pvalue(5, 4, 0.5)


@pytest.mark.parametrize(
    "pvalues",
    [
        [0.01, 0.04, 0.03, 0.2],
        [0.5, 0.5, 0.01, 0.5, 0.02],  # ties
        [0.9, 0.8, 0.7],  # clipped at 1
        [0.003],
        list(np.random.default_rng(7).uniform(0, 0.2, 60)),
    ],
)
def test_holm_matches_statsmodels_bit_for_bit(pvalues: list[float]) -> None:
    values = np.asarray(pvalues)
    expected = multipletests(values, method="holm")[1]
    assert _bits(holm_adjusted(values)) == _bits(expected)
    assert holm_adjusted(np.array([0.01, 0.04, 0.03])).tolist() == pytest.approx([0.03, 0.06, 0.06])
