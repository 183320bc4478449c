"""The robustness grid (``--vary seeds,order,prompt``): cells and their ids, balanced budgets,
permuted items, and the variance decomposition recovering effects planted in a synthetic
answerer (seed, option order, prompt), with position bias and published vs balanced scores."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from biasbench.engines.bbq_family.benchmark import BBQBenchmark
from biasbench.engines.bbq_family.items.grid import (
    ALL_ORDERS,
    CYCLIC_ORDERS,
    Cell,
    Grid,
    balanced_sample,
    decode_cell_id,
    order_of,
    parse_vary,
    permuted_item,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.bias_scores import target_index
from biasbench.errors import BiasbenchError
from biasbench.pipeline import run_benchmark
from biasbench.registry import get_benchmark
from biasbench.testing.grid_effect import (
    ORDER_EFFECT,
    POSITION_A,
    PROMPT_EFFECT,
    SEED_EFFECT,
    PlantedAnswerer,
    grid_items,
    planted_sd,
    write_items,
)

# -- planted effects (biasbench.testing.grid_effect) ------------------------------------------
N_PER_CONDITION = 400
TOLERANCE_SD = 0.02
"""Recovered standard deviations (score units) within this of the planted ones: the residual
noise of a cell's s_DIS is about 2 * sqrt(0.25 / 400) = 0.05, so a level mean over 6-30 cells
misses by at most about 0.02."""


# -- the grid --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "factors"),
    [
        ("seeds,order,prompt", ("seeds", "order", "prompt")),
        ("prompt, order", ("order", "prompt")),
        ("seed", ("seeds",)),
    ],
)
def test_vary_reads_the_factors(text: str, factors: tuple[str, ...]) -> None:
    assert parse_vary(text) == factors


@pytest.mark.parametrize("text", ["", "temperature", "order,colour"])
def test_vary_refuses_other_factors(text: str) -> None:
    with pytest.raises(BiasbenchError, match="--vary takes"):
        parse_vary(text)


def test_cyclic_orders_put_each_option_in_each_position_once() -> None:
    for position in range(3):
        assert sorted(order[position] for order in CYCLIC_ORDERS) == [0, 1, 2]
    assert len(set(ALL_ORDERS)) == 6


def test_cell_ids_round_trip() -> None:
    cell = Cell(3, (1, 2, 0), "lines")
    assert cell.item_id("mbbq/es/Age:12") == "mbbq/es/Age:12~o120~plines"
    assert decode_cell_id("mbbq/es/Age:12~o120~plines") == ("mbbq/es/Age:12", (1, 2, 0), "lines")
    with pytest.raises(BiasbenchError, match="no grid cell"):
        decode_cell_id("Age:12")
    with pytest.raises(BiasbenchError):
        order_of("011")


def test_a_permuted_item_keeps_its_answer_and_target() -> None:
    item = grid_items(4)[5]  # disambiguated
    for order in ALL_ORDERS:
        shown = permuted_item(item, order)
        assert shown.answers[shown.label] == item.answers[item.label]
        assert [shown.answers[j] for j in range(3)] == [item.answers[i] for i in order]
        assert shown.answers[shown.unknown_index or 0] == "Cannot be determined"
        t, s = target_index(item), target_index(shown)
        assert t is not None and s is not None and shown.answers[s] == item.answers[t]


@pytest.mark.parametrize("budget", [7, 12, 20, 45])
def test_the_budget_samples_every_level_equally_often(budget: int) -> None:
    grid = Grid(("seeds", "order", "prompt"), budget=budget)
    cells = grid.cells([0, 1, 2], ["a", "b", "c", "d", "e"])
    assert len(cells) == budget == len(set(cells))
    for factor in ("seed", "order", "prompt"):
        counts = Counter(getattr(c, factor) for c in cells)
        levels = {"seed": 3, "order": 6, "prompt": 5}[factor]
        assert max(counts.values()) - min(counts.values()) <= 1, (factor, counts)
        assert len(counts) == min(levels, budget)
    assert cells == grid.cells([0, 1, 2], ["a", "b", "c", "d", "e"])  # deterministic
    assert balanced_sample(cells, len(cells)) == sorted(cells)


def test_factors_not_varied_stay_at_their_first_level() -> None:
    cells = Grid(("order",)).cells([5, 6], ["p1", "p2"])
    assert {(c.seed, c.prompt) for c in cells} == {(5, "p1")} and len(cells) == 6
    with pytest.raises(BiasbenchError, match="at least 2 seeds"):
        Grid(("seeds",)).cells([0], ["p"])
    with pytest.raises(BiasbenchError, match="one prompt only"):
        Grid(("prompt",)).cells([0], ["p"])


# -- runs ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def items_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[BBQItem], Path]:
    items = grid_items(N_PER_CONDITION)
    return items, write_items(items, tmp_path_factory.mktemp("grid") / "Age.jsonl")


def test_the_engines_prompt_variants_lay_the_options_out_otherwise(
    items_file: tuple[list[BBQItem], Path],
) -> None:
    bench = get_benchmark("bbq", items=str(items_file[1]))
    assert isinstance(bench, BBQBenchmark)
    assert bench.prompt_variants() == ("published", "lines")
    item = bench.items[0]
    published = bench.variant_prompt(item, "published").text_for("chat")
    lines = bench.variant_prompt(item, "lines").text_for("chat")
    assert published == bench.prompt(item).text_for("chat")
    assert lines.count("\n") == published.count("\n") + 3
    assert lines.replace("\n", " ").split() == published.split()


def test_a_plain_run_is_unchanged_by_the_grid_code(items_file: tuple[list[BBQItem], Path]) -> None:
    bench = get_benchmark("bbq", items=str(items_file[1]))
    requests = bench.requests(limit=12, seeds=[0, 1])
    assert [r.item_id for r in requests[:3]] == [i.uid for i in bench.selected_items(12)[:3]]
    assert "grid" not in bench.signature({}, None, [0, 1], 12).data_source
    with pytest.raises(BiasbenchError, match="need --vary"):
        get_benchmark("bbq", items=str(items_file[1]), grid_budget=4)


@pytest.fixture(scope="module")
def planted_run(
    items_file: tuple[list[BBQItem], Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    items, path = items_file
    run_dir = tmp_path_factory.mktemp("planted") / "run"
    result = run_benchmark(
        "bbq",
        backend=PlantedAnswerer(items),
        out=run_dir,
        seeds=[0, 1, 2],
        progress=False,
        benchmark_options={"items": str(path), "vary": "seeds,order,prompt"},
    )
    assert result.stats.failed == 0
    assert result.stats.total == len(items) * 3 * 6 * 2
    return {"results": result.results, "run_dir": run_dir, "summary": result.summary}


def test_the_decomposition_recovers_the_planted_effects(planted_run: dict[str, Any]) -> None:
    robustness = planted_run["results"]["robustness"]
    assert robustness["factors_varied"] == ["seed", "order", "prompt"]
    s_dis = robustness["decomposition"]["planted"]["Age"]["s_dis"]
    components = s_dis["components"]
    for factor, planted in (
        ("seed", SEED_EFFECT),
        ("order", ORDER_EFFECT),
        ("prompt", PROMPT_EFFECT),
    ):
        assert components[factor]["sd"] == pytest.approx(planted_sd(planted), abs=TOLERANCE_SD)
        assert components[factor]["p"] < 1e-3
    assert s_dis["largest"] == "seed"
    # the mean over the grid: 2 * (0.5 + mean effects) - 1
    expected_mean = 2 * (
        np.mean(list(SEED_EFFECT.values()))
        + np.mean(list(ORDER_EFFECT.values()))
        + np.mean(list(PROMPT_EFFECT.values()))
    )
    assert s_dis["mean"] == pytest.approx(expected_mean, abs=0.01)
    # the planted items are alike: no variance is shared by the cells from the item sample,
    # and a cell's answer noise (binomial: 2 * sqrt(p(1-p) / n) from 400 items) is the
    # residual's, not counted again as the item component (it was: item sd 0.05 = binomial)
    binomial = 2 * np.sqrt(0.25 / N_PER_CONDITION)
    assert components["item"]["sd"] < 0.4 * binomial
    assert components["residual"]["sd"] == pytest.approx(binomial, rel=0.25)
    # no effect planted on ambiguous accuracy by seed or prompt, only by order (position A)
    acc_ambig = robustness["decomposition"]["planted"]["Age"]["acc_ambig"]["components"]
    assert acc_ambig["seed"]["sd"] < 0.02 and acc_ambig["prompt"]["sd"] < 0.02
    assert acc_ambig["seed"]["p"] > 0.001 and acc_ambig["prompt"]["p"] > 0.001


def test_position_bias_and_published_order(planted_run: dict[str, Any]) -> None:
    robustness = planted_run["results"]["robustness"]
    position = robustness["position"]["planted"]
    assert position["gold_positions"] == 3
    # the planted preference for A acts in ambiguous contexts (half the answers); the
    # disambiguated answers follow the (balanced) orders
    assert position["gold_balanced"]["A"] == pytest.approx(
        0.5 * (1 + 2 * POSITION_A) / 3 + 0.5 / 3, abs=0.02
    )
    assert position["chi2_p"] < 1e-6
    published = robustness["published_vs_balanced"]["planted"]["Age"]["s_dis"]
    balanced = 2 * (
        np.mean(list(SEED_EFFECT.values()))
        + np.mean(list(ORDER_EFFECT.values()))
        + np.mean(list(PROMPT_EFFECT.values()))
    )
    assert published["order_balanced"] == pytest.approx(balanced, abs=0.02)
    assert published["published_order"] == pytest.approx(
        balanced + 2 * ORDER_EFFECT["012"], abs=0.03
    )
    assert published["n_orders"] == 6


def test_a_grid_run_writes_its_tables_figure_and_summary(planted_run: dict[str, Any]) -> None:
    run_dir = planted_run["run_dir"]
    assert (run_dir / "figures" / "grid_decomposition_planted.png").is_file()
    for name in (
        "grid_cells.csv",
        "grid_decomposition.csv",
        "grid_position_bias.md",
        "grid_published_vs_balanced.md",
    ):
        assert (run_dir / "tables" / name).is_file(), name
    results = json.loads((run_dir / "results.json").read_text())
    assert results["signature"]["data_source"]["grid"]["n_cells"] == 36
    assert any(
        line.startswith("robustness grid: 36 cells of 36") for line in planted_run["summary"]
    )


def test_a_grid_without_effects_shows_none(
    items_file: tuple[list[BBQItem], Path], tmp_path: Path
) -> None:
    # the no-effect reference: nothing planted, nothing significant, sds near the noise floor
    items, path = items_file
    backend = PlantedAnswerer(
        items, seed_effect={}, order_effect={}, prompt_effect={}, position_a=0.0
    )
    result = run_benchmark(
        "bbq",
        backend=backend,
        out=tmp_path / "run",
        seeds=[0, 1, 2],
        progress=False,
        benchmark_options={
            "items": str(path),
            "vary": "seeds,order,prompt",
            "orders": "cyclic",
            "grid_budget": 12,
        },
    )
    robustness = result.results["robustness"]
    assert robustness["grid"]["n_cells"] == 12
    components = robustness["decomposition"]["planted"]["Age"]["s_dis"]["components"]
    for factor in ("seed", "order", "prompt"):
        assert components[factor]["sd"] < 2.5 * components[factor]["null_sd"] + 0.01
        assert components[factor]["p"] > 0.001
    position = robustness["position"]["planted"]
    for letter in "ABC":
        assert position["gold_balanced"][letter] == pytest.approx(1 / 3, abs=0.03)


def _budget_cells(budget: int) -> pd.DataFrame:
    from biasbench.engines.bbq_family.items.grid import ALL_ORDERS, Cell, balanced_sample

    full = [
        Cell(seed, order, prompt)
        for seed in (0, 1, 2)
        for order in ALL_ORDERS
        for prompt in ("published", "lines")
    ]
    chosen = balanced_sample(full, budget)
    return pd.DataFrame(
        {
            "seed": [c.seed for c in chosen],
            "order": ["".join(map(str, c.order)) for c in chosen],
            "prompt": [c.prompt for c in chosen],
        }
    )


def test_a_budgets_f_tests_have_their_size_and_its_components_no_bias() -> None:
    """--grid-budget 12 of 36 cells (docs/filbbq.md's design), cell noise sd 0.069: with
    nothing planted the order F test rejects about 5% of the time (one-way sums of squares on
    the unbalanced cells: 12%), and with seed, order and prompt planted the order component is
    recovered (it came out 0.021 for 0.0072 planted); a small measurements/round4_numbers.py
    grid."""
    from biasbench.engines.bbq_family.scoring.robustness import anova_components

    cells = _budget_cells(12)
    codes = {f: pd.factorize(cells[f], sort=True)[0] for f in ("seed", "order", "prompt")}
    rng = np.random.default_rng(12)
    rejects, order_variance = 0, []
    reps = 300
    for _ in range(reps):
        null = cells.assign(y=rng.normal(0, 0.069, len(cells)))
        rejects += (
            anova_components(null, "y", ["seed", "order", "prompt"], 0.0)["components"]["order"][
                "p"
            ]
            < 0.05
        )
        y = rng.normal(0, 0.069, len(cells))
        for factor, sd in (("seed", 0.2), ("order", 0.085), ("prompt", 0.12)):
            y = y + rng.normal(0, sd, codes[factor].max() + 1)[codes[factor]]
        found = anova_components(cells.assign(y=y), "y", ["seed", "order", "prompt"], 0.0)
        order_variance.append(found["components"]["order"]["variance"])
    assert rejects / reps < 0.09
    assert np.mean(order_variance) == pytest.approx(0.085**2, abs=0.002)


def test_a_factor_the_cells_confound_is_not_estimable() -> None:
    from biasbench.engines.bbq_family.scoring.robustness import anova_components

    # prompt follows the seed exactly: the two cannot be told apart
    cells = pd.DataFrame(
        {
            "seed": [0, 0, 1, 1, 2, 2],
            "order": ["012", "120"] * 3,
            "prompt": ["a", "a", "b", "b", "c", "c"],
            "y": [0.1, 0.2, 0.3, 0.1, 0.0, 0.2],
        }
    )
    found = anova_components(cells, "y", ["seed", "order", "prompt"], 0.0)["components"]
    for factor in ("seed", "prompt"):
        assert found[factor]["estimable"] is False and found[factor]["p"] is None
        assert "confound" in found[factor]["reason"]
    assert found["order"]["p"] is not None
