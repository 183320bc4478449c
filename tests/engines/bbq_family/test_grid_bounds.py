"""The robustness grid's bounds: a grid of more cells than a run asks (MAX_GRID_CELLS) is refused
before it is built, unless a --grid-budget samples it; a budget is sampled from a grid of at most
MAX_FULL_GRID cells in seconds (vectorised, the same cells as the cell-by-cell greedy scan)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from biasbench.engines.bbq_family.items.grid import (
    ALL_ORDERS,
    MAX_GRID_CELLS,
    Cell,
    Grid,
    balanced_sample,
)
from biasbench.errors import BiasbenchError
from biasbench.testing.grid_effect import grid_items, write_items
from tests.running import CliRun

PROMPTS = ["a", "b", "c"]
ALL = ("seeds", "order", "prompt")


def reference_sample(cells: list[Cell], n: int, seed: int = 20240611) -> list[Cell]:
    """The greedy scan, cell by cell (the definition the vectorised sample must equal)."""
    pool = list(cells)
    random.Random(seed).shuffle(pool)
    used: dict[tuple[str, Any], int] = {}
    pairs: dict[tuple[str, Any, Any], int] = {}
    chosen = []

    def cost(c: Cell) -> tuple[int, int]:
        levels = [
            used.get(("s", c.seed), 0),
            used.get(("o", c.order), 0),
            used.get(("p", c.prompt), 0),
        ]
        joint = (
            pairs.get(("so", c.seed, c.order), 0)
            + pairs.get(("sp", c.seed, c.prompt), 0)
            + pairs.get(("op", c.order, c.prompt), 0)
        )
        return max(levels) * 1000 + sum(levels), joint

    for _ in range(n):
        cell = pool.pop(min(range(len(pool)), key=lambda i: cost(pool[i])))
        chosen.append(cell)
        for key in (("s", cell.seed), ("o", cell.order), ("p", cell.prompt)):
            used[key] = used.get(key, 0) + 1
        for pair in (
            ("so", cell.seed, cell.order),
            ("sp", cell.seed, cell.prompt),
            ("op", cell.order, cell.prompt),
        ):
            pairs[pair] = pairs.get(pair, 0) + 1
    return sorted(chosen)


@pytest.mark.parametrize(
    ("seeds", "orders", "prompts", "n"),
    [
        (5, 6, 3, 7),
        (10, 6, 4, 50),
        (3, 3, 1, 5),
        (20, 6, 5, 333),
        (1, 6, 2, 4),
        (30, 6, 3, 200),
        (4, 2, 2, 16),
    ],
)
def test_the_sample_is_the_greedy_scans(seeds: int, orders: int, prompts: int, n: int) -> None:
    cells = [
        Cell(s, o, f"p{p}")
        for s in range(seeds)
        for o in ALL_ORDERS[:orders]
        for p in range(prompts)
    ]
    assert balanced_sample(cells, n) == reference_sample(cells, n)


def test_a_grid_larger_than_a_run_asks_is_refused_before_it_is_built() -> None:
    with pytest.raises(
        BiasbenchError,
        match=r"the grid has 18,000 cells \(1,000 seeds x 6 "
        r"option orders x 3 prompts\), more than the 10,000 a run asks",
    ):
        Grid(ALL).cells(range(1000), PROMPTS)


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        (MAX_GRID_CELLS + 1, "--grid-budget must be at most 10,000"),
        (10**30, "--grid-budget must be at most 10,000"),
    ],
)
def test_a_budget_above_the_maximum_is_refused(budget: int, message: str) -> None:
    with pytest.raises(BiasbenchError, match=message):
        Grid(ALL, budget=budget)


def test_a_budget_of_the_largest_grid_is_sampled_in_seconds() -> None:
    started = time.process_time()
    cells = Grid(ALL, budget=600).cells(range(1000), PROMPTS)
    assert time.process_time() - started < 10
    assert len(cells) == 600
    assert {c.prompt for c in cells} == set(PROMPTS)
    assert len({c.seed for c in cells}) == 600  # 1,000 seeds: none used twice


def test_the_command_line_refuses_the_grid_in_one_line(
    biasbench_cli: CliRun, tmp_path: Path
) -> None:
    items = write_items(grid_items(2), tmp_path / "Age.jsonl")
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items,
        "--seeds",
        1000,
        "--vary",
        "seeds,order,prompt",
        "--out",
        tmp_path / "run",
    )
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "more than the 10,000 a run asks" in done.stderr
