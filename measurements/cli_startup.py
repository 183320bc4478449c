"""Whole-process time of a light CLI command (``biasbench list`` by default) in two trees,
runs interleaved so that a machine's changing load falls on both alike.

    python measurements/cli_startup.py BEFORE_TREE AFTER_TREE [--runs 21] [--command "run X --help"]

Prints, per tree, the median wall-clock and the median CPU (user + system) seconds of the
child process; CPU time is the steadier figure on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def one_run(tree: Path, command: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "biasbench", *command],
        cwd=tree,
        check=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", type=Path, nargs=2)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--command", default="list", help="the biasbench arguments, one string")
    args = parser.parse_args()
    args.command = args.command.split()
    times: dict[Path, list[tuple[float, float]]] = {tree: [] for tree in args.trees}
    for _ in range(args.runs):
        for tree in args.trees:
            times[tree].append(one_run(tree, args.command))
    for tree, runs in times.items():
        print(
            f"{tree}: wall {statistics.median(w for w, _ in runs):.3f} s, "
            f"cpu {statistics.median(c for _, c in runs):.3f} s "
            f"(median of {len(runs)})"
        )


if __name__ == "__main__":
    main()
