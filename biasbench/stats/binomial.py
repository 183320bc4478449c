"""The binomial distribution and Holm's correction without importing ``scipy.stats``.

Importing ``scipy.stats`` costs about 0.6 CPU-seconds (most of it rewriting its docstrings
at import), more than the rest of a 40-item mock run of honorific-bn. McNemar's exact test
and its power need only the binomial pmf, cdf, sf and ppf, so these call the same Boost
ufuncs that ``scipy.stats.binom`` calls (``scipy.special._ufuncs._binom_*``) behind the same
support rules, and :func:`binomtest_pvalue` follows ``scipy.stats.binomtest``'s two-sided
algorithm step by step: every value equals scipy's to the last bit
(tests/stats/test_binomial.py compares them over a grid). Should a SciPy release drop those
ufuncs, the functions fall back to ``scipy.stats.binom`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from scipy.special._ufuncs import (  # type: ignore[attr-defined]
        _binom_cdf,
        _binom_pmf,
        _binom_ppf,
        _binom_sf,
    )
except ImportError:  # pragma: no cover - only on a SciPy without the Boost ufuncs
    _binom_cdf = _binom_pmf = _binom_ppf = _binom_sf = None


def _scipy_binom() -> Any:
    from scipy.stats import binom

    return binom


def _result(output: np.ndarray) -> Any:
    # scipy returns a NumPy scalar for scalar input and an array otherwise.
    return output[()] if output.ndim == 0 else output


def _valid(n: np.ndarray, p: np.ndarray) -> np.ndarray:
    return (n >= 0) & (np.floor(n) == n) & (p >= 0) & (p <= 1)


def binom_pmf(k: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.pmf(k, n, p)``."""
    if _binom_pmf is None:  # pragma: no cover
        return _scipy_binom().pmf(k, n, p)
    k, n, p = np.broadcast_arrays(*map(np.asarray, (k, n, p)))
    valid = _valid(n, p)
    inside = valid & (k >= 0) & (k <= n) & (np.floor(k) == k)
    output = np.where(valid & ~np.isnan(k), 0.0, np.nan)
    if inside.any():
        output[inside] = np.clip(_binom_pmf(k[inside], n[inside], p[inside]), 0, 1)
    return _result(output)


def binom_cdf(k: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.cdf(k, n, p)``."""
    if _binom_cdf is None:  # pragma: no cover
        return _scipy_binom().cdf(k, n, p)
    return _tail(_binom_cdf, k, n, p, below_support=0.0, above_support=1.0)


def binom_sf(k: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.sf(k, n, p)``."""
    if _binom_sf is None:  # pragma: no cover
        return _scipy_binom().sf(k, n, p)
    return _tail(_binom_sf, k, n, p, below_support=1.0, above_support=0.0)


def _tail(ufunc: Any, k: Any, n: Any, p: Any, *, below_support: float, above_support: float) -> Any:
    # scipy's support rules for a tail: k < 0 and k >= n are constants, k floored inside.
    k, n, p = np.broadcast_arrays(*map(np.asarray, (k, n, p)))
    valid = _valid(n, p)
    inside = valid & (k >= 0) & (k < n) & np.isfinite(k)
    output = np.where(k >= n, above_support, 0.0)
    output[valid & (k < 0)] = below_support
    output[~valid | np.isnan(k)] = np.nan
    if inside.any():
        output[inside] = np.clip(ufunc(np.floor(k[inside]), n[inside], p[inside]), 0, 1)
    return _result(output)


def binom_ppf(q: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.ppf(q, n, p)``."""
    if _binom_ppf is None:  # pragma: no cover
        return _scipy_binom().ppf(q, n, p)
    q, n, p = np.broadcast_arrays(*map(np.asarray, (q, n, p)))
    valid = _valid(n, p)
    output = np.full(q.shape, np.nan)
    output[valid & (q == 0)] = -1.0
    at_one = valid & (q == 1)
    output[at_one] = n[at_one]
    inside = valid & (q > 0) & (q < 1)
    if inside.any():
        output[inside] = _binom_ppf(q[inside], n[inside], p[inside]) + 0.0
    return _result(output)


def _search(value_at: Callable[[float], float], target: float, low: float, high: float) -> float:
    # scipy.stats._binomtest._binary_search_for_binom_tst, kept as it is so every p matches.
    while low < high:
        mid = low + (high - low) // 2
        mid_value = value_at(mid)
        if mid_value < target:
            low = mid + 1
        elif mid_value > target:
            high = mid - 1
        else:
            return mid
    return low if value_at(low) <= target else low - 1


def binomtest_pvalue(k: int, n: int, p: float) -> float:
    """Two-sided p-value of ``scipy.stats.binomtest(k, n, p)``, by scipy's own steps."""
    if not (0 <= k <= n and n >= 1 and 0 <= p <= 1):
        raise ValueError(f"binomtest needs 0 <= k <= n, n >= 1 and p in [0, 1]; got {k}, {n}, {p}")
    d = binom_pmf(k, n, p)
    rerr = 1 + 1e-7
    if k == p * n:
        return 1.0
    if k < p * n:
        ix = _search(lambda x: -binom_pmf(x, n, p), -d * rerr, math.ceil(p * n), n)
        y = n - ix + int(d * rerr == binom_pmf(ix, n, p))
        pvalue = binom_cdf(k, n, p) + binom_sf(n - y, n, p)
    else:
        ix = _search(lambda x: binom_pmf(x, n, p), d * rerr, 0, math.floor(p * n))
        pvalue = binom_cdf(ix, n, p) + binom_sf(k - 1, n, p)
    return float(min(1.0, pvalue))


def holm_adjusted(pvalues: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values of a 1-D array without NaN, in the input order:
    ``statsmodels.stats.multitest.multipletests(pvalues, method="holm")[1]``, by its steps."""
    order = np.argsort(pvalues)
    ranked = np.take(pvalues, order)
    adjusted_ranked = np.maximum.accumulate(ranked * np.arange(ranked.size, 0, -1))
    adjusted_ranked[adjusted_ranked > 1] = 1
    adjusted = np.empty_like(adjusted_ranked)
    adjusted[order] = adjusted_ranked
    return adjusted
