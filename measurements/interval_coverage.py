"""Coverage of the BBQ-family default interval (items+seeds) over item populations: each
interval against the score over the *item population* it names.

Items differ: each has its own answer probabilities (target, other, unknown), drawn from a
population, and every seed answers every item afresh. For each population (a row of
:data:`POPULATIONS`: the next population is one line), each score it lists and every cell of
seeds x items, REPS runs score the draws as the code does (per-seed scores, their mean as the
centre, per-item totals over seeds) and build results.json's ``ci_low``/``ci_high``
(``item_cluster_interval``). The population value of each score is a ratio of expectations over
items, computed once from 2,000,000 drawn items.

Each cell prints the coverage among the runs where the interval exists, its standard error
(binomial, over those runs), and how often it exists (an interval that does not exist is marked
in results.json with its reason, ``too_few_items``: s_DIS when fewer than 2 items have a
non-unknown answer). On an older checkout the same script prints that checkout's figures (the
"before" of docs/statistics.md).

Run: ``PYTHONPATH=$PWD python measurements/interval_coverage.py [--reps N] [--quick]``
(``--quick``: 200 runs per cell, seeds 1/5/50, items 4/24/200; about two minutes).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

import numpy as np

from biasbench.stats import item_cluster_interval

Probabilities = tuple[np.ndarray, np.ndarray, np.ndarray]
Draw = Callable[[np.random.Generator, int], Probabilities]
TRUTH_ITEMS = 2_000_000
BOUNDS = {"acc_ambig": (0.0, 1.0), "s_amb": (-1.0, 1.0), "s_dis": (-1.0, 1.0)}


def beta_items(unknown: tuple[float, float], share: tuple[float, float]) -> Draw:
    """P(unknown) ~ Beta(unknown), the target's share of the other answers ~ Beta(share)."""

    def draw(rng: np.random.Generator, n: int) -> Probabilities:
        u, s = rng.beta(*unknown, n), rng.beta(*share, n)
        return (1 - u) * s, (1 - u) * (1 - s), u

    return draw


def confident(p_dominant: float, weights: tuple[float, float, float]) -> Draw:
    """A confident model: each item has one answer it gives under ``p_dominant`` of the seeds
    (target, other or unknown with ``weights``), the rest split between the other two."""

    def draw(rng: np.random.Generator, n: int) -> Probabilities:
        choice = rng.choice(3, size=n, p=np.asarray(weights))
        probs = np.full((n, 3), (1 - p_dominant) / 2)
        probs[np.arange(n), choice] = p_dominant
        return probs[:, 0], probs[:, 1], probs[:, 2]

    return draw


# name: (item population, scores checked on it)
POPULATIONS: dict[str, tuple[Draw, tuple[str, ...]]] = {
    "varied, s_AMB ~ 0": (beta_items((18, 2), (5, 5)), ("s_amb",)),
    "varied, acc ~ 0.98": (
        lambda rng, n: (lambda u: ((1 - u) / 2, (1 - u) / 2, u))(rng.beta(49, 1, n)),
        ("acc_ambig", "s_amb"),
    ),
    "varied, s_DIS 0.6": (beta_items((2, 18), (8, 2)), ("s_dis",)),
    "confident 0.95 (target .6, other .25, unknown .15)": (
        confident(0.95, (0.6, 0.25, 0.15)),
        ("acc_ambig", "s_amb", "s_dis"),
    ),
    "near-deterministic 0.995 (target .6, other .25, unknown .15)": (
        confident(0.995, (0.6, 0.25, 0.15)),
        ("acc_ambig", "s_amb", "s_dis"),
    ),
    "near-deterministic 0.995, mostly unknown (.05, .05, .9)": (
        confident(0.995, (0.05, 0.05, 0.9)),
        ("acc_ambig", "s_amb", "s_dis"),
    ),
    "near-deterministic 0.999, 5% wrong items (.025, .025, .95)": (
        confident(0.999, (0.025, 0.025, 0.95)),
        ("acc_ambig", "s_amb"),
    ),
    "near-deterministic 0.999, 1% wrong items (.005, .005, .99)": (
        confident(0.999, (0.005, 0.005, 0.99)),
        ("acc_ambig",),
    ),
    "FilBBQ template: near-deterministic 0.99, s_DIS (.7, .3, 0)": (
        confident(0.99, (0.7, 0.3, 0.0)),
        ("s_dis",),
    ),
}


