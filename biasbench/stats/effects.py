"""Effect sizes and agreement: eta-squared and pairwise Spearman correlation."""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike


def eta_squared(values: ArrayLike, groups: ArrayLike) -> float:
    """Share of the variance of ``values`` between ``groups``: SS_between / SS_total.

    Observations whose value is NaN are dropped. Returns NaN when there is no variation at all
    (SS_total == 0), since no share of zero variance can be attributed to the groups.
    """
    y = np.asarray(values, dtype=float)
    group_codes, _ = pd.factorize(np.asarray(groups), use_na_sentinel=False)
    if y.shape != group_codes.shape:
        raise ValueError(f"values and groups differ in length: {y.shape} vs {group_codes.shape}")
    keep = ~np.isnan(y)
    y, group_codes = y[keep], group_codes[keep]
    if y.size == 0:
        return math.nan
    grand_mean = y.mean()
    ss_total = float(((y - grand_mean) ** 2).sum())
    if ss_total <= 0.0:
        return math.nan
    group_n = np.bincount(group_codes)
    group_sum = np.bincount(group_codes, weights=y)
    present = group_n > 0
    group_mean = group_sum[present] / group_n[present]
    ss_between = float((group_n[present] * (group_mean - grand_mean) ** 2).sum())
    return ss_between / ss_total


def pairwise_spearman(table: pd.DataFrame) -> pd.DataFrame:
    """Spearman correlation between every pair of columns of ``table``.

    Each pair uses the rows where both columns are present (pairwise deletion), so one model's
    missing occupation does not drop that occupation for every other pair. A pair with fewer than
    two common rows, or a constant column, has no defined correlation (NaN).
    """
    # Imported here: scipy.stats costs more to import than most runs spend in it.
    from scipy.stats import ConstantInputWarning, spearmanr

    columns = list(table.columns)
    matrix = pd.DataFrame(np.nan, index=columns, columns=columns, dtype=float)
    data = table.to_numpy(dtype=float)
    for i in range(len(columns)):
        for j in range(i, len(columns)):
            both = ~np.isnan(data[:, i]) & ~np.isnan(data[:, j])
            if both.sum() < 2:
                continue
            with warnings.catch_warnings():
                # A constant column is an expected case here (e.g. a model that never uses the
                # honorific); it yields NaN, which callers handle.
                warnings.simplefilter("ignore", ConstantInputWarning)
                rho = spearmanr(data[both, i], data[both, j]).statistic
            matrix.iat[i, j] = matrix.iat[j, i] = float(rho)
    return matrix


class CorrelationSummary(NamedTuple):
    """Mean, minimum and maximum of the defined off-diagonal entries of a correlation matrix."""

    mean: float
    """Mean of the defined pairwise correlations (NaN when none is defined)."""
    min: float
    """Smallest defined pairwise correlation."""
    max: float
    """Largest defined pairwise correlation."""
    n_pairs: int
    """Number of column pairs with a defined correlation."""


def off_diagonal_summary(matrix: pd.DataFrame) -> CorrelationSummary:
    """Summarise the upper triangle (each unordered pair once) of a square correlation matrix."""
    values = matrix.to_numpy(dtype=float)
    upper = values[np.triu_indices_from(values, k=1)]
    upper = upper[~np.isnan(upper)]
    if upper.size == 0:
        return CorrelationSummary(math.nan, math.nan, math.nan, 0)
    return CorrelationSummary(
        float(upper.mean()), float(upper.min()), float(upper.max()), int(upper.size)
    )
