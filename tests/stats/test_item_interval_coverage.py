"""The default interval (items+seeds) on item populations where every item answers nearly
always alike under its seeds: small, seeded versions of measurements/interval_coverage.py's
confident-model rows. Before the pseudo-items, items that agreed gave a variance near 0 and an
interval as narrow as if every answer were independent: 24 items all answered right under 50
seeds gave [0.997, 1] for a population whose accuracy is 0.95."""

from __future__ import annotations

import numpy as np
import pytest

from biasbench.stats import ACCURACY_BOUNDS, BIAS_BOUNDS, item_cluster_interval


def _coverage(
    rng: np.random.Generator, n_items: int, n_seeds: int, share_wrong: float, reps: int
) -> float:
    """Accuracy over an item population where a share of the items is answered wrong under
    99.9% of seeds and the rest right under 99.9%: how often the interval holds the truth."""
    truth = share_wrong * 0.001 + (1 - share_wrong) * 0.999
    hits = 0
    for _ in range(reps):
        wrong = rng.random(n_items) < share_wrong
        p_right = np.where(wrong, 0.001, 0.999)
        right = rng.binomial(n_seeds, p_right)
        low, high, _, _ = item_cluster_interval(right, np.full(n_items, n_seeds), ACCURACY_BOUNDS)
        hits += low <= truth <= high
    return hits / reps


@pytest.mark.parametrize(("n_items", "n_seeds"), [(4, 50), (24, 50), (24, 5), (4, 1)])
def test_confident_population_is_covered(n_items: int, n_seeds: int) -> None:
    # 300 runs: a coverage of 0.95 reads as 0.92 or more with 98% probability; the old
    # interval covered 71% at 24 items x 50 seeds and 66% at 4 x 50
    assert _coverage(np.random.default_rng(11), n_items, n_seeds, 0.05, 300) >= 0.92


@pytest.mark.parametrize("n_items", [4, 24, 200])
def test_agreeing_items_count_once_each(n_items: int) -> None:
    """Every item right under each of 50 seeds: with one pseudo-item at each end the effective
    sample size is k (k - 1) / (k + 2) -- about the k items, as in a Clopper-Pearson interval
    over the items -- not the 50 k answers (the lower end was 0.997 at 24 items)."""
    from scipy.stats import norm, t

    low, high, status, k = item_cluster_interval(
        np.full(n_items, 50), np.full(n_items, 50), ACCURACY_BOUNDS
    )
    assert str(status) == "ok" and k == n_items and high == 1.0
    n_eff = (
        n_items * (n_items - 1) / (n_items + 2) * (norm.ppf(0.975) / t.ppf(0.975, n_items - 1)) ** 2
    )
    assert low == pytest.approx(0.025 ** (1 / n_eff))


def test_varied_items_keep_the_seeds_information() -> None:
    """200 items at p = 0.5 each, 50 seeds: the pseudo-items weigh little, the interval stays
    near the binomial one of 10,000 answers (+-0.01), not the one of 200 items (+-0.07)."""
    rng = np.random.default_rng(3)
    y = rng.binomial(50, 0.5, 200) * 2.0 - 50  # s_AMB-like numerators in [-50, 50]
    low, high, _, _ = item_cluster_interval(y, np.full(200, 50.0), BIAS_BOUNDS)
    assert high - low < 0.06
