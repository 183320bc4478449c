"""A disk that fills mid-run: every answer the server delivered is stored (in the space the run
holds in reserve), the error is the runner's one line saying what was stored and what was lost,
and the rerun after space is freed asks nothing twice. Run on a small tmpfs (root only)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.small_disk import small_disk as mounted

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with mounted(tmp_path, "2000k") as mount:
        yield mount


@pytest.fixture
def server() -> Iterator[str]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "biasbench.testing.mock_openai",
            "--port",
            "0",
            "--latency",
            "0.002",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        yield f"http://127.0.0.1:{int(process.stdout.readline())}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _stats(root: str) -> dict:
    with urllib.request.urlopen(f"{root}/stats", timeout=10) as response:
        return json.loads(response.read())


def _stored(store: Path) -> int:
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM responses WHERE status = 'ok'").fetchone()[0])


def test_a_full_disk_loses_no_delivered_answer(small_disk: Path, server: str) -> None:
    out = small_disk / "run"
    command = [
        sys.executable,
        "-m",
        "biasbench",
        "run",
        "honorific-bn",
        "--model",
        "openai:m",
        "--base-url",
        f"{server}/v1",
        "--out",
        str(out),
        "--concurrency",
        "16",
        "--no-progress",
    ]
    env = {**os.environ, "OPENAI_API_KEY": "x"}
    first = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 2, first.stderr
    lines = first.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: cannot write the response store {out / 'responses.sqlite'}: "
    ), first.stderr
    assert (
        ": the disk is full; stopped sending requests, 0 answers could not be saved (" in lines[0]
    )
    assert "in the space biasbench held in reserve" in lines[0]
    calls = _stats(server)["calls"]
    assert 0 < _stored(out / "responses.sqlite") == calls < 2016
    assert not (out / "responses.sqlite.reserve").exists()
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    second = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    asked = _stats(server)["by_prompt"]
    assert len(asked) == 2016 and max(asked.values()) == 1  # nothing paid twice
