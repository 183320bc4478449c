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
ALL_ORDERS: Final[tuple[Order, ...]] = tuple(
    itertools.permutations(range(3)))  # type: ignore[arg-type]
CYCLIC_ORDERS: Final[tuple[Order, ...]] = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
ORDER_SETS: Final = {"all": ALL_ORDERS, "cyclic": CYCLIC_ORDERS}
"""``--orders``: every permutation, or the 3 rotations (each option in each position once)."""
SAMPLE_SEED: Final = 20240611
"""Seed of the budget's balanced sampling (deterministic: a rerun asks the same cells)."""
_CELL_ID = re.compile(r"^(?P<uid>.+)~o(?P<order>[012]{3})~p(?P<prompt>[^~]+)$")


def parse_vary(text: str) -> tuple[str, ...]:
    """``seeds,order,prompt`` (any subset, any order; ``seed`` and ``orders`` accepted) as the
    factors in :data:`FACTORS` order; anything else is one error line."""
    aliases = {"seed": "seeds", "orders": "order", "prompts": "prompt"}
    chosen = [aliases.get(part.strip(), part.strip()) for part in text.split(",")]
    unknown = [part for part in chosen if part not in FACTORS]
    if unknown or not chosen:
        raise BiasbenchError(f"--vary takes a comma-separated subset of {', '.join(FACTORS)}, "
                             f"not {text!r}")
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
    info = {f"ans{j}": item.answer_info[f"ans{i}"] for j, i in enumerate(order)
            if f"ans{i}" in item.answer_info}
    update: dict[str, Any] = {f"ans{j}": answers[i] for j, i in enumerate(order)}
    update["answer_info"] = {**{k: v for k, v in item.answer_info.items()
                                if not re.fullmatch(r"ans[012]", k)}, **info}
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
            raise BiasbenchError(f"--orders must be one of {', '.join(ORDER_SETS)}, "
                                 f"not {self.orders!r}")
        if self.budget is not None and self.budget < 2:
            raise BiasbenchError(f"--grid-budget must be at least 2 (one cell varies nothing), "
                                 f"not {self.budget}")

    def levels(self, seeds: Sequence[int], prompts: Sequence[str]
               ) -> tuple[list[int], list[Order], list[str]]:
        """The levels of each factor: a factor not varied keeps its first level."""
        if "seeds" in self.vary and len(seeds) < 2:
            raise BiasbenchError("--vary seeds needs at least 2 seeds (give --seeds 5: seeds 0-4)")
        if "prompt" in self.vary and len(prompts) < 2:
            raise BiasbenchError("--vary prompt: this benchmark offers one prompt only")
        return (list(seeds) if "seeds" in self.vary else list(seeds[:1]),
                list(ORDER_SETS[self.orders]) if "order" in self.vary else [PUBLISHED_ORDER],
                list(prompts) if "prompt" in self.vary else list(prompts[:1]))

    def cells(self, seeds: Sequence[int], prompts: Sequence[str]) -> list[Cell]:
        """The cells asked: the full grid, or the budget's balanced sample of it."""
        s, o, p = self.levels(seeds, prompts)
        full = [Cell(seed, order, prompt) for seed in s for order in o for prompt in p]
        if self.budget is None or self.budget >= len(full):
            return full
        return balanced_sample(full, self.budget)

    def describe(self, seeds: Sequence[int], prompts: Sequence[str]) -> dict[str, Any]:
        """The grid as the signature and results record it."""
        s, o, p = self.levels(seeds, prompts)
        cells = self.cells(seeds, prompts)
        return {"vary": list(self.vary), "orders": self.orders, "budget": self.budget,
                "seeds": s, "option_orders": [order_text(x) for x in o], "prompts": p,
                "n_cells": len(cells), "n_full": len(s) * len(o) * len(p)}


def balanced_sample(cells: Sequence[Cell], n: int, seed: int = SAMPLE_SEED) -> list[Cell]:
    """``n`` of ``cells`` such that every level of every factor (seed, order, prompt) is used as
    often as the others, to within one, and every pair of factors as evenly as greedy choice
    allows: cells are taken one at a time, each time one whose levels have been used least so far
    (ties broken by a seeded shuffle), so the sample is deterministic."""
    pool = list(cells)
    random.Random(seed).shuffle(pool)
    used: dict[tuple[str, Any], int] = {}
    pairs: dict[tuple[str, Any, Any], int] = {}
    chosen: list[Cell] = []

    def cost(cell: Cell) -> tuple[int, int]:
        marginal = (used.get(("s", cell.seed), 0) + used.get(("o", cell.order), 0)
                    + used.get(("p", cell.prompt), 0))
        joint = (pairs.get(("so", cell.seed, cell.order), 0)
                 + pairs.get(("sp", cell.seed, cell.prompt), 0)
                 + pairs.get(("op", cell.order, cell.prompt), 0))
        worst = max(used.get(("s", cell.seed), 0), used.get(("o", cell.order), 0),
                    used.get(("p", cell.prompt), 0))
        return (worst * 1000 + marginal, joint)

    for _ in range(n):
        best = min(range(len(pool)), key=lambda i: cost(pool[i]))
        cell = pool.pop(best)
        chosen.append(cell)
        for key in (("s", cell.seed), ("o", cell.order), ("p", cell.prompt)):
            used[key] = used.get(key, 0) + 1
        for pair in (("so", cell.seed, cell.order), ("sp", cell.seed, cell.prompt),
                     ("op", cell.order, cell.prompt)):
            pairs[pair] = pairs.get(pair, 0) + 1
    return sorted(chosen)
