"""Bad input gets one line and exit 2, always.

A corpus of bad files is generated here, one payload per kind of damage, and fed to every
command that reads that kind of file. Each must end with exactly one line on stderr that
names the file (and the line where there is one) and exit status 2: no traceback, no partial
output. The CLI runs in-process (its ``main``, exceptions and all) to keep the table fast.
"""

from __future__ import annotations

import codecs
import json
import os
import shutil
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from biasbench.cli import main
from biasbench.errors import InputError
from biasbench.pipeline import run_benchmark
from biasbench.responses import text_lines

GOOD = {"item_id": "judge|T1|male", "model": "m", "output": "তিনি আসবেন।"}
GOOD_LINE = json.dumps(GOOD, ensure_ascii=False).encode("utf-8") + b"\n"

PAYLOADS: dict[str, tuple[bytes, str]] = {
    # name: (file bytes, what the one line must say), line 2 is the bad one where it can be.
    "latin-1": (
        GOOD_LINE + '{"item_id": "café"}\n'.encode("latin-1"),
        ":2: not UTF-8: byte 0xE9 at column 17",
    ),
    "invalid-bytes": (
        GOOD_LINE + b'{"output": "\xff\xfe\x80"}\n',
        ":2: not UTF-8: byte 0xFF at column 13",
    ),
    "utf-16-bom": (
        (GOOD_LINE.decode("utf-8")).encode("utf-16"),
        ":1: UTF-16 text (byte-order mark FF FE)",
    ),
    "utf-32-bom": (
        (GOOD_LINE.decode("utf-8")).encode("utf-32"),
        ":1: UTF-32 text (byte-order mark FF FE 00 00)",
    ),
    "utf-16-be-bom": (
        codecs.BOM_UTF16_BE + GOOD_LINE.decode("utf-8").encode("utf-16-be"),
        ":1: UTF-16 text (byte-order mark FE FF)",
    ),
    "deep-nesting": (
        GOOD_LINE + b"[" * 200_000 + b"]" * 200_000 + b"\n",
        ":2: JSON nested too deeply to read",
    ),
    "huge-integer": (GOOD_LINE + b'{"seed": ' + b"9" * 5000 + b"}\n", ":2: not valid JSON"),
    "truncated-json": (GOOD_LINE + b'{"item_id": "judge|T1|ma', ":2: not valid JSON"),
    "not-an-object": (GOOD_LINE + b"[1, 2]\n", ":2: expected a JSON object"),
    "nul-bytes": (GOOD_LINE + b"\x00\x00\x00\n", ":2: not valid JSON"),
}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``biasbench ARGS`` in this process; (exit status, stdout, stderr)."""
    saved = sys.argv
    sys.argv = ["biasbench", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = saved
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


# command builders: (tmp folder, bad file) -> argv; each names a command reading that file.
JSONL_READERS: dict[str, Callable[[Path, Path], list[str]]] = {
    "score-honorific": lambda t, f: [
        "score",
        "honorific-bn",
        "--responses",
        str(f),
        "--out",
        str(t / "out"),
    ],
    "classify": lambda t, f: ["classify", "--input", str(f), "--out", str(t / "out.jsonl")],
    "replay": lambda t, f: [
        "run",
        "honorific-bn",
        "--model",
        f"replay:{f}",
        "--out",
        str(t / "run"),
        "--limit",
        "2",
        "--no-progress",
    ],
}


@pytest.mark.parametrize("payload", sorted(PAYLOADS))
@pytest.mark.parametrize("reader", sorted(JSONL_READERS))
def test_bad_jsonl_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], payload: str, reader: str
) -> None:
    data, said = PAYLOADS[payload]
    bad = tmp_path / f"{payload}.jsonl"
    bad.write_bytes(data)
    code, _, err = cli(capsys, *JSONL_READERS[reader](tmp_path, bad))
    assert_one_line(code, err, f"{bad}{said}")
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.jsonl").exists()


CSV_PAYLOADS: dict[str, tuple[bytes, str]] = {
    "latin-1": (b"id,en,bn\n1,caf\xe9,x\n", ":2: not UTF-8: byte 0xE9 at column 6"),
    "utf-16-bom": ("id,en,bn\n1,a,b\n".encode("utf-16"), ":1: UTF-16 text"),
    "empty": (b"", ":1: field 'id': missing column(s) id, en, bn"),
}


@pytest.mark.parametrize("payload", sorted(CSV_PAYLOADS))
def test_bad_occupations_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], payload: str
) -> None:
    data, said = CSV_PAYLOADS[payload]
    bad = tmp_path / "occupations.csv"
    bad.write_bytes(data)
    code, _, err = cli(
        capsys,
        "data",
        "honorific-bn",
        "--occupations",
        str(bad),
        "--out",
        str(tmp_path / "items.csv"),
    )
    assert_one_line(code, err, f"{bad}{said}")


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real annotation sheet and key, drawn from a small run."""
    base = tmp_path_factory.mktemp("annotate")
    run_benchmark(
        "honorific-bn", "mock:hashed-register", out=base / "run", limit=56, progress=False
    )
    from biasbench.benchmarks.honorific_bn.cli import read_labels
    from biasbench.engines.honorific.annotation import (
        draw_annotation_sample,
        write_annotation_sheet,
    )

    sample = draw_annotation_sample(read_labels([base / "run"]), n=12, pair_share=0.0, seed=0)
    write_annotation_sheet(sample, base / "sheet.csv")
    sample.key.to_csv(base / "key.csv", index=False)
    return base / "sheet.csv", base / "key.csv"


