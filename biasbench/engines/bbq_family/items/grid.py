"""The robustness grid of a BBQ-format run (``--vary seeds,order,prompt``): which cells (seed x
answer-option order x prompt variant) every item is asked under, how a budget samples them, and
how a cell's request is named in the store.

Light on purpose (no pandas): the pipeline builds requests from it before anything is scored.

* **order**: a permutation ``(o0, o1, o2)`` shows the item's original option ``o_j`` at position
  ``j`` (A, B, C). ``all`` is the 6 permutations; ``cyclic`` the 3 rotations (a Latin square:
  each option in each position exactly once). The published order is ``012``.
* **prompt**: the variants the benchmark offers (:meth:`BBQBenchmark.prompt_variants`: KoBBQ's 5
  evaluation prompts, MBBQ's 5 per language, or the engine's alternatives of one prompt file);
  the first is the one a plain run sends.
* **seeds**: the run's seeds; a factor that is not varied stays at its first level (the first
  seed, the published order, the default prompt).

A cell's request has the item id ``UID~oORDER~pVARIANT`` (``Age:12~o120~p3``), decoded back when
scoring (:func:`decode_cell_id`). A plain run never goes through here, so its ids, keys and
results are unchanged; a grid cell with the published order and the default prompt has the same
prompt text, hence the same cache key, as the plain run's request.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import BiasbenchError

FACTORS: Final = ("seeds", "order", "prompt")
"""What ``--vary`` takes (comma-separated)."""
Order = tuple[int, int, int]
PUBLISHED_ORDER: Final[Order] = (0, 1, 2)
ALL_ORDERS: Final[tuple[Order, ...]] = tuple(itertools.permutations(range(3)))  # type: ignore[arg-type]
CYCLIC_ORDERS: Final[tuple[Order, ...]] = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
ORDER_SETS: Final = {"all": ALL_ORDERS, "cyclic": CYCLIC_ORDERS}
"""``--orders``: every permutation, or the 3 rotations (each option in each position once)."""
SAMPLE_SEED: Final = 20240611
"""Seed of the budget's balanced sampling (deterministic: a rerun asks the same cells)."""
MAX_GRID_CELLS: Final = 10_000
"""The most cells a run asks (the whole grid, or ``--grid-budget``): each is every item asked
once more."""
MAX_FULL_GRID: Final = 20_000
"""The largest grid (seeds x option orders x prompt variants) built to sample a budget from:
refused before it is built (--seeds is at most 1,000, x 6 orders x the benchmark's prompts)."""
_CELL_ID = re.compile(r"^(?P<uid>.+)~o(?P<order>[012]{3})~p(?P<prompt>[^~]+)$")


def parse_vary(text: str) -> tuple[str, ...]:
    """``seeds,order,prompt`` (any subset, any order; ``seed`` and ``orders`` accepted) as the
    factors in :data:`FACTORS` order; anything else is one error line."""
    aliases = {"seed": "seeds", "orders": "order", "prompts": "prompt"}
    chosen = [aliases.get(part.strip(), part.strip()) for part in text.split(",")]
    unknown = [part for part in chosen if part not in FACTORS]
    if unknown or not chosen:
        raise BiasbenchError(
            f"--vary takes a comma-separated subset of {', '.join(FACTORS)}, not {text!r}"
        )
    twice = sorted({f for f in chosen if chosen.count(f) > 1})
    if twice:  # a typo more likely than a wish ("order,order" for "order,prompt")
        raise BiasbenchError(f"--vary names {', '.join(twice)} twice in {text!r}")
    return tuple(f for f in FACTORS if f in chosen)


def order_text(order: Order) -> str:
    return "".join(str(i) for i in order)


def order_of(text: str) -> Order:
    order = tuple(int(c) for c in text)
    if sorted(order) != [0, 1, 2]:
        raise BiasbenchError(f"not an option order: {text!r}")
    return order  # type: ignore[return-value]


