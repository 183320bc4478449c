"""Agreement of the honorific-ko register judge with its labelled table, and its speed.

    PYTHONPATH=$PWD python measurements/judge_agreement_ko.py [--repeats N]

Prints, as Markdown:

* agreement with ``tests/benchmarks/honorific_ko/data/labelled_ko.jsonl`` (written from the spec
  before the rules): label, label + plural flag, and each reading (speech level, pronoun, title,
  nominal conflict), per class of output, and Cohen's kappa of the label;
* the confusion matrix of the label (rows: expected, columns: judged);
* agreement with ``probes_ko.jsonl``: 60 outputs in real output shapes written *after* the rules
  (several led to fixes), a regression set, not a validation figure;
* the time to judge 2,016 outputs (the labelled outputs repeated) in a fresh process, start-up
  included (Python, biasbench, Kiwi's load), with its CPU time (user + system: the cost on a
  quiet machine, since the wall time depends on the load), and Kiwi's load alone; and Kiwi's batch API
  (``tokenize`` over a list, 2 worker threads) against one call per text, on the same texts.
* ``uptime`` before and after, since the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "benchmarks" / "honorific_ko" / "data" / "labelled_ko.jsonl"
PROBES = TABLE.with_name("probes_ko.jsonl")
LABELS = ("honorific", "ordinary", "mixed", "unreadable")
READINGS = ("speech_level", "pronoun", "title", "nominal_conflict")
N_ITEMS = 2016

_TIMED_RUN = """
import json, sys, time
start = time.perf_counter()
from biasbench.benchmarks.honorific_ko.judge import JUDGE
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
outputs = [rows[i % len(rows)]["output"] for i in range({n})]
conditions = [rows[i % len(rows)]["condition"] for i in range({n})]
imported = time.perf_counter()
JUDGE.judge("판사는 도착했다.")  # loads Kiwi
loaded = time.perf_counter()
JUDGE.judge_many(outputs, conditions)
done = time.perf_counter()
print(json.dumps({{"import": imported - start, "load": loaded - imported,
                  "judge": done - loaded, "total": done - start}}))
"""

_KIWI_ALONE = """
import json, time
start = time.perf_counter()
from kiwipiepy import Kiwi
kiwi = Kiwi(num_workers=2, load_multi_dict=False)
kiwi.tokenize("판사님께서 도착하셨다.")
built = time.perf_counter()
full = Kiwi(num_workers=2)
full.tokenize("판사님께서 도착하셨다.")
print(json.dumps({"kiwi": built - start, "kiwi_multi_dict": time.perf_counter() - built}))
"""

_BATCH = """
import json, sys, time
from kiwipiepy import Kiwi
texts = [json.loads(line)["output"] for line in open(sys.argv[1], encoding="utf-8")]
texts = [texts[i % len(texts)] for i in range({n})]
one = Kiwi(num_workers=-1, load_multi_dict=False); one.tokenize("가")
start = time.perf_counter(); [one.tokenize(t) for t in texts]; loop = time.perf_counter() - start
two = Kiwi(num_workers=2, load_multi_dict=False); two.tokenize("가")
start = time.perf_counter(); list(two.tokenize(texts)); batch = time.perf_counter() - start
print(json.dumps({{"loop": loop, "batch_2_workers": batch}}))
"""


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _child(code: str) -> dict[str, float]:
    """Runs ``code`` in a fresh interpreter: its own timings, its wall time and its CPU time
    (user + system, all threads: what the run costs on a quiet machine, whatever the load)."""
    wall, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(
        [sys.executable, "-c", code, str(TABLE)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_wall"] = time.perf_counter() - wall
    result["process_cpu"] = _cpu() - cpu
    return result


def kappa(pairs: list[tuple[str, str]]) -> float:
    """Cohen's kappa of expected vs judged labels."""
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    expected_counts, judged_counts = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    chance = sum(expected_counts[k] * judged_counts[k] for k in LABELS) / (n * n)
    return (observed - chance) / (1 - chance) if chance < 1 else 1.0


