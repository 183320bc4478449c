"""How many CPU threads a local model's forward passes use, chosen from what the CPU gives.

llama.cpp splits each operation of a forward pass across its threads and waits at a barrier
after it; its threads spin while they wait. On a quiet machine every thread runs and two
threads on two cores are close to twice one. When other processes want the same cores, a
thread is descheduled now and then, and every operation waits for it while its partners spin
through their own share of the CPU: on a 2-core machine beside two busy processes a 10-item
honorific-bn run took 51 s with 2 threads and 39 s with 1, and under a heavier mixed load 154 s
against 30 s. No fixed count is right on both machines, so :class:`ThreadPolicy` measures: it
runs short windows of forward passes with each candidate count, keeps the fastest, and probes
again every few seconds, so a run adapts when the load beside it changes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

_SYSFS_CPU = Path("/sys/devices/system/cpu")


def physical_cores(cpus: Iterable[int] | None = None, sysfs: Path = _SYSFS_CPU) -> int:
    """How many physical cores the CPUs this process may use (its affinity) belong to.

    Hyper-threads of one core count once: each CPU's ``topology/thread_siblings_list`` names
    its core. Without that topology (not Linux, a restricted /sys), psutil's physical count
    (capped by the allowed CPUs) where psutil is installed, else the allowed CPUs.
    """
    if cpus is None:
        try:
            cpus = os.sched_getaffinity(0)
        except AttributeError:  # pragma: no cover - not Linux
            cpus = range(os.cpu_count() or 1)
    allowed = sorted(cpus)
    cores: set[str] = set()
    for cpu in allowed:
        try:
            cores.add((sysfs / f"cpu{cpu}" / "topology" / "thread_siblings_list").read_text()
                      .strip())
        except OSError:
            cores.clear()
            break
    if cores:
        return len(cores)
    try:
        import psutil  # type: ignore[import-untyped]

        counted = psutil.cpu_count(logical=False)
    except ImportError:
        counted = None
    return max(1, min(counted, len(allowed)) if counted else len(allowed))


class ThreadPolicy:
    """Thread count for the next forward pass: fixed, or measured and adapted during the run.

    ``record(rows, seconds)`` is told each forward pass; it returns a new count when the count
    should change, else None. Adaptive mode compares candidates by rows per second over windows
    of at least ``window_s`` seconds (one candidate per window, all candidates in turn), keeps
    the fastest for ``hold_windows`` windows, then probes again.
    """

    def __init__(self, fixed: int | None = None, *, max_threads: int | None = None,
                 window_s: float = 0.4, hold_windows: int = 12) -> None:
        self.fixed = fixed
        top = max_threads or physical_cores()
        self.candidates = [fixed] if fixed else list(range(top, 0, -1))
        self.current = self.candidates[0]
        self.window_s = window_s
        self.hold_windows = hold_windows
        self._rows = 0
        self._seconds = 0.0
        self._probe: dict[int, float] = {}
        self._held = 0
        self.history: list[tuple[int, float]] = []
        """(threads, rows per second) of every finished window, for benchmarks and tests."""

    @property
    def adaptive(self) -> bool:
        return len(self.candidates) > 1

    def describe(self) -> str:
        return f"{self.fixed} (fixed)" if self.fixed else f"adaptive 1..{self.candidates[0]}"

    def record(self, rows: int, seconds: float) -> int | None:
        if not self.adaptive:
            return None
        self._rows += rows
        self._seconds += seconds
        if self._seconds < self.window_s:
            return None
        rate = self._rows / self._seconds
        self._rows, self._seconds = 0, 0.0
        self.history.append((self.current, rate))
        if self._held > 0:  # exploiting the best count
            self._held -= 1
            if self._held == 0:
                self._probe = {}
            return None
        self._probe[self.current] = rate
        untried = [n for n in self.candidates if n not in self._probe]
        if untried:
            return self._switch(untried[0])
        best = max(self._probe, key=self._probe.__getitem__)
        self._held = self.hold_windows
        return self._switch(best)

    def _switch(self, threads: int) -> int | None:
        if threads == self.current:
            return None
        self.current = threads
        return threads
