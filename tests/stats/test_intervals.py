"""Seed-level t intervals, bootstrap intervals and Wilson intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from biasbench.stats import (
    SeedInterval,
    bootstrap_interval,
    bounded_seed_interval,
    interval_reason,
    item_ratio_interval,
    seed_interval,
    wilson_interval,
)

NAN = float("nan")
T_975_DF2 = 4.302652729749462  # Student t quantile, 97.5%, 2 df
T_95_DF3 = 2.353363434801823  # Student t quantile, 95%, 3 df


def _assert_interval(actual: SeedInterval, expected: tuple[float, float, float, float]) -> None:
    for got, want in zip(actual, expected, strict=True):
        if math.isnan(want):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize(
    ("values", "confidence", "expected"),
    [
        ([1, 2, 3], 0.95, (2.0, 1.0, 2 - T_975_DF2 / math.sqrt(3), 2 + T_975_DF2 / math.sqrt(3))),
        (
            [1, NAN, 3, 2],
            0.95,
            (2.0, 1.0, 2 - T_975_DF2 / math.sqrt(3), 2 + T_975_DF2 / math.sqrt(3)),
        ),
        (
            [10, 12, 14, 16],
            0.90,
            (
                13.0,
                math.sqrt(20 / 3),
                13 - T_95_DF3 * math.sqrt(20 / 3) / 2,
                13 + T_95_DF3 * math.sqrt(20 / 3) / 2,
            ),
        ),
        ([5, 5, 5], 0.95, (5.0, 0.0, 5.0, 5.0)),
        ([7.5], 0.95, (7.5, NAN, NAN, NAN)),
        ([NAN, NAN], 0.95, (NAN, NAN, NAN, NAN)),
        ([], 0.95, (NAN, NAN, NAN, NAN)),
    ],
)
def test_seed_interval(
    values: list[float], confidence: float, expected: tuple[float, float, float, float]
) -> None:
    _assert_interval(seed_interval(values, confidence), expected)


def test_seed_interval_unpacks_as_four_numbers() -> None:
    mean, sd, lo, hi = seed_interval(np.array([0.2, 0.4]))
    assert (mean, lo < mean < hi) == (pytest.approx(0.3), True)
    assert sd == pytest.approx(math.sqrt(0.02))


@pytest.mark.parametrize(
    ("k", "n", "expected"),
    [
        (3, 10, (0.10779126740630099, 0.6032218525388546)),
        (0, 10, (0.0, 0.27753279986288264)),
        (10, 10, (0.7224672001371174, 1.0)),
    ],
)
def test_wilson_interval(k: int, n: int, expected: tuple[float, float]) -> None:
    # Wilson: (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
    z = 1.959963984540054
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = wilson_interval(k, n)
    assert (lo, hi) == (pytest.approx(expected[0], abs=1e-9), pytest.approx(expected[1], abs=1e-9))
    assert (lo, hi) == (
        pytest.approx(center - half, abs=1e-9),
        pytest.approx(center + half, abs=1e-9),
    )


def test_wilson_interval_empty_and_invalid() -> None:
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    with pytest.raises(ValueError):
        wilson_interval(5, 3)


def test_bootstrap_interval_is_deterministic_and_brackets_the_mean() -> None:
    values = np.random.default_rng(1).normal(10, 2, size=40)
    first = bootstrap_interval(values, n_resamples=2000, seed=5)
    assert first == bootstrap_interval(values, n_resamples=2000, seed=5)
    assert first[0] < values.mean() < first[1]
    # Roughly the normal-theory width 2 * 1.96 * sd / sqrt(n).
    assert first[1] - first[0] == pytest.approx(
        2 * 1.96 * values.std(ddof=1) / math.sqrt(40), rel=0.25
    )


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([3.0, 3.0, 3.0], (3.0, 3.0)),
        ([1.0], (NAN, NAN)),
        ([NAN, 2.0], (NAN, NAN)),
    ],
)
def test_bootstrap_interval_degenerate(values: list[float], expected: tuple[float, float]) -> None:
    got = bootstrap_interval(values)
    for g, e in zip(got, expected, strict=True):
        assert (math.isnan(g) and math.isnan(e)) or g == e


@pytest.mark.parametrize(
    ("values", "bounds", "expected"),
    [
        # ordinary: the plain t-interval, inside the range
        (
            [0.4, 0.5, 0.6],
            (0.0, 1.0),
            (0.5 - T_975_DF2 * 0.1 / math.sqrt(3), 0.5 + T_975_DF2 * 0.1 / math.sqrt(3), 3, "ok"),
        ),
        # near a bound: cut at it (the true mean is inside the range, so coverage is unchanged)
        (
            [1.0, 1.0, 0.75],
            (0.0, 1.0),
            (11 / 12 - T_975_DF2 * math.sqrt(1 / 48) / math.sqrt(3), 1.0, 3, "clipped"),
        ),
        (
            [-1.0, -0.5, -1.0],
            (-1.0, 1.0),
            (-1.0, -2.5 / 3 + T_975_DF2 * math.sqrt(1 / 12) / math.sqrt(3), 3, "clipped"),
        ),
        # every seed equal: no interval (round 3: it was written as 1.0..1.0, a zero-width claim of
        # certainty that covered an accuracy near 1 21% of the time with 4 items and 3 seeds)
        ([1.0, 1.0, 1.0, NAN], (0.0, 1.0), (NAN, NAN, 3, "degenerate")),
        ([0.25, 0.25, 0.25], (-1.0, 1.0), (NAN, NAN, 3, "degenerate")),
        # too few seeds: no interval at all
        ([0.0, 1.0], (0.0, 1.0), (NAN, NAN, 2, "too_few_seeds")),
        ([0.3], (-1.0, 1.0), (NAN, NAN, 1, "too_few_seeds")),
        ([NAN], (-1.0, 1.0), (NAN, NAN, 0, "undefined")),
    ],
)
def test_bounded_seed_interval(
    values: list[float], bounds: tuple[float, float], expected: tuple[float, float, int, str]
) -> None:
    got = bounded_seed_interval(values, bounds)
    low, high, n, status = expected
    assert (got.n, got.status) == (n, status)
    for value, want in ((got.lo, low), (got.hi, high)):
        assert math.isnan(value) if math.isnan(want) else value == pytest.approx(want)
    if not math.isnan(got.lo):
        assert bounds[0] <= got.lo <= got.mean <= got.hi <= bounds[1]


@pytest.mark.parametrize(
    ("status", "n", "expected"),
    [
        ("ok", 5, None),
        ("clipped", 5, None),
        (
            "degenerate",
            3,
            "every one of the 3 seeds gave the same value: no spread across seeds, "
            "not certainty (no interval)",
        ),
        ("too_few_seeds", 1, "1 seed defines the score: fewer than 3"),
        ("undefined", 0, "no seed defines the score"),
    ],
)
def test_interval_reason(status: str, n: int, expected: str | None) -> None:
    assert interval_reason(status, n) == expected


# The one status-to-reason helper, in the words of each interval that uses it (the texts are
# those the three copies it replaced wrote: results.json keeps them byte for byte).
@pytest.mark.parametrize(
    ("words", "minimum", "status", "n", "expected"),
    [
        (
            "jackknife",
            2,
            "degenerate",
            20,
            "every one of the 20 item groups left the metric "
            "unchanged: no spread across items, not certainty (no interval)",
        ),
        ("jackknife", 2, "too_few_items", 1, "1 item group(s) carry the metric: fewer than 2"),
        ("jackknife", 2, "undefined", 0, "no seed defines the metric"),
        ("jackknife", 2, "ok", 20, None),
        (
            "paired",
            3,
            "degenerate",
            4,
            "every one of the 4 paired items has the same difference: "
            "no spread across items, not certainty (no interval)",
        ),
        ("paired", 3, "too_few_seeds", 2, "2 paired item(s): fewer than 3"),
        ("paired", 3, "undefined", 0, "no paired item"),
        ("paired", 3, "clipped", 9, None),
        ("items", 2, "too_few_items", 1, "1 item carries the score: fewer than 2"),
        ("seeds", 3, "too_few_seeds", 2, "2 seeds define the score: fewer than 3"),
    ],
)
def test_status_reason_in_each_intervals_words(
    words: str, minimum: int, status: str, n: int, expected: str | None
) -> None:
    from biasbench.benchmarks.mbbq.control import PAIRED_WORDS
    from biasbench.engines.bbq_family.scoring.dataset_scores import JACKKNIFE_WORDS
    from biasbench.stats.intervals import ITEM_WORDS, SEED_WORDS, status_reason

    chosen = {
        "jackknife": JACKKNIFE_WORDS,
        "paired": PAIRED_WORDS,
        "items": ITEM_WORDS,
        "seeds": SEED_WORDS,
    }[words]
    assert status_reason(status, n, chosen, minimum) == expected


def test_bounded_seed_interval_rejects_values_off_the_scale() -> None:
    with pytest.raises(ValueError, match="outside"):
        bounded_seed_interval([0.5, 1.5, 0.2], (0.0, 1.0))


# --------------------------------------------------------------------------- round 3, item 1


def _ratio_reference(y: list[float], x: list[float]) -> tuple[float, float]:
    """Independent arithmetic: R +- t_{k-1} * linearised SE of sum(y) / sum(x)."""
    from scipy.stats import t as student

    ya, xa = np.asarray(y, float), np.asarray(x, float)
    r, k = ya.sum() / xa.sum(), len(y)
    se = np.sqrt(((ya - r * xa) ** 2).sum() / (k * (k - 1))) / xa.mean()
    half = student.ppf(0.975, k - 1) * se
    return r - half, r + half


@pytest.mark.parametrize(
    ("y", "x", "bounds", "status"),
    [
        ([3, 2, 3, 1, 3, 2, 2, 3], [3] * 8, (0.0, 1.0), "ok"),  # accuracy over 8 items x 3 seeds
        (
            [1, -1, 1, -1, 3, 1, -1, 1, 1, -1],
            [1, 1, 1, 1, 3, 1, 1, 1, 1, 1],
            (-1.0, 1.0),
            "clipped",
        ),  # s_DIS, unequal
        ([1, -1, 3, 1, 0, 1], [1, 1, 3, 3, 2, 1], (-1.0, 1.0), "clipped"),  # denominators
        ([3, 2, 3, 1, 3], [3, 3, 3, 3, 3], (0.0, 1.0), "clipped"),  # 5 items: reaches past 1
        ([1, 1, 1, 0], [1, 1, 1, 1], (0.0, 1.0), "clipped"),  # one seed, near 1
    ],
)
def test_item_ratio_interval_hand_values(
    y: list[float], x: list[float], bounds: tuple[float, float], status: str
) -> None:
    low, high, got, k = item_ratio_interval(y, x, bounds)
    ref_low, ref_high = _ratio_reference(y, x)
    assert (str(got), k) == (status, len(y))
    assert low == pytest.approx(max(bounds[0], ref_low))
    assert high == pytest.approx(min(bounds[1], ref_high))


@pytest.mark.parametrize(
    ("y", "x", "status", "k"),
    [
        ([3, 3, 3, 3], [3, 3, 3, 3], "degenerate", 4),  # every item right in every seed
        ([1, 0], [1, 1], "too_few_seeds", 2),  # two items: too few units
        ([0, 0], [0, 0], "undefined", 0),  # nothing to divide
        ([1, 0, 2, 5], [1, 1, 0, 0], "too_few_seeds", 2),  # items with x = 0 carry nothing
    ],
)
def test_item_ratio_interval_undefined(y: list[float], x: list[float], status: str, k: int) -> None:
    low, high, got, n = item_ratio_interval(y, x, (0.0, 1.0))
    assert (str(got), n) == (status, k) and math.isnan(low) and math.isnan(high)


def test_item_ratio_interval_is_centred_on_the_given_score() -> None:
    y = [3, 2, 3, 1, 3, 2, 2, 3]
    low, high, _, _ = item_ratio_interval(y, [3] * 8, (0.0, 1.0), center=0.7)
    ref_low, ref_high = _ratio_reference(y, [3] * 8)
    assert (low + high) / 2 == pytest.approx(0.7)
    assert high - low == pytest.approx(ref_high - ref_low)
