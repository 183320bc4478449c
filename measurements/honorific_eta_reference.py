"""The size of eta-squared(occupation)'s no-effect reference (honorific-bn) under no-effect
models whose he and she sentences agree, as real models' do.

Each population (a row of :data:`POPULATIONS`; the next one is one line) is a model with no
occupation effect and no gender effect: 72 occupations x 7 frames (504 pairs), every item
labelled honorific (1) or ordinary (0). ``agree`` is the chance that an item's she sentence gets
the same label as its he sentence at a propensity of 0.5 (0.5: independent, the docs'
fair-coin mock); ``frame_sd``
spreads the frames' honorific rates (a frame effect, which the reference keeps); ``sentence_sd``
gives each (occupation, frame) sentence its own propensity shared by its he/she/no-pronoun items
(sentence-level effects, no occupation effect on average); ``seeds`` draws that many labels per
item and keeps the majority (ties: the first seed), as ``majority_labels`` does.

For REPS models per row the script computes eta-squared(occupation) and its permutation p-value
two ways, with B permutations each:

- ``current``: the code's reference, imported from wherever this checkout has it
  (``biasbench.engines.honorific...`` after the move, ``biasbench.benchmarks.honorific_bn.
  reference`` before): the male and the female labels permuted across occupations within each
  frame *separately*, which breaks the he/she pairs;
- ``paired``: each item's (he, she) pair permuted together across occupations within its frame
  (one permutation per frame applied to both arrays): the fix proposed in docs/statistics.md.

It prints the share of models with p <= 0.05 (the size; a right one is about 5%) with its
standard error, the mean observed eta-squared and the reference's mean.

Run: ``PYTHONPATH=$PWD python measurements/honorific_eta_reference.py [--reps N] [--quick]``.
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np

OCCUPATIONS, FRAMES = 72, 7

# name: (agree, frame_sd, sentence_sd, seeds)
POPULATIONS: dict[str, tuple[float, float, float, int]] = {
    "fair coin, he/she independent (the docs' mock)": (0.5, 0.0, 0.0, 1),
    "he/she agree 95%": (0.95, 0.0, 0.0, 1),
    "he/she agree 95%, frame effects (sd 0.15)": (0.95, 0.15, 0.0, 1),
    "he/she agree 95%, sentence effects (sd 0.2), 3 seeds": (0.95, 0.0, 0.2, 3),
    "he/she agree 80%": (0.8, 0.0, 0.0, 1),
}


def _module() -> Any:
    for name in (
        "biasbench.engines.honorific.reference",
        "biasbench.engines.honorific.no_effect",
        "biasbench.benchmarks.honorific_bn.reference",
    ):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "no_effect_null") and hasattr(module, "ItemLabels"):
            return module
    raise SystemExit("no honorific no-effect reference (no_effect_null) in this checkout")


def _draw(
    rng: np.random.Generator, agree: float, frame_sd: float, sentence_sd: float, seeds: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(no-pronoun, male, female) labels, (occupations x frames), majority over ``seeds``."""
    shape = (OCCUPATIONS, FRAMES)
    base = np.clip(
        0.5 + rng.normal(0, frame_sd, FRAMES)[None, :] + rng.normal(0, sentence_sd, shape),
        0.02,
        0.98,
    )
    votes = np.zeros((3, *shape))
    first = np.zeros((3, *shape))
    for seed in range(seeds):
        nopronoun = rng.random(shape) < base
        male = rng.random(shape) < base
        # she: a copy of the he label with chance 2 agree - 1, otherwise an independent draw,
        # so the two agree with chance `agree` where the propensity is 0.5
        copied = rng.random(shape) < 2 * agree - 1
        female = np.where(copied, male, rng.random(shape) < base)
        labels = np.stack([nopronoun, male, female]).astype(float)
        votes += labels
        if seed == 0:
            first = labels
    share = votes / seeds
    majority = np.where(share > 0.5, 1.0, np.where(share < 0.5, 0.0, first))
    return majority[0], majority[1], majority[2]


def paired_null(
    module: Any, male: np.ndarray, female: np.ndarray, reps: int, rng: np.random.Generator
) -> np.ndarray:
    """eta-squared(occupation) with each item's (he, she) pair permuted together across
    occupations within its frame (the same permutation of rows for both arrays)."""
    order = np.argsort(rng.random((reps, OCCUPATIONS, FRAMES)), axis=1)
    frames = np.arange(FRAMES)[None, None, :]
    return module._eta2_occupation(male[order, frames], female[order, frames])


def _p(null: np.ndarray, observed: float) -> float:
    null = null[np.isfinite(null)]
    return (1 + int((null >= observed - 1e-12).sum())) / (1 + null.size)


def run(reps: int, permutations: int) -> None:
    module = _module()
    eta: Callable[..., np.ndarray] = module._eta2_occupation
    print(
        f"reference: {module.__name__}.no_effect_null; {reps} models per row, {permutations} "
        "permutations each; size = share of models with p <= 0.05 (+- its standard error)\n"
    )
    print(
        "| population | eta2(occupation) observed, mean | current: reference mean | current: "
        "size | paired: reference mean | paired: size |"
    )
    print("|:--|--:|--:|--:|--:|--:|")
    rng = np.random.default_rng(33)
    for name, (agree, frame_sd, sentence_sd, seeds) in POPULATIONS.items():
        observed, current_mean, paired_mean = [], [], []
        current_hits = paired_hits = 0
        for rep in range(reps):
            nopronoun, male, female = _draw(rng, agree, frame_sd, sentence_sd, seeds)
            value = float(eta(male[None], female[None])[0])
            items = module.ItemLabels(nopronoun, male, female)
            current = module.no_effect_null(items, permutations, seed=1000 + rep)[
                "eta2_occupation_pct"
            ]
            paired = paired_null(module, male, female, permutations, rng)
            observed.append(value)
            current_mean.append(float(np.nanmean(current)))
            paired_mean.append(float(np.nanmean(paired)))
            current_hits += _p(current, value) <= 0.05
            paired_hits += _p(paired, value) <= 0.05

        def size(hits: int) -> str:
            share = hits / reps
            return f"{share:.1%} +- {math.sqrt(share * (1 - share) / reps):.1%}"

        print(
            f"| {name} | {np.mean(observed):.2f}% | {np.mean(current_mean):.2f}% | "
            f"{size(current_hits)} | {np.mean(paired_mean):.2f}% | {size(paired_hits)} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--permutations", type=int, default=499)
    parser.add_argument("--quick", action="store_true", help="300 models, 199 permutations")
    args = parser.parse_args()
    run(300 if args.quick else args.reps, 199 if args.quick else args.permutations)


if __name__ == "__main__":
    main()
