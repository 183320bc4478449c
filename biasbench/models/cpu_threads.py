"""How many CPU threads a local model's forward passes use, and how they wait for each other.

llama.cpp (an OpenMP build, as ``scripts/bootstrap.sh`` makes) splits each operation of a
forward pass across its threads and waits at an OpenMP barrier after it. libgomp's threads spin
at a barrier for 300,000 rounds before they sleep; on a quiet machine that costs nothing, but
when other processes want the same cores a thread is descheduled now and then, every operation
waits for it, and its partners spin through their own share of the CPU meanwhile. Measured on a
2-core Xeon with the embedded model, 48 honorific-bn items as whole processes (2026-12-03):

==============================  =======  ================  ================
threads, barrier wait           quiet    2 busy processes  5 busy processes
==============================  =======  ================  ================
2, libgomp's default spin       13.3 s   51.5-70.8 s       325.6 s
1 (what a load-following        22.3 s   32.1-36.5 s       72.8 s
policy chose under load)
2, ``GOMP_SPINCOUNT=2000``      13.4 s   27.7-28.1 s       58.9-60.3 s
2, ``OMP_WAIT_POLICY=PASSIVE``  17.4 s   25.2 s            55.2 s
==============================  =======  ================  ================

So the passes keep one thread per physical core and :func:`bound_barrier_spinning` caps the
spin at 2,000 rounds (free on a quiet machine; a fair share is 2x under two busy processes and
about 3x under five, from the 1-thread time). A passive wait is a little faster under load and
30 % slower when quiet; set ``OMP_WAIT_POLICY=PASSIVE`` for a machine that is always shared.
An earlier version followed the CPUs other processes left free (1 thread under load); with
bounded spinning two threads beat one at every load above.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, MutableMapping
from pathlib import Path

_SYSFS_CPU = Path("/sys/devices/system/cpu")

BARRIER_SPIN_COUNT = "2000"
"""libgomp's spin rounds at a barrier before a thread sleeps (its default: 300,000)."""


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
            cores.add(
                (sysfs / f"cpu{cpu}" / "topology" / "thread_siblings_list").read_text().strip()
            )
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


def bound_barrier_spinning(environ: MutableMapping[str, str] | None = None) -> str:
    """Cap how long llama.cpp's OpenMP threads spin at a barrier (``GOMP_SPINCOUNT``) unless
    the user chose a wait policy (``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT``). libgomp reads
    these once, when it loads: this must run before llama.cpp's library is loaded. Returns the
    setting in effect (the engine logs it); it changes speed only, never an answer."""
    env = os.environ if environ is None else environ
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["GOMP_SPINCOUNT"] = BARRIER_SPIN_COUNT
    if "OMP_WAIT_POLICY" in env:
        return f"OMP_WAIT_POLICY={env['OMP_WAIT_POLICY']}"
    return f"GOMP_SPINCOUNT={env['GOMP_SPINCOUNT']}"
