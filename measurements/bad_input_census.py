"""The bad-input census: every case of the bad-input corpus (``bad_input_corpus.py``) plus every
bad input trust round 4 listed, each run as a subprocess, classed and counted:

- ``one line``: refused with exit 2 and one stderr line "error: ..." (the goal for bad input);
- ``TRACEBACK``: a Python traceback;
- ``silent exit 0``: bad input accepted without a word; ``warned, exit 0``: accepted with a
  warning on stderr (a documented reading, said);
- ``HANG``: still running at the case's timeout (killed);
- ``other``: another exit code, or several lines;
- ``listed torn``: ``biasbench runs`` over a damaged folder listing it as torn (what is asked).

Round 4's cases: damaged inspect ``.eval`` logs (a flipped byte in a zstd member, an encrypted
flag, a file cut short), an inspect log whose every sample failed, a list where the metrics
mapping belongs, an epoch of 10^30; lm-eval samples and results of the wrong shape;
``--seeds 10^20``; ``-M slots=300``, ``-M n_threads=100000``; a GGUF cut inside its header;
an empty and a blank ``--items`` file, a category holding a newline; a grid of 18,000 cells
without a budget, a budget of 10^9; a score folder with wrong JSON types (its digests updated to
match); ``biasbench.score(responses=None)`` through the API. Valid inputs the same round found
refused are counted apart (``accepted`` is the goal): an lm-eval folder holding ``bbq`` and
``bbq_generate``, a rerun into one ``--output_path``, inspect's zstd ``.eval``.

Run from the checkout to measure (its ``biasbench`` is the one run)::

    PYTHONPATH=$PWD python measurements/bad_input_census.py [--skip-big] [--only TEXT]

and, for a before/after, the same file against an older checkout::

    git worktree add /tmp/census-before BASE
    cd /tmp/census-before && PYTHONPATH=$PWD python /path/to/benchmarks/bad_input_census.py

Fixtures are read from this script's checkout (tests/fixtures), so both runs see the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bad_input_corpus import Case, biasbench, build_cases  # noqa: E402

FIXTURES = HERE.parent / "tests" / "fixtures" / "harness_logs"
ITEMS = FIXTURES / "bbq_items.jsonl"
ITEM = {
    "example_id": 1,
    "question_index": "1",
    "question_polarity": "neg",
    "context_condition": "ambig",
    "category": "SES",
    "answer_info": {
        "ans0": ["rich", "highSES"],
        "ans1": ["poor", "lowSES"],
        "ans2": ["Unknown", "unknown"],
    },
    "additional_metadata": {"stereotyped_groups": ["low SES"]},
    "context": "C.",
    "question": "Q?",
    "ans0": "The rich",
    "ans1": "The poor",
    "ans2": "Unknown",
    "label": 2,
}


@dataclass
class Valid:
    """A valid input: accepted (exit 0) is the goal."""

    label: str
    args: list[str]
    timeout_s: float = 300


@dataclass
class ApiCase:
    """A call of the Python API: a BiasbenchError is the one line, any other exception a
    traceback."""

    label: str
    code: str
    timeout_s: float = 120


# -- inputs ----------------------------------------------------------------------------------
def _zip_member_offsets(data: bytes) -> list[tuple[str, int, int]]:
    """(name, offset of the local header, offset of the central-directory entry) per member."""
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as archive:
        infos = archive.infolist()
    central = data.rfind(b"PK\x05\x06")
    start = struct.unpack("<I", data[central + 16 : central + 20])[0]
    entries, position = [], start
    for info in infos:
        entries.append((info.filename, info.header_offset, position))
        name_len, extra_len, comment_len = struct.unpack(
            "<HHH", data[position + 28 : position + 34]
        )
        position += 46 + name_len + extra_len + comment_len
    return entries


def damaged_eval(base: Path) -> dict[str, Path]:
    """inspect-ai's own zstd ``.eval`` log, damaged three ways."""
    data = (FIXTURES / "inspect_real" / "inspect_real_bbq.eval").read_bytes()
    entries = _zip_member_offsets(data)
    name, local, central = next(e for e in entries if e[0].startswith("samples/"))
    flipped = bytearray(data)
    name_len, extra_len = struct.unpack("<HH", data[local + 26 : local + 30])
    body = local + 30 + name_len + extra_len
    for offset in range(body + 8, body + 24):
        flipped[offset] ^= 0xFF
    encrypted = bytearray(data)
    for header in (local + 6, central + 8):  # general-purpose flag bit 0, both headers
        encrypted[header] |= 0x01
    out = {}
    for label, content in (
        ("flipped bytes in a zstd member", bytes(flipped)),
        ("encrypted flag", bytes(encrypted)),
        ("cut short", data[: len(data) // 2]),
    ):
        path = base / f"{label.replace(' ', '_')}.eval"
        path.write_bytes(content)
        out[label] = path
    return out


def inspect_json(base: Path) -> dict[str, Path]:
    log = json.loads((FIXTURES / "inspect_bbq.json").read_text(encoding="utf-8"))
    out = {}
    listed = json.loads(json.dumps(log))
    listed["results"]["scores"][0]["metrics"] = [1, 2]
    huge = json.loads(json.dumps(log))
    huge["samples"][0]["epoch"] = 10**30
    for label, content in (("metrics a list", listed), ("epoch 10^30", huge)):
        path = base / f"{label.replace(' ', '_').replace('^', '')}.json"
        path.write_text(json.dumps(content), encoding="utf-8")
        out[label] = path
    return out


def lm_eval_logs(base: Path) -> dict[str, Path]:
    source = FIXTURES / "lm_eval_bbq" / "fixture-model"
    out = {}
    for label, change in (("filtered_resps a string", "resps"), ("results a list", "results")):
        folder = base / f"lm_{change}" / "m"
        shutil.copytree(source, folder)
        if change == "resps":
            [samples] = folder.glob("samples_*.jsonl")
            lines = samples.read_text(encoding="utf-8").splitlines()
            first = json.loads(lines[0])
            first["filtered_resps"] = "x"
            samples.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
        else:
            [results] = folder.glob("results_*.json")
            results.write_text(json.dumps([1]), encoding="utf-8")
        out[label] = folder.parent
    return out


def gguf_cut(base: Path) -> Path:
    def text(s: str) -> bytes:
        return struct.pack("<Q", len(s)) + s.encode()

    head = b"GGUF" + struct.pack("<IQQ", 3, 1, 2) + text("general.name") + struct.pack("<I", 8)
    path = base / "cut.gguf"
    path.write_bytes(head + text("toy")[:5])
    return path


def item_files(base: Path) -> dict[str, Path]:
    out = {}
    for label, content in (
        ("empty --items file", ""),
        ("blank --items file", "\n  \n\n"),
        ("category with a newline", json.dumps({**ITEM, "category": "SES\nAge"}) + "\n"),
    ):
        path = base / f"{label.split()[0]}_{len(out)}.jsonl"
        path.write_text(content, encoding="utf-8")
        out[label] = path
    grid = base / "grid_items.jsonl"
    grid.write_text(json.dumps(ITEM) + "\n", encoding="utf-8")
    out["grid"] = grid
    return out


def typed_score_folders(base: Path) -> dict[str, Path]:
    """A score folder of the lm-eval fixture, with wrong JSON types and digests to match."""
    scored = base / "scored"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "score",
            "bbq",
            "--items",
            str(ITEMS),
            "--from",
            "lm-eval",
            "--responses",
            str(FIXTURES / "lm_eval_bbq"),
            "--out",
            str(scored),
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        return {}

    def models(r: dict) -> dict:
        return {**r, "models": {k: [] for k in r["models"]}}

    out = {}
    for label, name, change in (
        ("a model's scores a list", "results.json", models),
        ("pred_index a string", "labels.jsonl", lambda r: {**r, "pred_index": "two"}),
        ("uid an object", "labels.jsonl", lambda r: {**r, "uid": {}}),
    ):
        folder = base / f"typed_{len(out)}"
        shutil.copytree(scored, folder)
        path = folder / name
        if name.endswith(".jsonl"):
            rows = [change(json.loads(x)) for x in path.read_text(encoding="utf-8").splitlines()]
            path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        else:
            path.write_text(
                json.dumps(change(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8"
            )
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        for relative, entry in manifest["derived"]["files"].items():
            data = (folder / relative).read_bytes()
            entry.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
            if "lines" in entry:
                entry["lines"] = data.count(b"\n")
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        out[label] = folder
    return out


def round_four_cases(base: Path) -> list[Case | ApiCase]:
    out = str(base / "o")
    cases: list[Case | ApiCase] = []
    score_inspect = ["score", "bbq", "--items", str(ITEMS), "--from", "inspect", "--responses"]
    for label, path in {**damaged_eval(base), **inspect_json(base)}.items():
        cases.append(Case(f"inspect / {label}", [*score_inspect, str(path), "--out", out]))
    cases.append(
        Case(
            "inspect / every sample an error (status error)",
            [
                *score_inspect,
                str(FIXTURES / "inspect_real" / "inspect_real_error_status.eval"),
                "--out",
                out,
            ],
        )
    )
    for label, folder in lm_eval_logs(base).items():
        cases.append(
            Case(
                f"lm-eval / {label}",
                [
                    "score",
                    "bbq",
                    "--items",
                    str(ITEMS),
                    "--from",
                    "lm-eval",
                    "--responses",
                    str(folder),
                    "--out",
                    out,
                ],
            )
        )
    honorific = ["run", "honorific-bn", "--model", "mock:honorific", "--limit", "1"]
    cases += [
        Case("--seeds 10^20", [*honorific, "--seeds", str(10**20), "--out", out]),
        Case(
            "-M slots=300",
            [
                "run",
                "honorific-bn",
                "--model",
                "llamacpp",
                "-M",
                "slots=300",
                "--limit",
                "1",
                "--out",
                out,
            ],
            timeout_s=120,
        ),
        Case(
            "-M n_threads=100000",
            [
                "run",
                "honorific-bn",
                "--model",
                "llamacpp",
                "-M",
                "n_threads=100000",
                "--limit",
                "1",
                "--out",
                out,
            ],
            timeout_s=120,
        ),
        Case(
            "GGUF cut inside its header",
            [
                "run",
                "honorific-bn",
                "--model",
                f"llamacpp:{gguf_cut(base)}",
                "--limit",
                "1",
                "--out",
                out,
            ],
            timeout_s=120,
        ),
    ]
    items = item_files(base)
    for label in ("empty --items file", "blank --items file", "category with a newline"):
        cases.append(
            Case(
                f"run bbq / {label}",
                [
                    "run",
                    "bbq",
                    "--items",
                    str(items[label]),
                    "--model",
                    "mock:hashed-letter",
                    "--out",
                    out,
                ],
            )
        )
    grid = [
        "run",
        "bbq",
        "--items",
        str(items["grid"]),
        "--model",
        "mock:hashed-letter",
        "--seeds",
        "1000",
        "--vary",
        "seeds,order,prompt",
        "--out",
        out,
    ]
    cases += [
        Case("grid of 12,000 cells without a budget", grid, timeout_s=120),
        Case("--grid-budget 10^9", [*grid, "--grid-budget", str(10**9)], timeout_s=120),
    ]
    for label, folder in typed_score_folders(base).items():
        cases.append(
            Case(
                f"export score folder / {label}",
                ["export", str(folder), "--format", "csv", "--out", str(base / "exported")],
            )
        )
    cases.append(
        ApiCase(
            "api / biasbench.score(responses=None)",
            (
                "import biasbench\n"
                f"biasbench.score('honorific-bn', responses=None, out={str(base / 'api')!r})\n"
            ),
        )
    )
    return cases


def valid_cases(base: Path) -> list[Valid]:
    real = FIXTURES / "lm_eval_real"
    lm = ["score", "bbq", "--items", str(ITEMS), "--from", "lm-eval", "--responses"]
    cases = [
        Valid(
            "lm-eval folder with bbq and bbq_generate",
            [*lm, str(real / "bbq_both"), "--out", str(base / "v1")],
        ),
        Valid(
            "lm-eval rerun into one --output_path",
            [*lm, str(real / "bbq"), "--out", str(base / "v2")],
        ),
        Valid(
            "inspect-ai's zstd .eval",
            [
                "score",
                "bbq",
                "--items",
                str(ITEMS),
                "--from",
                "inspect",
                "--responses",
                str(FIXTURES / "inspect_real" / "inspect_real_bbq.eval"),
                "--out",
                str(base / "v3"),
            ],
        ),
    ]
    return [c for c in cases if Path(c.args[7]).exists()]


# -- running ---------------------------------------------------------------------------------
def run_api(case: ApiCase, workdir: Path) -> tuple[str, int, str]:
    script = workdir / "api_case.py"
    script.write_text(
        "import sys\nfrom biasbench.errors import BiasbenchError\ntry:\n"
        + "".join(f"    {line}\n" for line in case.code.splitlines())
        + "except BiasbenchError as error:\n"
        "    print(f'error: {error}', file=sys.stderr)\n    sys.exit(2)\n",
        encoding="utf-8",
    )
    try:
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=case.timeout_s
        )
    except subprocess.TimeoutExpired:
        return "HANG", -9, ""
    lines = done.stderr.strip().splitlines()
    if "Traceback" in done.stderr:
        kind = "TRACEBACK"
    elif done.returncode == 2 and len(lines) == 1:
        kind = "one line"
    elif done.returncode == 0:
        kind = "exit 0"
    else:
        kind = "other"
    return kind, done.returncode, lines[-1] if lines else ""


def run_valid(case: Valid) -> tuple[str, int, str]:
    try:
        done = subprocess.run(
            [sys.executable, "-m", "biasbench", *case.args],
            capture_output=True,
            text=True,
            timeout=case.timeout_s,
        )
    except subprocess.TimeoutExpired:
        return "HANG", -9, ""
    lines = done.stderr.strip().splitlines()
    kind = (
        "TRACEBACK"
        if "Traceback" in done.stderr
        else "accepted"
        if done.returncode == 0
        else "refused"
    )
    return kind, done.returncode, lines[-1] if lines else ""


def _exit_zero(kind: str, last_line: str) -> str:
    """An exit 0 is silent when stderr says nothing; with a warning it is not."""
    if kind != "exit 0":
        return kind
    return "warned, exit 0" if last_line.strip() else "silent exit 0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--skip-big",
        action="store_true",
        default=bool(os.environ.get("SKIP_BIG")),
        help="leave out the corpus's 100 MB line (also SKIP_BIG=1)",
    )
    parser.add_argument("--only", default="", help="run only cases whose label holds this")
    parser.add_argument("--round-four", action="store_true", help="round 4's cases only")
    args = parser.parse_args()
    tally: Counter[str] = Counter()
    tally4: Counter[str] = Counter()
    valid: Counter[str] = Counter()
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "corpus").mkdir()
        corpus = [] if args.round_four else build_cases(base / "corpus", args.skip_big, 2048)
        round_four = round_four_cases(base)
        print("| set | case | class | exit | stderr's last line |")
        print("|:---|:---|:---|---:|:---|")

        def show(group: str, label: str, kind: str, code: int, line: str) -> None:
            with lock:
                line = line[:140].replace("|", "\\|").replace("hunter2", "***")
                print(f"| {group} | {label} | {kind} | {code} | {line} |", flush=True)

        for case in corpus:
            if args.only not in case.label:
                continue
            outcome = biasbench(case, base / "corpus")
            kind = _exit_zero(outcome.kind, outcome.last_line)
            tally[kind] += 1
            show("corpus", case.label, kind, outcome.returncode, outcome.last_line)
            for stale in ("o", "r", "rep", "u", "o.jsonl", "i.csv"):
                target = base / "corpus" / stale
                if target.is_dir():
                    shutil.rmtree(target, ignore_errors=True)
                else:
                    target.unlink(missing_ok=True)
        for case4 in round_four:
            if args.only not in case4.label:
                continue
            if isinstance(case4, ApiCase):
                kind, code, line = run_api(case4, base)
            else:
                outcome = biasbench(case4, base)
                kind, code, line = outcome.kind, outcome.returncode, outcome.last_line
            kind = _exit_zero(kind, line)
            tally4[kind] += 1
            show("round 4", case4.label, kind, code, line)
            for stale in ("o", "exported", "api"):
                shutil.rmtree(base / stale, ignore_errors=True)
        for case_v in valid_cases(base):
            if args.only not in case_v.label:
                continue
            kind, code, line = run_valid(case_v)
            valid[kind] += 1
            show("valid", case_v.label, kind, code, line)
    print()
    kinds = [
        "one line",
        "TRACEBACK",
        "silent exit 0",
        "warned, exit 0",
        "HANG",
        "other",
        "listed torn",
    ]
    print(f"| bad inputs | cases | {' | '.join(kinds)} |")
    print("|:---|---:|" + "---:|" * len(kinds))
    for name, counts in (("corpus", tally), ("round 4", tally4), ("all", tally + tally4)):
        print(f"| {name} | {sum(counts.values())} | {' | '.join(str(counts[k]) for k in kinds)} |")
    print(
        f"\nvalid inputs: {sum(valid.values())} cases, {valid['accepted']} accepted, "
        f"{valid['refused']} refused, {valid['TRACEBACK']} tracebacks, {valid['HANG']} hangs"
    )


if __name__ == "__main__":
    main()