def population_value(draw: Draw, score: str, rng: np.random.Generator) -> float:
    p_t, p_o, p_u = draw(rng, TRUTH_ITEMS)
    if score == "acc_ambig":
        return float(p_u.mean())
    if score == "s_amb":
        return float((p_t - p_o).mean())
    return float((p_t - p_o).mean() / (1 - p_u).mean())


def _answers(rng: np.random.Generator, probs: Probabilities, n_seeds: int) -> np.ndarray:
    """0 target, 1 other, 2 unknown; one row per seed."""
    p_t, p_o, _ = probs
    u = rng.random((n_seeds, p_t.size))
    return np.where(u < p_t, 0, np.where(u < p_t + p_o, 1, 2))


def per_item_seed(score: str, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(numerator, denominator) per seed and item, as ITEM_SCORES defines them."""
    target, unknown = (answers == 0).astype(float), (answers == 2).astype(float)
    non_unknown = 1 - unknown
    if score == "acc_ambig":
        return unknown, np.ones_like(unknown)  # ambiguous: the unknown answer is correct
    if score == "s_amb":
        return 2 * target - non_unknown, np.ones_like(unknown)
    return 2 * target - non_unknown, non_unknown


def cell(
    rng: np.random.Generator,
    draw: Draw,
    score: str,
    truth: float,
    n_items: int,
    n_seeds: int,
    reps: int,
) -> tuple[int, int]:
    """(runs with an interval, runs where it held the population value)."""
    made = hits = 0
    for _ in range(reps):
        num, den = per_item_seed(score, _answers(rng, draw(rng, n_items), n_seeds))
        with np.errstate(invalid="ignore", divide="ignore"):
            per_seed = num.sum(axis=1) / den.sum(axis=1)
        if not np.isfinite(per_seed).any():
            continue
        low, high, _, _ = item_cluster_interval(
            num.sum(axis=0), den.sum(axis=0), BOUNDS[score], center=float(np.nanmean(per_seed))
        )
        if math.isfinite(low):
            made += 1
            hits += low <= truth <= high
    return made, hits


def run(reps: int, seeds: tuple[int, ...], items: tuple[int, ...]) -> None:
    rng = np.random.default_rng(2026)
    print(
        f"default interval (items+seeds); {reps} runs per cell; coverage of the population "
        "value among runs with an interval +- its standard error (share of runs with one)\n"
    )
    header = " | ".join(f"{k} items x {s} seeds" for k in items for s in seeds)
    print(f"| population | score | value | {header} |")
    print("|:--|:--|--:|" + "--:|" * (len(items) * len(seeds)))
    lowest = (1.0, "")
    for name, (draw, scores) in POPULATIONS.items():
        for score in scores:
            truth = population_value(draw, score, rng)
            cells = []
            for n_items in items:
                for n_seeds in seeds:
                    made, hits = cell(rng, draw, score, truth, n_items, n_seeds, reps)
                    if not made:
                        cells.append("none (0%)")
                        continue
                    share = hits / made
                    se = math.sqrt(share * (1 - share) / made)
                    exists = "" if made == reps else f" ({made / reps:.0%})"
                    cells.append(f"{share:.1%} +- {se:.1%}{exists}")
                    if made >= reps / 2 and share < lowest[0]:
                        lowest = (share, f"{name} / {score} / {n_items} items x {n_seeds} seeds")
            print(f"| {name} | {score} | {truth:+.3f} | " + " | ".join(cells) + " |", flush=True)
    print(
        f"\nlowest coverage where the interval exists in at least half the runs: "
        f"{lowest[0]:.1%} ({lowest[1]})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="200 runs per cell")
    args = parser.parse_args()
    run(200 if args.quick else args.reps, (1, 5, 50), (4, 24, 200))


if __name__ == "__main__":
    main()
