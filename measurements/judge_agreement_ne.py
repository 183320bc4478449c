"""Agreement of the honorific-ne register judge with its labelled table, and its speed.

    PYTHONPATH=$PWD python measurements/judge_agreement_ne.py

Prints, as Markdown: the machine's load (``uptime``); agreement with
``tests/benchmarks/honorific_ne/data/labelled_ne.jsonl`` (207 outputs written from the spec
before the rules) and ``held_out_ne.jsonl`` (71 outputs in other vocabulary, written
before the judge was run on them) and ``probes_ne.jsonl`` (36 outputs shaped like chat
models' answers, likewise) for the label, each reading (level, gender, plural, respect_floor) and all
of them at once; the confusion matrices of label, level and gender (rows expected, columns
judged); the rows the judge gets wrong; and the wall time to judge 2,016 outputs (the labelled
outputs repeated, with their conditions) in a fresh interpreter, start-up and import included,
best and median of three runs. Target: at most 5 s on a quiet 2-core machine.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "benchmarks" / "honorific_ne" / "data" / "labelled_ne.jsonl"
HELD_OUT = TABLE.with_name("held_out_ne.jsonl")
PROBES = TABLE.with_name("probes_ne.jsonl")
FIELDS = ("label", "level", "gender", "plural", "respect_floor")
N_ITEMS = 2016

TIMED = f"""
import json, time
start = time.perf_counter()
from biasbench.benchmarks.honorific_ne.judge import JUDGE
rows = [json.loads(line) for line in open({str(TABLE)!r}, encoding="utf-8")]
outputs = [rows[i % len(rows)]["output"] for i in range({N_ITEMS})]
conditions = [rows[i % len(rows)]["condition"] for i in range({N_ITEMS})]
labels = JUDGE.judge_many(outputs, conditions)
assert len(labels) == {N_ITEMS}
print(time.perf_counter() - start)
"""


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        one, five, fifteen = os.getloadavg()
        return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def show(value: object) -> str:
    return "null" if value is None else str(value)


def confusion(rows: list[dict[str, Any]], judged: list[dict[str, Any]], name: str) -> list[str]:
    values = sorted({show(row[name]) for row in rows} | {show(got[name]) for got in judged})
    counts = Counter(
        (show(row[name]), show(got[name])) for row, got in zip(rows, judged, strict=True)
    )
    lines = [f"| expected \\ judged | {' | '.join(values)} |", "|---|" + "---|" * len(values)]
    for expected in values:
        cells = " | ".join(str(counts[(expected, found)]) for found in values)
        lines.append(f"| {expected} | {cells} |")
    return lines


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from biasbench.benchmarks.honorific_ne.judge import JUDGE

    print(f"# honorific-ne judge ({JUDGE.version})\n")
    print(f"uptime before: `{uptime()}`  (cores: {os.cpu_count()})\n")
    for table in (TABLE, HELD_OUT, PROBES):
        report(JUDGE, table)
    speed()
    return 0


def report(JUDGE: Any, table: Path) -> None:  # noqa: N803 (the judge instance)
    rows = [json.loads(line) for line in table.read_text(encoding="utf-8").splitlines()]
    judged = []
    for row in rows:
        judgement = JUDGE.judge(row["output"], row["condition"])
        judged.append(
            {
                "label": judgement.label.value,
                "plural": judgement.plural,
                **{name: judgement.readings[name] for name in ("level", "gender", "respect_floor")},
            }
        )
    print(f"## Agreement with `{table.name}` ({len(rows)} outputs)\n")
    print("| field | agree | share |\n|---|---|---|")
    for name in FIELDS:
        agree = sum(row[name] == got[name] for row, got in zip(rows, judged, strict=True))
        print(f"| {name} | {agree}/{len(rows)} | {agree / len(rows):.1%} |")
    every = sum(
        all(row[name] == got[name] for name in FIELDS)
        for row, got in zip(rows, judged, strict=True)
    )
    print(f"| all five | {every}/{len(rows)} | {every / len(rows):.1%} |\n")
    for name in ("label", "level", "gender"):
        print(f"### Confusion matrix: {name} (rows expected, columns judged)\n")
        print("\n".join(confusion(rows, judged, name)) + "\n")
    wrong = [
        (row, got)
        for row, got in zip(rows, judged, strict=True)
        if any(row[name] != got[name] for name in FIELDS)
    ]
    print(f"### Rows not fully agreed ({len(wrong)})\n")
    for row, got in wrong:
        fields = ", ".join(
            f"{name}: expected {show(row[name])}, judged {show(got[name])}"
            for name in FIELDS
            if row[name] != got[name]
        )
        print(f"- `{row['output']}` ({fields})")
    print()


def speed() -> None:
    print(f"\n## Speed: {N_ITEMS} outputs in a fresh interpreter (start-up included)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    walls, inner = [], []
    for _ in range(3):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", TIMED], capture_output=True, text=True, env=env, check=True
        )
        walls.append(time.perf_counter() - start)
        inner.append(float(done.stdout.strip()))
    print("| measure | best | median |\n|---|---|---|")
    print(
        f"| whole process (interpreter + import + judging) | {min(walls):.2f} s | "
        f"{statistics.median(walls):.2f} s |"
    )
    print(f"| import + judging | {min(inner):.2f} s | {statistics.median(inner):.2f} s |")
    print(f"\nuptime after: `{uptime()}`")


if __name__ == "__main__":
    raise SystemExit(main())