@dataclass(frozen=True, order=True)
class Cell:
    """One grid cell: a seed, an option order and a prompt variant."""

    seed: int
    order: Order
    prompt: str

    def item_id(self, uid: str) -> str:
        """The store's item id of ``uid`` under this cell."""
        return f"{uid}~o{order_text(self.order)}~p{self.prompt}"


def decode_cell_id(item_id: str) -> tuple[str, Order, str]:
    """``UID~oORDER~pVARIANT`` -> (uid, order, variant); anything else is an error (a grid run's
    responses all carry cell ids)."""
    match = _CELL_ID.match(item_id)
    if match is None:
        raise BiasbenchError(f"response {item_id!r} carries no grid cell (UID~oORDER~pVARIANT)")
    return match["uid"], order_of(match["order"]), match["prompt"]


def permuted_item(item: BBQItem, order: Order) -> BBQItem:
    """``item`` with its options shown in ``order`` (position j holds option ``order[j]``):
    answers, answer_info, label and target_answer move together, so the permuted item is scored
    exactly as the original; an index ``j`` chosen on it is option ``order[j]`` of the original."""
    if order == PUBLISHED_ORDER:
        return item
    answers = item.answers
    info = {
        f"ans{j}": item.answer_info[f"ans{i}"]
        for j, i in enumerate(order)
        if f"ans{i}" in item.answer_info
    }
    update: dict[str, Any] = {f"ans{j}": answers[i] for j, i in enumerate(order)}
    update["answer_info"] = {
        **{k: v for k, v in item.answer_info.items() if not re.fullmatch(r"ans[012]", k)},
        **info,
    }
    update["label"] = order.index(item.label)
    if item.target_answer is not None:
        update["target_answer"] = order.index(item.target_answer)
    return item.model_copy(update=update)


@dataclass(frozen=True)
class Grid:
    """What ``--vary``, ``--orders`` and ``--grid-budget`` ask for."""

    vary: tuple[str, ...]
    """The factors varied (:data:`FACTORS`)."""
    orders: str = "all"
    """``all`` (6 permutations) or ``cyclic`` (3 rotations)."""
    budget: int | None = None
    """At most this many cells, sampled balanced (:func:`balanced_sample`); None: all."""

    def __post_init__(self) -> None:
        if self.orders not in ORDER_SETS:
            raise BiasbenchError(
                f"--orders must be one of {', '.join(ORDER_SETS)}, not {self.orders!r}"
            )
        if self.budget is not None and self.budget < 2:
            raise BiasbenchError(
                f"--grid-budget must be at least 2 (one cell varies nothing), not {self.budget}"
            )
        if self.budget is not None and self.budget > MAX_GRID_CELLS:
            raise BiasbenchError(
                f"--grid-budget must be at most {MAX_GRID_CELLS:,} (each cell "
                f"asks every item once more), not {self.budget:,}"
            )

    def levels(
        self, seeds: Sequence[int], prompts: Sequence[str]
    ) -> tuple[list[int], list[Order], list[str]]:
        """The levels of each factor: a factor not varied keeps its first level."""
        if "seeds" in self.vary and len(seeds) < 2:
            raise BiasbenchError("--vary seeds needs at least 2 seeds (give --seeds 5: seeds 0-4)")
        if "prompt" in self.vary and len(prompts) < 2:
            raise BiasbenchError("--vary prompt: this benchmark offers one prompt only")
        return (
            list(seeds) if "seeds" in self.vary else list(seeds[:1]),
            list(ORDER_SETS[self.orders]) if "order" in self.vary else [PUBLISHED_ORDER],
            list(prompts) if "prompt" in self.vary else list(prompts[:1]),
        )

    def cells(self, seeds: Sequence[int], prompts: Sequence[str]) -> list[Cell]:
        """The cells asked: the full grid, or the budget's balanced sample of it."""
        s, o, p = self.levels(seeds, prompts)
        size = len(s) * len(o) * len(p)
        if self.budget is None and size > MAX_GRID_CELLS:
            raise BiasbenchError(
                f"the grid has {size:,} cells ({len(s):,} seeds x {len(o)} option orders x "
                f"{len(p)} prompts), more than the {MAX_GRID_CELLS:,} a run asks: pass "
                f"--grid-budget N (at most {MAX_GRID_CELLS:,}) or fewer --seeds"
            )
        if size > MAX_FULL_GRID:
            raise BiasbenchError(
                f"the grid has {size:,} cells ({len(s):,} seeds x {len(o)} option orders x "
                f"{len(p)} prompts); a budget is sampled from at most {MAX_FULL_GRID:,}: pass "
                "fewer --seeds or --orders cyclic"
            )
        full = [Cell(seed, order, prompt) for seed in s for order in o for prompt in p]
        if self.budget is None or self.budget >= len(full):
            return full
        return balanced_sample(full, self.budget)

    def describe(self, seeds: Sequence[int], prompts: Sequence[str]) -> dict[str, Any]:
        """The grid as the signature and results record it."""
        s, o, p = self.levels(seeds, prompts)
        cells = self.cells(seeds, prompts)
        return {
            "vary": list(self.vary),
            "orders": self.orders,
            "budget": self.budget,
            "seeds": s,
            "option_orders": [order_text(x) for x in o],
            "prompts": p,
            "n_cells": len(cells),
            "n_full": len(s) * len(o) * len(p),
        }


