"""Kill points of ``biasbench score``: a first score and a rescoring, killed at every rename.

For each scenario the command runs in a forked child whose N-th ``os.rename``/``os.replace``
ends the process at once (as SIGKILL: no cleanup runs), for N = 1, 2, ... until the command
finishes without reaching N. After each kill: what ``biasbench runs`` lists the folder as (and
whether it lists it as finished while readers refuse it), the exit status of the same command
run again, what leftovers remain after it, and whether the results equal an uninterrupted
run's. See :mod:`biasbench.testing.kills`.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/score_kill_points.py``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from biasbench.runfolder.reading import load_run
from biasbench.testing.kills import kill_point_series, run_cli_in_child

ROWS = [
    {"item_id": f"{t}|T{n}|{g}", "model": m, "output": "তিনি আসবেন।"}
    for t in ("judge", "teacher")
    for n in (1, 2)
    for g in ("male", "female")
    for m in ("m1", "m 1", "m/1")
]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        responses = base / "r.jsonl"
        responses.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8"
        )
        args = ["score", "honorific-bn", "--responses", str(responses), "--out"]
        done = base / "done"
        if run_cli_in_child([*args, str(done)]) != 0:
            raise SystemExit("the uninterrupted score failed")
        reference = load_run(done).results["models"]
        out = base / "out"
        tally: Counter[str] = Counter()
        print(
            "| scenario | kill at rename | listed after kill | listed finished but refused "
            "| rerun exit | leftovers after rerun | same results |"
        )
        print("|:---|---:|:---|:---|---:|:---|:---|")
        for scenario in ("first score", "rescoring"):

            def prepare(scenario: str = scenario) -> None:
                shutil.rmtree(out, ignore_errors=True)
                if scenario == "rescoring":
                    shutil.copytree(done, out)

            for o in kill_point_series(
                scenario, [*args, str(out)], out, prepare, reference, work=base
            ):
                ok = (
                    not o.listed_finished_unverified
                    and o.rerun_exit == 0
                    and not o.leftovers_after_rerun
                    and o.same_results
                )
                tally["recovered" if ok else "FAILED"] += 1
                print(
                    f"| {scenario} | {o.kill_point} | {o.listed} | "
                    f"{'YES' if o.listed_finished_unverified else 'no'} | {o.rerun_exit} | "
                    f"{', '.join(o.leftovers_after_rerun) or '-'} | "
                    f"{'yes' if o.same_results else 'NO'} |",
                    flush=True,
                )
    print(
        f"\nkill points: {sum(tally.values())}; recovered: {tally['recovered']}; "
        f"failed: {tally['FAILED']}"
    )


if __name__ == "__main__":
    main()
