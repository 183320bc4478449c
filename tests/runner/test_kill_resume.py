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


def _server(latency: float) -> Iterator[str]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "biasbench.testing.mock_openai",
            "--port",
            "0",
            "--latency",
            str(latency),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def slow_server() -> Iterator[str]:
    """A mock server subprocess answering after 20 ms; yields its root URL."""
    yield from _server(0.02)


@pytest.fixture
def slower_server() -> Iterator[str]:
    """Answers after 0.5 s: a run of N requests at concurrency 4 lasts 25 s, so a second
    process started while it runs finds it running however loaded the machine is."""
    yield from _server(0.5)


def server_stats(root: str) -> dict:
    with urllib.request.urlopen(f"{root}/stats", timeout=10) as response:
        return json.loads(response.read())


def driver(root: str, store: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tests.runner.drive_runner",
        "--base-url",
        f"{root}/v1",
        "--store",
        str(store),
        "--n",
        str(N),
        "--concurrency",
        "8",
        "--flush-every",
        "8",
        "--flush-interval",
        "0.05",
    ]


def stored_ok_prompts(store: Path) -> list[str]:
    """Prompt texts of the ok rows, read without writing to the store (-1 while not created)."""
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
            return [
                p for (p,) in db.execute("SELECT prompt_text FROM responses WHERE status = 'ok'")
            ]
    except sqlite3.OperationalError:  # file or table not there yet
        return []


def test_sigkill_mid_run_then_rerun_completes_without_loss_or_duplicates(
    slow_server: str, tmp_path: Path
) -> None:
    store = tmp_path / "run" / "responses.sqlite"
    victim = subprocess.Popen(
        driver(slow_server, store), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
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

    rerun = subprocess.run(
        driver(slow_server, store), cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert rerun.returncode == 0, rerun.stderr
    stats = json.loads(rerun.stdout)
    after = server_stats(slow_server)

    # The rerun asked exactly for what was not stored, each prompt once.
    assert after["calls"] - before["calls"] == N - len(kept)
    assert (stats["cached"], stats["completed"], stats["failed"]) == (len(kept), N - len(kept), 0)
    asked_again = {
        p: after["by_prompt"][p] - before["by_prompt"].get(p, 0) for p in after["by_prompt"]
    }
    assert all(asked_again[p] == 0 for p in kept)
    assert sorted(n for n in asked_again.values() if n) == [1] * (N - len(kept))

    with sqlite3.connect(store) as db:
        rows, keys, items, ok = db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT key), COUNT(DISTINCT item_id), "
            "SUM(status = 'ok') FROM responses"
        ).fetchone()
        outputs = dict(db.execute("SELECT prompt_text, output FROM responses"))
    assert (rows, keys, items, ok) == (N, N, N, N)
    assert all(outputs[p] == hashed_reply(p, None) for p in outputs)


# --------------------------------------------------------------------------- the biasbench CLI


def cli_run(root: str, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "biasbench",
        "run",
        "honorific-bn",
        "--model",
        "openai:m",
        "--base-url",
        f"{root}/v1",
        "--out",
        str(out),
        "--limit",
        str(N),
        "--concurrency",
        "4",
        "--no-progress",
        *extra,
    ]


def wait_for_rows(store: Path, process: subprocess.Popen, at_least: int) -> None:
    deadline = time.monotonic() + 60
    while len(stored_ok_prompts(store)) < at_least:
        assert process.poll() is None, "the run finished before the test could act"
        assert time.monotonic() < deadline, "the run stored nothing in 60 s"
        time.sleep(0.005)


