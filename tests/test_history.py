"""A run folder's history: every invocation appends its options, counts, timing and version;
results.json keeps the first invocation's timing beside the latest's; ``biasbench runs``
lists folders with their status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import biasbench
from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark
from biasbench.runfolder import HISTORY_NAME
from biasbench.runfolder.catalog import list_runs
from biasbench.runfolder.history import read_history


def _run(out: Path, limit: int = 6, script: str = "honorific") -> None:
    run_benchmark("honorific-bn", out=out, limit=limit, progress=False, backend=MockBackend(script))


def test_each_invocation_appends_and_the_first_timing_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out)
    first = json.loads((out / "results.json").read_text())["run"]
    _run(out)  # a rerun: everything cached
    history = read_history(out)
    assert [h["status"] for h in history] == ["complete", "complete"]
    assert [h["counts"]["completed"] for h in history] == [6, 0]
    assert [h["counts"]["cached"] for h in history] == [0, 6]
    assert all(h["biasbench"] == biasbench.__version__ for h in history)
    assert history[0]["options"]["limit"] == 6
    assert history[0]["options"]["decoding"]["max_tokens"] == 96
    assert history[1]["started_at"] > history[0]["started_at"]
    run = json.loads((out / "results.json").read_text())["run"]
    assert run["invocations"] == 2
    assert run["first"] == first["first"]  # the rerun does not overwrite the original timing
    assert run["first"]["completed"] == 6 and run["latest"]["completed"] == 0
    assert run["latest"]["started_at"] == history[1]["started_at"]
    assert (run["requests"], run["cached"], run["completed"]) == (6, 6, 0)


def test_an_interrupted_invocation_is_recorded(tmp_path: Path) -> None:
    class Broken(MockBackend):
        async def generate(self, *args: object, **kwargs: object) -> object:
            raise KeyboardInterrupt

    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_benchmark("honorific-bn", out=out, limit=4, progress=False, backend=Broken("honorific"))
    (entry,) = read_history(out)
    assert entry["status"] == "interrupted" and entry["error"].startswith("interrupted")


def test_a_folder_from_before_histories_keeps_its_timing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out)
    (out / HISTORY_NAME).unlink()  # as an older biasbench left it: the manifest only
    manifest = json.loads((out / "manifest.json").read_text())
    _run(out)
    history = read_history(out)
    assert len(history) == 2 and "rebuilt from manifest.json" in history[0]["source"]
    run = json.loads((out / "results.json").read_text())["run"]
    assert run["first"]["started_at"] == manifest["started_at"]


def test_history_never_holds_a_key(tmp_path: Path, monkeypatch) -> None:
    from biasbench.models.registry import ModelOptions

    out = tmp_path / "run"
    run_benchmark(
        "honorific-bn",
        "mock:honorific",
        out=out,
        limit=2,
        progress=False,
        options=ModelOptions(base_url="http://user:pw-secret@localhost:1/v1"),
    )
    text = (out / HISTORY_NAME).read_text()
    assert "pw-secret" not in text
    assert json.loads(text)["options"]["model_options"]["base_url"].startswith("http://")


def test_runs_lists_folders_with_their_status(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    _run(root / "a")
    _run(root / "b", script="ordinary")
    _run(root / "b", script="ordinary")
    torn = root / "c"
    _run(torn)
    with (torn / "labels.jsonl").open("a") as handle:
        handle.write("{}\n")
    dead = root / "d"
    _run(dead)
    manifest = json.loads((dead / "manifest.json").read_text())
    manifest["status"] = "running"  # a writer killed by SIGKILL leaves this
    (dead / "manifest.json").write_text(json.dumps(manifest))
    (root / "notes").mkdir()
    table = list_runs(root)
    assert table["folder"].tolist() == ["a", "b", "c", "d"]
    assert table["status"].tolist() == ["complete", "complete", "torn", "failed"]
    assert table["benchmark"].unique().tolist() == ["honorific-bn"]
    assert table["model"].tolist() == [
        "mock-honorific",
        "mock-ordinary",
        "mock-honorific",
        "mock-honorific",
    ]
    assert table["requests"].tolist() == [6, 6, 6, 6]
    assert table["answered"].tolist() == [6, 6, 6, 6]
    assert table["invocations"].tolist() == [1, 2, 1, 1]
    assert table["signature"].str.contains("model:mock-ordinary").tolist() == [
        False,
        True,
        False,
        False,
    ]
    assert "does not match the manifest" in table["detail"][2]
    # round 3: a --limit run's scope is listed (the signature records the limit)
    assert table["scope"].tolist()[:2] == ["partial: --limit 6"] * 2

    done = subprocess.run(
        [sys.executable, "-m", "biasbench", "runs", str(root)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "300"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == [
        "folder",
        "benchmark",
        "model",
        "status",
        "requests",
        "answered",
        "failed",
        "invocations",
        "signature",
        "scope",
    ]
    assert lines[1].split()[:8] == [
        "a",
        "honorific-bn",
        "mock-honorific",
        "complete",
        "6",
        "6",
        "0",
        "1",
    ]
    assert any(line.startswith("c: torn: ") for line in lines)


def test_runs_on_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "biasbench", "runs", str(tmp_path / "no")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {tmp_path / 'no'}: no such folder"
