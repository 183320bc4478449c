"""Reading run folders and grouping them into comparisons by signature."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from biasbench.errors import InputError
from biasbench.models.registry import ModelOptions
from biasbench.pipeline import run_benchmark
from biasbench.runfolder import RunFolderError
from biasbench.runfolder.grouping import FieldDifference, group_runs, load_runs
from biasbench.runfolder.reading import RunFolder, load_run
from biasbench.signature import Signature

BASE: dict[str, Any] = {
    "benchmark": "honorific-bn",
    "benchmark_version": "1.0",
    "data_sha256": "a" * 64,
    "prompt_hash": "p1",
    "model": {"m": {"kind": "mock", "model": "m"}},
    "decoding": {"temperature": 0.0, "max_tokens": 96, "top_p": None, "stop": []},
    "seeds": None,
    "judge_version": "j1",
}


def folder(name: str, models: list[str] | None = None, **changes: Any) -> RunFolder:
    """A run folder in memory (no labels on disk) with the base signature changed."""
    return RunFolder(
        path=Path("/nonexistent") / name,
        results={"models": {m: {} for m in (models or ["m"])}},
        signature=Signature(**{**BASE, **changes}),
    )


@pytest.mark.parametrize(
    ("changes", "merged", "fields"),
    [
        ({}, True, []),
        ({"model": {"other": {"kind": "mock", "model": "other"}}}, True, []),
        ({"package_version": "9.9.9"}, True, []),
        ({"decoding": {**BASE["decoding"], "max_tokens": 50}}, False, ["decoding"]),
        ({"decoding": {**BASE["decoding"], "temperature": 1.0}}, False, ["decoding"]),
        ({"seeds": [0, 1]}, False, ["seeds"]),
        ({"data_sha256": "b" * 64}, False, ["data_sha256"]),
        ({"prompt_hash": "p2"}, False, ["prompt_hash"]),
        ({"judge_version": "j2"}, False, ["judge_version"]),
        (
            {"benchmark_version": "1.1", "judge_version": "j2"},
            False,
            ["benchmark_version", "judge_version"],
        ),
    ],
)
def test_grouping_by_comparable_signature_fields(
    changes: dict[str, Any], merged: bool, fields: list[str]
) -> None:
    plan = group_runs([folder("a"), folder("b", ["other"], **changes)])
    assert len(plan.groups) == (1 if merged else 2)
    if merged:
        assert [r.name for r in plan.groups[0].runs] == ["a", "b"]
    else:
        second = plan.groups[1]
        assert [d.field for d in second.differences] == fields
        assert (second.slug, second.compared_with) == ("honorific-bn-2", "honorific-bn")


def test_other_benchmarks_are_separate_without_a_comparison() -> None:
    plan = group_runs([folder("a"), folder("b", benchmark="filbbq"), folder("c")])
    assert [(g.slug, [r.name for r in g.runs]) for g in plan.groups] == [
        ("honorific-bn", ["a", "c"]),
        ("filbbq", ["b"]),
    ]
    assert plan.groups[1].differences == []


def test_a_model_in_two_runs_of_a_group_is_told_apart_by_folder() -> None:
    group = group_runs([folder("run1", ["m", "x"]), folder("run2", ["m"])]).groups[0]
    assert group.models == ["m [run1]", "x", "m [run2]"]


@pytest.mark.parametrize(
    ("difference", "text"),
    [
        (
            FieldDifference("decoding", BASE["decoding"], {**BASE["decoding"], "max_tokens": 50}),
            "decoding parameters: max_tokens 96 vs 50",
        ),
        (
            FieldDifference("data_sha256", "a" * 64, "b" * 64),
            "item set (data checksum): aaaaaaaaaaaa vs bbbbbbbbbbbb",
        ),
        (FieldDifference("seeds", None, list(range(50))), "seeds: None vs 50 seeds (0..49)"),
        (FieldDifference("judge_version", "j1", "j2"), "judge version: j1 vs j2"),
    ],
)
def test_differences_are_described_in_plain_words(difference: FieldDifference, text: str) -> None:
    assert difference.description == text


def test_runs_of_other_items_are_not_merged(tmp_path: Path) -> None:
    # --limit changes the signature's data checksum (it covers the items run); the report
    # also compares the items actually answered.
    for name, limit in (("a", 28), ("b", 28), ("c", 56)):
        run_benchmark(
            "honorific-bn", "mock:hashed-register", out=tmp_path / name, limit=limit, progress=False
        )
    plan = load_runs([tmp_path / "a", tmp_path / "b", tmp_path / "c"])
    assert [[r.name for r in g.runs] for g in plan.groups] == [["a", "b"], ["c"]]
    difference = plan.groups[1].differences
    assert [d.field for d in difference] == ["data_sha256", "items"]
    assert difference[1].description.startswith("items answered: 28 items (")
    assert " vs 56 items (" in difference[1].description


def test_prompts_come_from_the_store_of_this_runs_configuration(tmp_path: Path) -> None:
    # A folder holds one configuration: run first as a completion model, the folder refuses a
    # chat run of the same model (another prompt text, other decoding) with one line...
    run_benchmark(
        "honorific-bn",
        "mock:hashed-register",
        out=tmp_path / "c",
        limit=4,
        options=ModelOptions(api="completions"),
        progress=False,
    )
    with pytest.raises(
        RunFolderError,
        match=r"holds honorific-bn answers of "
        r"mock:mock-hashed-register \(completion\).* differs in model \(mode\)",
    ):
        run_benchmark(
            "honorific-bn", "mock:hashed-register", out=tmp_path / "c", limit=4, progress=False
        )
    # ... and the chat run in its own folder shows its own prompts.
    run_benchmark(
        "honorific-bn", "mock:hashed-register", out=tmp_path / "chat", limit=4, progress=False
    )
    run = load_run(tmp_path / "chat")
    assert run.signature.model["mock-hashed-register"]["mode"] == "chat"
    wanted = [("judge|T1|male", None), ("judge|T1|they", None), ("judge|T9|male", None)]
    prompts = run.prompts_for(wanted)
    assert sorted(prompts) == wanted[:2]  # T9 does not exist: no prompt, no error
    assert prompts[("judge|T1|male", None)].startswith("<user>Translate the following")
    assert prompts[("judge|T1|male", None)].endswith("The judge said he would arrive at nine.")
    assert run.status == "complete" and run.models == ["mock-hashed-register"]


def test_labels_read_with_missing_seed_as_none(tmp_path: Path) -> None:
    run_benchmark("honorific-bn", "mock:honorific", out=tmp_path, limit=4, progress=False)
    labels = load_run(tmp_path).labels
    assert labels is not None and len(labels) == 4
    assert labels["seed"].tolist() == [None] * 4


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2]", "expected a JSON object"),
        ('{"signature": {"benchmark": "x"}, "models": {}}', "signature lacks benchmark_version"),
        (
            json.dumps({"signature": {k: v for k, v in BASE.items() if k != "model"}}),
            "results have no models",
        ),
    ],
)
def test_bad_results_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "results.json").write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        load_run(tmp_path)
    assert "results.json" in str(caught.value)


def test_bad_labels_line_is_named(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text(
        json.dumps({"signature": BASE, "models": {"m": {}}}), encoding="utf-8"
    )
    (tmp_path / "labels.jsonl").write_text('{"model": "m"}\n{broken\n', encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON") as caught:
        load_run(tmp_path).labels  # noqa: B018 (a property that reads the file)
    assert (caught.value.file, caught.value.line) == (str(tmp_path / "labels.jsonl"), 2)


@pytest.mark.parametrize(
    ("paths", "message"),
    [
        ([], "no run folders given"),
        (["same", "same"], "run folder given twice"),
        (["missing"], "not a folder"),
    ],
)
def test_bad_folder_lists(tmp_path: Path, paths: list[str], message: str) -> None:
    (tmp_path / "same").mkdir()
    with pytest.raises(InputError, match=message):
        load_runs([tmp_path / p for p in paths])