def balanced_sample(cells: Sequence[Cell], n: int, seed: int = SAMPLE_SEED) -> list[Cell]:
    """``n`` of ``cells`` such that every level of every factor (seed, order, prompt) is used as
    often as the others, to within one, and every pair of factors as evenly as greedy choice
    allows: cells are taken one at a time, each time one whose levels have been used least so far
    (ties broken by a seeded shuffle), so the sample is deterministic.

    Each choice scores every remaining cell at once with numpy (the counts of its levels and
    pairs looked up in arrays), the first lowest in the shuffled order winning as before: the
    same sample as a cell-by-cell scan, in O(n x cells) array operations rather than Python
    calls (the grid's bound, :data:`MAX_GRID_CELLS`, keeps that to seconds)."""
    import numpy as np

    pool = list(cells)
    random.Random(seed).shuffle(pool)
    if n <= 0 or not pool:
        return []
    codes = []
    for attribute in ("seed", "order", "prompt"):
        levels = {
            value: i for i, value in enumerate(dict.fromkeys(getattr(c, attribute) for c in pool))
        }
        codes.append(np.array([levels[getattr(c, attribute)] for c in pool], dtype=np.int64))
    s, o, p = codes
    ns, no, np_ = int(s.max()) + 1, int(o.max()) + 1, int(p.max()) + 1
    used_s, used_o, used_p = (np.zeros(k, dtype=np.int64) for k in (ns, no, np_))
    so, sp, op = (
        np.zeros((ns, no), np.int64),
        np.zeros((ns, np_), np.int64),
        np.zeros((no, np_), np.int64),
    )
    taken = np.zeros(len(pool), dtype=bool)
    scale = 4 * len(pool) + 1  # above any joint count: the key orders (primary, joint)
    chosen: list[Cell] = []
    for _ in range(min(n, len(pool))):
        a, b, c = used_s[s], used_o[o], used_p[p]
        primary = np.maximum(np.maximum(a, b), c) * 1000 + a + b + c
        joint = so[s, o] + sp[s, p] + op[o, p]
        key = primary * scale + joint
        key[taken] = np.iinfo(np.int64).max
        best = int(np.argmin(key))  # the first lowest, as min() over the pool's order
        taken[best] = True
        chosen.append(pool[best])
        i, j, k = s[best], o[best], p[best]
        used_s[i] += 1
        used_o[j] += 1
        used_p[k] += 1
        so[i, j] += 1
        sp[i, k] += 1
        op[j, k] += 1
    return sorted(chosen)
