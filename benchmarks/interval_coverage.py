"""Coverage of the BBQ-family intervals over a grid (round 3, item 1): what each interval covers.

Items differ: each has its own answer probabilities, drawn from a population, and every seed
answers every item afresh. For three scores (s_AMB near 0 on ambiguous items; accuracy near 1
on ambiguous items; s_DIS 0.6 on disambiguated items) and every cell of seeds (1, 3, 5, 10, 50)
x items (4, 24, 200), REPS runs score the draws as the code does (per-seed scores, their mean)
and build:

- ``seeds``: the interval across seeds (``bounded_seed_interval``), which covers the mean over
  seeds of *these* items;
- ``items``: the interval over items (``item_ratio_interval`` on the per-item totals over seeds,
  centred on the same mean), which is meant to cover the score over the item population.

Each cell prints, for the item-population value, the coverage of each interval among the runs
where it exists, and in brackets how often it exists (a degenerate or too-few-units interval is
not written). Run: ``PYTHONPATH=$PWD python benchmarks/interval_coverage.py [REPS]`` (default
400; about a minute).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from biasbench.stats import bounded_seed_interval, item_ratio_interval

SEEDS = (1, 3, 5, 10, 50)
ITEMS = (4, 24, 200)

Draw = Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray, np.ndarray]]


def _s_amb_items(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    unknown = rng.beta(18, 2, n)
    share = rng.beta(5, 5, n)
    return (1 - unknown) * share, (1 - unknown) * (1 - share), unknown


def _acc_items(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    unknown = rng.beta(49, 1, n)
    return (1 - unknown) / 2, (1 - unknown) / 2, unknown


def _s_dis_items(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    unknown = rng.beta(2, 18, n)
    share = rng.beta(8, 2, n)
    return (1 - unknown) * share, (1 - unknown) * (1 - share), unknown


# score: (item draw, population value, bounds)
SCENARIOS: dict[str, tuple[Draw, float, tuple[float, float]]] = {
    "s_AMB ~ 0": (_s_amb_items, 0.0, (-1.0, 1.0)),
    "acc ambig ~ 0.98": (_acc_items, 0.98, (0.0, 1.0)),
    "s_DIS 0.6": (_s_dis_items, 0.6, (-1.0, 1.0)),
}


def _per_item_seed(name: str, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(numerator, denominator) per item and seed; answers: 0 target, 1 other, 2 unknown."""
    target, unknown = (answers == 0).astype(float), (answers == 2).astype(float)
    non_unknown = 1 - unknown
    if name.startswith("acc"):
        return unknown, np.ones_like(unknown)  # ambiguous: the unknown answer is correct
    if name.startswith("s_AMB"):
        return 2 * target - non_unknown, np.ones_like(unknown)
    return 2 * target - non_unknown, non_unknown


def run(reps: int) -> None:
    rng = np.random.default_rng(2026)
    print("| score | items | " + " | ".join(f"{s} seeds: items / seeds" for s in SEEDS) + " |")
    print("|:--|--:|" + "--:|" * len(SEEDS))
    for name, (draw, truth, bounds) in SCENARIOS.items():
        for n_items in ITEMS:
            cells = []
            for n_seeds in SEEDS:
                hit = {"items": 0, "seeds": 0}
                made = {"items": 0, "seeds": 0}
                for _ in range(reps):
                    p_t, p_o, p_u = draw(rng, n_items)
                    u = rng.random((n_seeds, n_items))
                    answers = np.where(u < p_t, 0, np.where(u < p_t + p_o, 1, 2))
                    num, den = _per_item_seed(name, answers)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        per_seed = num.sum(axis=1) / den.sum(axis=1)
                    center = float(np.nanmean(per_seed)) if np.isfinite(per_seed).any() \
                        else float("nan")
                    low, high, _, _ = item_ratio_interval(num.sum(axis=0), den.sum(axis=0),
                                                          bounds, center=center)
                    seed = bounded_seed_interval(per_seed, bounds)
                    for key, (lo, hi) in (("items", (low, high)), ("seeds", (seed.lo, seed.hi))):
                        if np.isfinite(lo):
                            made[key] += 1
                            hit[key] += lo <= truth <= hi
                parts = []
                for key in ("items", "seeds"):
                    share = f"{hit[key] / made[key]:.0%}" if made[key] else "—"
                    parts.append(f"{share} ({made[key] / reps:.0%})")
                cells.append(" / ".join(parts))
            print(f"| {name} | {n_items} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
