"""The thread policy of in-process models: the CPUs other processes leave free."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasbench.models.cpu_threads import ThreadPolicy, machine_cpu_seconds


class FakeCpu:
    """A machine whose other processes take ``others`` CPUs while this one takes ``own``."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.machine = 0.0
        self.own = 0.0

    def __call__(self) -> tuple[float | None, float]:
        return self.machine, self.own

    def clock(self) -> float:
        return self.wall

    def advance(self, seconds: float, *, others: float, own: float) -> None:
        self.wall += seconds
        self.machine += (others + own) * seconds
        self.own += own * seconds


# (CPUs others take in each half-second window, thread count after each window)
CASES = [
    ("quiet", [0.0, 0.0, 0.0], [2, 2, 2]),
    # two busy processes beside the run: one window wants 1, the second confirms it
    ("two busy processes", [1.0, 1.3, 1.3], [2, 1, 1]),
    ("one burst does not flip it", [0.0, 1.5, 0.0, 0.0], [2, 2, 2, 2]),
    ("load goes away again", [1.2, 1.2, 0.1, 0.1], [2, 1, 1, 2]),
    ("a third of a CPU taken still leaves two", [0.3, 0.3], [2, 2]),
    ("never below one thread", [4.0, 5.0, 6.0], [2, 1, 1]),
]


@pytest.mark.parametrize(("name", "others", "expected"), CASES, ids=[c[0] for c in CASES])
def test_threads_follow_the_cpus_others_leave_free(name: str, others: list[float],
                                                   expected: list[int]) -> None:
    cpu = FakeCpu()
    policy = ThreadPolicy(max_threads=2, cpus=2, sampler=cpu, clock=cpu.clock)
    seen = []
    for load in others:
        # this process's own CPU time never counts as someone else's
        cpu.advance(0.5, others=load, own=min(2.0 - min(load, 2.0), policy.current) + 0.0)
        policy.after_pass()
        seen.append(policy.current)
    assert seen == expected


def test_short_windows_and_fixed_counts_change_nothing() -> None:
    cpu = FakeCpu()
    policy = ThreadPolicy(max_threads=2, cpus=2, sampler=cpu, clock=cpu.clock)
    cpu.advance(0.2, others=2.0, own=0.0)  # shorter than a window: not read yet
    assert policy.after_pass() is None and policy.history == []
    fixed = ThreadPolicy(2, sampler=cpu, clock=cpu.clock)
    for _ in range(4):
        cpu.advance(0.5, others=2.0, own=0.0)
        assert fixed.after_pass() is None
    assert fixed.current == 2 and fixed.describe() == "2 (fixed)"


def test_no_proc_stat_keeps_the_physical_cores() -> None:
    policy = ThreadPolicy(max_threads=2, cpus=2, sampler=lambda: (None, 0.0),
                          clock=iter(range(0, 100)).__next__)  # a window passes every call
    assert policy.after_pass() is None and policy.current == 2


@pytest.mark.parametrize(("line", "expected"), [
    # user nice system idle iowait irq softirq steal: nice'd processes are not counted
    ("cpu  1000 5000 200 9000 10 30 20 50 0 0", 13.0),
    ("cpu0 1 2 3", None),
])
def test_machine_cpu_seconds_reads_proc_stat(tmp_path: Path, line: str,
                                             expected: float | None) -> None:
    import os

    stat = tmp_path / "stat"
    stat.write_text(line + "\ncpu0 1 2 3 4 5 6 7 8\n")
    got = machine_cpu_seconds(stat)
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected * 100 / os.sysconf("SC_CLK_TCK"))
    assert machine_cpu_seconds(tmp_path / "absent") is None
