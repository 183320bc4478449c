"""Progress where stderr is not a terminal: a plain line (done/total, rate, ETA) every interval,
never a redrawn bar; a terminal keeps the bar."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from biasbench import progress
from biasbench.pipeline import run_benchmark
from biasbench.progress import PlainProgress, heartbeat, progress_bar


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_progress_writes_a_line_per_interval_with_rate_and_eta() -> None:
    clock, out = FakeClock(), io.StringIO()
    bar = PlainProgress(2016, initial=16, stream=out, interval_s=30, clock=clock)
    clock.now += 10
    bar.update(40)  # before the interval: nothing yet
    assert out.getvalue() == ""
    clock.now += 20
    bar.update(80)  # 120 new in 30 s: 4/s, 1,880 left: 470 s
    bar.set_postfix(failed=2)
    clock.now += 30
    bar.update(0)  # nothing new, still a line: the run is alive
    clock.now += 5
    bar.update(1880)
    bar.close()
    assert out.getvalue().splitlines() == [
        "requests: 136/2,016 (6.7%), 4.00/s, ETA 7m50s",
        "requests: 136/2,016 (6.7%), 2.00/s, ETA 15m40s, failed 2",
        "requests: 2,016/2,016 (100.0%), 30.77/s, done in 1m05s, failed 2",
    ]


def test_a_short_run_prints_no_progress_line() -> None:
    out = io.StringIO()
    bar = PlainProgress(10, stream=out, interval_s=30, clock=FakeClock())
    bar.update(10)
    bar.close()
    assert out.getvalue() == ""


@pytest.mark.parametrize(("stream", "kind"), [(io.StringIO(), PlainProgress), (Terminal(), "tqdm")])
def test_the_bar_only_on_a_terminal(stream: io.StringIO, kind: object) -> None:
    bar = progress_bar(5, 0, True, stream=stream)
    try:
        assert (
            isinstance(bar, PlainProgress)
            if kind is PlainProgress
            else type(bar).__name__ == "tqdm"
        )
    finally:
        bar.close()
    assert progress_bar(5, 0, False, stream=stream) is None


def test_a_run_with_stderr_in_a_file_reports_progress(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "PLAIN_INTERVAL_S", 0.0)  # a line at every update
    result = run_benchmark("honorific-bn", "mock:hashed-register", out=tmp_path / "run", limit=12)
    assert result.stats.completed == 12
    lines = capsys.readouterr().err.splitlines()
    progress_lines = [line for line in lines if line.startswith("requests: ")]
    assert progress_lines, lines
    assert progress_lines[-1].startswith("requests: 12/12 (100.0%), ")
    assert "done in" in progress_lines[-1]
    assert not any("\r" in line for line in lines)  # no bar redraws in a log file
    json.loads((tmp_path / "run" / "results.json").read_text())


def test_heartbeat_during_a_long_step() -> None:
    out = io.StringIO()
    import threading

    seen = threading.Event()

    class Watch(io.StringIO):
        def write(self, text: str) -> int:
            seen.set()
            return out.write(text)

    with heartbeat("scoring 10 responses", stream=Watch(), interval_s=0.001):
        assert seen.wait(5)
    assert out.getvalue().startswith("scoring 10 responses: still running (")
    quiet = io.StringIO()
    with heartbeat("scoring", enabled=False, stream=quiet, interval_s=0.001):
        pass
    assert quiet.getvalue() == ""


def test_cli_progress_lines_in_a_log(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "run",
            "honorific-bn",
            "-m",
            "mock:honorific",
            "--limit",
            "5",
            "--out",
            str(tmp_path / "run"),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "BIASBENCH_PROGRESS_INTERVAL": "0"},
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("requests: ")]
    assert lines[-1].startswith("requests: 5/5 (100.0%), ") and "done in" in lines[-1]
    assert "\r" not in done.stderr
