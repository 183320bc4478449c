"""Agreement of a Hindi or Urdu register judge with a labelled table, and its speed.

A labelled table is JSON Lines, one output per line: ``output``, ``condition``, the expected
``label`` and readings (``gender``, ``plural``, ``noun_gender``, ``titles``, ``reason``) and
``why``. Used by the tests and by ``benchmarks/judge_agreement_<lang>.py``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasbench.engines.honorific.judging import Judgement, RegisterJudge

LABELS = ("honorific", "ordinary", "mixed", "unreadable")
FIELDS = ("label", "gender", "plural", "noun_gender", "titles", "reason")


def read_table(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def judged_fields(judgement: Judgement) -> dict[str, Any]:
    """The judgement in the labelled table's fields."""
    return {
        "label": judgement.label.value,
        "gender": judgement.readings.get("gender"),
        "plural": judgement.plural,
        "noun_gender": judgement.readings.get("noun_gender"),
        "titles": judgement.readings.get("titles"),
        "reason": judgement.readings.get("unreadable_reason"),
    }


@dataclass
class Agreement:
    rows: int
    agree: Counter[str] = field(default_factory=Counter)
    """Rows agreeing, per field (and ``all`` for every field at once)."""
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(expected label, judged label) -> rows."""
    misses: list[tuple[int, dict[str, Any], dict[str, Any]]] = field(default_factory=list)

    def share(self, name: str) -> float:
        return self.agree[name] / self.rows if self.rows else float("nan")


def agreement(judge: RegisterJudge, rows: list[dict[str, Any]]) -> Agreement:
    result = Agreement(len(rows))
    judgements = judge.judge_many(
        [row["output"] for row in rows], [row["condition"] for row in rows]
    )
    for number, (row, judgement) in enumerate(zip(rows, judgements, strict=True)):
        got = judged_fields(judgement)
        expected = {name: row.get(name) for name in FIELDS}
        for name in FIELDS:
            result.agree[name] += got[name] == expected[name]
        if got == expected:
            result.agree["all"] += 1
        else:
            result.misses.append((number, expected, got))
        result.confusion[(str(expected["label"]), str(got["label"]))] += 1
    return result


def confusion_table(result: Agreement) -> str:
    """Markdown confusion matrix: rows expected, columns judged."""
    lines = ["| expected \\ judged | " + " | ".join(LABELS) + " |", "|---|" + "---|" * len(LABELS)]
    for expected in LABELS:
        cells = [str(result.confusion[(expected, judged)]) for judged in LABELS]
        lines.append(f"| {expected} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def time_judging(
    judge_target: str, outputs: list[str], conditions: list[str | None]
) -> tuple[float, float, float]:
    """Seconds to import the judge (start-up), to judge ``outputs``, and the fresh process's
    whole wall time (interpreter start included)."""
    import subprocess
    import sys

    script = (
        "import json, sys, time\n"
        "start = time.perf_counter()\n"
        "from importlib import import_module\n"
        f"module, _, attr = {judge_target!r}.partition(':')\n"
        "judge = getattr(import_module(module), attr)\n"
        "loaded = time.perf_counter()\n"
        "data = json.load(sys.stdin)\n"
        "judge.judge_many(data['outputs'], data['conditions'])\n"
        "done = time.perf_counter()\n"
        "print(json.dumps([loaded - start, done - loaded]))\n"
    )
    payload = json.dumps({"outputs": outputs, "conditions": conditions})
    started = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-c", script], input=payload, text=True, capture_output=True, check=True
    )
    wall = time.perf_counter() - started
    startup, judging = json.loads(completed.stdout.strip().splitlines()[-1])
    return float(startup), float(judging), wall


def main(language: str) -> None:
    """Print the agreement report of one language (the benchmark scripts' body)."""
    import subprocess

    root = Path(__file__).resolve().parents[3]
    data = root / "tests" / "benchmarks" / "honorific_hi_ur" / "data"
    target = f"biasbench.benchmarks.honorific_hi_ur.judge:JUDGE_{language.upper()}"
    module, _, attr = target.partition(":")
    from importlib import import_module

    judge = getattr(import_module(module), attr)
    print(f"# {judge.version}: agreement with the labelled tables\n")
    labelled: list[dict[str, Any]] = []
    for name in ("labelled", "probes", "real"):
        path = data / f"{name}_{language}.jsonl"
        rows = read_table(path)
        labelled += rows if name == "labelled" else []
        result = agreement(judge, rows)
        print(f"## {path.name}: {result.rows} outputs\n")
        print("| field | agree | share |\n|---|---|---|")
        for field_name in ("label", *FIELDS[1:], "all"):
            print(
                f"| {field_name} | {result.agree[field_name]}/{result.rows} | "
                f"{100 * result.share(field_name):.1f}% |"
            )
        print("\nConfusion matrix (labels):\n")
        print(confusion_table(result))
        if result.misses:
            print("\nMissed rows (expected -> judged, differing fields only):\n")
            for number, expected, got in result.misses:
                diff = {k: (expected[k], got[k]) for k in expected if expected[k] != got[k]}
                print(f"- row {number + 1}: {diff}: {rows[number]['output'][:80]!r}")
        print()
    outputs = [row["output"] for row in labelled]
    conditions = [row["condition"] for row in labelled]
    repeat = -(-2016 // len(outputs))
    outputs, conditions = (outputs * repeat)[:2016], (conditions * repeat)[:2016]
    print("## Speed: 2,016 outputs (the labelled outputs repeated), fresh process\n")
    print(
        "uptime before: "
        + subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    )
    startup, judging, wall = time_judging(target, outputs, conditions)
    print(
        f"judge import (start-up) {startup:.2f} s; judging {judging:.2f} s; the whole "
        f"process {wall:.2f} s (target <= 5 s on a quiet 2-core machine)"
    )
    print(
        "uptime after: " + subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    )
