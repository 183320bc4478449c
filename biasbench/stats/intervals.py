"""Intervals: across seeds (t and bootstrap) and for a single proportion (Wilson)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import bootstrap, t
from statsmodels.stats.proportion import proportion_confint


class SeedInterval(NamedTuple):
    """A score summarised over seeds: mean, sample SD and a t confidence interval."""

    mean: float
    """Mean over the seeds with a defined value."""
    sd: float
    """Sample standard deviation (ddof=1); NaN with fewer than two values."""
    lo: float
    """Lower end of the t interval; NaN with fewer than two values."""
    hi: float
    """Upper end of the t interval; NaN with fewer than two values."""


def _defined(values: ArrayLike) -> np.ndarray:
    array = np.asarray(values, dtype=float).ravel()
    return array[~np.isnan(array)]


def seed_interval(values: ArrayLike, confidence: float = 0.95) -> SeedInterval:
    """Mean, SD and Student-t interval of one score measured under several seeds.

    NaN values (a seed where the score was undefined) are dropped. Seeds are treated as
    independent replicates, so the interval describes seed-to-seed variation of the score.
    """
    data = _defined(values)
    n = data.size
    if n == 0:
        return SeedInterval(math.nan, math.nan, math.nan, math.nan)
    mean = float(data.mean())
    if n == 1:
        return SeedInterval(mean, math.nan, math.nan, math.nan)
    sd = float(data.std(ddof=1))
    half_width = float(t.ppf(0.5 + confidence / 2, df=n - 1)) * sd / math.sqrt(n)
    return SeedInterval(mean, sd, mean - half_width, mean + half_width)


def bootstrap_interval(values: ArrayLike, statistic: Callable[..., float] = np.mean,
                       confidence: float = 0.95, n_resamples: int = 9999, seed: int = 0,
                       method: str = "BCa") -> tuple[float, float]:
    """Bootstrap confidence interval of ``statistic`` over ``values`` (NaNs dropped).

    Deterministic for a given ``seed``. Returns (NaN, NaN) with fewer than two values, and
    (v, v) when every value is the same v (there is nothing to resample).
    """
    data = _defined(values)
    if data.size < 2:
        return (math.nan, math.nan)
    if np.all(data == data[0]):
        point = float(statistic(data))
        return (point, point)
    result = bootstrap((data,), statistic, n_resamples=n_resamples, confidence_level=confidence,
                       method=method, rng=np.random.default_rng(seed))
    interval = result.confidence_interval
    return (float(interval.low), float(interval.high))


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials, as proportions in [0, 1].

    (NaN, NaN) when ``n == 0``.
    """
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (math.nan, math.nan)
    lo, hi = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    return (float(lo), float(hi))
