"""Documented maxima and empty or damaged inputs refused in one line before any request: the
number of seeds, llama.cpp's slots and threads, a GGUF file with a truncated header, an empty
item file, an item category holding a control character."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from biasbench.errors import BiasbenchError, InputError, ModelSpecError
from biasbench.models.gguf_check import check_gguf_file, gguf_header_problem

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *args],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        ("1001", "--seeds must be at most 1,000, not 1001"),
        ("100000000000000000000000000", "--seeds must be at most 1,000, not 1000000000000000"),
        ("0", "--seeds must be at least 1, not 0"),
    ],
)
def test_too_many_seeds_on_the_command_line(tmp_path: Path, seeds: str, message: str) -> None:
    done = _cli(
        "run",
        "honorific-bn",
        "--model",
        "mock:honorific",
        "--seeds",
        seeds,
        "--out",
        str(tmp_path / "run"),
    )
    assert done.returncode == 2 and done.stderr.startswith(f"error: {message}")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        (10**12, "--seeds must be at most 1,000, not 1000000000000"),
        (list(range(1001)), "--seeds names 1,001 seeds; a run takes at most 1,000"),
    ],
)
def test_too_many_seeds_through_the_api(tmp_path: Path, seeds: object, message: str) -> None:
    import biasbench

    with pytest.raises(BiasbenchError, match=message):
        biasbench.run(
            "honorific-bn",
            model="mock:honorific",
            seeds=seeds,  # type: ignore[arg-type]
            out=str(tmp_path / "run"),
        )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("slots=300", "llamacpp: -M slots='300': must be at most 256"),
        ("slots=0", "llamacpp: -M slots='0': must be at least 1"),
        ("n_threads=100000", "llamacpp: -M n_threads='100000': must be at most 512"),
    ],
)
def test_llamacpp_limits(tmp_path: Path, option: str, message: str) -> None:
    done = _cli(
        "run",
        "honorific-bn",
        "--model",
        "llamacpp",
        "-M",
        option,
        "--limit",
        "1",
        "--out",
        str(tmp_path / "run"),
    )
    assert (done.returncode, done.stderr.strip()) == (2, f"error: {message}")


def _gguf() -> bytes:
    """A small well-formed GGUF v3 file: two metadata entries (a string, an array of strings)
    and one f32 tensor of 4 values."""

    def text(s: str) -> bytes:
        return struct.pack("<Q", len(s)) + s.encode()

    head = b"GGUF" + struct.pack("<IQQ", 3, 1, 2)
    kv = text("general.name") + struct.pack("<I", 8) + text("toy")
    kv += (
        text("tokenizer.tokens")
        + struct.pack("<IIQ", 9, 8, 3)
        + b"".join(text(t) for t in ("a", "bb", "ccc"))
    )
    tensor = text("w") + struct.pack("<I", 1) + struct.pack("<Q", 4) + struct.pack("<IQ", 0, 0)
    header = head + kv + tensor
    return header + b"\0" * ((-len(header)) % 32) + struct.pack("<4f", 1, 2, 3, 4)


def test_a_whole_gguf_file_passes(tmp_path: Path) -> None:
    path = tmp_path / "toy.gguf"
    path.write_bytes(_gguf())
    assert gguf_header_problem(path) is None
    assert check_gguf_file(path) == path


@pytest.mark.parametrize("cut", range(4, len(_gguf()) - 16))
def test_every_truncation_of_the_header_is_refused(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "toy.gguf"
    path.write_bytes(_gguf()[:cut])
    with pytest.raises(ModelSpecError, match=r"a damaged GGUF file \(.*\); download or convert"):
        check_gguf_file(path)


def test_a_wrong_version_is_refused(tmp_path: Path) -> None:
    data = bytearray(_gguf())
    data[4:8] = struct.pack("<I", 99)
    path = tmp_path / "toy.gguf"
    path.write_bytes(bytes(data))
    assert gguf_header_problem(path) == "GGUF version 99, where llama.cpp reads 2 and 3"


def test_a_truncated_gguf_is_refused_before_any_request(tmp_path: Path) -> None:
    path = tmp_path / "cut.gguf"
    path.write_bytes(_gguf()[:40])
    done = _cli(
        "run",
        "honorific-bn",
        "--model",
        f"llamacpp:{path}",
        "--limit",
        "1",
        "--out",
        str(tmp_path / "run"),
    )
    assert done.returncode == 2 and "a damaged GGUF file" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "run").exists()


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


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "no items: the file is empty or holds only blank lines"),
        ("\n   \n\n", "no items: the file is empty or holds only blank lines"),
        (
            json.dumps({**ITEM, "category": "SES\nAge"}),
            ":1: field 'category': Value error, a control character ('\\n') in the category",
        ),
        (
            json.dumps({**ITEM, "category": " "}),
            ":1: field 'category': Value error, empty category",
        ),
    ],
)
def test_item_files_refused_at_load(tmp_path: Path, content: str, message: str) -> None:
    from biasbench.engines.bbq_family.items.items import load_bbq_jsonl

    path = tmp_path / "items.jsonl"
    path.write_text(content)
    with pytest.raises(InputError) as caught:
        load_bbq_jsonl(path)
    assert message in str(caught.value)
    done = _cli(
        "run",
        "bbq",
        "--items",
        str(path),
        "--model",
        "mock:hashed-letter",
        "--out",
        str(tmp_path / "run"),
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_invalid_rows_of_item_files_are_skipped_and_listed(tmp_path: Path) -> None:
    """Every invalid row is listed (not only the first) and skipped with its reason; the run
    goes on with the valid rows, and ``--strict`` refuses them all in one line."""
    rows = [
        {**ITEM, "example_id": 1},
        {**ITEM, "example_id": 2, "category": "SES\nAge"},
        {**ITEM, "example_id": 3, "label": 7},
        {**ITEM, "example_id": 4, "context_condition": "disambig"},
    ]
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "run"
    done = _cli(
        "run", "bbq", "--items", str(path), "--model", "mock:hashed-letter", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    assert "2 invalid row(s) skipped (the data lint lists them" in done.stderr
    results = json.loads((out / "results.json").read_text())
    [finding] = [f for f in results["data_lint"]["findings"] if f["kind"] == "invalid_row"]
    assert finding["count"] == 2 and finding["where"] == [f"{path}:2", f"{path}:3"]
    assert results["data_lint"]["n_items"] == 2
    strict = _cli(
        "run",
        "bbq",
        "--items",
        str(path),
        "--model",
        "mock:hashed-letter",
        "--out",
        str(tmp_path / "strict"),
        "--strict",
    )
    assert strict.returncode == 2 and "Traceback" not in strict.stderr
    assert "2 invalid row(s) (--strict): Value error, a control character" in strict.stderr
    assert f"also {path}:3: label: " in strict.stderr
