"""The grid as a user runs it: ``biasbench run --vary ... --grid-budget`` with the
mock backend (results.json's robustness block; a plain run unchanged), a cross-language run on
MBBQ's fixture slice (results.json cross_language, its table and heat maps), ``score --vary``
refused in one line, and the prompt variants KoBBQ and MBBQ publish (five each, per language
for MBBQ), each a distinct prompt built from the dataset's own texts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from biasbench.benchmarks.kobbq.benchmark import PROMPT_CUE, PROMPT_UNKNOWN, KoBBQBenchmark
from biasbench.benchmarks.mbbq.benchmark import MBBQBenchmark
from biasbench.benchmarks.mbbq.prompts import AUTHOR_PROMPTS, DEFAULT_VARIANT
from biasbench.engines.bbq_family.items.grid import decode_cell_id
from biasbench.engines.bbq_family.prompting.prompt_files import load_prompt_file
from biasbench.registry import get_benchmark
from biasbench.testing.grid_effect import grid_items, write_items
from tests.running import CliRun

ROOT = Path(__file__).resolve().parents[2]
MBBQ_FIXTURE = ROOT / "benchmarks" / "mbbq" / "fixtures" / "data"
KOBBQ_FIXTURE = ROOT / "benchmarks" / "kobbq" / "fixtures"
MODEL = "mock-hashed-letter"
N_ITEMS = 24
"""Items of the grid runs: 12 per context condition."""


@pytest.fixture(scope="module")
def items_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_items(grid_items(N_ITEMS // 2), tmp_path_factory.mktemp("cli") / "Age.jsonl")


def _results(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "results.json").read_text(encoding="utf-8"))


# -- the grid from the command line ----------------------------------------------------------
def test_a_budgeted_grid_run(biasbench_cli: CliRun, items_file: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "grid"
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items_file,
        "--seeds",
        2,
        "--vary",
        "seeds,order,prompt",
        "--grid-budget",
        12,
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    # 2 seeds x 6 orders x 2 prompts (the engine's layouts) = 24 cells, 12 asked (12 leave
    # the residual 4 degrees of freedom: 12 - 1 - (1 + 5 + 1))
    assert f"({N_ITEMS * 12} requests: 0 cached, {N_ITEMS * 12} new, 0 failed" in done.stdout
    assert "robustness grid: 12 cells of 24 (varied: seed, order, prompt)" in done.stdout
    assert re.search(
        rf"{MODEL} / all: s_DIS [+-]\d\.\d{{3}} over the grid; sd by source: "
        r"seed \d\.\d{3}, order \d\.\d{3}, prompt \d\.\d{3}, item \d\.\d{3}, "
        r"residual \d\.\d{3}; largest: \w+",
        done.stdout,
    ), done.stdout
    results = _results(run_dir)
    robustness = results["robustness"]
    grid = results["signature"]["data_source"]["grid"]
    assert robustness["grid"] == grid and grid["n_cells"] == 12 and grid["n_full"] == 24
    assert robustness["factors_varied"] == ["seed", "order", "prompt"]
    s_dis = robustness["decomposition"][MODEL]["all"]["s_dis"]
    assert s_dis["n_cells"] == 12 and s_dis["reference"] == "residual"
    assert s_dis["components"]["residual"]["df"] == 4
    assert set(s_dis["components"]) == {"seed", "order", "prompt", "item", "residual"}
    shares = sum(c["share"] for c in s_dis["components"].values())
    assert shares == pytest.approx(1.0)
    # the headline scores are means over the grid's cells: each cell is one replicate
    assert results["models"][MODEL]["Age"]["seeds_run"] == 12
    assert results["models"][MODEL]["Age"]["s_dis"]["mean"] == pytest.approx(
        robustness["decomposition"][MODEL]["Age"]["s_dis"]["mean"]
    )
    position = robustness["position"][MODEL]
    assert position["n"] == N_ITEMS * 12 and sum(position["overall"].values()) == pytest.approx(1)
    assert set(robustness["published_vs_balanced"][MODEL]["Age"]) >= {"s_dis", "s_amb"}
    cells = pd.read_csv(run_dir / "tables" / "grid_cells.csv")
    assert cells[cells["category"] == "all"]["cell"].nunique() == 12
    assert (run_dir / "figures" / f"grid_decomposition_{MODEL}.png").is_file()
    labels = [json.loads(x) for x in (run_dir / "labels.jsonl").read_text().splitlines()]
    assert len(labels) == N_ITEMS * 12
    # the same command again scores the stored answers: what score --vary points to
    again = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items_file,
        "--seeds",
        2,
        "--vary",
        "seeds,order,prompt",
        "--grid-budget",
        12,
        "--out",
        run_dir,
    )
    assert again.returncode == 0, again.stderr
    assert f"({N_ITEMS * 12} requests: {N_ITEMS * 12} cached, 0 new" in again.stdout
    assert _results(run_dir)["robustness"]["decomposition"] == robustness["decomposition"]


def test_a_plain_run_has_no_grid(biasbench_cli: CliRun, items_file: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "plain"
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items_file,
        "--seeds",
        2,
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    assert f"({N_ITEMS * 2} requests: 0 cached, {N_ITEMS * 2} new, 0 failed" in done.stdout
    assert "robustness" not in done.stdout
    results = _results(run_dir)
    assert "robustness" not in results and "grid" not in results["signature"]["data_source"]
    assert results["signature"]["seeds"] == [0, 1]
    assert results["models"][MODEL]["Age"]["seeds_run"] == 2
    assert not list((run_dir / "tables").glob("grid_*"))
    labels = [json.loads(x) for x in (run_dir / "labels.jsonl").read_text().splitlines()]
    assert {x["seed"] for x in labels} == {0, 1} and not any("~" in x["uid"] for x in labels)


def test_grid_options_without_vary_are_refused(
    biasbench_cli: CliRun, items_file: Path, tmp_path: Path
) -> None:
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items_file,
        "--grid-budget",
        4,
        "--out",
        tmp_path / "x",
    )
    assert done.returncode != 0
    assert "--orders and --grid-budget need --vary" in done.stderr


# -- score --vary ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        ("--vary", "order"),
        ("--vary", "seeds,prompt"),
        ("--orders", "cyclic"),
        ("--grid-budget", "4"),
    ],
)
def test_score_refuses_the_grid_in_one_line(
    biasbench_cli: CliRun, items_file: Path, tmp_path: Path, options: tuple[str, str]
) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        json.dumps({"example_id": 0, "category": "Age", "model": "m", "output": "A"}) + "\n",
        encoding="utf-8",
    )
    done = biasbench_cli(
        "score",
        "bbq",
        "--items",
        items_file,
        "--responses",
        responses,
        "--out",
        tmp_path / "scored",
        *options,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {options[0]} is for biasbench run")
    assert not (tmp_path / "scored").exists()


# -- cross-language from the command line ----------------------------------------------------
def test_a_cross_language_run_on_mbbq(biasbench_cli: CliRun, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "mbbq",
        "--model",
        "mock:hashed-letter",
        "--limit",
        96,
        "--languages",
        "en,es",
        "--seeds",
        2,
        "--data",
        MBBQ_FIXTURE,
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    section = _results(run_dir)["cross_language"]
    rows = pd.DataFrame(section["rows"])
    assert set(zip(rows["dataset"], rows["kind"], strict=True)) == {
        ("mbbq", "raw"),
        ("mbbq-control", "raw"),
        ("mbbq", "control-adjusted"),
    }
    assert set(zip(rows["language_a"], rows["language_b"], strict=True)) == {("en", "es")}
    assert (rows["n_seeds"] == 2).all() and (rows["n_pairs"] > 0).all()
    assert set(rows["score"]) == {"s_amb", "s_dis", "acc_ambig", "acc_disambig"}
    raw = rows[(rows["kind"] == "raw") & (rows["dataset"] == "mbbq")]
    assert (raw["difference"] == raw["score_b"] - raw["score_a"]).all()
    # the fixture slice has 1-4 items per language and category: below 3 pairs no test
    few = rows["n_pairs"] < 3
    assert rows[few]["p_value"].isna().all() and rows[few]["ci_low"].isna().all()
    assert rows[~few]["p_value"].notna().all() and (~few).sum() >= 12
    tested = rows[~few & (rows["category"] != "all")]
    assert (tested["p_holm"] >= tested["p_value"] - 1e-12).all()
    table = pd.read_csv(run_dir / "tables" / "cross_language.csv")
    assert len(table) == len(rows)
    assert table["difference"].round(6).tolist() == rows["difference"].round(6).tolist()
    assert set(table["comparison"]) == {"es - en"}
    heat = sorted(p.name for p in (run_dir / "figures").glob("cross_language_*.png"))
    assert len(heat) == 3, heat  # mbbq raw, mbbq-control raw, mbbq control-adjusted
    significant = int(rows["significant"].sum())
    assert (
        f"cross-language: {len(rows)} paired differences, {significant} significant" in done.stdout
    )


# -- the published prompt variants -----------------------------------------------------------
def _literal_parts(template_parts: tuple[object, ...]) -> list[str]:
    return [p.strip() for p in template_parts if isinstance(p, str) and p.strip()]


def test_kobbqs_five_prompts_are_five_distinct_prompts() -> None:
    bench = get_benchmark("kobbq", data=KOBBQ_FIXTURE, vary="prompt")
    assert isinstance(bench, KoBBQBenchmark)
    assert bench.prompt_variants() == ("1", "2", "3", "4", "5")
    item = next(i for i in bench.items if i.unknown_index is not None)
    texts = {}
    for variant in bench.prompt_variants():
        v = int(variant)
        shown = bench.variant_item(item, variant)
        text = bench.variant_prompt(shown, variant).text_for("chat")
        prompt = load_prompt_file(KoBBQBenchmark.packaged_prompt(str(v)))
        for literal in _literal_parts(prompt.parts):
            assert literal in text, (v, literal)
        assert text.endswith(PROMPT_CUE[v])
        assert shown.answers[shown.unknown_index or 0] == PROMPT_UNKNOWN[v]  # its own wording
        assert PROMPT_UNKNOWN[v] in text and item.context in text and item.question in text
        texts[variant] = text
    assert len(set(texts.values())) == 5
    assert texts["1"] == bench.prompt(item).text_for("chat")  # the default is a plain run's
    requests = bench.requests(limit=6, seeds=[0])
    assert {decode_cell_id(r.item_id)[2] for r in requests} == set(texts)


@pytest.mark.parametrize("language", ["en", "es"])
def test_mbbqs_five_prompts_per_language(language: str) -> None:
    bench = get_benchmark("mbbq", data=MBBQ_FIXTURE, languages="en,es", vary="prompt")
    assert isinstance(bench, MBBQBenchmark)
    assert bench.prompt_variants()[0] == str(DEFAULT_VARIANT)
    assert sorted(bench.prompt_variants()) == ["1", "2", "3", "4", "5"]
    item = next(i for i in bench.items if i.language == language)
    texts = {}
    for variant in bench.prompt_variants():
        text = bench.variant_prompt(item, variant).messages[-1][1]
        published = AUTHOR_PROMPTS[language][int(variant) - 1].strip()
        assert text == published.format(
            item.context, item.question, item.ans0, item.ans1, item.ans2
        )
        texts[variant] = text
    assert len(set(texts.values())) == 5
    assert texts[str(DEFAULT_VARIANT)] == bench.prompt(item).messages[-1][1]
    other = "es" if language == "en" else "en"
    assert not set(texts.values()) & {
        bench.variant_prompt(next(i for i in bench.items if i.language == other), v).text_for(
            "chat"
        )
        for v in texts
    }
