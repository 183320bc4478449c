"""Significance tests and power for matched pairs: McNemar's exact test, Holm, Connor's sample size,
and their clustered forms for several pairs per item (seeds).

All functions are pure and work from sufficient statistics (pair counts, per-item differences,
p-value lists), so they can be reused by any benchmark that produces matched binary outcomes.

Clustering: when an item is run under several seeds, its pairs are not independent (identical
seeds repeat the same pair). The unit is then the item: :func:`sign_flip_test` is the exact
randomisation test (Fisher 1935; Pitman 1937) that flips the sign of each item's total
``b_i - c_i`` -- all seeds of an item together -- and :func:`design_effect` is the
ratio of that test's null variance to McNemar's, which turns N pairs into N / deff effective
pairs for Connor's power formula. With one pair per item both reduce exactly to McNemar's exact
test and Connor's formula; Obuchowski (1998, Stat Med 17:1495) gives the large-sample clustered
McNemar statistic that this exact test approximates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from biasbench.stats.binomial import (
    binom_cdf,
    binom_pmf,
    binom_ppf,
    binom_sf,
    binomtest_pvalue,
    holm_adjusted,
)

# scipy.stats, scipy.optimize and statsmodels are imported by the functions that need them:
# importing them costs more than a small run's whole statistics (see stats/binomial.py).


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` and ``c`` discordant pairs.

    This is the binomial test of ``min(b, c)`` successes in ``b + c`` trials at 0.5 (two-sided,
    i.e. twice the lower tail, capped at 1). With no discordant pair there is no evidence either
    way, so the p-value is 1.0.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got b={b}, c={c}")
    n_discordant = int(b) + int(c)
    if n_discordant == 0:
        return 1.0
    # At p = 0.5 the binomial is symmetric, so scipy's two-sided test equals min(1, 2 * tail).
    return float(min(1.0, binomtest_pvalue(min(int(b), int(c)), n_discordant, 0.5)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order.

    NaN entries (tests that could not be run) stay NaN and are left out of the family, so they
    do not inflate the correction for the others.
    """
    values = np.asarray(pvalues, dtype=float)
    adjusted = np.full(values.shape, np.nan)
    defined = ~np.isnan(values)
    if defined.any():
        adjusted[defined] = holm_adjusted(values[defined])
    return [float(p) for p in adjusted]


def sign_flip_test(differences: Sequence[int]) -> float:
    """Exact two-sided p of the item-level sign-flip test on per-item differences ``b_i - c_i``.

    ``differences[i]`` is item i's count of pairs favouring the first member minus those
    favouring the second, summed over all its seeds. Under the null hypothesis the two members
    of an item are exchangeable, so each item's total is as likely to carry either sign: the
    test statistic ``T = sum(d_i)`` is referred to its exact distribution over all ``2^k`` sign
    assignments of the k non-zero items (computed by convolution, not sampled), and
    ``p = P(|T*| >= |T|)``. Scaling every difference by one factor leaves p unchanged, so the
    same responses repeated under S identical seeds give the one-seed p exactly. With at most
    one pair per item (every ``|d_i| <= 1``) this is McNemar's exact test, and that is what is
    returned.
    """
    d = np.asarray(differences, dtype=np.int64)
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    magnitudes = np.abs(d)
    divisor = int(np.gcd.reduce(magnitudes))
    magnitudes //= divisor
    observed = abs(int(d.sum())) // divisor
    if magnitudes.max() == 1:
        favour_first = int((d > 0).sum())
        return mcnemar_exact(favour_first, int(d.size) - favour_first)
    total = int(magnitudes.sum())
    pmf = np.zeros(2 * total + 1)  # index t + total holds P(T* = t)
    pmf[total] = 1.0
    values, counts = np.unique(magnitudes, return_counts=True)
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        # The `count` items of this magnitude contribute value * (2j - count), j ~ Bin(count, .5).
        weights = binom_pmf(np.arange(count + 1), count, 0.5)
        convolved = np.zeros_like(pmf)
        for j, weight in enumerate(weights):
            shift = value * (2 * j - count)
            if shift >= 0:
                convolved[shift:] += weight * pmf[: pmf.size - shift]
            else:
                convolved[:shift] += weight * pmf[-shift:]
        pmf = convolved
    t = np.abs(np.arange(-total, total + 1))
    return float(min(1.0, pmf[t >= observed].sum()))


def design_effect(differences: Sequence[int], n_discordant: int) -> float:
    """``sum(d_i^2) / (b + c)``: how much clustering inflates the variance of ``b - c``.

    1 for one pair per item (then ``d_i^2 = |d_i|`` and ``sum |d_i| = b + c``); S for the same
    pairs repeated under S identical seeds; near 1 for seeds that vary independently. 1 when
    there is no discordant pair (no variance to inflate).

    Floored at 1: items whose seeds disagree in direction cancel inside ``d_i`` and can push
    the ratio below 1, which would credit the design with more independent pairs than it has.
    """
    if n_discordant <= 0:
        return 1.0
    d = np.asarray(differences, dtype=float)
    return max(1.0, float((d**2).sum() / n_discordant))


