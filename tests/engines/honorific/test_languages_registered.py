"""Every registered honorific language meets the engine's contract: its judge is a RegisterJudge
reached through the lazy registry, its definition's mock sentences are labelled with the register
they name, its items are the same English items, and its judge labels any text without raising."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.judging import CONDITIONS, Judgement, RegisterJudge, judge_for
from biasbench.registry import benchmark_class, get_benchmark, names

LANGUAGES = [
    name for name in names() if issubclass(benchmark_class(name), HonorificEngineBenchmark)
]
HOSTILE = [
    "",
    " ",
    "\u200c\u200d",
    "।।",
    "Translation:",
    "\ufeff" * 3,
    "a\x00b",
    "🙂" * 40,
    "\u0985\u09cd" * 50,
    "<script>alert(1)</script>",
    "x" * 5000,
]


def test_honorific_bn_is_an_engine_language() -> None:
    assert "honorific-bn" in LANGUAGES


@pytest.mark.parametrize("name", LANGUAGES)
def test_its_judge_is_a_register_judge(name: str) -> None:
    bench = get_benchmark(name)
    assert isinstance(bench, HonorificEngineBenchmark)
    judge = judge_for(bench.language)
    assert isinstance(judge, RegisterJudge) and judge is bench.judge
    assert judge.version and "/" in judge.version


@pytest.mark.parametrize("name", LANGUAGES)
def test_its_mock_sentences_get_the_register_they_name(name: str) -> None:
    bench = get_benchmark(name)
    mock = bench.definition.mock_outputs
    assert {"honorific", "ordinary"} <= set(mock)
    for register, sentence in mock.items():
        expected = register.split("_")[0]  # honorific_feminine -> honorific
        for condition in ("male", "female", "nopronoun"):
            assert bench.judge.judge(sentence, condition).label.value == expected, (
                register,
                condition,
            )


@pytest.mark.parametrize("name", LANGUAGES)
def test_its_items_are_the_english_items(name: str) -> None:
    reference = {i.item_id: i.source_en for i in get_benchmark("honorific-bn").items}
    items = get_benchmark(name).items
    assert all(reference.get(i.item_id) == i.source_en for i in items)


@pytest.mark.parametrize("name", LANGUAGES)
def test_its_judge_labels_any_text(name: str) -> None:
    judge = get_benchmark(name).judge
    for text in HOSTILE:
        for condition in (None, *CONDITIONS):
            found = judge.judge(text, condition)
            assert isinstance(found, Judgement)
            assert set(found.readings) == set(judge.readings)


def test_all_six_languages_run_side_by_side(tmp_path: Path) -> None:
    from tests.benchmarks.honorific_engine_checks import biasbench

    code, out, err = biasbench(
        "run",
        "honorific-languages",
        "--benchmarks",
        "all",
        "--model",
        "mock:hashed-register",
        "--limit",
        "24",
        "--no-progress",
        "--out",
        tmp_path / "run",
    )
    assert code == 0, err
    assert "(144 requests: 0 cached, 144 new, 0 failed" in out
    results = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    assert list(results["languages"]) == ["bn", "hi", "ur", "ja", "ko", "ne"]
    labels = pd.read_json(tmp_path / "run" / "labels.jsonl", lines=True)
    assert labels.groupby("language").size().to_dict() == dict.fromkeys(
        ["bn", "hi", "ja", "ko", "ne", "ur"], 24
    )
    # each language in its own sentences, each labelled by its own judge: the same registers
    by_language = results["cross_language"]["by_language"]
    assert {
        code: by_language[code]["mock-hashed-register"]["hai_pp"] for code in by_language
    } == dict.fromkeys(results["languages"], pytest.approx(-100 / 6))
    assert labels.groupby("language")["output"].nunique().to_dict() == dict.fromkeys(
        ["bn", "hi", "ja", "ko", "ne", "ur"], 2
    )
    pairs = results["cross_language"]["comparisons"]["mock-hashed-register"]
    assert len(pairs) == 15
    assert not [
        (pair, name)
        for pair, found in pairs.items()
        for name, s in found["statistics"].items()
        if s["significant"]
    ]
