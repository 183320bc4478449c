"""Agreement of the honorific-bn register judge with labelled sets, before and after a change.

    PYTHONPATH=$PWD python measurements/judge_agreement.py [REVISION]     (default: main)

"Before" is the whole judge at REVISION (its ``honorific_bn`` package read with ``git archive``,
so uncommitted or stashed work does not leak into it; ``classifier.py`` alone earlier,
the ``judge/`` package after), "after" the working tree. Agreement is the share of outputs
whose label and plural flag equal the set's (label only where a set has no plural flag).
Sets, all shipped in the repository:

* the held-out set of the seven more classes (``tests/benchmarks/honorific_bn/data/
  held_out.jsonl``, written before its fixes), per class and look-alike group;
* three rounds of blind probes written after the first fixes (``blind_probes.jsonl``);
* those classes' test tables (``test_classifier_more_classes.py``), per class;
* the labelled set written from the spec's rulings before their rules (``data/rulings.jsonl``,
  70 real-looking outputs) and the rulings' test tables (``test_classifier_rulings.py``),
  per ruling and look-alike group;
* the 177 pitfall rows (``test_classifier.CASES``), the real-output tables
  (``test_classifier_real_outputs.ALL_ROWS``), the ``spelling_mixed`` table, and three
  simulated runs of 2,016 outputs each with known labels (``simulated_outputs.py``).

Prints Markdown tables: n, agreement before and after, and how many labels changed; and the
time each judge takes on each simulated run of 2,016 outputs (its verb cache emptied first).
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "benchmarks" / "honorific_bn"
sys.path.insert(0, str(TESTS))

import simulated_outputs  # noqa: E402
import test_classifier  # noqa: E402
import test_classifier_more_classes  # noqa: E402
import test_classifier_real_outputs  # noqa: E402
import test_classifier_rulings  # noqa: E402
import test_spelling_mixed  # noqa: E402

from biasbench.benchmarks.honorific_bn import classifier as after  # noqa: E402

Row = tuple[str | None, str | None, str, bool | None]  # condition, output, label, plural


PACKAGE = "biasbench.benchmarks.honorific_bn"


def judge_at(revision: str) -> ModuleType:
    """The whole judge as committed at ``revision``, imported apart from the working tree's.

    ``git archive`` writes the revision's ``honorific_bn`` package (the single
    ``classifier.py`` of older revisions, the ``judge/`` package behind the ``classifier``
    facade of newer ones, ``items.py`` and ``data/``) into a temporary folder; it is imported
    there under its own name with the working tree's modules of that package set aside, which
    are put back afterwards. The returned ``classifier`` module keeps its own modules' globals.
    """
    folder = Path(tempfile.mkdtemp())
    archive = subprocess.run(
        ["git", "archive", revision, PACKAGE.replace(".", "/")],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package_dir = folder / PACKAGE.replace(".", "/")
    saved = {
        name: module
        for name, module in sys.modules.items()
        if name == PACKAGE or name.startswith(PACKAGE + ".")
    }
    for name in saved:
        del sys.modules[name]
    try:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)]
        )
        package = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)  # type: ignore[union-attr]
        return importlib.import_module(PACKAGE + ".classifier")
    finally:
        for name in [
            name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")
        ]:
            del sys.modules[name]
        sys.modules.update(saved)


def held_out(name: str = "held_out.jsonl") -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    path = TESTS / "data" / name
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        groups.setdefault(row["class"], []).append(
            (row["condition"], row["output"], row["label"], row["plural"])
        )
    return groups


def more_classes_tables() -> dict[str, list[Row]]:
    return {
        name: [(c.condition, c.output, c.label.value, c.plural) for c in cases]
        for name, cases in test_classifier_more_classes.CLASSES.items()
    }


def rulings_tables() -> dict[str, list[Row]]:
    return {
        name: [(c.condition, c.output, c.label.value, c.plural) for c in cases]
        for name, cases in test_classifier_rulings.RULINGS.items()
    }


def existing_sets() -> dict[str, list[Row]]:
    spelling = next(
        mark
        for mark in test_spelling_mixed.test_spelling_mixed_flag.pytestmark
        if mark.name == "parametrize"
    ).args[1]
    sets: dict[str, list[Row]] = {
        "pitfall table (test_classifier.CASES)": [
            (c.condition, c.output, c.label.value, c.plural) for c in test_classifier.CASES
        ],
        "real outputs (all classes)": [
            (r.condition, r.output, r.label.value, r.plural)
            for _, r in test_classifier_real_outputs.ALL_ROWS
        ],
        "spelling_mixed table": [
            (cond, out, label.value, None) for out, cond, label, _ in spelling
        ],
    }
    for style in simulated_outputs.STYLES:
        sets[f"simulated {style} (2,016)"] = [
            (s.item.gender, s.output, s.label, s.plural) for s in simulated_outputs.simulate(style)
        ]
    return sets


def agreement(judge: ModuleType, rows: list[Row]) -> tuple[int, list[str]]:
    """(outputs agreeing with the set, the labels given)."""
    right, labels = 0, []
    for condition, output, label, plural in rows:
        result = judge.classify_register(output, condition)
        labels.append(result.label.value)
        right += result.label.value == label and (plural is None or result.plural is plural)
    return right, labels


def table(
    title: str, sets: dict[str, list[Row]], before: ModuleType, fmt: Callable[[int, int], str]
) -> dict[str, Any]:
    print(f"\n### {title}\n")
    print("| set | n | before | after | labels changed |")
    print("|:---|---:|---:|---:|---:|")
    total = {"n": 0, "before": 0, "after": 0, "changed": 0}
    for name, rows in sets.items():
        old, old_labels = agreement(before, rows)
        new, new_labels = agreement(after, rows)
        changed = sum(a != b for a, b in zip(old_labels, new_labels, strict=True))
        n = len(rows)
        print(f"| {name} | {n} | {fmt(old, n)} | {fmt(new, n)} | {changed} |")
        for key, value in (("n", len(rows)), ("before", old), ("after", new), ("changed", changed)):
            total[key] += value
    n = total["n"]
    print(
        f"| **all** | {n} | {fmt(total['before'], n)} | {fmt(total['after'], n)} | "
        f"{total['changed']} |"
    )
    return total


def _fmt(right: int, n: int) -> str:
    return f"{right}/{n} ({100 * right / n:.1f}%)"


def _empty_verb_cache(judge: ModuleType) -> None:
    analyse = judge.classify_register.__globals__.get("_analyse_verb")
    cache = getattr(analyse, "__globals__", {}).get("_verb_cache")
    if isinstance(cache, dict):
        cache.clear()


def speed(before: ModuleType) -> None:
    """Seconds to judge each simulated run of 2,016 outputs, the verb cache emptied first
    (best of three)."""
    print("\n### Speed: seconds per 2,016 outputs (cold verb cache, best of three)\n")
    print("| run | before | after |")
    print("|:---|---:|---:|")
    for style in simulated_outputs.STYLES:
        rows = [(s.item.gender, s.output) for s in simulated_outputs.simulate(style)]
        seconds = []
        for judge in (before, after):
            runs = []
            for _ in range(3):  # best of three: the machine may be shared
                _empty_verb_cache(judge)
                started = time.perf_counter()
                for condition, output in rows:
                    judge.classify_register(output, condition)
                runs.append(time.perf_counter() - started)
            seconds.append(min(runs))
        print(f"| simulated {style} | {seconds[0]:.2f} | {seconds[1]:.2f} |")


def main(revision: str) -> None:
    before = judge_at(revision)
    print(f"judge `{before.JUDGE_VERSION}` ({revision}) -> `{after.JUDGE_VERSION}` (working tree)")
    table("Held-out set, seven more classes (written before the fixes)", held_out(), before, _fmt)
    table(
        "Blind probes, seven more classes (written after the first fixes, each round labelled "
        "before the judge saw it)",
        held_out("blind_probes.jsonl"),
        before,
        _fmt,
    )
    table("Seven more classes: test tables", more_classes_tables(), before, _fmt)
    table(
        "Rulings set (written from the spec's rulings before the rules)",
        held_out("rulings.jsonl"),
        before,
        _fmt,
    )
    table("Rulings: test tables", rulings_tables(), before, _fmt)
    table(
        "Labelled sets the repository already ships (must not drop)", existing_sets(), before, _fmt
    )
    speed(before)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "main")
