"""``jbbq`` from a local copy: the one-line message without one, the README's format read from
a SYNTHETIC fixture (tests/benchmarks/jbbq/fixtures: invented items, no JBBQ data), oracle and
always-stereotyped runs, the CLI end to end, licence and citation."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from biasbench.benchmarks.jbbq.benchmark import (
    ENV_DATA,
    FORM_URL,
    PUBLISHED_COUNTS,
    JBBQBenchmark,
    load_jbbq,
)
from biasbench.engines.bbq_family.scoring.bias_scores import exclusion_counts, target_index
from biasbench.errors import BiasbenchError, InputError
from biasbench.pipeline import run_benchmark
from biasbench.registry import benchmark_class, get_benchmark
from biasbench.registry.interface import BenchmarkInfo
from tests.running import CliRun

SYNTHETIC = Path(__file__).parent / "fixtures" / "synthetic"
CATEGORIES = tuple(PUBLISHED_COUNTS)


def test_synthetic_fixture_loads_in_the_readme_format() -> None:
    items, counts, warnings = load_jbbq(SYNTHETIC)
    assert counts == dict.fromkeys(CATEGORIES, 8)
    for item in items:
        assert item.language == "ja"
        assert item.additional_metadata["version"] == "synthetic"  # additional_metadeta [sic]
        assert item.additional_metadata["is_additional"] in (0, 1)
        assert item.unknown_index is not None and target_index(item) is not None
    assert exclusion_counts(items) == {}
    # the synthetic counts are not the published ones: said, category by category
    assert "Age: 8 items read, the README publishes 28,176" in warnings
    assert len(warnings) == len(CATEGORIES)


def test_missing_fields_are_filled_in_and_said(tmp_path: Path) -> None:
    record = json.loads((SYNTHETIC / "Age.jsonl").read_text(encoding="utf-8").splitlines()[0])
    for name in ("example_id", "question_index", "category"):
        del record[name]
    (tmp_path / "Age.json").write_text(
        json.dumps([record, record], ensure_ascii=False), encoding="utf-8"
    )  # a JSON array is read too
    items, counts, warnings = load_jbbq(tmp_path)
    assert [i.uid for i in items] == ["Age:0", "Age:1"] and counts == {"Age": 2}
    assert {i.question_index for i in items} == {"n/a"}
    assert "2 items lack category: filled in (see docs/benchmarks/jbbq.md)" in warnings


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"example_id": 0, "category": "Age"}', "question_polarity"),
        ('{"example_id": 0, "category": "Age", "additional_metadeta": [1]}', "additional_metadeta"),
        ("not json", None),
    ],
)
def test_bad_files_name_file_line_and_field(tmp_path: Path, text: str, field: str | None) -> None:
    (tmp_path / "Age.jsonl").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_jbbq(tmp_path)
    assert caught.value.file == str(tmp_path / "Age.jsonl") and caught.value.line == 1
    if field:
        assert caught.value.field == field


def test_without_data_one_line_says_where_to_get_it(biasbench_cli: CliRun, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != ENV_DATA}
    done = biasbench_cli(
        "run", "jbbq", "--model", "mock:hashed-letter", "--out", tmp_path / "run", env=env
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    message = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(message) == 1, done.stderr
    assert FORM_URL in message[0] and "--data DIR" in message[0] and ENV_DATA in message[0]
    with pytest.raises(BiasbenchError, match="does not exist"):
        JBBQBenchmark.with_options(data=tmp_path / "nowhere")
    with pytest.raises(BiasbenchError, match="no .jsonl or .json files"):
        JBBQBenchmark.with_options(data=tmp_path)


def test_the_environment_variable_names_the_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_DATA, str(SYNTHETIC))
    assert len(get_benchmark("jbbq").items) == 40


def test_japanese_prompt_for_chat_and_base_models() -> None:
    bench = JBBQBenchmark.with_options(data=SYNTHETIC)
    item = bench.items[0]
    prompt = bench.prompt(item)
    chat = prompt.messages[0][1]
    assert chat.startswith("正しい答えを選んでください。")
    assert f"\nA. {item.ans0}\nB. {item.ans1}\nC. {item.ans2}" in chat
    assert prompt.completion == chat + "\n答え："


@pytest.mark.parametrize("answer", ["oracle", "stereotyped"])
def test_oracle_and_always_stereotyped(tmp_path: Path, answer: str) -> None:
    bench = JBBQBenchmark.with_options(data=SYNTHETIC)
    selected = bench.selected_items(40)
    pick = {"oracle": lambda i: i.label, "stereotyped": target_index}[answer]
    script = tmp_path / f"{answer}.json"
    script.write_text(
        json.dumps(
            {bench.prompt(i).text_for("chat"): "ABC"[pick(i)] for i in selected}, ensure_ascii=False
        )
    )
    result = run_benchmark(
        "jbbq",
        f"mock:{script}",
        out=tmp_path / "run",
        limit=40,
        progress=False,
        benchmark_options={"data": SYNTHETIC},
    )
    assert result.stats.total == 40 and result.stats.failed == 0
    assert result.results["excluded_by_reason"] == {}
    models = result.results["models"][f"mock-{answer}"]
    assert set(models) == set(CATEGORIES)
    for category, entry in models.items():
        if answer == "oracle":
            assert entry["acc_ambig"]["mean"] == 1.0 and entry["acc_disambig"]["mean"] == 1.0
        else:
            assert entry["s_amb"]["mean"] == 1.0 and entry["s_dis"]["mean"] == 1.0, category


def test_cli_run_end_to_end(biasbench_cli: CliRun, tmp_path: Path) -> None:
    done = biasbench_cli(
        "run",
        "jbbq",
        "--model",
        "mock:hashed-letter",
        "--limit",
        20,
        "--data",
        SYNTHETIC,
        "--out",
        tmp_path / "run",
    )
    assert done.returncode == 0, done.stderr
    assert "mock-hashed-letter [PARTIAL] / Gender_identity: s_AMB " in done.stdout  # --limit 20
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["benchmark"] == "jbbq" and results["signature"]["seeds"] == [0]


def test_registry_licence_and_citation() -> None:
    assert benchmark_class("jbbq") is JBBQBenchmark
    info = BenchmarkInfo.of(JBBQBenchmark)
    assert "redistribution prohibited" in info.terms and info.terms.startswith("request-only")
    assert info.paper.citation == "Yanaka et al., GeBNLP 2025"
    assert info.items.startswith("50,856 per the README (5 categories")
