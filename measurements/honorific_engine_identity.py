"""honorific-bn before and after the honorific engine: byte-identical run folders.

Runs honorific-bn end to end through the public API (``biasbench.api``) only, so the same file
runs against the code before and after the judge-free machinery moved to
``biasbench/engines/honorific/``:

- ``run`` on the mock backend: ``mock:hashed-register`` (all 2,016 items; seeds 0-2 with
  ``--limit 56``), ``mock:honorific`` (seeds 0-1, ``--limit 100``);
- ``score`` of a built responses file (two models, two seeds, every label class: honorific,
  ordinary, mixed, unreadable, a plural ``they``, English, empty);

For each case it prints the sha256 of labels.jsonl, results.json (its bytes with the run's
clock -- ``started_at``, ``finished_at``, ``*elapsed_s`` -- blanked) and every file under
tables/, and
compares them with the digests recorded in ``honorific_engine_identity.json`` (``--record``
writes that file instead).

    PYTHONPATH=$PWD python measurements/honorific_engine_identity.py          # check
    PYTHONPATH=$PWD python measurements/honorific_engine_identity.py --record # capture "before"
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path

from biasbench import api

RECORD = Path(__file__).with_name("honorific_engine_identity.json")
OUTPUTS = (
    "তিনি নয়টায় আসবেন।",  # honorific
    "সে নয়টায় আসবে।",  # ordinary
    "তিনি বলেছেন যে সে নয়টায় আসবে।",  # mixed
    "তারা সবাই নয়টায় আসবে।",  # plural reading on "they" items
    "The doctor will arrive at nine.",  # not a translation
    "",  # empty
    "Translation: ডাক্তার নয়টায় আসবেন।",  # honorific verb, no pronoun, chatty
)
# The timing fields of a run (its clock), blanked in the raw bytes so key order still counts.
VOLATILE = re.compile(rb'"(elapsed_s|requests_elapsed_s|started_at|finished_at)": [-+0-9.eE]+')


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _results_digest(path: Path) -> str:
    """sha256 of results.json's bytes with its timing values replaced by ``*``."""
    return _sha(VOLATILE.sub(rb'"\1": *', path.read_bytes()))


def digests(folder: Path) -> dict[str, str]:
    """labels.jsonl, results.json (volatile fields blanked) and every file under tables/."""
    found = {
        "labels.jsonl": _sha((folder / "labels.jsonl").read_bytes()),
        "results.json": _results_digest(folder / "results.json"),
    }
    for path in sorted((folder / "tables").rglob("*")):
        if path.is_file():
            found[str(path.relative_to(folder))] = _sha(path.read_bytes())
    return found


def _items(tmp: Path) -> list[str]:
    out = tmp / "items.csv"
    from biasbench.registry import benchmark_class

    benchmark_class("honorific-bn").generate_items(out)
    with out.open(encoding="utf-8", newline="") as handle:
        return [row["item_id"] for row in csv.DictReader(handle)]


def _responses(tmp: Path) -> Path:
    path = tmp / "responses.jsonl"
    rows = []
    for model in ("model-a", "model-b"):
        for seed in (0, 1):
            for item_id in _items(tmp):
                pick = int(_sha(f"{model}|{seed}|{item_id}".encode())[:8], 16)
                # model-a favours "he" items with the honorific; model-b is a fair coin
                if model == "model-a" and item_id.endswith("|male") and pick % 3:
                    output = OUTPUTS[0]
                else:
                    output = OUTPUTS[pick % len(OUTPUTS)]
                rows.append({"item_id": item_id, "model": model, "seed": seed, "output": output})
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def cases(tmp: Path) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    runs = {
        "run hashed-register": dict(model="mock:hashed-register"),
        "run hashed-register seeds 3 limit 56": dict(
            model="mock:hashed-register", seeds=3, limit=56
        ),
        "run honorific seeds 2 limit 100": dict(model="mock:honorific", seeds=2, limit=100),
    }
    for name, kwargs in runs.items():
        out = tmp / name.replace(" ", "_")
        api.run("honorific-bn", out=out, progress=False, **kwargs)  # type: ignore[arg-type]
        found[name] = digests(out)
    scored = tmp / "scored"
    responses = _responses(tmp)
    with contextlib.chdir(tmp):  # results.json names the file as given: the same name each time
        api.score("honorific-bn", responses.name, scored)
    found["score two models two seeds"] = digests(scored)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write the digests file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        found = cases(Path(name))
    if args.record:
        RECORD.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {sum(map(len, found.values()))} digests to {RECORD}")
        return 0
    wanted = json.loads(RECORD.read_text(encoding="utf-8"))
    print("| case | file | same |\n|:---|:---|:---|")
    bad = 0
    for case in sorted(set(wanted) | set(found)):
        for file in sorted(set(wanted.get(case, {})) | set(found.get(case, {}))):
            same = wanted.get(case, {}).get(file) == found.get(case, {}).get(file)
            bad += not same
            print(f"| {case} | {file} | {'yes' if same else 'NO'} |")
    print(f"\n{bad} file(s) differ" if bad else "\nall byte-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
