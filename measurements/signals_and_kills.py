"""Signals and kills: signal-to-exit time, and SIGKILLs during a rerun.

1. Signal to exit: ``biasbench run honorific-bn`` against the project's mock OpenAI-compatible
   server (``biasbench.testing.mock_openai`` on 127.0.0.1, 50 ms per answer, concurrency 8) gets
   SIGTERM or SIGINT once more than 50 answers are stored (SIGINT is reset to its default in
   the child: a shell's background job would otherwise start with it ignored). Printed per
   signal: the exit code (143 for SIGTERM and 130 for Ctrl-C are asked for), the seconds from
   the signal to the exit (asked: within 2 s; this one figure is about time, so it depends on
   the machine's load), the stderr lines, whether a traceback was printed, and the manifest's
   status and reason.
2. Kills during rescoring: a finished 2,016-item run (``mock:hashed-register``) is rerun, which
   answers from the store and rewrites labels, results and tables; the rerun is SIGKILLed,
   alternately at a random moment (25% to 90% of an undisturbed rerun's duration) and at the
   first sign of the label rewrite (labels.jsonl changed, or a temporary file or staging
   folder appeared), and then
   ``biasbench report`` runs on the folder. It must refuse in one line (exit 2) or publish
   exactly the reference numbers (the report's Table 4 and the folder's results.json); "wrong"
   is any other exit 0 or another exit code.

Bounded: ``--signals N`` runs of each signal (default 3), ``--kills N`` kills (default 10),
every subprocess under a timeout; no network beyond loopback.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/signals_and_kills.py``. To compare
with an older checkout, run this same file with that checkout first on the path, e.g.
``git archive 0e84ef8 | tar -x -C OLD && PYTHONPATH=OLD python measurements/signals_and_kills.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

BIASBENCH = [sys.executable, "-m", "biasbench"]
MOCK = ["--model", "mock:hashed-register", "--no-progress"]


def stored_rows(folder: Path) -> int:
    try:
        with sqlite3.connect(f"file:{folder}/responses.sqlite?mode=ro", uri=True) as db:
            return int(db.execute("select count(*) from responses").fetchone()[0])
    except sqlite3.Error:
        return 0


def manifest(folder: Path) -> dict[str, Any]:
    try:
        return dict(json.loads((folder / "manifest.json").read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def _default_sigint() -> None:
    # A shell's background job starts with SIGINT ignored and Python then keeps ignoring it;
    # restore the default so the child gets Ctrl-C as it would in a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def labels_touched(folder: Path, before: tuple[int, int]) -> bool:
    """Whether the rerun started rewriting labels: labels.jsonl changed, or a temporary file or
    folder for it appeared (``.labels.jsonl.*.tmp`` or ``.staging-PID``: atomic writes)."""
    try:
        stat = (folder / "labels.jsonl").stat()
    except OSError:
        return True
    return (stat.st_size, stat.st_mtime_ns) != before or any(
        name.startswith((".labels.jsonl", ".staging")) for name in os.listdir(folder)
    )


def signal_to_exit(base: Path, port: int, sig: signal.Signals, n: int) -> str:
    out = base / f"{sig.name}-{n}"
    proc = subprocess.Popen(
        [
            *BIASBENCH,
            "run",
            "honorific-bn",
            "--model",
            "openai:m",
            "--base-url",
            f"http://127.0.0.1:{port}/v1",
            "--out",
            str(out),
            "--limit",
            "2016",
            "--concurrency",
            "8",
            "--no-progress",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "OPENAI_API_KEY": "sk-local"},
        preexec_fn=_default_sigint,
    )
    deadline = time.monotonic() + 120
    while stored_rows(out) <= 50 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, stderr = proc.communicate(timeout=30)
        seconds = f"{time.monotonic() - sent:.2f}"
    except subprocess.TimeoutExpired:
        proc.kill()
        _, stderr = proc.communicate()
        seconds = "> 30 (killed)"
    lines = stderr.strip().splitlines()
    state = manifest(out)
    reason = str(state.get("error") or state.get("reason") or "").replace("|", "\\|")[:70]
    return (
        f"| {sig.name} | {proc.returncode} | {seconds} | {len(lines)} | "
        f"{'yes' if 'Traceback' in stderr else 'no'} | {state.get('status', 'n/a')} | "
        f"{reason or 'n/a'} | {(lines[-1] if lines else '')[:70].replace('|', '/')} |"
    )


def tables_of(report: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(report.glob("tables/*table4.csv")))


def kill_attack(base: Path, kills: int, seed: int) -> tuple[Counter[tuple[str, str]], float]:
    ref = base / "ref"
    subprocess.run(
        [*BIASBENCH, "run", "honorific-bn", *MOCK, "--out", str(ref)],
        capture_output=True,
        check=True,
        timeout=600,
    )
    probe = base / "probe"
    shutil.copytree(ref, probe)
    started = time.monotonic()
    subprocess.run(
        [*BIASBENCH, "run", "honorific-bn", *MOCK, "--out", str(probe)],
        capture_output=True,
        check=True,
        timeout=600,
    )
    rerun_s = time.monotonic() - started
    subprocess.run(
        [*BIASBENCH, "report", str(ref), "--out", str(base / "ref-report")],
        capture_output=True,
        check=True,
        timeout=600,
    )
    ref_models = json.loads((ref / "results.json").read_text(encoding="utf-8"))["models"]
    ref_tables = tables_of(base / "ref-report")
    rng = random.Random(seed)
    tally: Counter[tuple[str, str]] = Counter()
    for i in range(kills):
        folder, report = base / f"k{i}", base / f"rep{i}"
        shutil.copytree(ref, folder)
        proc = subprocess.Popen(
            [*BIASBENCH, "run", "honorific-bn", *MOCK, "--out", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        targeted = i % 2 == 1
        if targeted:  # at the first sign of the label rewrite (polled every ms)
            stat = (folder / "labels.jsonl").stat()
            before = (stat.st_size, stat.st_mtime_ns)
            deadline = time.monotonic() + 3 * rerun_s
            while (
                proc.poll() is None
                and time.monotonic() < deadline
                and not labels_touched(folder, before)
            ):
                time.sleep(0.001)
        else:
            time.sleep(rng.uniform(0.25, 0.9) * rerun_s)
        mode = "at label rewrite" if targeted else "random"
        tally[(mode, "finished before the kill")] += proc.poll() is not None
        proc.kill()
        proc.wait()
        result = subprocess.run(
            [*BIASBENCH, "report", str(folder), "--out", str(report)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        tally[(mode, "traceback")] += "Traceback" in result.stderr
        if result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1:
            tally[(mode, "refused in one line")] += 1
        elif result.returncode == 0:
            got = json.loads((folder / "results.json").read_text(encoding="utf-8"))["models"]
            same = got == ref_models and tables_of(report) == ref_tables
            tally[
                (mode, "reported the reference numbers" if same else "WRONG numbers, exit 0")
            ] += 1
        else:
            tally[(mode, f"other exit {result.returncode}")] += 1
        shutil.rmtree(folder)
        shutil.rmtree(report, ignore_errors=True)
    return tally, rerun_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--signals", type=int, default=3, help="runs per signal (3)")
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs during reruns (10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the kill moments (0)")
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load} at the start\n")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "biasbench.testing.mock_openai",
                "--port",
                "0",
                "--latency",
                "0.05",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline())
            print(
                "| signal | exit | s to exit | stderr lines | traceback | manifest status "
                "| manifest reason | stderr's last line |"
            )
            print("|:---|---:|---:|---:|:---|:---|:---|:---|")
            for n in range(args.signals):
                for sig in (signal.SIGTERM, signal.SIGINT):
                    print(signal_to_exit(base, port, sig, n), flush=True)
        finally:
            server.terminate()
            server.wait()
        tally, rerun_s = kill_attack(base, args.kills, args.seed)
    print(f"\nKills during a rescoring rerun (an undisturbed rerun took {rerun_s:.1f} s):\n")
    print("| kill moment | outcome | kills |")
    print("|:---|:---|---:|")
    for (mode, outcome), count in sorted(tally.items()):
        print(f"| {mode} | {outcome} | {count} |")
    print(f"\nload average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
