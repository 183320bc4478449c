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
    (
        "nothing chosen",
        {},
        {"GOMP_SPINCOUNT": BARRIER_SPIN_COUNT},
        f"GOMP_SPINCOUNT={BARRIER_SPIN_COUNT}",
    ),
    (
        "the user's spin count wins",
        {"GOMP_SPINCOUNT": "300000"},
        {"GOMP_SPINCOUNT": "300000"},
        "GOMP_SPINCOUNT=300000",
    ),
    (
        "a wait policy is left alone",
        {"OMP_WAIT_POLICY": "PASSIVE"},
        {"OMP_WAIT_POLICY": "PASSIVE"},
        "OMP_WAIT_POLICY=PASSIVE",
    ),
]


@pytest.mark.parametrize(
    ("name", "before", "after", "reported"), SPIN_CASES, ids=[c[0] for c in SPIN_CASES]
)
def test_barrier_spinning_is_bounded_unless_the_user_chose(
    name: str, before: dict[str, str], after: dict[str, str], reported: str
) -> None:
    env = dict(before)
    assert bound_barrier_spinning(env) == reported
    assert env == after


def test_the_bound_is_set_before_llama_cpp_loads_openmp() -> None:
    # libgomp reads GOMP_SPINCOUNT once, when it loads: set any later, it is ignored and two
    # threads beside five busy processes ran 5.4x slower (325.6 s against 60.3 s, 48 items)
    pytest.importorskip("llama_cpp")
    probe = (
        "import os\n"
        "from biasbench.models.llamacpp_engine import _load_llama_cpp\n"
        "maps = lambda: open('/proc/self/maps').read()\n"
        "assert 'libgomp' not in maps(), 'libgomp loaded before the engine'\n"
        "_load_llama_cpp()\n"
        "print(os.environ.get('GOMP_SPINCOUNT'), 'libgomp' in maps())\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    spin, gomp_loaded = done.stdout.split()
    assert spin == BARRIER_SPIN_COUNT
    if gomp_loaded != "True":
        pytest.skip("this llama.cpp build does not use OpenMP")


def _sysfs(root: Path, siblings: dict[int, str]) -> Path:
    for cpu, text in siblings.items():
        folder = root / f"cpu{cpu}" / "topology"
        folder.mkdir(parents=True)
        (folder / "thread_siblings_list").write_text(text + "\n")
    return root


@pytest.mark.parametrize(
    ("siblings", "allowed", "expected"),
    [
        ({0: "0-1", 1: "0-1", 2: "2-3", 3: "2-3"}, [0, 1, 2, 3], 2),  # 2 cores x 2 threads
        ({0: "0,2", 1: "1,3", 2: "0,2", 3: "1,3"}, [0, 1, 2, 3], 2),  # siblings interleaved
        ({0: "0-1", 1: "0-1", 2: "2-3", 3: "2-3"}, [0, 1], 1),  # affinity: one core's threads
        ({0: "0-1", 1: "0-1", 2: "2-3", 3: "2-3"}, [1, 2], 2),  # one thread of each core
        ({0: "0", 1: "1", 2: "2"}, [0, 1, 2], 3),  # no hyper-threading
        ({}, [0, 1, 2, 3, 4], 5),  # no topology (and no psutil here): the allowed CPUs
    ],
)
def test_physical_cores(
    tmp_path: Path,
    siblings: dict[int, str],
    allowed: list[int],
    expected: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "psutil", None)  # import psutil -> ImportError
    assert physical_cores(allowed, _sysfs(tmp_path, siblings)) == expected