def proportion_design_effect(successes: Sequence[float], trials: Sequence[float]) -> float:
    """Kish's design effect of a pooled proportion over clusters, floored at 1.

    ``sum((y_i - p n_i)^2) / (N p (1 - p))`` with ``p = sum(y) / N``: the ratio-estimator
    variance of the clustered proportion over the binomial one. 1 with one trial per cluster,
    S for S identical copies of every trial; 1 when p is 0 or 1 (no variance to inflate).
    """
    y, n = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    total = float(n.sum())
    if total == 0:
        return 1.0
    p = float(y.sum()) / total
    if p in (0.0, 1.0):
        return 1.0
    return max(1.0, float(((y - p * n) ** 2).sum() / (total * p * (1 - p))))


def _connor_pairs(d: float, psi: float, z_alpha: float, z_beta: float) -> float:
    # max(0, .) guards the rounding at psi - d^2 near zero.
    return (z_alpha * math.sqrt(psi) + z_beta * math.sqrt(max(0.0, psi - d * d))) ** 2 / d**2


def _z_values(alpha: float, power: float) -> tuple[float, float]:
    from scipy.stats import norm

    return float(norm.ppf(1 - alpha / 2)), float(norm.ppf(power))


def mcnemar_required_pairs(
    difference: float, discordant_share: float, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Connor's (1987) number of pairs needed to detect ``difference`` with McNemar's test.

    ``n = (z_{a/2} sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2`` with ``psi`` the discordant share
    and ``d`` the difference of the two discordant proportions (the HAI as a proportion). NaN
    when ``d == 0`` or ``|d| > psi``: ``d = p10 - p01`` and ``psi = p10 + p01``, so no
    difference can exceed the discordant share.
    """
    psi, d = float(discordant_share), abs(float(difference))
    if d == 0 or d > psi:
        return math.nan
    return _connor_pairs(d, psi, *_z_values(alpha, power))


def mcnemar_min_detectable_difference(
    n_pairs: float, discordant_share: float, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Smallest |p_10 - p_01| detectable with ``n_pairs`` pairs (Connor 1987), as a proportion.

    Solves :func:`mcnemar_required_pairs` for ``d`` on ``(0, psi]`` with brentq (``|d|`` cannot
    exceed the discordant share ``psi``). The required ``n`` falls as ``d`` grows, so there is
    no solution (NaN) when ``psi == 0`` or when ``n_pairs`` is too small to reach even
    ``d = psi`` (every discordant pair one way). :func:`min_detectable_difference` says why.
    ``n_pairs`` may be fractional (an effective number of pairs).
    """
    return min_detectable_difference(n_pairs, discordant_share, alpha, power).as_float()


@dataclass(frozen=True)
class DetectableDifference:
    """The smallest detectable |d| as a proportion, or None with the reason it does not exist."""

    value: float | None
    reason: str | None = None

    def as_float(self) -> float:
        return math.nan if self.value is None else self.value


def _discordant_share(value: float) -> float:
    """``value`` as the share of discordant pairs psi, which must lie in [0, 1]."""
    psi = float(value)
    if not 0.0 <= psi <= 1.0:
        raise ValueError(f"discordant_share must be in [0, 1], got {value}")
    return psi


def _nothing_to_detect(n_pairs: float, psi: float) -> DetectableDifference | None:
    """The two reasons both searches share: no usable pair, or no discordant pair (then no
    difference can be seen); None when there is something to search."""
    if n_pairs <= 0:
        return DetectableDifference(None, "not detectable: no usable pairs")
    if psi == 0.0:
        return DetectableDifference(
            None,
            "not detectable: no discordant pair, so no "
            "difference between the two sides can be seen",
        )
    return None


def min_detectable_difference(
    n_pairs: float, discordant_share: float, alpha: float = 0.05, power: float = 0.8
) -> DetectableDifference:
    """:func:`mcnemar_min_detectable_difference` with a reason when there is no such value.

    The reasons start with "not detectable:" and say which bound stops it: no usable pair, no
    discordant pair (then ``|d| = 0`` is the only possible value), or too few pairs to reach
    80% power even at ``|d| = psi``, the largest difference the observed discordance allows.
    """
    psi = _discordant_share(discordant_share)
    nothing = _nothing_to_detect(n_pairs, psi)
    if nothing is not None:
        return nothing
    z_alpha, z_beta = _z_values(alpha, power)

    def excess_pairs(d: float) -> float:
        return _connor_pairs(d, psi, z_alpha, z_beta) - n_pairs

    at_bound = excess_pairs(psi)
    if at_bound > 0:
        return DetectableDifference(
            None,
            (
                f"not detectable: {n_pairs:.4g} pairs with {100 * psi:.1f}% discordant cannot reach "
                f"{100 * power:.0f}% power at alpha {alpha:g} even for the largest possible "
                f"difference ({100 * psi:.1f} pp, every discordant pair one way); "
                f"that needs {n_pairs + at_bound:.0f}"
            ),
        )
    if at_bound == 0:
        return DetectableDifference(psi)
    # The root lies in (0, psi]; brentq keeps its historical bracket (0, sqrt(psi)], which
    # holds the same single root, so published values stay identical to the last digit.
    upper = math.sqrt(psi)
    if excess_pairs(upper) == 0:
        return DetectableDifference(upper)
    from scipy.optimize import brentq

    return DetectableDifference(float(brentq(excess_pairs, upper * 1e-9, upper, xtol=1e-14)))


# --------------------------------------------------------------------------- exact power


def _mcnemar_critical(n_pairs: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """For every number of discordant pairs k = 0..n: the largest x with
    ``mcnemar_exact(x, k - x) <= alpha`` (-1 where no split of k rejects), and k itself."""
    k = np.arange(n_pairs + 1)
    x = binom_ppf(alpha / 2, k, 0.5)  # smallest x with P(X <= x) >= alpha / 2
    x = np.where(np.isnan(x), -1, x).astype(np.int64)
    # The two-sided p of a split (x, k - x) is min(1, 2 P(X <= x)); keep the x that reject.
    while True:
        p = np.minimum(1.0, 2 * binom_cdf(x, k, 0.5))
        too_big = (x >= 0) & (p > alpha * (1 + 1e-12))
        if not too_big.any():
            break
        x = np.where(too_big, x - 1, x)
    return x, k


def mcnemar_exact_power(
    n_pairs: int, discordant_share: float, difference: float, alpha: float = 0.05
) -> float:
    """Exact power of the two-sided exact McNemar test (:func:`mcnemar_exact`, rejecting at
    ``p <= alpha``) with ``n_pairs`` pairs when the discordant share is ``psi`` and
    ``p10 - p01 = difference``, computed, not simulated:

    ``sum_k Bin(k; n, psi) * P(reject | k)``, where given k discordant pairs the pairs favouring
    the first member are Bin(k, (psi + d) / (2 psi)) and the test rejects in both tails of
    Bin(k, 1/2) up to the critical split of :func:`_mcnemar_critical`. Discrete: the test's
    size is below alpha, which is why Connor's normal formula overstates its power.
    """
    n = int(n_pairs)
    psi, d = float(discordant_share), abs(float(difference))
    if n <= 0 or psi <= 0 or d > psi:
        return 0.0 if d <= psi else math.nan
    x, k = _mcnemar_critical(n, alpha)
    return _power_from_critical(x, k, n, psi, d)


def _power_from_critical(x: np.ndarray, k: np.ndarray, n: int, psi: float, d: float) -> float:
    q = min(1.0, (psi + d) / (2 * psi))
    reject = np.where(x >= 0, binom_cdf(x, k, q) + binom_sf(k - x - 1, k, q), 0.0)
    return float(np.clip((binom_pmf(k, n, psi) * reject).sum(), 0.0, 1.0))


EXACT_POWER_METHOD = (
    "exact power of the exact McNemar test (discordant pairs binomial given their number, "
    "that number binomial over the pairs), searched for the smallest |HAI| that reaches it; "
    "with several seeds on floor(N / design effect) effective pairs"
)
"""How :func:`exact_min_detectable_difference` computes the detectable difference, in words."""


def exact_min_detectable_difference(
    n_pairs: float,
    discordant_share: float,
    alpha: float = 0.05,
    power: float = 0.8,
) -> DetectableDifference:
    """The smallest |p10 - p01| at which the exact McNemar test reaches ``power`` exactly
    (:func:`mcnemar_exact_power`), by bisection on ``(0, psi]`` to 1e-10 (the power rises with
    |d|). ``n_pairs`` may be fractional (an effective number of pairs): it is rounded down,
    which can only understate the power. None with the reason ("not detectable: ...") when no
    usable pair, no discordant pair, or even |d| = psi falls short of ``power``."""
    psi = _discordant_share(discordant_share)
    n = int(math.floor(n_pairs + 1e-9))
    nothing = _nothing_to_detect(n, psi)
    if nothing is not None:
        return nothing
    x, k = _mcnemar_critical(n, alpha)
    at_bound = _power_from_critical(x, k, n, psi, psi)
    if at_bound < power:
        return DetectableDifference(
            None,
            (
                f"not detectable: {n} pairs with {100 * psi:.1f}% discordant reach "
                f"{100 * at_bound:.0f}% exact power at alpha {alpha:g}, below {100 * power:.0f}%, "
                f"even for the largest possible difference ({100 * psi:.1f} pp, every discordant "
                "pair one way)"
            ),
        )
    low, high = 0.0, psi
    while high - low > 1e-10:
        mid = (low + high) / 2
        if _power_from_critical(x, k, n, psi, mid) >= power:
            high = mid
        else:
            low = mid
    return DetectableDifference(high)
