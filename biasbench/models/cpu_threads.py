"""How many CPU threads a local model's forward passes use, chosen from what the CPU gives.

llama.cpp splits each operation of a forward pass across its threads and waits at a barrier
after it; its threads spin while they wait. On a quiet machine every thread runs and two
threads on two cores are close to twice one. When other processes want the same cores, a
thread is descheduled now and then, and every operation waits for it while its partners spin
through their own share of the CPU: on a 2-core machine beside two busy processes a 10-item
honorific-bn run took 51 s with 2 threads and 39 s with 1, and under a heavier mixed load 154 s
against 30 s. No fixed count is right on both machines, so :class:`ThreadPolicy` gives the passes as many
threads as there are CPUs the rest of the machine leaves free: every half second it reads how
much CPU time the machine spent (``/proc/stat``; processes at a positive nice level do not
count, since they yield to this one) and how much this process spent (``os.times``), and the
difference is what others took. A first version compared the throughput of each thread count
over windows of passes instead; passes of other shapes (an option-scoring job's 8-row and
100-row passes) made its windows incomparable, and on a quiet machine it chose 1 thread for
FilBBQ's option scoring (29.8 s for 48 items against 19.0 s with 2).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
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


def machine_cpu_seconds(stat: Path = Path("/proc/stat")) -> float | None:
    """CPU-seconds the whole machine has spent busy since boot, not counting processes at a
    positive nice level (``/proc/stat``'s user + system + irq + softirq + steal); None where
    that file does not exist (not Linux)."""
    try:
        fields = stat.read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    user, _nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[1:9])
    return (user + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """CPU-seconds this process (all its threads) has spent."""
    times = os.times()
    return times.user + times.system


CpuSample = tuple[float | None, float]
"""(machine busy CPU-seconds or None, this process's CPU-seconds)."""


def sample_cpu() -> CpuSample:
    return machine_cpu_seconds(), own_cpu_seconds()


class ThreadPolicy:
    """Thread count for the next forward pass: fixed, or the CPUs others leave free.

    ``after_pass()`` is called after each forward pass; it returns a new count when the count
    should change, else None (between windows it only reads the clock). Adaptive mode, at most every ``window_s`` seconds, reads
    the CPU time others took over the last window (machine busy time minus this process's)
    and wants ``round(free CPUs)`` threads, at least 1 and at most ``max_threads`` (the
    physical cores); a new count is taken when two windows in a row want it, so one burst
    beside the run does not flip it. Without ``/proc/stat`` it keeps ``max_threads``.
    """

    def __init__(self, fixed: int | None = None, *, max_threads: int | None = None,
                 window_s: float = 0.5, cpus: int | None = None,
                 sampler: Callable[[], CpuSample] = sample_cpu,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fixed = fixed
        self.max_threads = fixed or max_threads or physical_cores()
        self.current = self.max_threads
        self.window_s = window_s
        self.cpus = cpus or _allowed_cpus()
        self._sampler = sampler
        self._clock = clock
        self._last = (clock(), *sampler()) if not fixed else None
        self._wanted: int | None = None
        self.history: list[tuple[int, float]] = []
        """(threads wanted, CPUs others took) of every finished window, for benchmarks and
        tests."""

    @property
    def adaptive(self) -> bool:
        return self.fixed is None and self.max_threads > 1

    def describe(self) -> str:
        return f"{self.fixed} (fixed)" if self.fixed else f"free CPUs, 1..{self.max_threads}"

    def after_pass(self) -> int | None:
        if not self.adaptive or self._last is None:
            return None
        wall = self._clock() - self._last[0]
        if wall < self.window_s:
            return None
        before = self._last
        now = self._last = (before[0] + wall, *self._sampler())
        if now[1] is None or before[1] is None:
            return None
        others = max(0.0, (now[1] - before[1]) - (now[2] - before[2])) / wall
        wanted = min(self.max_threads, max(1, round(self.cpus - others)))
        self.history.append((wanted, others))
        confirmed = wanted == self._wanted
        self._wanted = wanted
        if not confirmed or wanted == self.current:
            return None
        self.current = wanted
        return wanted


def _allowed_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
