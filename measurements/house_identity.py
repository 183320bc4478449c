"""Byte identity of every benchmark's results across a refactoring of the house.

Runs each registered benchmark as the tests do, offline (mock backends, the tests' fixture
slices and the shared reference data), and prints one sha256 per derived file of each run
folder: results.json, labels.jsonl, every table, and the printed summary. A refactoring that
must not change behaviour leaves this output unchanged, byte for byte:

    PYTHONPATH=$PWD python measurements/house_identity.py > before.txt   # before the change
    PYTHONPATH=$PWD python measurements/house_identity.py --check before.txt   # after

Values that differ between two runs of one tree for reasons of their own are masked before
hashing (the run's wall-clock times, the temporary folder's path, the package version); they
are listed in :data:`VOLATILE_KEYS`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
SHARED = Path(os.environ.get("BIASBENCH_SHARED", ROOT.parent / "shared"))

VOLATILE_KEYS = {
    "created",
    "started",
    "finished",
    "started_at",
    "finished_at",
    "timestamp",
    "elapsed_s",
    "duration_s",
    "wall_s",
    "biasbench_version",
    "package_version",
    "seconds",
}
"""Keys whose values are times or the package version: masked before hashing (and every key
ending in ``_at``, ``elapsed_s`` or ``per_s``)."""

BBQ_FIXTURE = TESTS / "benchmarks" / "bbq" / "fixtures" / "bbq_templates"
BBQ_CATEGORIES = ("Disability_status", "SES", "Race_x_SES", "Race_x_gender")
MBBQ_FIXTURE = TESTS / "benchmarks" / "mbbq" / "fixtures" / "data"


def cases(work: Path) -> dict[str, list[str]]:
    """name -> the ``biasbench`` arguments of one run or score (``{out}``: its folder)."""
    items = ",".join(str(work / "bbq_items" / f"{c}.jsonl") for c in BBQ_CATEGORIES)
    mock = ("--model", "mock:hashed-letter")
    return {
        "honorific-bn": ["run", "honorific-bn", "--model", "mock:hashed-register", "--limit", "40"],
        "filbbq": [
            "run",
            "filbbq",
            *mock,
            "--limit",
            "104",
            "--seeds",
            "2",
            "--templates",
            str(SHARED / "reference" / "filbbq" / "templates"),
        ],
        "bbq": [
            "run",
            "bbq",
            *mock,
            "--limit",
            "40",
            "--items",
            items,
            "--templates",
            str(BBQ_FIXTURE),
        ],
        "bbq-grid": [
            "run",
            "bbq",
            *mock,
            "--limit",
            "12",
            "--items",
            items,
            "--templates",
            str(BBQ_FIXTURE),
            "--vary",
            "order",
            "--orders",
            "cyclic",
        ],
        "kobbq": [
            "run",
            "kobbq",
            *mock,
            "--limit",
            "48",
            "--data",
            str(TESTS / "benchmarks" / "kobbq" / "fixtures"),
        ],
        "cbbq": [
            "run",
            "cbbq",
            *mock,
            "--limit",
            "40",
            "--data",
            str(TESTS / "benchmarks" / "cbbq" / "fixtures" / "data"),
            "--categories",
            ",".join(
                sorted(
                    p.name
                    for p in (TESTS / "benchmarks" / "cbbq" / "fixtures" / "data").iterdir()
                    if p.is_dir()
                )
            ),
        ],
        "esbbq": [
            "run",
            "esbbq",
            *mock,
            "--limit",
            "40",
            "--data",
            str(TESTS / "benchmarks" / "esbbq" / "fixtures" / "data_es"),
        ],
        "cabbq": [
            "run",
            "cabbq",
            *mock,
            "--limit",
            "40",
            "--data",
            str(TESTS / "benchmarks" / "esbbq" / "fixtures" / "data_ca"),
        ],
        "jbbq": [
            "run",
            "jbbq",
            *mock,
            "--limit",
            "20",
            "--data",
            str(TESTS / "benchmarks" / "jbbq" / "fixtures" / "synthetic"),
        ],
        "mbbq": [
            "run",
            "mbbq",
            *mock,
            "--limit",
            "96",
            "--languages",
            "en,es",
            "--data",
            str(MBBQ_FIXTURE),
        ],
        "score-bbq-languages": [
            "score",
            "bbq",
            "--items",
            _mbbq_entries(),
            "--responses",
            str(work / "responses.jsonl"),
        ],
    }


def _mbbq_entries() -> str:
    return ",".join(
        f"mbbq/{code}={MBBQ_FIXTURE / f'SES_{code}.jsonl'}" for code in ("en", "es", "nl", "tr")
    )


def _prepare(work: Path) -> None:
    """The BBQ items the bbq runs read (generated as the tests do) and a responses file of
    several languages for ``score bbq``."""
    done = _biasbench(
        "data",
        "bbq",
        "--templates",
        str(BBQ_FIXTURE),
        "--out",
        str(work / "bbq_items"),
        "--seed",
        "3",
        "--categories",
        ",".join(BBQ_CATEGORIES),
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    lines = []
    for entry in _mbbq_entries().split(","):
        namespace, _, path = entry.partition("=")
        for n, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
            row = json.loads(raw)
            lines.append(
                json.dumps(
                    {
                        "example_id": row["example_id"],
                        "category": row["category"],
                        "namespace": namespace,
                        "model": "m",
                        "output": "ABC"[n % 3],
                    }
                )
            )
    (work / "responses.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _biasbench(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env=env,
        timeout=900,
    )


def _volatile(key: str) -> bool:
    return key in VOLATILE_KEYS or key.endswith(("_at", "elapsed_s", "per_s"))


def _masked(node: Any, work: str) -> Any:
    if isinstance(node, dict):
        return {k: ("<masked>" if _volatile(k) else _masked(v, work)) for k, v in node.items()}
    if isinstance(node, list):
        return [_masked(v, work) for v in node]
    if isinstance(node, str):
        return node.replace(work, "<work>")
    return node


def _digest_of(path: Path, work: str) -> str:
    data = path.read_bytes()
    if path.suffix == ".json":
        data = json.dumps(_masked(json.loads(data), work), sort_keys=True).encode()
    else:
        data = data.replace(work.encode(), b"<work>")
    return hashlib.sha256(data).hexdigest()


def digests() -> list[str]:
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _prepare(work)
        for name, args in cases(work).items():
            out = work / name
            done = _biasbench(*args, "--out", str(out))
            if done.returncode:
                lines.append(f"{name}\tFAILED\t{done.stderr.strip().splitlines()[-1:]}")
                continue
            summary = re.sub(r"\d+(\.\d+)? ?s\b", "<t>", done.stdout.replace(str(work), "<work>"))
            lines.append(f"{name}\tstdout\t{hashlib.sha256(summary.encode()).hexdigest()}")
            files = [
                out / "results.json",
                out / "labels.jsonl",
                *sorted((out / "tables").rglob("*") if (out / "tables").is_dir() else []),
            ]
            for path in files:
                if path.is_file():
                    lines.append(f"{name}\t{path.relative_to(out)}\t{_digest_of(path, str(work))}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, help="digests recorded before; exit 1 on a change")
    args = parser.parse_args()
    lines = digests()
    if args.check is None:
        print("\n".join(lines))
        return
    before = args.check.read_text(encoding="utf-8").splitlines()
    changed = sorted(set(before) ^ set(lines))
    print("\n".join(changed) if changed else f"identical: {len(lines)} digests")
    raise SystemExit(1 if changed else 0)


if __name__ == "__main__":
    main()
