"""The command line: end to end on scripted models, and one clear line for every bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from biasbench.benchmarks.honorific_bn.benchmark import load_definition
from biasbench.registry import names
from tests.running import CliRun, spec_of

RESULT_KEYS = {
    "hai_pp",
    "gsr_pct",
    "b",
    "c",
    "n_pairs",
    "p_exact",
    "p_holm",
    "eta2_pronoun_pct",
    "eta2_occupation_pct",
    "occupation_spread_pp",
    "hbs",
    "mixed_pct",
    "min_detectable_hai_pp",
    "they",
}


def test_data_honorific_writes_the_published_items(biasbench_cli: CliRun, tmp_path: Path) -> None:
    out = tmp_path / "items.csv"
    proc = biasbench_cli("data", "honorific-bn", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == load_definition().items_csv_bytes()
    assert "wrote 2016 items" in proc.stdout
    assert "924a30f0294b0e9596e3aae0558d2d6452d143984d936986e2b71e1e75c189ca" in proc.stdout
    assert "potter" in proc.stderr  # the validator's finding is reported, not hidden


def test_run_then_score_elsewhere_gives_the_same_numbers(
    biasbench_cli: CliRun, tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    proc = biasbench_cli(
        "run",
        "honorific-bn",
        "--model",
        "mock:hashed-register",
        "--out",
        str(run_dir),
        "--limit",
        "224",
        "--no-progress",
    )
    assert proc.returncode == 0, proc.stderr
    assert "mock-hashed-register [PARTIAL]: HAI" in proc.stdout  # --limit marks a partial run
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    model = results["models"]["mock-hashed-register"]
    assert RESULT_KEYS <= model.keys()
    assert model["n_pairs"] == 56
    # The data checksum covers the 224 items run, not the whole set: --limit changes it.
    assert results["signature"]["data_sha256"] == load_definition().checksum(224)
    assert results["signature"]["data_sha256"] != load_definition().checksum()
    for name in (
        "table4.md",
        "table4.csv",
        "table4.tex",
        "occupation_rates.csv",
        "they_analysis.md",
        "they_analysis.csv",
    ):
        assert (run_dir / "tables" / name).is_file(), name
    # The same outputs, scored as if produced elsewhere, give identical statistics.
    labels = [json.loads(line) for line in (run_dir / "labels.jsonl").open(encoding="utf-8")]
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {"item_id": r["item_id"], "model": r["model"], "output": r["output"]},
                ensure_ascii=False,
            )
            + "\n"
            for r in labels
        ),
        encoding="utf-8",
    )
    scored_dir = tmp_path / "scored"
    proc = biasbench_cli(
        "score", "honorific-bn", "--responses", str(responses), "--out", str(scored_dir)
    )
    assert proc.returncode == 0, proc.stderr
    scored = json.loads((scored_dir / "results.json").read_text(encoding="utf-8"))
    again = scored["models"]["mock-hashed-register"]
    for key in RESULT_KEYS - {"they"}:
        assert again[key] == model[key], key
    # Rerunning the same command calls no model: everything comes from the store.
    proc = biasbench_cli(
        "run",
        "honorific-bn",
        "--model",
        "mock:hashed-register",
        "--out",
        str(run_dir),
        "--limit",
        "224",
        "--no-progress",
    )
    assert "224 cached, 0 new, 0 failed" in proc.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            '{"item_id": "judge|T1|male", "model": "m", "output": "x"}\n{oops\n',
            ":2: not valid JSON",
        ),
        (
            '{"item_id": "judge|T9|male", "model": "m", "output": "x"}\n',
            ":1: field 'item_id': unknown item_id 'judge|T9|male'",
        ),
        ('{"item_id": "judge|T1|male", "output": "x"}\n', ":1: field 'model': missing field"),
        (
            '{"item_id": "judge|T1|male", "model": "m", "output": 5}\n',
            ":1: field 'output': expected a string",
        ),
    ],
)
def test_bad_responses_file_gets_one_clear_line(
    biasbench_cli: CliRun, tmp_path: Path, content: str, expected: str
) -> None:
    responses = tmp_path / "bad.jsonl"
    responses.write_text(content, encoding="utf-8")
    proc = biasbench_cli(
        "score", "honorific-bn", "--responses", str(responses), "--out", str(tmp_path / "out")
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert (
        len(lines) == 1
        and lines[0] == f"error: {responses}{expected}"
        or (lines[0].startswith(f"error: {responses}{expected}"))
    ), proc.stderr
    assert not (tmp_path / "out" / "results.json").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--model", "gpt-4o"],
            "error: model spec 'gpt-4o' does not parse: unknown backend 'gpt-4o'",
        ),
        (
            ["--model", "llamacpp:/nowhere/model.gguf"],
            "error: GGUF file not found: /nowhere/model.gguf",
        ),
        (["--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1"], "http://127.0.0.1:9/v1"),
    ],
)
def test_bad_model_or_endpoint_gets_one_clear_line(
    biasbench_cli: CliRun, tmp_path: Path, args: list[str], expected: str
) -> None:
    proc = biasbench_cli(
        "run",
        "honorific-bn",
        *args,
        "--out",
        str(tmp_path / "run"),
        "--limit",
        "4",
        "--no-progress",
    )
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert "Traceback" not in proc.stderr
    assert expected in last, proc.stderr


def test_classify_command(biasbench_cli: CliRun, tmp_path: Path) -> None:
    inp = tmp_path / "in.jsonl"
    rows = [
        {"output": "ডাক্তার বলেছেন যে তিনি নয়টায় আসবেন।", "condition": "male"},
        {"output": "ডাক্তার বলেছে যে সে নয়টায় আসবে।"},
        {"output": "তারা নয়টায় আসবে।", "condition": "they", "id": 7},
    ]
    inp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    out = tmp_path / "out.jsonl"
    proc = biasbench_cli("classify", "--input", str(inp), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(line) for line in out.open(encoding="utf-8")]
    assert [g["label"] for g in got] == ["honorific", "ordinary", "ordinary"]
    assert [g["plural"] for g in got] == [False, False, True]
    assert got[2]["id"] == 7 and got[0]["evidence"]


def test_annotation_round_trip(biasbench_cli: CliRun, tmp_path: Path) -> None:
    import csv

    run_dir = tmp_path / "run"
    assert (
        biasbench_cli(
            "run",
            "honorific-bn",
            "--model",
            "mock:hashed-register",
            "--out",
            str(run_dir),
            "--limit",
            "280",
            "--no-progress",
        ).returncode
        == 0
    )
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    proc = biasbench_cli(
        "annotate", "export", str(run_dir), "--out", str(sheet), "--key", str(key), "--n", "40"
    )
    assert proc.returncode == 0, proc.stderr
    with sheet.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 40 and all(r["annotator_label"] == "" for r in rows)
    assert "rule_label" not in rows[0]  # annotators work blind
    with key.open(encoding="utf-8", newline="") as fh:
        truth = {r["sample_id"]: r["rule_label"] for r in csv.DictReader(fh)}
    flip = {"honorific": "ordinary", "ordinary": "honorific"}

    def fill(path: Path, changed: int) -> None:
        with path.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            for i, row in enumerate(rows):
                label = truth[row["sample_id"]]
                writer.writerow({**row, "annotator_label": flip[label] if i < changed else label})

    fill(tmp_path / "a.csv", 0)
    fill(tmp_path / "b.csv", 2)
    proc = biasbench_cli(
        "annotate",
        "agree",
        "--key",
        str(key),
        "--a",
        str(tmp_path / "a.csv"),
        "--b",
        str(tmp_path / "b.csv"),
        "--out",
        str(tmp_path / "agree.json"),
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "agree.json").read_text())
    assert (report["n_items"], report["annotators_agree"]) == (40, 38)
    assert 0 < report["annotator_kappa"] < 1
    # The rule is compared with the 38 consensus labels, all of which it matches.
    assert report["reference"] == "annotator consensus"
    assert (report["n_compared"], report["rule_agree"], report["rule_kappa"]) == (38, 38, 1.0)


def test_version(biasbench_cli: CliRun) -> None:
    import biasbench as package

    proc = biasbench_cli("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"biasbench {package.__version__}"


@pytest.mark.parametrize(
    ("args", "empty_retries", "window"),
    [
        ([], 1, 45.0),
        (["--empty-retries", "0", "--retry-window", "120"], 0, 120.0),
        (["--empty-retries", "3"], 3, 45.0),
    ],
)
def test_run_passes_the_retry_policy(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: list[str],
    empty_retries: int,
    window: float,
) -> None:
    retry = spec_of(
        monkeypatch,
        "honorific-bn",
        "--model",
        "mock:honorific",
        "--out",
        str(tmp_path / "run"),
        *args,
    ).retry
    assert retry is not None
    assert (retry.empty_retries, retry.retry_window_s) == (empty_retries, window)


def _command_paths() -> list[list[str]]:
    """Every command path, walked as click lists them (groups are lazy: each subcommand is
    built when asked for)."""
    import typer.main
    from typer._click.core import Context

    from biasbench.cli import app

    def walk(command: Any, path: list[str], parent: Context | None) -> list[list[str]]:
        found = [path]
        if hasattr(command, "list_commands"):  # a group (typer vendors its own click)
            ctx = Context(command, parent=parent, info_name=path[-1] if path else "biasbench")
            for name in command.list_commands(ctx):
                found += walk(command.get_command(ctx, name), [*path, name], ctx)
        return found

    return walk(typer.main.get_command(app), [], None)


def test_every_command_is_built_from_the_registry() -> None:
    from biasbench.registry import benchmark_classes

    paths = {" ".join(p) for p in _command_paths()}
    for cls in benchmark_classes():  # score NAME for every benchmark; data NAME where it generates
        assert f"score {cls.name}" in paths
        assert (f"data {cls.name}" in paths) == cls.generates_items()
    assert {"data honorific-bn", "data filbbq", "data bbq"} <= paths
    assert {"classify", "annotate export", "annotate agree", "plot jitter"} <= paths


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "biasbench")
def test_help_texts_read_well(path: list[str]) -> None:
    """No words eaten by markup ("model, , output"), no doubled negations
    ("--no-no-subcategory-filter"), no float reprs as defaults ("0.3333333333333333")."""
    import re

    from typer.testing import CliRunner

    from biasbench.cli import app

    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert ", ," not in text and ", ]" not in text
    assert "--no-no-" not in text
    assert not re.search(r"\d\.\d{5,}", text), text


@pytest.mark.parametrize("name", names())
def test_limit_help_says_what_each_benchmark_picks(name: str) -> None:
    from typer.testing import CliRunner

    from biasbench.cli import app
    from biasbench.registry import benchmark_class

    cls = benchmark_class(name)
    text = " ".join(
        CliRunner().invoke(app, ["run", name, "--help"], env={"COLUMNS": "300"}).output.split()
    )
    limit = text[text.index("--limit") : text.index("--concurrency")]
    assert " ".join(cls.limit_help.split()) in limit


def test_limit_help_differs_between_benchmarks_as_declared() -> None:
    from biasbench.registry import benchmark_class

    assert benchmark_class("honorific-bn").limit_help == "the first N in published order"
    assert benchmark_class("filbbq").limit_help.startswith("stratified over category")


@pytest.mark.parametrize("option", ["limit", "out", "model", "dry_run"])
def test_a_benchmark_option_may_not_shadow_a_run_option(option: str) -> None:
    from dataclasses import replace

    from biasbench.cli.run import run_benchmark_command
    from biasbench.registry import declaration
    from biasbench.registry.interface import OptionSpec

    mine = replace(declaration("honorific-bn"), options=(OptionSpec(option, str, None, "x"),))
    with pytest.raises(TypeError, match=f"declares run options named {option}"):
        run_benchmark_command(mine)
