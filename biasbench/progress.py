"""Progress on stderr: a live bar on a terminal, a plain line every 30 seconds elsewhere.

A run whose stderr goes to a file (a batch job, CI, ``nohup``) cannot use a redrawn bar: it
would print nothing readable until the end. There, :class:`PlainProgress` writes one
self-contained line (done/total, rate, ETA) every :data:`PLAIN_INTERVAL_S` seconds, and a last
line at the end if it wrote any (short runs stay quiet). Long steps without a count (scoring)
get a :func:`heartbeat` line at the same interval.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO


def _interval_from_env(default: float = 30.0) -> float:
    try:
        value = float(os.environ.get("BIASBENCH_PROGRESS_INTERVAL", default))
    except ValueError:
        return default
    return value if value >= 0 else default


PLAIN_INTERVAL_S = _interval_from_env()
"""Seconds between two plain progress lines: 30, or ``$BIASBENCH_PROGRESS_INTERVAL``."""


def _duration(seconds: float) -> str:
    """E.g. ``45s``, ``7m05s``, ``2h03m``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class PlainProgress:
    """The part of tqdm's interface the runners use (``update``, ``set_postfix``, ``close``,
    ``n``), writing a plain line every ``interval_s`` seconds instead of redrawing a bar."""

    def __init__(
        self,
        total: int,
        initial: int = 0,
        *,
        desc: str = "requests",
        stream: TextIO | None = None,
        interval_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.n = initial
        self.initial = initial
        self.desc = desc
        self.stream = stream if stream is not None else sys.stderr
        self.interval_s = PLAIN_INTERVAL_S if interval_s is None else interval_s
        self.clock = clock
        self.started = self.last = clock()
        self.postfix: dict[str, Any] = {}
        self.lines = 0

    def set_postfix(self, refresh: bool = False, **values: Any) -> None:
        self.postfix = values

    def update(self, n: int = 1) -> None:
        """Count ``n`` more done; write a line when the interval has passed (``n`` may be 0:
        a stalled run still reports that it is alive)."""
        self.n += n
        now = self.clock()
        if now - self.last >= self.interval_s:
            self.last = now
            self._write(now)

    def line(self, now: float | None = None) -> str:
        """E.g. ``requests: 120/2,016 (6.0%), 4.00/s, ETA 7m54s, failed 2``."""
        now = self.clock() if now is None else now
        elapsed = now - self.started
        done_here = self.n - self.initial  # answers already stored took no time now
        rate = done_here / elapsed if elapsed > 0 else 0.0
        share = f" ({100 * self.n / self.total:.1f}%)" if self.total else ""
        text = f"{self.desc}: {self.n:,}/{self.total:,}{share}, {rate:.2f}/s"
        remaining = self.total - self.n
        if remaining > 0:
            text += f", ETA {_duration(remaining / rate)}" if rate > 0 else ", ETA unknown"
        else:
            text += f", done in {_duration(elapsed)}"
        for name, value in self.postfix.items():
            text += f", {name} {value}"
        return text

    def _write(self, now: float) -> None:
        self.stream.write(self.line(now) + "\n")
        self.stream.flush()
        self.lines += 1

    def close(self) -> None:
        if self.lines:  # a run long enough to report ends with its final count
            self._write(self.clock())


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or a fake stream
        return False


def progress_bar(
    total: int, initial: int, enabled: bool, *, desc: str = "requests", stream: TextIO | None = None
) -> Any:
    """A tqdm bar when ``stream`` (stderr) is a terminal, :class:`PlainProgress` otherwise,
    None when progress is off."""
    if not enabled:
        return None
    stream = stream if stream is not None else sys.stderr
    if not _is_terminal(stream):
        return PlainProgress(total, initial, desc=desc, stream=stream)
    from tqdm import tqdm

    # mininterval keeps redraws rare; updates arrive in batches from the ticker anyway.
    return tqdm(
        total=total,
        initial=initial,
        unit="req",
        file=stream,
        mininterval=0.5,
        smoothing=0.05,
        dynamic_ncols=True,
        desc=desc,
    )


@contextlib.contextmanager
def heartbeat(
    what: str,
    enabled: bool = True,
    *,
    stream: TextIO | None = None,
    interval_s: float | None = None,
) -> Iterator[None]:
    """While the block runs, write ``WHAT: still running (Ns)`` every interval, so that a long
    step without a count (scoring half a million answers) is not mistaken for a hang."""
    if not enabled:
        yield
        return
    stream = stream if stream is not None else sys.stderr
    # at least a second apart: an interval of 0 (a line at every update of a count) would
    # make a heartbeat, which has no updates, a busy loop
    interval = max(PLAIN_INTERVAL_S, 1.0) if interval_s is None else interval_s
    stop = threading.Event()
    started = time.monotonic()

    def beat() -> None:
        while not stop.wait(interval):
            stream.write(f"{what}: still running ({_duration(time.monotonic() - started)})\n")
            stream.flush()

    thread = threading.Thread(target=beat, name="biasbench-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
