"""``esbbq --parallel`` / ``cabbq --parallel``: both datasets in one run (they share templates
and ids), each language asked with its own packaged prompt, compared by item
(results.json cross_language); the authors' scores stay the run's own dataset's; a run without
the flag is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from biasbench.benchmarks.esbbq.benchmark import PARALLEL_DATASET, SpanishBBQBenchmark
from biasbench.errors import BiasbenchError
from biasbench.registry import get_benchmark
from tests.running import CliRun

FIXTURES = Path(__file__).parent / "fixtures"


def _bench(name: str, **options: object) -> SpanishBBQBenchmark:
    bench = get_benchmark(name, **options)
    assert isinstance(bench, SpanishBBQBenchmark)
    return bench


@pytest.mark.parametrize(("name", "first", "other"), [("esbbq", "es", "ca"), ("cabbq", "ca", "es")])
def test_parallel_items_and_prompts_are_each_datasets_own(
    name: str, first: str, other: str
) -> None:
    both = _bench(name, data=FIXTURES, parallel=True)
    alone = {
        code: _bench({"es": "esbbq", "ca": "cabbq"}[code], data=FIXTURES / f"data_{code}")
        for code in (first, other)
    }
    namespaces = list(dict.fromkeys(item.namespace for item in both.items))
    assert namespaces == [f"{PARALLEL_DATASET}/{first}", f"{PARALLEL_DATASET}/{other}"]
    for code, bench in alone.items():
        mine = [item for item in both.items if item.language == code]
        assert len(mine) == len(bench.items)
        for item, plain in zip(mine, bench.items, strict=True):
            assert item.uid == f"{PARALLEL_DATASET}/{code}/{plain.uid}"
            # the same prompt as the dataset's own run, chat and base model alike
            assert both.prompt(item).messages == bench.prompt(plain).messages
            assert both.prompt(item).completion == bench.prompt(plain).completion
    assert both.prompt_hash not in (alone[first].prompt_hash, alone[other].prompt_hash)
    assert both.data_source["languages"] == [first, other]
    with pytest.raises(BiasbenchError, match="with --parallel each language"):
        _bench(name, data=FIXTURES, parallel=True, prompt=FIXTURES / "x.txt")


def test_a_run_without_parallel_is_unchanged() -> None:
    bench = _bench("esbbq", data=FIXTURES / "data_es")
    assert {item.namespace for item in bench.items} == {""}
    assert "languages" not in bench.data_source


def test_parallel_run_end_to_end(biasbench_cli: CliRun, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "esbbq",
        "--parallel",
        "--data",
        FIXTURES,
        "--model",
        "mock:hashed-letter",
        "--seeds",
        2,
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    rows = pd.DataFrame(results["cross_language"]["rows"])
    assert set(rows["dataset"]) == {PARALLEL_DATASET} and set(rows["kind"]) == {"raw"}
    assert set(zip(rows["language_a"], rows["language_b"], strict=True)) == {("es", "ca")}
    n_items = len(_bench("esbbq", data=FIXTURES / "data_es").items)
    pooled = rows[rows["category"] == "all"].set_index("score")["n_pairs"]
    # every fixture item pairs (the slices hold no shifted ids): ambiguous + disambiguated
    assert pooled["acc_ambig"] + pooled["acc_disambig"] == n_items
    assert (run_dir / "tables" / "cross_language.csv").is_file()
    assert list((run_dir / "figures").glob("cross_language_*.png"))
    assert "cross-language: " in done.stdout
    # the authors' scores: EsBBQ's, over the Spanish answers only
    scores = results["dataset_scores"]
    assert scores["name"].startswith("EsBBQ")
    assert scores["models"]["mock-hashed-letter"]["all"]["n_responses"] == n_items * 2
    labels = [json.loads(x) for x in (run_dir / "labels.jsonl").read_text().splitlines()]
    assert {x["language"] for x in labels} == {"es", "ca"}