def test_second_writer_is_refused_and_the_lock_dies_with_its_holder(
    slower_server: str, tmp_path: Path
) -> None:
    slow_server = slower_server
    out = tmp_path / "run"
    first = subprocess.Popen(
        cli_run(slow_server, out),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_rows(out / "responses.sqlite", first, 20)
    second = subprocess.run(
        cli_run(slow_server, out), cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert second.returncode == 2
    assert second.stderr == (
        f"error: run folder {out} is in use by process {first.pid} (one "
        "writer at a time); wait for it to finish, or pass --wait to "
        "queue behind it\n"
    )
    # The holder is killed outright: the kernel drops its lock, and the next run resumes.
    first.kill()
    first.wait(timeout=10)
    time.sleep(0.1)  # let requests already on the wire reach the server's counter
    kept = len(stored_ok_prompts(out / "responses.sqlite"))
    before = server_stats(slow_server)["calls"]
    third = subprocess.run(
        cli_run(slow_server, out), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert third.returncode == 0, third.stderr
    assert server_stats(slow_server)["calls"] - before == N - kept
    assert f"{kept} cached, {N - kept} new, 0 failed" in third.stdout


def test_wait_queues_behind_the_holder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; "
            "from biasbench.runfolder.lock import run_lock\n"
            f"with run_lock(Path({str(out)!r})):\n print('held', flush=True); sys.stdin.readline()",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    waiter = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "biasbench",
            "run",
            "honorific-bn",
            "--model",
            "mock:hashed-register",
            "--out",
            str(out),
            "--limit",
            "8",
            "--no-progress",
            "--wait",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert waiter.stderr is not None
    assert waiter.stderr.readline() == (
        f"WARNING: run folder {out} is in use by process {holder.pid}; waiting for it\n"
    )
    assert waiter.poll() is None and not (out / "responses.sqlite").exists()
    holder.communicate("\n", timeout=10)
    assert waiter.wait(timeout=120) == 0, waiter.stderr.read()
    assert "8 new, 0 failed" in (waiter.stdout.read() if waiter.stdout else "")


@pytest.mark.parametrize(
    ("sig", "code", "said", "reason"),
    [
        (signal.SIGTERM, 143, "terminated (SIGTERM)", "interrupted by SIGTERM"),
        (signal.SIGINT, 130, "interrupted (Ctrl-C)", "interrupted by Ctrl-C (SIGINT)"),
    ],
)
def test_sigterm_and_ctrl_c_save_everything_and_say_so(
    slow_server: str, tmp_path: Path, sig: signal.Signals, code: int, said: str, reason: str
) -> None:
    out = tmp_path / "run"
    victim = subprocess.Popen(
        cli_run(slow_server, out),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_rows(out / "responses.sqlite", victim, 40)
    victim.send_signal(sig)
    stdout, stderr = victim.communicate(timeout=30)
    assert victim.returncode == code, stderr
    assert stderr == (
        f"{said}: finished responses are saved in the store and the manifest "
        "records the interruption; rerun the same command to resume\n"
    )
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["status"], manifest["error"]) == ("interrupted", reason)
    assert "derived" not in manifest
    time.sleep(0.1)
    kept = stored_ok_prompts(out / "responses.sqlite")
    assert 40 <= len(kept) < N
    before = server_stats(slow_server)
    rerun = subprocess.run(
        cli_run(slow_server, out), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert rerun.returncode == 0, rerun.stderr
    after = server_stats(slow_server)
    assert after["calls"] - before["calls"] == N - len(kept)  # nothing saved is asked again
    assert all(after["by_prompt"][p] == before["by_prompt"][p] for p in kept)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # what `cmd &` in a script does


@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_sigterm_pays_nothing_twice_whatever_sigint_does(
    slower_server: str, tmp_path: Path, sigint: str
) -> None:
    """SIGTERM to a run whose SIGINT is ignored takes Ctrl-C's graceful path: exit 143, and
    every answer the server delivered is stored, so the rerun asks no prompt a second time."""
    out = tmp_path / "run"
    victim = subprocess.Popen(
        cli_run(slower_server, out) + ["--concurrency", "8"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint if sigint == "ignored" else None,
    )
    wait_for_rows(out / "responses.sqlite", victim, 16)
    victim.send_signal(signal.SIGTERM)
    _, stderr = victim.communicate(timeout=30)
    assert victim.returncode == 143, stderr
    assert stderr.startswith("terminated (SIGTERM): finished responses are saved")
    rerun = subprocess.run(
        cli_run(slower_server, out) + ["--concurrency", "32"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rerun.returncode == 0, rerun.stderr
    asked = server_stats(slower_server)["by_prompt"]
    assert len(asked) == N
    assert {p: n for p, n in asked.items() if n > 1} == {}
