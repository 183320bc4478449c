"""The threads of in-process models: one per physical core, with bounded barrier spinning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from biasbench.models.cpu_threads import (
    BARRIER_SPIN_COUNT,
    bound_barrier_spinning,
    physical_cores,
)

# (the user's environment, what it holds afterwards, the setting reported)
SPIN_CASES = [
    ("nothing chosen", {}, {"GOMP_SPINCOUNT": BARRIER_SPIN_COUNT},
     f"GOMP_SPINCOUNT={BARRIER_SPIN_COUNT}"),
    ("the user's spin count wins", {"GOMP_SPINCOUNT": "300000"}, {"GOMP_SPINCOUNT": "300000"},
     "GOMP_SPINCOUNT=300000"),
    ("a wait policy is left alone", {"OMP_WAIT_POLICY": "PASSIVE"},
     {"OMP_WAIT_POLICY": "PASSIVE"}, "OMP_WAIT_POLICY=PASSIVE"),
]


@pytest.mark.parametrize(("name", "before", "after", "reported"), SPIN_CASES,
                         ids=[c[0] for c in SPIN_CASES])
def test_barrier_spinning_is_bounded_unless_the_user_chose(
        name: str, before: dict[str, str], after: dict[str, str], reported: str) -> None:
    env = dict(before)
    assert bound_barrier_spinning(env) == reported
    assert env == after


def test_the_bound_is_set_before_llama_cpp_loads_openmp() -> None:
    # libgomp reads GOMP_SPINCOUNT once, when it loads: set any later, it is ignored and two
    # threads beside five busy processes ran 5.4x slower (325.6 s against 60.3 s, 48 items)
    pytest.importorskip("llama_cpp")
    probe = ("import os\n"
             "from biasbench.models.llamacpp_engine import _load_llama_cpp\n"
             "maps = lambda: open('/proc/self/maps').read()\n"
             "assert 'libgomp' not in maps(), 'libgomp loaded before the engine'\n"
             "_load_llama_cpp()\n"
             "print(os.environ.get('GOMP_SPINCOUNT'), 'libgomp' in maps())\n")
    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True)
    spin, gomp_loaded = done.stdout.split()
    assert spin == BARRIER_SPIN_COUNT
    if gomp_loaded != "True":
        pytest.skip("this llama.cpp build does not use OpenMP")


def _sysfs(tmp_path: Path, siblings: dict[int, str]) -> Path:
    for cpu, listed in siblings.items():
        topology = tmp_path / f"cpu{cpu}" / "topology"
        topology.mkdir(parents=True)
        (topology / "thread_siblings_list").write_text(listed + "\n")
    return tmp_path


# (CPU -> its core's sibling list, the CPUs allowed, physical cores)
CORE_CASES = [
    ("two cores, no hyper-threads", {0: "0", 1: "1"}, [0, 1], 2),
    ("hyper-threads of one core count once", {0: "0-1", 1: "0-1", 2: "2-3", 3: "2-3"},
     [0, 1, 2, 3], 2),
    ("only the allowed CPUs count", {0: "0-1", 1: "0-1", 2: "2-3", 3: "2-3"}, [0, 1], 1),
]


@pytest.mark.parametrize(("name", "siblings", "allowed", "expected"), CORE_CASES,
                         ids=[c[0] for c in CORE_CASES])
def test_physical_cores_from_the_topology(tmp_path: Path, name: str, siblings: dict[int, str],
                                          allowed: list[int], expected: int) -> None:
    assert physical_cores(allowed, sysfs=_sysfs(tmp_path, siblings)) == expected


def test_physical_cores_without_a_topology(tmp_path: Path) -> None:
    got = physical_cores([0, 1, 2], sysfs=tmp_path)  # no topology files: psutil or the CPUs
    assert 1 <= got <= 3
