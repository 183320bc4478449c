"""The bad-input corpus: every malformed file gets one line and exit 2.

Writes about 80 bad inputs to a temporary folder (non-UTF-8 and UTF-16/32 JSONL, deeply nested
JSON, a huge integer, truncated JSON, NUL bytes, Latin-1 and UTF-16 CSVs, empty and non-UTF-8
annotation keys and sheets, damaged run folders: zero-byte, garbage-in-the-middle and text
stores, non-UTF-8 or nested manifest, results and labels, bad ``--base-url`` values, URL
credentials beside an API key, and one 100 MB output line) and feeds each to the CLI in a
subprocess (``sys.executable -m biasbench``). Each case is classed as:

- ``one line``: exit 2 and a single stderr line starting "error: " (the goal);
- ``TRACEBACK``: a Python traceback on stderr;
- ``exit 0``: the bad input was accepted without a word (silently replaced or ignored);
- ``listed torn``: (``biasbench runs`` on a folder whose manifest or results is a FIFO or a
  device) exit 0 with the folder listed as torn, which is what is asked there;
- ``HANG``: still running after the case's timeout (killed);
- ``other``: any other exit code or several lines.

Round 2 added the cases of its items 1, 2, 6 and 9-10 (:func:`round_two_cases`): a run into a
user's folder, the current folder or a score folder; export and report into a run or score
folder; ``--temperature nan|-1|inf``, ``-M timeout=inf|nan``, a ``llamacpp:FILE`` that is not
GGUF, ``-M n_ctx=99999999999``, ``BIASBENCH_MAX_LINE_BYTES=abc``, a lone surrogate and a seed
of 10**30 in a responses file, ``mock:FILE.json`` of the wrong shape, an empty KoBBQ samples
TSV, a deleted store, a store that is a folder, one edited answer, wrongly typed manifest,
signature, results and label fields, and ``runs`` over a FIFO manifest and a results file
linked to /dev/zero.

Prints a Markdown table (case, class, exit, the child's peak RSS, stderr's last line) and the
tally. The 100 MB line runs under an address-space cap (``--mem-cap-mib``, default 2048) so a
reader that slurps the line fails there instead of exhausting a shared machine; skip it with
``--skip-big`` or ``SKIP_BIG=1``. No network: base URLs point at a closed loopback port.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/bad_input_corpus.py``. To compare
with an older checkout, run this same file with that checkout first on the path, e.g.
``git archive 0e84ef8 | tar -x -C OLD && PYTHONPATH=OLD python measurements/bad_input_corpus.py``.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

GOOD = (
    json.dumps(
        {"item_id": "judge|T1|male", "model": "m", "output": "তিনি আসবেন।"}, ensure_ascii=False
    ).encode()
    + b"\n"
)
JSONL = {
    "latin-1": GOOD + '{"item_id": "café"}\n'.encode("latin-1"),
    "invalid bytes": GOOD + b'{"output": "\xff\xfe\x80"}\n',
    "utf-16 BOM": GOOD.decode().encode("utf-16"),
    "utf-32 BOM": GOOD.decode().encode("utf-32"),
    "utf-16-be BOM": codecs.BOM_UTF16_BE + GOOD.decode().encode("utf-16-be"),
    "deep nesting": GOOD + b"[" * 200_000 + b"]" * 200_000 + b"\n",
    "huge integer": GOOD + b'{"seed": ' + b"9" * 5000 + b"}\n",
    "truncated JSON": GOOD + b'{"item_id": "judge|T1|ma',
    "not an object": GOOD + b"[1, 2]\n",
    "NUL bytes": GOOD + b"\x00\x00\x00\n",
}
OCCUPATIONS = {
    "latin-1": b"id,en,bn\n1,caf\xe9,x\n",
    "utf-16": "id,en,bn\n1,a,b\n".encode("utf-16"),
    "empty": b"",
}
KEYS = {
    "empty key": b"",
    "blank key": b" \n\n",
    "key latin-1": "sample_id,rule_label\nfoo,café\n".encode("latin-1"),
    "key utf-16": "sample_id,rule_label\n".encode("utf-16"),
}
SHEETS = {
    "empty sheet": b"",
    "sheet latin-1": b"sample_id,output\n\xe9\n",
    "sheet utf-32": "x".encode("utf-32"),
}


def _garbage_mid_store(folder: Path) -> None:
    store = folder / "responses.sqlite"
    with store.open("r+b") as handle:
        handle.seek(store.stat().st_size // 2)
        handle.write(bytes(range(256)) * 32)


DAMAGE: dict[str, Callable[[Path], object]] = {
    "zero-byte store": lambda d: (d / "responses.sqlite").write_bytes(b""),
    "garbage mid-store": _garbage_mid_store,
    "text store": lambda d: (d / "responses.sqlite").write_bytes(b"not sqlite\n" * 100),
    "manifest latin-1": lambda d: (d / "manifest.json").write_bytes(
        '{"status": "café"}'.encode("latin-1")
    ),
    "manifest nested": lambda d: (d / "manifest.json").write_bytes(b"[" * 100_000 + b"]" * 100_000),
    "results utf-16": lambda d: (d / "results.json").write_bytes('{"x": 1}'.encode("utf-16")),
    "labels latin-1": lambda d: (d / "labels.jsonl").write_bytes(
        '{"model": "café"}\n'.encode("latin-1")
    ),
}


@dataclass
class Case:
    label: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    mem_cap_mib: int | None = None
    cwd: Path | None = None
    listed_torn: bool = False
    """``biasbench runs`` cases: the right answer is exit 0 with the folder listed as torn."""
    timeout_s: float = 300
    """Past this the child is killed and the case is a ``HANG``."""
    round_two: bool = False


@dataclass
class Outcome:
    kind: str
    returncode: int
    peak_rss_mib: float
    last_line: str


def biasbench(case: Case, workdir: Path) -> Outcome:
    """Run one case; the child's own peak RSS comes from wait4, not from all children."""

    def limit() -> None:
        if case.mem_cap_mib:
            cap = case.mem_cap_mib << 20
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    with (workdir / "stdout").open("w+b") as out, (workdir / "stderr").open("w+b") as err:
        env = {**os.environ, **case.env}
        if case.cwd is not None:  # the checkout stays importable from another folder
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(Path.cwd()), env.get("PYTHONPATH")])
            )
        proc = subprocess.Popen(
            [sys.executable, "-m", "biasbench", *case.args],
            stdout=out,
            stderr=err,
            env=env,
            preexec_fn=limit,
            cwd=case.cwd,
        )
        timer = threading.Timer(case.timeout_s, proc.kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        hung = not timer.is_alive()
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        out.seek(0)
        stdout = out.read().decode("utf-8", "replace")
    lines = stderr.strip().splitlines()
    if hung:
        kind = "HANG"
    elif case.listed_torn:
        kind = "listed torn" if proc.returncode == 0 and "torn" in stdout else "other"
        lines = [line for line in stdout.splitlines() if "torn" in line] or lines
    elif "Traceback" in stderr:
        kind = "TRACEBACK"
    elif proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "):
        kind = "one line"
    elif proc.returncode == 0:
        kind = "exit 0"
    else:
        kind = "other"
    return Outcome(kind, proc.returncode, usage.ru_maxrss / 1024, lines[-1] if lines else "")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def build_cases(base: Path, skip_big: bool, mem_cap_mib: int) -> list[Case]:
    cases: list[Case] = []
    for name, data in JSONL.items():
        path = base / f"{name.replace(' ', '-')}.jsonl"
        path.write_bytes(data)
        cases += [
            Case(
                f"score honorific-bn / {name}",
                ["score", "honorific-bn", "--responses", str(path), "--out", str(base / "o")],
            ),
            Case(
                f"classify / {name}",
                ["classify", "--input", str(path), "--out", str(base / "o.jsonl")],
            ),
            Case(
                f"replay / {name}",
                [
                    "run",
                    "honorific-bn",
                    "--model",
                    f"replay:{path}",
                    "--out",
                    str(base / "r"),
                    "--limit",
                    "2",
                    "--no-progress",
                ],
            ),
            Case(
                f"score bbq / {name}",
                [
                    "score",
                    "bbq",
                    "--items",
                    str(path),
                    "--responses",
                    str(path),
                    "--out",
                    str(base / "o"),
                ],
            ),
        ]
    for name, data in OCCUPATIONS.items():
        path = base / f"occ-{name}.csv"
        path.write_bytes(data)
        cases.append(
            Case(
                f"occupations csv / {name}",
                ["data", "honorific-bn", "--occupations", str(path), "--out", str(base / "i.csv")],
            )
        )
    run, sheet, key = base / "run", base / "sheet.csv", base / "key.csv"
    mock = ["--model", "mock:hashed-register", "--limit", "56", "--no-progress"]
    setup = subprocess.run(
        [sys.executable, "-m", "biasbench", "run", "honorific-bn", *mock, "--out", str(run)],
        capture_output=True,
        check=False,
    )
    setup_ok = (
        setup.returncode == 0
        and subprocess.run(
            [
                sys.executable,
                "-m",
                "biasbench",
                "annotate",
                "export",
                str(run),
                "--out",
                str(sheet),
                "--key",
                str(key),
                "--n",
                "12",
            ],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    if not setup_ok:
        print(
            "(setup run or annotate export failed: annotation and damaged-folder cases left out)\n"
        )
        return cases
    for name, data in KEYS.items():
        path = base / f"{name.replace(' ', '-')}.csv"
        path.write_bytes(data)
        cases.append(
            Case(
                f"annotate key / {name}",
                ["annotate", "agree", "--key", str(path), "--a", str(sheet), "--b", str(sheet)],
            )
        )
    for name, data in SHEETS.items():
        path = base / f"{name.replace(' ', '-')}.csv"
        path.write_bytes(data)
        cases.append(
            Case(
                f"annotate sheet / {name}",
                ["annotate", "agree", "--key", str(key), "--a", str(path), "--b", str(sheet)],
            )
        )
    for name, damage in DAMAGE.items():
        folder = base / f"dmg-{name.replace(' ', '-')}"
        shutil.copytree(run, folder)
        damage(folder)
        cases.append(Case(f"report / {name}", ["report", str(folder), "--out", str(base / "rep")]))
        if "store" in name:
            again = base / f"dmg-run-{name.replace(' ', '-')}"
            shutil.copytree(run, again)
            damage(again)
            cases.append(
                Case(f"run resume / {name}", ["run", "honorific-bn", *mock, "--out", str(again)])
            )
    for case in round_two_cases(base, run, mock):
        case.round_two = True
        cases.append(case)
    port = closed_port()
    for shown, url, api_key in [
        ("invalid port 99999", "http://127.0.0.1:99999/v1", ""),
        ("non-numeric port", "http://127.0.0.1:http/v1", ""),
        ("user:*** in URL + API key", f"http://user:hunter2@127.0.0.1:{port}/v1", "sk-key"),
        ("unclosed [::1", "http://[::1/v1", ""),
    ]:
        cases.append(
            Case(
                f"base-url / {shown}",
                [
                    "run",
                    "honorific-bn",
                    "--model",
                    "openai:m",
                    "--base-url",
                    url,
                    "--out",
                    str(base / "u"),
                    "--limit",
                    "2",
                    "--no-progress",
                ],
                env={"OPENAI_API_KEY": api_key},
            )
        )
    if not skip_big:
        big = base / "big.jsonl"
        with big.open("wb") as handle:
            # A well-formed response whose output alone is 100 MB: it passes every field check.
            second = GOOD.replace(b"|male", b"|female")[:-3]  # drop the closing '"}\n'
            handle.write(GOOD + second + b"x" * (100 << 20) + b'"}\n')
        cases.append(
            Case(
                f"100 MB line (cap {mem_cap_mib} MiB) / score honorific-bn",
                ["score", "honorific-bn", "--responses", str(big), "--out", str(base / "o")],
                mem_cap_mib=mem_cap_mib,
            )
        )
    return cases


def _rewrite(folder: Path, name: str, text: str, manifest_change: dict | None = None) -> None:
    """Replace a derived file and record it in the manifest, so only its content is bad."""
    import hashlib

    (folder / name).write_text(text, encoding="utf-8")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    entry = {"bytes": len(text.encode()), "sha256": hashlib.sha256(text.encode()).hexdigest()}
    if name.endswith(".jsonl"):
        entry["lines"] = text.count("\n")
    manifest["derived"]["files"][name] = entry
    manifest.update(manifest_change or {})
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def _edit_answer(folder: Path) -> None:
    import sqlite3

    with sqlite3.connect(folder / "responses.sqlite") as db:
        db.execute(
            "UPDATE responses SET output = 'edited' WHERE rowid = "
            "(SELECT MIN(rowid) FROM responses WHERE status = 'ok')"
        )


def _results_with(folder: Path, **fields: object) -> None:
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    results.update(fields)
    _rewrite(folder, "results.json", json.dumps(results))


def _signature_with(folder: Path, **fields: object) -> None:
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    _results_with(folder, signature={**results["signature"], **fields})


def _labels_with(folder: Path, **fields: object) -> None:
    rows = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    _rewrite(folder, "labels.jsonl", "".join(json.dumps({**r, **fields}) + "\n" for r in rows))


def _manifest_files(folder: Path, files: object) -> None:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["derived"]["files"] = files
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def _remove_store(folder: Path, then: Callable[[Path], object] | None = None) -> None:
    for suffix in ("", "-wal", "-shm"):
        (folder / f"responses.sqlite{suffix}").unlink(missing_ok=True)
    if then is not None:
        then(folder / "responses.sqlite")


FOLDER_DAMAGE: dict[str, Callable[[Path], object]] = {
    # round 2, item 6: derived files checked against the store's content
    "deleted store": _remove_store,
    "store is a folder": lambda d: _remove_store(d, lambda p: p.mkdir()),
    "one answer edited": _edit_answer,
    # round 2, item 9: JSON fields of the wrong type
    "manifest file record is text": lambda d: _manifest_files(d, {"labels.jsonl": "x"}),
    "manifest bytes is text": lambda d: _manifest_files(
        d, {"labels.jsonl": {"bytes": "abc", "sha256": 5}}
    ),
    "signature seeds is text": lambda d: _signature_with(d, seeds="abc"),
    "signature model is a list": lambda d: _signature_with(d, model=[1]),
    "results output_health is a list": lambda d: _results_with(d, output_health=[1]),
    "labels seed is text": lambda d: _labels_with(d, seed="x"),
    "labels item_id is a list": lambda d: _labels_with(d, item_id=[1]),
}


def round_two_cases(base: Path, run: Path, mock: list[str]) -> list[Case]:
    """The cases of round 2: folders a run or an export must not write into, bad values of
    options, environment and files, damaged or wrongly typed run folders, FIFOs and devices."""
    cases: list[Case] = []
    mine = base / "mine"  # a user's folder with files a run would replace
    (mine / "figures").mkdir(parents=True)
    (mine / "figures" / "plot.png").write_bytes(b"png")
    (mine / "labels.jsonl").write_text('{"mine": 1}\n')
    score_dir = base / "scored"
    scored = [sys.executable, "-m", "biasbench", "score", "honorific-bn", "--responses"]
    responses = base / "ok.jsonl"
    responses.write_bytes(GOOD)
    subprocess.run(
        [*scored, str(responses), "--out", str(score_dir)], capture_output=True, check=False
    )
    run_args = ["run", "honorific-bn", *mock]
    cases += [
        Case("run --out a user's folder", [*run_args, "--out", str(mine)]),
        Case('run --out "" (the current folder)', [*run_args, "--out", ""], cwd=mine),
        Case("run --out a score folder", [*run_args, "--out", str(score_dir)]),
        Case(
            "export RUN --format jsonl --out RUN",
            ["export", str(run), "--format", "jsonl", "--out", str(run)],
        ),
        Case(
            "export RUN --format csv --out RUN/tables",
            ["export", str(run), "--format", "csv", "--out", str(run / "tables")],
        ),
        Case("report RUN --out RUN", ["report", str(run), "--out", str(run)]),
        Case(
            "export SCORE --out SCORE",
            ["export", str(score_dir), "--format", "jsonl", "--out", str(score_dir)],
        ),
    ]
    model = [
        "--model",
        "openai:m",
        "--base-url",
        f"http://127.0.0.1:{closed_port()}/v1",
        "--limit",
        "2",
        "--no-progress",
        "--out",
        str(base / "u"),
    ]
    for shown, extra in [
        ("--temperature nan", ["--temperature", "nan"]),
        ("--temperature -1", ["--temperature", "-1"]),
        ("--temperature inf", ["--temperature", "inf"]),
        ("-M timeout=inf", ["-M", "timeout=inf"]),
        ("-M timeout=nan", ["-M", "timeout=nan"]),
    ]:
        cases.append(Case(f"run / {shown}", ["run", "honorific-bn", *model, *extra]))
    not_gguf = base / "model.gguf"
    not_gguf.write_bytes(b"PK\x03\x04 not a gguf file")
    cases += [
        Case(
            "run / llamacpp:FILE not GGUF",
            [
                "run",
                "honorific-bn",
                "--model",
                f"llamacpp:{not_gguf}",
                "--limit",
                "2",
                "--no-progress",
                "--out",
                str(base / "u"),
            ],
        ),
        Case(
            "run / -M n_ctx=99999999999",
            [
                "run",
                "honorific-bn",
                "--model",
                "llamacpp",
                "-M",
                "n_ctx=99999999999",
                "--limit",
                "2",
                "--no-progress",
                "--out",
                str(base / "u"),
            ],
            mem_cap_mib=2048,
        ),
        Case(
            "env BIASBENCH_MAX_LINE_BYTES=abc",
            ["runs", str(base)],
            env={"BIASBENCH_MAX_LINE_BYTES": "abc"},
        ),
    ]
    for name, line in [
        ("lone surrogate", b'{"item_id": "judge|T1|male", "model": "m", "output": "a\\ud800b"}\n'),
        (
            "seed 10**30",
            b'{"item_id": "judge|T1|male", "model": "m", '
            b'"output": "x", "seed": 1' + b"0" * 30 + b"}\n",
        ),
    ]:
        path = base / f"{name.replace(' ', '-').replace('*', '')}.jsonl"
        path.write_bytes(line)
        cases.append(
            Case(
                f"score honorific-bn / {name}",
                ["score", "honorific-bn", "--responses", str(path), "--out", str(base / "o")],
            )
        )
    for name, text in [
        ("a list", "[1, 2]"),
        ("an answer that is a number", '{"*": 5}'),
        ("not JSON", "{"),
    ]:
        path = base / f"mock-{name.replace(' ', '-')}.json"
        path.write_text(text)
        cases.append(
            Case(
                f"mock:FILE.json / {name}",
                [
                    "run",
                    "honorific-bn",
                    "--model",
                    f"mock:{path}",
                    "--limit",
                    "2",
                    "--no-progress",
                    "--out",
                    str(base / "u"),
                ],
            )
        )
    kobbq = base / "kobbq-data"
    kobbq.mkdir()
    (kobbq / "KoBBQ_test_samples.tsv").write_bytes(b"")
    cases.append(
        Case(
            "run kobbq --data DIR / empty samples TSV",
            [
                "run",
                "kobbq",
                "--data",
                str(kobbq),
                "--model",
                "mock:hashed-letter",
                "--limit",
                "2",
                "--no-progress",
                "--out",
                str(base / "u"),
            ],
        )
    )
    for name, damage in FOLDER_DAMAGE.items():
        folder = base / f"dmg2-{name.replace(' ', '-')}"
        shutil.copytree(run, folder)
        damage(folder)
        cases += [
            Case(f"report / {name}", ["report", str(folder), "--out", str(base / "rep")]),
            Case(
                f"export / {name}",
                ["export", str(folder), "--format", "jsonl", "--out", str(base / "rep")],
            ),
        ]
    for name, make in [
        ("manifest is a FIFO", lambda p: os.mkfifo(p)),
        ("results is a link to /dev/zero", lambda p: os.symlink("/dev/zero", p)),
    ]:
        root = base / f"runs-{name.split()[0]}-{len(cases)}"
        folder = root / "run"
        shutil.copytree(run, folder)
        target = folder / ("manifest.json" if "manifest" in name else "results.json")
        target.unlink()
        make(target)
        cases.append(
            Case(
                f"runs / {name}",
                ["runs", str(root)],
                listed_torn=True,
                mem_cap_mib=2048,
                timeout_s=30,
            )
        )
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--skip-big",
        action="store_true",
        default=bool(os.environ.get("SKIP_BIG")),
        help="leave out the 100 MB line (also SKIP_BIG=1)",
    )
    parser.add_argument(
        "--mem-cap-mib",
        type=int,
        default=2048,
        help="address-space cap of the 100 MB-line child (2048)",
    )
    parser.add_argument("--only", default="", help="run only cases whose label holds this")
    parser.add_argument(
        "--round-two",
        action="store_true",
        help="run only the cases round 2 added (round_two_cases)",
    )
    args = parser.parse_args()
    tally: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        cases = build_cases(base, args.skip_big, args.mem_cap_mib)
        if args.round_two:
            cases = [c for c in cases if c.round_two]
        print("| case | class | exit | peak RSS MiB | stderr's last line |")
        print("|:---|:---|---:|---:|:---|")
        for case in (c for c in cases if args.only in c.label):
            outcome = biasbench(case, base)
            tally[outcome.kind] += 1
            line = outcome.last_line[:140].replace("|", "\\|").replace("hunter2", "***")
            print(
                f"| {case.label} | {outcome.kind} | {outcome.returncode} | "
                f"{outcome.peak_rss_mib:.0f} | {line} |",
                flush=True,
            )
            for stale in ("o", "r", "rep", "u", "o.jsonl", "i.csv"):
                target = base / stale
                if target.is_dir():
                    shutil.rmtree(target, ignore_errors=True)
                else:
                    target.unlink(missing_ok=True)
    print(f"\n| cases | {' | '.join(sorted(tally))} |")
    print("|---:|" + "---:|" * len(tally))
    print(f"| {sum(tally.values())} | {' | '.join(str(tally[k]) for k in sorted(tally))} |")


if __name__ == "__main__":
    main()
