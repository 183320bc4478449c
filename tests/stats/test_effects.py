"""eta-squared and pairwise Spearman correlations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf

from biasbench.stats import eta_squared, off_diagonal_summary, pairwise_spearman


@pytest.mark.parametrize(
    ("values", "groups", "expected"),
    [
        ([1, 1, 0, 0], ["a", "a", "b", "b"], 1.0),  # groups explain everything
        ([1, 0, 1, 0], ["a", "a", "b", "b"], 0.0),  # same mean in both groups
        ([1, 1, 1, 0], ["a", "a", "b", "b"], 1 / 3),  # SS_b 0.25 / SS_t 0.75
        ([2.0, 4.0, 6.0, 9.0, 9.0], [1, 1, 2, 2, 2], 30 / 38),  # SS_b 2*9 + 3*4, SS_t 38
        ([1, 1, float("nan"), 0, 0], ["a", "a", "a", "b", "b"], 1.0),  # NaN dropped
    ],
)
def test_eta_squared_hand_values(values: list[float], groups: list, expected: float) -> None:
    assert eta_squared(values, groups) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("values", "groups"),
    [
        ([1, 1, 1, 1], ["a", "a", "b", "b"]),  # SS_total == 0
        ([], []),
    ],
)
def test_eta_squared_undefined(values: list[float], groups: list) -> None:
    assert math.isnan(eta_squared(values, groups))


def test_eta_squared_equals_one_way_anova_r_squared() -> None:
    rng = np.random.default_rng(3)
    data = pd.DataFrame(
        {"y": rng.integers(0, 2, 300).astype(float), "g": rng.choice(list("abcdefg"), 300)}
    )
    r_squared = smf.ols("y ~ C(g)", data=data).fit().rsquared
    assert eta_squared(data["y"], data["g"]) == pytest.approx(r_squared, rel=1e-10)


def test_eta_squared_length_mismatch() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        eta_squared([1, 0], ["a"])


def test_pairwise_spearman_hand_values() -> None:
    table = pd.DataFrame({"a": [1, 2, 3, 4], "b": [4, 3, 2, 1], "c": [1, 3, 2, 4]})
    matrix = pairwise_spearman(table)
    assert list(matrix.columns) == ["a", "b", "c"]
    assert matrix.loc["a", "b"] == pytest.approx(-1.0)
    assert matrix.loc["a", "c"] == pytest.approx(0.8)  # 1 - 6 * 2 / (4 * 15)
    assert matrix.loc["b", "c"] == pytest.approx(-0.8)
    assert matrix.loc["c", "a"] == matrix.loc["a", "c"]
    assert np.allclose(np.diag(matrix), 1.0)
    summary = off_diagonal_summary(matrix)
    assert summary.mean == pytest.approx((-1.0 + 0.8 - 0.8) / 3)
    assert (summary.min, summary.max, summary.n_pairs) == (
        pytest.approx(-1.0),
        pytest.approx(0.8),
        3,
    )


def test_pairwise_spearman_pairwise_deletion_and_constant_column() -> None:
    table = pd.DataFrame(
        {"a": [1.0, 2, 3, 4, 5], "b": [1.0, 2, 3, np.nan, 0], "flat": [2.0, 2, 2, 2, 2]}
    )
    matrix = pairwise_spearman(table)
    # a vs b uses the four rows where both exist: ranks (1,2,3,4) vs (2,3,4,1),
    # d = (-1,-1,-1,3), so rho = 1 - 6 * 12 / (4 * 15) = -0.2
    assert matrix.loc["a", "b"] == pytest.approx(-0.2)
    assert math.isnan(matrix.loc["a", "flat"])
    summary = off_diagonal_summary(matrix)
    assert summary.n_pairs == 1
    assert summary.mean == pytest.approx(-0.2)


def test_off_diagonal_summary_without_pairs() -> None:
    summary = off_diagonal_summary(pd.DataFrame([[1.0]], index=["a"], columns=["a"]))
    assert summary.n_pairs == 0
    assert math.isnan(summary.mean) and math.isnan(summary.min) and math.isnan(summary.max)
