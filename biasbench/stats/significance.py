"""Significance tests and power for matched pairs: McNemar's exact test, Holm, Connor's sample size.

All functions are pure and work from sufficient statistics (pair counts, p-value lists), so they
can be reused by any benchmark that produces matched binary outcomes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.optimize import brentq
from scipy.stats import binomtest, norm
from statsmodels.stats.multitest import multipletests


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
    return float(min(1.0, binomtest(min(int(b), int(c)), n_discordant, 0.5).pvalue))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order.

    NaN entries (tests that could not be run) stay NaN and are left out of the family, so they
    do not inflate the correction for the others.
    """
    values = np.asarray(pvalues, dtype=float)
    adjusted = np.full(values.shape, np.nan)
    defined = ~np.isnan(values)
    if defined.any():
        adjusted[defined] = multipletests(values[defined], method="holm")[1]
    return [float(p) for p in adjusted]


def _connor_pairs(d: float, psi: float, z_alpha: float, z_beta: float) -> float:
    # max(0, .) guards the rounding at d == sqrt(psi), where the second root is exactly zero.
    return (z_alpha * math.sqrt(psi) + z_beta * math.sqrt(max(0.0, psi - d * d))) ** 2 / d**2


def _z_values(alpha: float, power: float) -> tuple[float, float]:
    return float(norm.ppf(1 - alpha / 2)), float(norm.ppf(power))


def mcnemar_required_pairs(difference: float, discordant_share: float, alpha: float = 0.05,
                           power: float = 0.8) -> float:
    """Connor's (1987) number of pairs needed to detect ``difference`` with McNemar's test.

    ``n = (z_{a/2} sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2`` with ``psi`` the discordant share
    and ``d`` the difference of the two discordant proportions (the HAI as a proportion). NaN
    when ``d == 0`` or ``|d| > sqrt(psi)`` (a difference larger than the discordant share allows).
    """
    psi, d = float(discordant_share), abs(float(difference))
    if d == 0 or d > math.sqrt(psi):
        return math.nan
    return _connor_pairs(d, psi, *_z_values(alpha, power))


def mcnemar_min_detectable_difference(n_pairs: int, discordant_share: float, alpha: float = 0.05,
                                      power: float = 0.8) -> float:
    """Smallest |p_10 - p_01| detectable with ``n_pairs`` pairs (Connor 1987), as a proportion.

    Solves :func:`mcnemar_required_pairs` for ``d`` on ``(0, sqrt(psi)]`` with brentq. The
    required ``n`` falls from infinity to ``z_{a/2}^2`` over that range, so there is no solution
    (NaN) when ``psi == 0`` or when ``n_pairs`` is too small to reach even ``d = sqrt(psi)``.
    """
    psi = float(discordant_share)
    if not 0.0 <= psi <= 1.0:
        raise ValueError(f"discordant_share must be in [0, 1], got {discordant_share}")
    if psi == 0.0 or n_pairs <= 0:
        return math.nan
    z_alpha, z_beta = _z_values(alpha, power)
    upper = math.sqrt(psi)

    def excess_pairs(d: float) -> float:
        return _connor_pairs(d, psi, z_alpha, z_beta) - n_pairs

    at_upper = excess_pairs(upper)
    if at_upper > 0:
        return math.nan
    if at_upper == 0:
        return upper
    return float(brentq(excess_pairs, upper * 1e-9, upper, xtol=1e-14))
