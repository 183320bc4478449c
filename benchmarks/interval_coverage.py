"""Coverage of the BBQ-family intervals over a grid: each interval against
the quantity it names.

Items differ: each has its own answer probabilities, drawn from a population, and every seed
answers every item afresh. For three scores (s_AMB near 0 on ambiguous items; accuracy near 1
on ambiguous items; s_DIS 0.6 on disambiguated items) and every cell of seeds (1, 3, 5, 10, 50)
x items (4, 24, 200), REPS runs score the draws as the code does (per-seed scores, their mean)
and build:

- ``default``: results.json's ``ci_low``/``ci_high``. It is now the interval over
  items and their seeds (``item_cluster_interval``, "items+seeds"), and it names the score over
  the *item population*, so that is what it is checked against. On an older checkout, where
  ``ci_low``/``ci_high`` were the interval across seeds, the same column checks that interval
  against the same population value: the "before" figure.
- ``seeds``: the interval across seeds (``bounded_seed_interval``, ``seeds_ci_*``), which names
  the mean over seeds of *these* items: checked against that fixed-item value (for s_DIS the
  mean of the per-seed ratio over 2,000 fresh seeds of the same items).

Each cell prints the coverage among the runs where the interval exists and, in brackets, how
often it exists (a missing interval is no coverage: the ``all`` figure counts it as a miss).
Run: ``PYTHONPATH=$PWD python benchmarks/interval_coverage.py [REPS]`` (default 1000; about a
minute at 1,000).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from biasbench import stats
from biasbench.stats import bounded_seed_interval

SEEDS = (1, 3, 5, 10, 50)
ITEMS = (4, 24, 200)
FIXED_ITEM_SEEDS = 2000
ITEM_INTERVAL: Callable[..., tuple] | None = getattr(stats, "item_cluster_interval", None)

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


def _answers(rng: np.random.Generator, p_t: np.ndarray, p_o: np.ndarray,
             n_seeds: int) -> np.ndarray:
    """0 target, 1 other, 2 unknown; one row per seed."""
    u = rng.random((n_seeds, p_t.size))
    return np.where(u < p_t, 0, np.where(u < p_t + p_o, 1, 2))


def _per_item_seed(name: str, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(numerator, denominator) per item and seed."""
    target, unknown = (answers == 0).astype(float), (answers == 2).astype(float)
    non_unknown = 1 - unknown
    if name.startswith("acc"):
        return unknown, np.ones_like(unknown)  # ambiguous: the unknown answer is correct
    if name.startswith("s_AMB"):
        return 2 * target - non_unknown, np.ones_like(unknown)
    return 2 * target - non_unknown, non_unknown


def _per_seed(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return num.sum(axis=1) / den.sum(axis=1)


def _fixed_item_value(name: str, rng: np.random.Generator, p_t: np.ndarray, p_o: np.ndarray,
                      p_u: np.ndarray) -> float:
    """The mean over seeds of the per-seed score for these very items (what ``seeds`` names)."""
    if name.startswith("acc"):
        return float(p_u.mean())
    if name.startswith("s_AMB"):
        return float((p_t - p_o).mean())
    num, den = _per_item_seed(name, _answers(rng, p_t, p_o, FIXED_ITEM_SEEDS))
    return float(np.nanmean(_per_seed(num, den)))


def run(reps: int) -> None:
    rng = np.random.default_rng(2026)
    default = "items+seeds" if ITEM_INTERVAL else "seeds (this checkout's ci_low/ci_high)"
    print(f"default interval: {default}; {reps} runs per cell; coverage where it exists "
          "(how often it exists)\n")
    print("| score | items | " + " | ".join(f"{s} seed{'s' if s > 1 else ''}: default / seeds"
                                          for s in SEEDS) + " |")
    print("|:--|--:|" + "--:|" * len(SEEDS))
    worst = {"default": 1.0, "seeds": 1.0}
    for name, (draw, truth, bounds) in SCENARIOS.items():
        for n_items in ITEMS:
            cells = []
            for n_seeds in SEEDS:
                hit = {"default": 0, "seeds": 0}
                made = {"default": 0, "seeds": 0}
                for _ in range(reps):
                    p_t, p_o, p_u = draw(rng, n_items)
                    num, den = _per_item_seed(name, _answers(rng, p_t, p_o, n_seeds))
                    per_seed = _per_seed(num, den)
                    center = (float(np.nanmean(per_seed)) if np.isfinite(per_seed).any()
                              else float("nan"))
                    seed = bounded_seed_interval(per_seed, bounds)
                    if ITEM_INTERVAL is not None:
                        low, high, _, _ = ITEM_INTERVAL(num.sum(axis=0), den.sum(axis=0),
                                                        bounds, center=center)
                    else:
                        low, high = seed.lo, seed.hi
                    fixed = (_fixed_item_value(name, rng, p_t, p_o, p_u)
                             if np.isfinite(seed.lo) else float("nan"))
                    for key, (lo, hi, value) in (("default", (low, high, truth)),
                                                 ("seeds", (seed.lo, seed.hi, fixed))):
                        if np.isfinite(lo):
                            made[key] += 1
                            hit[key] += lo <= value <= hi
                parts = []
                for key in ("default", "seeds"):
                    if made[key]:
                        share = hit[key] / made[key]
                        if made[key] == reps:
                            worst[key] = min(worst[key], share)
                        parts.append(f"{share:.1%}" + ("" if made[key] == reps
                                                        else f" ({made[key] / reps:.0%})"))
                    else:
                        parts.append("— (0%)")
                cells.append(" / ".join(parts))
            print(f"| {name} | {n_items} | " + " | ".join(cells) + " |", flush=True)
    print(f"\nlowest coverage among cells where the interval always exists: default "
          f"{worst['default']:.1%}, seeds {worst['seeds']:.1%}")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