@pytest.mark.parametrize(
    ("target", "content", "said"),
    [
        ("key", b"", ":1: empty annotation key"),
        ("key", b"   \n\n", ":1: empty annotation key"),
        ("key", b"sample_id,other\n1,x\n", ":1: field 'rule_label': missing column(s) rule_label"),
        ("key", "sample_id,rule_label\nfoo,café\n".encode("latin-1"), ":2: not UTF-8"),
        ("key", "sample_id,rule_label\n".encode("utf-16"), ":1: UTF-16 text"),
        ("a", b"", ":1: empty annotation sheet"),
        ("a", b"sample_id,output\n\xe9\n", ":2: not UTF-8"),
        ("a", "x".encode("utf-32"), ":1: UTF-32 text"),
    ],
)
def test_bad_annotation_files(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    annotated: tuple[Path, Path],
    target: str,
    content: bytes,
    said: str,
) -> None:
    sheet, key = annotated
    bad = tmp_path / f"{target}.csv"
    bad.write_bytes(content)
    files = {"key": key, "a": sheet, "b": sheet, target: bad}
    code, _, err = cli(
        capsys,
        "annotate",
        "agree",
        "--key",
        str(files["key"]),
        "--a",
        str(files["a"]),
        "--b",
        str(files["b"]),
    )
    assert_one_line(code, err, f"{bad}{said}")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("finished") / "run"
    run_benchmark("honorific-bn", "mock:hashed-register", out=run_dir, limit=56, progress=False)
    return run_dir


