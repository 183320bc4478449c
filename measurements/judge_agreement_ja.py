"""The honorific-ja register judge: agreement with its labelled tables, its speed, and the
measured choice between its two analysers (SudachiPy + sudachidict-core vs fugashi +
unidic-lite).

    PYTHONPATH=$PWD python measurements/judge_agreement_ja.py

Prints, per analyser adapter: agreement of the label with the labelled table
(``tests/benchmarks/honorific_ja/data/labelled_ja.jsonl``, written from the spec before the
rules) and the held-out table (``held_out_ja.jsonl``, written after the rules, committed
before the judge was run on it), a second blind round (``blind_probes_ja.jsonl``, the same
way) and 1,368 simulated outputs (19 templates x the 72
occupation terms, labels known by construction), the readings' agreement (plural, politeness,
pronoun_gender, titles), the confusion matrix (rows expected, columns judged), the time to
judge 2,016 outputs in a fresh interpreter (the labelled outputs repeated with their
conditions; import and analyser start-up included), the installed size of the analyser and
its dictionary, and their licences; then ``uptime``, because the timings depend on the load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "benchmarks" / "honorific_ja" / "data"
TABLES = {
    "labelled": DATA / "labelled_ja.jsonl",
    "held-out": DATA / "held_out_ja.jsonl",
    "blind probes": DATA / "blind_probes_ja.jsonl",
}
LABELS = ("honorific", "ordinary", "mixed", "unreadable")
ADAPTERS = {"sudachi": ("sudachipy", "sudachidict-core"), "fugashi": ("fugashi", "unidic-lite")}
N_OUTPUTS = 2016

_TIMING = """
import time
start = time.perf_counter()
import json, sys
from biasbench.benchmarks.honorific_ja.judge import JapaneseJudge
rows = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
outputs = [rows[i % len(rows)]["output"] for i in range({n})]
conditions = [rows[i % len(rows)]["condition"] for i in range({n})]
judge = JapaneseJudge(sys.argv[1])
judge.judge_many(outputs, conditions)
print(json.dumps({{"seconds": time.perf_counter() - start, "version": judge.version}}))
"""


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _installed_bytes(distribution: str) -> int:
    """The size of every file the distribution installed (its RECORD)."""
    dist = metadata.distribution(distribution)
    total = 0
    for file in dist.files or []:
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total


def _licence(distribution: str) -> str:
    meta = metadata.metadata(distribution)
    expression = meta.get("License-Expression") or meta.get("License")
    if expression and len(expression) < 60:
        return expression
    classifiers = [
        c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")
    ]
    return ", ".join(classifiers) or "unknown"


def agreement(adapter: str) -> dict[str, Any]:
    from biasbench.benchmarks.honorific_ja.judge import JapaneseJudge

    judge = JapaneseJudge(adapter)
    result: dict[str, Any] = {}
    for name, path in TABLES.items():
        rows = _rows(path)
        confusion: Counter[tuple[str, str]] = Counter()
        readings_ok = 0
        for row in rows:
            judgement = judge.judge(row["output"], row["condition"])
            confusion[(row["label"], judgement.label.value)] += 1
            readings_ok += (
                judgement.plural == row["plural"]
                and judgement.readings["politeness"] == row["politeness"]
                and judgement.readings["pronoun_gender"] == row["pronoun_gender"]
                and judgement.readings["titles"] == row["titles"]
            )
        agree = sum(count for (want, got), count in confusion.items() if want == got)
        result[name] = {
            "n": len(rows),
            "agree": agree,
            "readings": readings_ok,
            "confusion": confusion,
        }
    from tests.benchmarks.honorific_ja.simulated_outputs import simulated

    rows3 = simulated()
    judged = judge.judge_many([o for _, _, o in rows3], [c for c, _, _ in rows3])
    result["simulated"] = {
        "n": len(rows3),
        "agree": sum(
            j.label.value == label for (_, label, _), j in zip(rows3, judged, strict=True)
        ),
    }
    return result


def timing(adapter: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _TIMING.format(n=N_OUTPUTS), adapter, str(TABLES["labelled"])],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    wall = time.perf_counter() - started
    inner = json.loads(done.stdout.strip().splitlines()[-1])
    return {"in_process": inner["seconds"], "wall": wall, "version": inner["version"]}


def _matrix(confusion: Counter[tuple[str, str]]) -> list[str]:
    lines = ["| expected \\ judged | " + " | ".join(LABELS) + " |", "|---|" + "---|" * len(LABELS)]
    for want in LABELS:
        lines.append(
            f"| {want} | " + " | ".join(str(confusion[(want, got)]) for got in LABELS) + " |"
        )
    return lines


def main() -> None:
    print("# honorific-ja judge: agreement, speed and the analyser choice\n")
    summary = []
    for adapter, (package, dictionary) in ADAPTERS.items():
        try:
            scores = agreement(adapter)
        except Exception as error:  # an analyser that is not installed
            print(f"## {adapter}: not measured ({error})\n")
            continue
        speed = timing(adapter)
        size = _installed_bytes(package) + _installed_bytes(dictionary)
        print(f"## {adapter} ({speed['version']})\n")
        for name, table in scores.items():
            if name == "simulated":
                print(
                    f"simulated outputs (19 templates x 72 occupations): label agreement "
                    f"{table['agree']}/{table['n']}\n"
                )
                continue
            share = table["agree"] / table["n"]
            print(
                f"{name} table: label agreement {table['agree']}/{table['n']} = {share:.1%}; "
                f"readings (plural, politeness, pronoun_gender, titles) "
                f"{table['readings']}/{table['n']}\n"
            )
            print("\n".join(_matrix(table["confusion"])) + "\n")
        summary.append(
            (adapter, scores, speed, size, f"{_licence(package)} / {_licence(dictionary)}")
        )
    print("## Comparison\n")
    print(
        "| analyser | labelled | held-out | blind probes | simulated | 2,016 outputs (s, in process) | (s, wall incl. "
        "interpreter) | installed size (MiB) | licence (analyser / dictionary) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for adapter, scores, speed, size, licence in summary:
        lab, held, sim = scores["labelled"], scores["held-out"], scores["simulated"]
        blind = scores["blind probes"]
        print(
            f"| {adapter} | {lab['agree']}/{lab['n']} | {held['agree']}/{held['n']} | "
            f"{blind['agree']}/{blind['n']} | "
            f"{sim['agree']}/{sim['n']} | "
            f"{speed['in_process']:.2f} | {speed['wall']:.2f} | {size / 2**20:.0f} | "
            f"{licence} |"
        )
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"\nuptime: {uptime}  (cores: {os.cpu_count()})")


if __name__ == "__main__":
    main()