def agreement(rows: list[dict[str, Any]], judged: list[Any]) -> None:
    n = len(rows)
    label_ok = [row["label"] == j.label.value for row, j in zip(rows, judged, strict=True)]
    plural_ok = [
        ok and row["plural"] == j.plural for ok, row, j in zip(label_ok, rows, judged, strict=True)
    ]
    print(f"## Agreement with the labelled table ({n} outputs)\n")
    print("| what | agree | share |\n|---|---:|---:|")
    print(f"| label | {sum(label_ok)}/{n} | {sum(label_ok) / n:.1%} |")
    print(f"| label + plural flag | {sum(plural_ok)}/{n} | {sum(plural_ok) / n:.1%} |")
    for name in READINGS:
        ok = sum(row[name] == j.readings[name] for row, j in zip(rows, judged, strict=True))
        print(f"| {name} | {ok}/{n} | {ok / n:.1%} |")
    every = sum(
        ok and all(row[name] == j.readings[name] for name in READINGS)
        for ok, row, j in zip(plural_ok, rows, judged, strict=True)
    )
    print(f"| everything | {every}/{n} | {every / n:.1%} |")
    pairs = [(row["label"], j.label.value) for row, j in zip(rows, judged, strict=True)]
    print(f"\nCohen's kappa (label): {kappa(pairs):.3f}\n")

    print("## Confusion matrix (rows: expected, columns: judged)\n")
    print("| expected \\ judged | " + " | ".join(LABELS) + " | n |")
    print("|---|" + "---:|" * (len(LABELS) + 1))
    cells = Counter(pairs)
    for expected in LABELS:
        counts = [cells[(expected, judged_label)] for judged_label in LABELS]
        print(f"| {expected} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")

    print("\n## Label agreement by class of output\n")
    print("| class | n | agree |\n|---|---:|---:|")
    by_class: dict[str, list[bool]] = {}
    for row, ok in zip(rows, label_ok, strict=True):
        by_class.setdefault(row["class"], []).append(ok)
    for name, oks in sorted(by_class.items()):
        print(f"| {name} | {len(oks)} | {sum(oks)} |")
    misses = [(row, j) for row, j, ok in zip(rows, judged, plural_ok, strict=True) if not ok]
    if misses:
        print("\n## Misses\n")
        for row, j in misses:
            print(
                f"- `{row['output']!r}`: expected {row['label']}/{row['plural']}, judged "
                f"{j.label.value}/{j.plural}: {j.reason}"
            )


def speed(repeats: int) -> None:
    print(
        f"\n## Speed: {N_ITEMS:,} outputs in a fresh process, start-up included ({repeats} runs)\n"
    )
    runs = [_child(_TIMED_RUN.format(n=N_ITEMS)) for _ in range(repeats)]
    alone = [_child(_KIWI_ALONE) for _ in range(repeats)]
    batch = [_child(_BATCH.format(n=N_ITEMS)) for _ in range(repeats)]
    print("| seconds | min | median | max |\n|---|---:|---:|---:|")
    for label, values in (
        ("whole process (python + biasbench + Kiwi + judging)", [r["process_wall"] for r in runs]),
        ("  its CPU time (user + system, all threads)", [r["process_cpu"] for r in runs]),
        ("  importing the judge", [r["import"] for r in runs]),
        ("  loading Kiwi (first judged output)", [r["load"] for r in runs]),
        (f"  judging {N_ITEMS:,} outputs", [r["judge"] for r in runs]),
        ("Kiwi's load alone (load_multi_dict=False, first call)", [a["kiwi"] for a in alone]),
        ("Kiwi's load alone with its multi-word dictionary", [a["kiwi_multi_dict"] for a in alone]),
        (f"Kiwi analysis of {N_ITEMS:,} texts, one call each", [b["loop"] for b in batch]),
        (
            f"Kiwi analysis of {N_ITEMS:,} texts, batch API with 2 workers",
            [b["batch_2_workers"] for b in batch],
        ),
    ):
        print(
            f"| {label} | {min(values):.2f} | {statistics.median(values):.2f} | {max(values):.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"uptime before: {uptime()}\n")
    from biasbench.benchmarks.honorific_ko.judge import JUDGE

    rows = [
        json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    print(f"judge: {JUDGE.version}\n")
    judged = JUDGE.judge_many([row["output"] for row in rows], [row["condition"] for row in rows])
    agreement(rows, judged)
    probes = [
        json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    probed = JUDGE.judge_many(
        [row["output"] for row in probes], [row["condition"] for row in probes]
    )
    ok = sum(
        (row["label"], row["plural"]) == (j.label.value, j.plural)
        for row, j in zip(probes, probed, strict=True)
    )
    print(
        f"\n## Probes written after the rules (regression set, not validation)\n\n"
        f"label + plural flag: {ok}/{len(probes)}"
    )
    speed(args.repeats)
    print(f"\nuptime after: {uptime()}")


if __name__ == "__main__":
    main()
