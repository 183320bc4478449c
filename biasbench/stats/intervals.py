"""Intervals: across seeds (t and bootstrap) and for a single proportion (Wilson)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

# scipy.stats and statsmodels are imported inside the functions that use them: importing
# scipy.stats costs more CPU than a small run's statistics (see biasbench/stats/binomial.py).


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
    defined: np.ndarray = array[~np.isnan(array)]
    return defined


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
    from scipy.stats import t

    half_width = float(t.ppf(0.5 + confidence / 2, df=n - 1)) * sd / math.sqrt(n)
    return SeedInterval(mean, sd, mean - half_width, mean + half_width)


MIN_SEEDS_FOR_INTERVAL: Final = 3
"""Fewer seeds than this get no interval: with two, the t multiplier is 12.7 (one degree of
freedom), so the interval is mean +- 9 SD and, truncated to the scale, nearly always the whole
scale -- printing it would suggest information that is not there."""

ACCURACY_BOUNDS: Final = (0.0, 1.0)
BIAS_BOUNDS: Final = (-1.0, 1.0)

BOUNDED_T_METHOD: Final = (
    "Student-t interval across seeds, intersected with the score's range "
    "(accuracy [0, 1], bias [-1, 1])"
)
"""What :func:`bounded_seed_interval` computes, for the output's method field."""


class IntervalStatus(StrEnum):
    """What an interval across seeds is, so that no reader takes a degenerate one for certainty."""

    OK = "ok"
    """A t-interval that lies inside the score's range."""
    CLIPPED = "clipped"
    """The t-interval reached past the range and was cut at its bound(s)."""
    DEGENERATE = "degenerate"
    """Every seed gave the same value: zero width means no spread across seeds, not certainty,
    so there is no interval (its ends are NaN, written as null, never mean..mean)."""
    TOO_FEW_SEEDS = "too_few_seeds"
    """Fewer than :data:`MIN_SEEDS_FOR_INTERVAL` seeds define the score: no interval."""
    UNDEFINED = "undefined"
    """No seed defines the score."""
    TOO_FEW_ITEMS = "too_few_items"
    """An interval over items: fewer than :data:`MIN_ITEMS_FOR_INTERVAL` items carry the
    score, so nothing says how items vary."""


class BoundedInterval(NamedTuple):
    """A bounded score summarised over seeds (:func:`bounded_seed_interval`)."""

    mean: float
    sd: float
    lo: float
    hi: float
    n: int
    """Seeds with a defined value: what the mean, SD and interval rest on."""
    status: IntervalStatus