def _garbage_in_the_middle(store: Path) -> None:
    size = store.stat().st_size
    with store.open("r+b") as handle:
        handle.seek(size // 2)
        handle.write(bytes(range(256)) * 32)


DAMAGES = [
    ("zero-byte-store", "responses.sqlite: empty file (0 bytes), not a response store"),
    ("garbage-store", "responses.sqlite: "),
    ("text-store", "responses.sqlite: not a readable response store"),
    ("manifest-latin-1", "manifest.json:1: not UTF-8"),
    ("manifest-nested", "manifest.json: JSON nested too deeply"),
    ("manifest-utf-16", "manifest.json:1: UTF-16 text"),
    ("results-latin-1", "results.json: does not match the manifest"),
]


# `run` rewrites the manifest and derived files from the store: only a damaged store stops it.
@pytest.mark.parametrize(
    ("command", "damage", "said"),
    [("report", d, s) for d, s in DAMAGES]
    + [("run", d, s) for d, s in DAMAGES if d.endswith("store")],
)
def test_damaged_run_folders(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    finished: Path,
    damage: str,
    said: str,
    command: str,
) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(finished, run_dir)
    store = run_dir / "responses.sqlite"
    if damage == "zero-byte-store":
        store.write_bytes(b"")
    elif damage == "garbage-store":
        _garbage_in_the_middle(store)
    elif damage == "text-store":
        store.write_bytes(b"SQLite format 3 is what this is not\n" * 100)
    elif damage.startswith("manifest"):
        path = run_dir / "manifest.json"
        path.write_bytes(
            {
                "manifest-latin-1": '{"status": "café"}'.encode("latin-1"),
                "manifest-nested": b"[" * 100_000 + b"]" * 100_000,
                "manifest-utf-16": '{"status": "x"}'.encode("utf-16"),
            }[damage]
        )
    else:
        (run_dir / "results.json").write_bytes('{"café": 1}'.encode("latin-1"))
    before = store.read_bytes()
    args = (
        ["report", str(run_dir), "--out", str(tmp_path / "report")]
        if command == "report"
        else [
            "run",
            "honorific-bn",
            "--model",
            "mock:hashed-register",
            "--out",
            str(run_dir),
            "--limit",
            "56",
            "--no-progress",
        ]
    )
    code, _, err = cli(capsys, *args)
    assert_one_line(code, err, said)
    assert str(run_dir) in err
    assert store.read_bytes() == before  # reported, never replaced by a new store
    assert not (tmp_path / "report" / "report.html").exists()


@pytest.mark.parametrize(
    ("url", "key", "said"),
    [
        ("http://127.0.0.1:99999/v1", None, "--base-url http://127.0.0.1:99999/v1: the port must"),
        ("http://127.0.0.1:http/v1", None, "--base-url http://127.0.0.1:http/v1: the port must"),
        (
            "http://user:hunter2@127.0.0.1:8000/v1",
            "sk-test-key",
            "--base-url http://127.0.0.1:8000/v1 carries credentials",
        ),
        ("http://[::1/v1", None, "--base-url does not parse as a URL"),
        ("localhost:8000/v1", None, "must be http(s)://HOST[:PORT]/..."),
    ],
)
def test_bad_base_urls(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    key: str | None,
    said: str,
) -> None:
    if key:
        monkeypatch.setenv("OPENAI_API_KEY", key)
    else:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, _, err = cli(
        capsys,
        "run",
        "honorific-bn",
        "--model",
        "openai:m",
        "--base-url",
        url,
        "--out",
        str(tmp_path / "run"),
        "--limit",
        "2",
        "--no-progress",
    )
    assert_one_line(code, err, said)
    assert "hunter2" not in err and "sk-test-key" not in err
    assert not (tmp_path / "run").exists()


def test_a_huge_line_is_refused_with_bounded_memory(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:
        handle.write(GOOD_LINE)
        handle.write(b'{"output": "' + b"x" * (64 << 20) + b'"}\n')
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as caught:
            for _ in text_lines(big, max_line_bytes=1 << 20):
                pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(caught.value) == (
        f"{big}:2: line longer than 1,048,576 bytes, the most read for "
        "one line (set BIASBENCH_MAX_LINE_BYTES to allow more); not "
        "read further"
    )
    assert peak < 8 << 20  # the 64 MiB line was never held in memory


def test_the_line_cap_applies_to_every_jsonl_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import biasbench.responses as responses

    monkeypatch.setattr(responses, "MAX_LINE_BYTES", 4096)
    big = tmp_path / "big.jsonl"
    big.write_bytes(GOOD_LINE + b'{"output": "' + b"x" * 10_000 + b'"}\n')
    for build in JSONL_READERS.values():
        code, _, err = cli(capsys, *build(tmp_path, big))
        assert_one_line(code, err, f"{big}:2: line longer than 4,096 bytes")
    assert os.environ.get("BIASBENCH_MAX_LINE_BYTES") is None


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('{"context": "café"}\n'.encode("latin-1"), ":1: not UTF-8: byte 0xE9"),
        ('{"context": "x"}\n'.encode("utf-16"), ":1: UTF-16 text"),
        (b"[" * 100_000, ":1: JSON nested too deeply"),
    ],
)
def test_bad_bbq_items(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, said: str
) -> None:
    bad = tmp_path / "items.jsonl"
    bad.write_bytes(content)
    code, _, err = cli(
        capsys,
        "score",
        "bbq",
        "--items",
        str(bad),
        "--responses",
        str(bad),
        "--out",
        str(tmp_path / "out"),
    )
    assert_one_line(code, err, f"{bad}{said}")
    assert not (tmp_path / "out").exists()
