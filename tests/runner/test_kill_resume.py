"""SIGKILL the runner mid-run, rerun it, and count what the server was asked.

Both the mock server and the runner are real subprocesses talking HTTP on loopback. The rerun
must finish the run with every response stored exactly once, and must not ask the server again
for anything that was stored before the kill.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasbench.testing.mock_openai import hashed_reply

ROOT = Path(__file__).resolve().parents[2]
N = 200


@pytest.fixture
def slow_server() -> Iterator[str]:
    """A mock server subprocess answering after 20 ms; yields its root URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "biasbench.testing.mock_openai", "--port", "0", "--latency", "0.02"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def server_stats(root: str) -> dict:
    with urllib.request.urlopen(f"{root}/stats", timeout=10) as response:
        return json.loads(response.read())


def driver(root: str, store: Path) -> list[str]:
    return [sys.executable, "-m", "biasbench.testing.drive_runner", "--base-url", f"{root}/v1",
            "--store", str(store), "--n", str(N), "--concurrency", "8", "--flush-every", "8",
            "--flush-interval", "0.05"]


def stored_ok_prompts(store: Path) -> list[str]:
    """Prompt texts of the ok rows, read without writing to the store (-1 while not created)."""
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
            return [p for (p,) in db.execute(
                "SELECT prompt_text FROM responses WHERE status = 'ok'")]
    except sqlite3.OperationalError:  # file or table not there yet
        return []


def test_sigkill_mid_run_then_rerun_completes_without_loss_or_duplicates(
        slow_server: str, tmp_path: Path) -> None:
    store = tmp_path / "run" / "responses.sqlite"
    victim = subprocess.Popen(driver(slow_server, store), cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while len(stored_ok_prompts(store)) < 40:
        assert victim.poll() is None, "the runner finished before it could be killed"
        assert time.monotonic() < deadline, "the runner stored nothing in 20 s"
        time.sleep(0.005)
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(timeout=10) == -signal.SIGKILL
    time.sleep(0.1)  # let requests already on the wire reach the server's counter

    kept = stored_ok_prompts(store)
    assert 40 <= len(kept) < N, "the kill must land mid-run"
    before = server_stats(slow_server)

    rerun = subprocess.run(driver(slow_server, store), cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
    assert rerun.returncode == 0, rerun.stderr
    stats = json.loads(rerun.stdout)
    after = server_stats(slow_server)

    # The rerun asked exactly for what was not stored, each prompt once.
    assert after["calls"] - before["calls"] == N - len(kept)
    assert (stats["cached"], stats["completed"], stats["failed"]) == (len(kept), N - len(kept), 0)
    asked_again = {p: after["by_prompt"][p] - before["by_prompt"].get(p, 0)
                   for p in after["by_prompt"]}
    assert all(asked_again[p] == 0 for p in kept)
    assert sorted(n for n in asked_again.values() if n) == [1] * (N - len(kept))

    with sqlite3.connect(store) as db:
        rows, keys, items, ok = db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT key), COUNT(DISTINCT item_id), "
            "SUM(status = 'ok') FROM responses").fetchone()
        outputs = dict(db.execute("SELECT prompt_text, output FROM responses"))
    assert (rows, keys, items, ok) == (N, N, N, N)
    assert all(outputs[p] == hashed_reply(p, None) for p in outputs)