def bounded_t_intervals(
    mean: ArrayLike,
    sd: ArrayLike,
    n: ArrayLike,
    bounds: tuple[float, float],
    confidence: float = 0.95,
    min_n: int = MIN_SEEDS_FOR_INTERVAL,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised bounded t-intervals from per-group mean, SD (ddof 1) and seed count.

    The Student-t interval across seeds is intersected with ``bounds``: the true mean of a score
    lies inside its range, so it is in the t-interval exactly when it is in the intersection --
    truncation keeps the coverage and removes only impossible values. Returns ``(lo, hi,
    status)``; lo/hi are NaN when there is no interval (too few seeds, undefined score, or a
    degenerate one: every seed equal, where a zero-width t-interval would claim certainty; with
    4 items and 3 seeds such intervals covered an accuracy near 1 21% of the time).
    """
    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    n = np.asarray(n, dtype=float)
    lower, upper = bounds
    enough = n >= max(min_n, 2)
    dof = np.where(enough, n - 1, np.nan)
    from scipy.stats import t

    with np.errstate(invalid="ignore", divide="ignore"):
        half = t.ppf(0.5 + confidence / 2, dof) * sd / np.sqrt(n)
    raw_lo, raw_hi = mean - half, mean + half
    lo = np.where(enough, np.clip(raw_lo, lower, upper), np.nan)
    hi = np.where(enough, np.clip(raw_hi, lower, upper), np.nan)
    status = np.full(mean.shape, IntervalStatus.OK.value, dtype=object)
    status[enough & ((raw_lo < lower) | (raw_hi > upper))] = IntervalStatus.CLIPPED.value
    degenerate = enough & (sd == 0)
    status[degenerate] = IntervalStatus.DEGENERATE.value
    status[~enough] = IntervalStatus.TOO_FEW_SEEDS.value
    status[n == 0] = IntervalStatus.UNDEFINED.value
    lo, hi = np.where(degenerate, np.nan, lo), np.where(degenerate, np.nan, hi)
    return lo, hi, status


@dataclass(frozen=True)
class ReasonWords:
    """How :func:`status_reason` names what an interval rests on (seeds, items, item groups,
    paired items): the words differ, the reasons are the same."""

    no_spread: Callable[[int], str]
    """N units, all giving the same value (``every one of the 3 seeds gave the same value: no
    spread across seeds``)."""
    too_few: Callable[[int], str]
    """N units carrying the statistic (``2 seeds define the score``)."""
    undefined: str
    """No unit defines it (``no seed defines the score``)."""


SEED_WORDS: Final = ReasonWords(
    lambda n: f"every one of the {n} seeds gave the same value: no spread across seeds",
    lambda n: f"{n} {'seed defines' if n == 1 else 'seeds define'} the score",
    "no seed defines the score",
)
"""An interval across seeds (:func:`interval_reason`)."""
ITEM_WORDS: Final = ReasonWords(
    SEED_WORDS.no_spread,
    lambda n: f"{n} item{'s' if n != 1 else ''} carr{'y' if n != 1 else 'ies'} the score",
    SEED_WORDS.undefined,
)
"""An interval over items (status ``too_few_items``, :func:`interval_reason`)."""


def status_reason(status: str, n: int, words: ReasonWords, minimum: int) -> str | None:
    """Why an interval of ``status`` is missing, in words, for ``n`` units named by ``words``
    (``minimum``: the fewest units that give one); None for ``ok`` and ``clipped``. The one
    wording of the reasons: seeds, items, a jackknife's item groups, paired items."""
    status = str(status)
    if status == IntervalStatus.DEGENERATE:
        return f"{words.no_spread(n)}, not certainty (no interval)"
    if status in (IntervalStatus.TOO_FEW_SEEDS, IntervalStatus.TOO_FEW_ITEMS):
        return f"{words.too_few(n)}: fewer than {minimum}"
    if status == IntervalStatus.UNDEFINED:
        return words.undefined
    return None


def interval_reason(status: str, n_seeds: int, min_n: int = MIN_SEEDS_FOR_INTERVAL) -> str | None:
    """Why an interval across seeds is undefined, in words (None for ok and clipped ones);
    ``too_few_items``: ``n_seeds`` is then the number of items."""
    if str(status) == IntervalStatus.TOO_FEW_ITEMS:
        return status_reason(status, n_seeds, ITEM_WORDS, MIN_ITEMS_FOR_INTERVAL)
    return status_reason(status, n_seeds, SEED_WORDS, min_n)


def bounded_seed_interval(
    values: ArrayLike,
    bounds: tuple[float, float],
    confidence: float = 0.95,
    min_n: int = MIN_SEEDS_FOR_INTERVAL,
) -> BoundedInterval:
    """Mean, SD and the t-interval across seeds truncated to ``bounds`` (NaN values dropped).

    See :func:`bounded_t_intervals`; with fewer than ``min_n`` defined values there is no
    interval (status ``too_few_seeds``), and equal values give a ``degenerate`` zero-width one.
    """
    data = _defined(values)
    if data.size and (data.min() < bounds[0] or data.max() > bounds[1]):
        raise ValueError(f"values outside {bounds}: {data.min()}..{data.max()}")
    base = seed_interval(data, confidence)
    lo, hi, status = bounded_t_intervals(
        [base.mean], [base.sd], [data.size], bounds, confidence, min_n
    )
    return BoundedInterval(
        base.mean, base.sd, float(lo[0]), float(hi[0]), int(data.size), IntervalStatus(status[0])
    )


def bootstrap_interval(
    values: ArrayLike,
    statistic: Callable[..., float] = np.mean,
    confidence: float = 0.95,
    n_resamples: int = 9999,
    seed: int = 0,
    method: str = "BCa",
) -> tuple[float, float]:
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
    from scipy.stats import bootstrap

    result = bootstrap(
        (data,),
        statistic,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method=method,
        rng=np.random.default_rng(seed),
    )
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
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    return (float(lo), float(hi))


def paired_difference_interval(
    a: int, b: int, c: int, d: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``(b - c) / n`` from a paired 2x2 table.

    ``a``: both sides positive; ``b``: first positive, second negative; ``c``: the reverse;
    ``d``: both negative. The difference is first-side share minus second-side share; the
    interval is in the same [-1, 1] units, (NaN, NaN) when there are no pairs.
    """
    n = a + b + c + d
    if n == 0:
        return (math.nan, math.nan)
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_interval(a + b, n, confidence)
    l2, u2 = wilson_interval(a + c, n, confidence)
    # Correlation of the two sides (phi), with Newcombe's continuity correction of ad - bc.
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
    phi = corrected / math.sqrt(margins) if margins > 0 else 0.0
    diff = p1 - p2
    low = diff - math.sqrt(
        max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    )
    high = diff + math.sqrt(
        max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2)
    )
    return (max(-1.0, low), min(1.0, high))


def wilson_pct(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson interval of ``k / n`` in percent; (NaN, NaN) when ``n == 0``."""
    low, high = wilson_interval(int(k), int(n), confidence)
    return (100.0 * low, 100.0 * high)


ITEM_RATIO_METHOD: Final = (
    "Student-t interval across items (df = items - 1) for a ratio of per-item totals over "
    "seeds, sum(y_i) / sum(x_i), with the item-clustered (linearised) standard error "
    "sqrt(sum((y_i - R x_i)^2) / (k (k - 1))) / mean(x_i), centred on the score and cut to its "
    "range: it covers the score over a population of items like these, not only these items' "
    "seeds (seeds are nested in items, so resampling items with all their seeds carries the "
    "seed noise too)"
)
"""What :func:`item_ratio_interval` computes, for the output's method field."""


def _item_units(numerators: ArrayLike, denominators: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Each item's numerator and denominator, items with nothing to divide left out."""
    y = np.asarray(numerators, dtype=float).ravel()
    x = np.asarray(denominators, dtype=float).ravel()
    keep = x > 0
    return y[keep], x[keep]


def item_ratio_interval(
    numerators: ArrayLike,
    denominators: ArrayLike,
    bounds: tuple[float, float],
    center: float | None = None,
    confidence: float = 0.95,
    min_items: int = MIN_SEEDS_FOR_INTERVAL,
) -> tuple[float, float, IntervalStatus, int]:
    """An interval over items for ``R = sum(y_i) / sum(x_i)`` (per-item totals over seeds).

    Items with ``x_i = 0`` carry nothing and are left out; ``k`` is the number that remain.
    The standard error is the ratio estimator's linearised one, clustered by item; the interval
    is ``center +- t_{k-1} SE`` (``center`` defaults to R), intersected with ``bounds``.
    Returns ``(lo, hi, status, k)``: no interval (NaN) with fewer than ``min_items`` items
    (``too_few_seeds``, read "too few units"), with no spread across items (``degenerate``),
    or with nothing to divide (``undefined``).
    """
    y, x = _item_units(numerators, denominators)
    k = int(x.size)
    if k == 0:
        return math.nan, math.nan, IntervalStatus.UNDEFINED, 0
    ratio = float(y.sum() / x.sum())
    middle = ratio if center is None or not math.isfinite(center) else float(center)
    if k < max(min_items, 2):
        return math.nan, math.nan, IntervalStatus.TOO_FEW_SEEDS, k
    residual = y - ratio * x
    se = math.sqrt(float((residual**2).sum()) / (k * (k - 1))) / float(x.mean())
    if se <= 1e-15:
        return math.nan, math.nan, IntervalStatus.DEGENERATE, k
    from scipy.stats import t

    half = float(t.ppf(0.5 + confidence / 2, df=k - 1)) * se
    raw_lo, raw_hi = middle - half, middle + half
    lower, upper = bounds
    status = IntervalStatus.CLIPPED if raw_lo < lower or raw_hi > upper else IntervalStatus.OK
    return max(lower, raw_lo), min(upper, raw_hi), status, k


ITEMS_SEEDS: Final = "items+seeds"
"""The name of the default BBQ-family interval in results.json, the summary and the report:
it covers the score over a population of items like these, answered under fresh seeds."""
SEEDS_ONLY: Final = "seeds"
"""The name of the interval across seeds for the fixed item set (``seeds_ci_*``)."""
MIN_ITEMS_FOR_INTERVAL: Final = 2

ITEMS_SEEDS_METHOD: Final = (
    "Korn-Graubard interval over items: the score is a ratio of per-item totals over seeds, "
    "sum(y_i) / sum(x_i), rescaled to [0, 1]; its variance is the ratio estimator's "
    "item-clustered (linearised) one, so items are the sampling units and each item's seeds "
    "travel with it, computed with one average item added at each end of the score's range, "
    "so that items that all answer alike (a confident model) count about once each, as in a "
    "Clopper-Pearson interval over the items, and do not read as certainty about items not "
    "drawn; the effective sample size q(1 - q) / var, shrunk by (z / t_{items-1})^2, enters a "
    "Clopper-Pearson interval around the score, which stays inside its range and exists with "
    "one seed and with no spread"
)
"""What :func:`item_cluster_interval` computes, for the output's method field."""

PSEUDO_ITEMS: Final = 1.0
"""Average items added at each end of a score's range in the variance of
:func:`item_cluster_interval`."""


def item_cluster_interval(
    numerators: ArrayLike,
    denominators: ArrayLike,
    bounds: tuple[float, float],
    center: float | None = None,
    confidence: float = 0.95,
    min_items: int = MIN_ITEMS_FOR_INTERVAL,
) -> tuple[float, float, IntervalStatus, int]:
    """The interval over items (and their seeds) for ``R = sum(y_i) / sum(x_i)``.

    ``y_i``, ``x_i``: item i's totals over its seeds (items with ``x_i = 0`` carry nothing and
    are left out; ``k`` items remain). Korn and Graubard's (1998) interval for a proportion
    from clustered data, with items as clusters: ``p = (center - lo) / (hi - lo)`` (``center``
    defaults to R); ``var``, the linearised ratio variance clustered by item, and ``q``, the
    ratio, both computed with :data:`PSEUDO_ITEMS` average items (denominator ``mean(x_i)``)
    added at each end of the range; the effective sample size ``n_eff = q (1 - q) / var``
    times ``(z / t_{k-1})^2`` for the few-items degrees of freedom; then the Clopper-Pearson
    interval of ``p n_eff`` successes in ``n_eff``.

    Why the pseudo-items: without them, items that answer alike under every seed -- a
    confident model, or an item population with a few items unlike the rest -- gave a variance
    near 0 and an effective sample size of every answer: over 4 items and 50 seeds the interval
    covered the item population's accuracy 37-58% of the time, over 24 items 74%
    (measurements/interval_coverage.py). Seeds that agree within items say nothing about other
    items. With one item at each end, k items that all agree give ``n_eff`` of about k, the
    Clopper-Pearson interval over the items (a binomial is the widest case of a mean of k
    values in [0, 1]); where items vary, the two weigh as two items among k.

    Why not the t-interval: with few items and accuracy near 1 most runs have no spread across
    items, and a t-interval then either claims certainty or does not exist. Returns
    ``(lo, hi, status, k)``: NaN ends with fewer than ``min_items`` items (``too_few_items``)
    or nothing to divide (``undefined``).
    """
    y, x = _item_units(numerators, denominators)
    k = int(x.size)
    if k == 0:
        return math.nan, math.nan, IntervalStatus.UNDEFINED, 0
    if k < max(min_items, 2):
        return math.nan, math.nan, IntervalStatus.TOO_FEW_ITEMS, k
    lower, upper = bounds
    width = upper - lower
    ratio = float(y.sum() / x.sum())
    middle = ratio if center is None or not math.isfinite(center) else float(center)
    p = min(1.0, max(0.0, (middle - lower) / width))
    weight = PSEUDO_ITEMS * float(x.mean())
    padded_y = np.append(y, [lower * weight, upper * weight])
    padded_x = np.append(x, [weight, weight])
    padded = float(padded_y.sum() / padded_x.sum())
    residual = padded_y - padded * padded_x
    var = float((residual**2).sum()) / (k * (k - 1)) / float(x.mean()) ** 2 / width**2
    q = (padded - lower) / width  # strictly inside (0, 1): the pseudo-items see to it
    n_eff = q * (1.0 - q) / var
    alpha = 1.0 - confidence
    from scipy.stats import beta, norm, t

    n_eff *= (float(norm.ppf(1 - alpha / 2)) / float(t.ppf(1 - alpha / 2, df=k - 1))) ** 2
    successes = p * n_eff
    low = 0.0 if successes <= 0 else float(beta.ppf(alpha / 2, successes, n_eff - successes + 1))
    high = (
        1.0
        if successes >= n_eff
        else float(beta.ppf(1 - alpha / 2, successes + 1, n_eff - successes))
    )
    return lower + width * low, lower + width * high, IntervalStatus.OK, k
