"""The fault matrix: each fault kind the mock server injects, measured through the real runner.

For every fault kind, ``--requests`` distinct requests are sent (concurrency 8) with the fault
on every ``--every``-th one, first on its first call only (``once``: a transient fault), then
on every call (``always``: a fault that does not go away). The retry policy is the default's
shape scaled down 30 times (a 1.5 s retry window instead of 45 s) so the matrix runs in about a
minute. Then the server heals and the run is repeated. Printed per case (a Markdown table):

- injected: faults the server served; answered / failed / empty: stored rows after the run;
- lost: requests with no stored row; dup: rows beyond one per request;
- re-paid: calls beyond one per request; rerun (stored): calls the rerun made for requests
  already answered; rerun: all calls of the rerun;
- = fault-free: whether the outputs after the rerun equal a fault-free run's.

    .venv/bin/python measurements/fault_matrix.py [--requests 200] [--every 4]

It prints figures and exits 1 if a case lost or duplicated a request or paid twice for a stored
answer.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from biasbench.testing.faults import FAULTS, FaultOutcome, baseline_outputs, run_fault_case

COLUMNS = (
    "fault",
    "mode",
    "requests",
    "faulted",
    "injected",
    "answered",
    "failed",
    "empty",
    "lost",
    "dup",
    "re-paid",
    "rerun (stored)",
    "rerun",
    "= fault-free",
)


def row(o: FaultOutcome) -> list[str]:
    return [
        o.kind,
        o.mode,
        str(o.requests),
        str(o.faulted),
        str(o.injected),
        str(o.answered),
        str(o.failed),
        str(o.empty),
        str(o.lost),
        str(o.duplicated),
        str(o.repaid),
        str(o.rerun_calls_for_stored),
        str(o.rerun_calls),
        "yes" if o.final_equal else "no",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--every", type=int, default=4)
    args = parser.parse_args()
    started = time.perf_counter()
    outcomes: list[FaultOutcome] = []
    with tempfile.TemporaryDirectory() as scratch:
        baseline = baseline_outputs(args.requests, Path(scratch))
        for kind, failure in FAULTS.items():
            for mode in ("once", "always"):
                if mode == "always" and failure == "down":
                    continue  # a server that never comes back is the unreachable case
                outcomes.append(
                    run_fault_case(
                        kind,
                        mode=mode,
                        n=args.requests,  # type: ignore[arg-type]
                        every=args.every,
                        concurrency=8,
                        baseline=baseline,
                    )
                )
                print(f"  {kind} ({mode}) done", file=sys.stderr, flush=True)
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "|".join("---" for _ in COLUMNS) + "|")
    for outcome in outcomes:
        print("| " + " | ".join(row(outcome)) + " |")
    print(f"\n{len(outcomes)} cases in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    broken = [o for o in outcomes if o.lost or o.duplicated or o.rerun_calls_for_stored]
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
