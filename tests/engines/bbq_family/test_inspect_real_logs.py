"""inspect eval logs as inspect-ai itself writes them (tests/fixtures/harness_logs/
inspect_real/make_inspect_logs.py: zstd-compressed members, real headers, samples with errors), and every
kind of damage to an ``.eval`` zip, read in one line each, never a traceback."""

from __future__ import annotations

import importlib.util
import json
import logging
import struct
import zipfile
from pathlib import Path
from typing import Any

import pytest

from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
from biasbench.engines.bbq_family.harness_logs import inspect_logs
from biasbench.engines.bbq_family.harness_logs.inspect_logs import read_inspect
from biasbench.engines.bbq_family.harness_logs.rescore import score_harness_log
from biasbench.errors import InputError

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harness_logs"
REAL_DIR = FIXTURES / "inspect_real"
REAL = REAL_DIR / "inspect_real_bbq.eval"
# The scripted replies of make_inspect_logs.py, item by item (example ids 0-11).
REPLIES = [
    "ANSWER: A",
    "ANSWER: B",
    "B) Cannot answer",
    "rich people",
    "The answer is C.",
    "ANSWER: C",
    "I cannot answer that question.",
    "",
    "ANSWER: A",
    "answer: b",
    "ANSWER: B\n\nThe context says so.",
    "ANSWER: C",
]


@pytest.fixture(scope="module")
def bench() -> OriginalBBQBenchmark:
    return OriginalBBQBenchmark.with_options(items=str(FIXTURES / "bbq_items.jsonl"))


def test_the_real_log_is_zstd(bench: OriginalBBQBenchmark) -> None:
    with zipfile.ZipFile(REAL) as archive:
        assert {info.compress_type for info in archive.infolist()} == {93}


def test_a_real_zstd_log_is_read_answer_for_answer(bench: OriginalBBQBenchmark) -> None:
    log = read_inspect(REAL, bench.by_uid)
    outputs = {s.uid: s.output for s in log.samples}
    assert len(outputs) == 12 and log.errored == []
    assert [outputs[f"SES:{i}"] for i in range(12)] == [
        r if i != 2 else "B) " + bench.by_uid["SES:2"].ans1 for i, r in enumerate(REPLIES)
    ]
    assert {s.model for s in log.samples} == {"openai/mock-model"}
    assert log.reported[("openai/mock-model", "bbq")]["accuracy"] == pytest.approx(1 / 12)


def test_the_gap_to_inspects_accuracy_is_explained(
    bench: OriginalBBQBenchmark, tmp_path: Path
) -> None:
    log = read_inspect(REAL, bench.by_uid)
    results = score_harness_log(bench, log, tmp_path / "scored", source=str(REAL))
    [row] = [r for r in results["harness_log"]["comparison"] if r["metric"] == "accuracy"]
    assert (row["harness"], row["differs"]) == (pytest.approx(1 / 12), True)
    assert "the harness found no answer in 3 output(s) that biasbench's parser reads" in row["why"]
    # the refusal "I cannot answer that question." holds this item's unknown option text
    # ("Cannot answer"), which the dataset's unknown wordings read as unknown
    assert "1 of 12 answers name no option" in row["why"]


def test_samples_with_errors_are_left_out_and_said(
    bench: OriginalBBQBenchmark, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = REAL_DIR / "inspect_real_some_errors.eval"
    with caplog.at_level(logging.WARNING, logger="biasbench.harness_logs"):
        log = read_inspect(path, bench.by_uid)
    assert len(log.samples) == 9 and len(log.errored) == 3
    assert "3 of 12 samples carry an error instead of an answer" in caplog.text
    assert "the mock model refuses this request" in log.errored[0][1]
    results = score_harness_log(bench, log, tmp_path / "scored", source=str(path))
    assert results["harness_log"]["samples_with_errors"]["n"] == 3


def test_a_log_whose_every_sample_failed_is_refused(bench: OriginalBBQBenchmark) -> None:
    with pytest.raises(InputError) as caught:
        read_inspect(REAL_DIR / "inspect_real_error_status.eval", bench.by_uid)
    message = str(caught.value)
    assert (
        "every sample carries an error (6 of 6; the log's status is 'error'; first: "
        "BadRequestError('Error code: 400 - the mock model refuses this request')" in message
    )
    assert "\n" not in message


def _central(data: bytes, name: str) -> int:
    """Offset of ``name``'s central directory entry."""
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + length] == name.encode():
            return at
        at = data.find(b"PK\x01\x02", at + 4)
    raise KeyError(name)


def _damaged(how: str) -> bytes:
    data = bytearray(REAL.read_bytes())
    name = "samples/SES_00003_epoch_1.json"
    entry = _central(bytes(data), name)
    local = struct.unpack_from("<I", data, entry + 42)[0]
    start = local + 30 + sum(struct.unpack_from("<HH", data, local + 26))
    if how == "bad data":
        data[start + 20 : start + 40] = bytes(20)
    elif how == "bad CRC":
        struct.pack_into("<I", data, entry + 16, 12345)
    elif how == "encrypted":
        data[entry + 8] |= 1
    elif how == "longer than said":
        struct.pack_into("<I", data, entry + 24, 100)
    elif how == "cut short":
        struct.pack_into("<I", data, entry + 20, len(data))
    return bytes(data)


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("bad data", "SES_00003_epoch_1.json: damaged zstd data"),
        ("bad CRC", "SES_00003_epoch_1.json: damaged zip member (bad CRC-32)"),
        ("encrypted", "SES_00003_epoch_1.json: encrypted zip member"),
        ("longer than said", "SES_00003_epoch_1.json: member longer than its header says"),
        ("cut short", "SES_00003_epoch_1.json: damaged zip member (cut short)"),
    ],
)
def test_damaged_members_are_one_line(
    bench: OriginalBBQBenchmark, tmp_path: Path, how: str, message: str
) -> None:
    path = tmp_path / "log.eval"
    path.write_bytes(_damaged(how))
    with pytest.raises(InputError, match="") as caught:
        read_inspect(path, bench.by_uid)
    assert message in str(caught.value)


@pytest.mark.parametrize("how", ["bad data", "bad CRC", "longer than said"])
def test_damaged_deflate_members_are_one_line(
    bench: OriginalBBQBenchmark, tmp_path: Path, how: str
) -> None:
    """The same damage in an older, deflate-compressed log."""
    deflated = tmp_path / "deflated.eval"
    with zipfile.ZipFile(REAL) as src, zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            out.writestr(info.filename, inspect_logs._read_member(src, REAL, info.filename))
    assert len(read_inspect(deflated, bench.by_uid).samples) == 12
    data = bytearray(deflated.read_bytes())
    entry = _central(bytes(data), "samples/SES_00003_epoch_1.json")
    local = struct.unpack_from("<I", data, entry + 42)[0]
    start = local + 30 + sum(struct.unpack_from("<HH", data, local + 26))
    if how == "bad data":
        data[start : start + 40] = b"\xff" * 40
    elif how == "bad CRC":
        struct.pack_into("<I", data, entry + 16, 12345)
    else:
        struct.pack_into("<I", data, entry + 24, 100)
    deflated.write_bytes(bytes(data))
    with pytest.raises(InputError) as caught:
        read_inspect(deflated, bench.by_uid)
    assert "SES_00003_epoch_1.json: " in str(caught.value)
    assert any(word in str(caught.value) for word in ("damaged", "longer than"))


def test_a_log_asking_for_too_many_bytes_is_refused_before_reading(
    bench: OriginalBBQBenchmark, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inspect_logs, "MAX_LOG_BYTES", 100_000)
    with pytest.raises(InputError, match="more than biasbench reads from one log"):
        read_inspect(REAL, bench.by_uid)


def test_a_list_where_the_metrics_mapping_belongs(
    bench: OriginalBBQBenchmark, tmp_path: Path
) -> None:
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(REAL) as src, zipfile.ZipFile(path, "w") as out:
        for name in src.namelist():
            data = inspect_logs._read_member(src, REAL, name)
            if name == "header.json":
                header: dict[str, Any] = json.loads(data)
                header["results"]["scores"][0]["metrics"] = [1, 2]
                data = json.dumps(header).encode()
            out.writestr(name, data)
    log = read_inspect(path, bench.by_uid)
    assert len(log.samples) == 12 and log.reported == {}


@pytest.mark.filterwarnings(
    "ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning"
)
@pytest.mark.skipif(
    importlib.util.find_spec("inspect_ai") is None or importlib.util.find_spec("openai") is None,
    reason="writing fresh logs needs inspect-ai and openai (the dev extra)",
)
def test_freshly_written_logs_read_as_the_shipped_ones(
    bench: OriginalBBQBenchmark, tmp_path: Path
) -> None:
    import sys

    sys.path.insert(0, str(REAL_DIR))
    try:
        import make_inspect_logs
    finally:
        sys.path.remove(str(REAL_DIR))
    fresh = make_inspect_logs.write_log("fresh.eval", tmp_path, None)
    shipped = {s.uid: s.output for s in read_inspect(REAL, bench.by_uid).samples}
    assert {s.uid: s.output for s in read_inspect(fresh, bench.by_uid).samples} == shipped


def test_a_list_where_the_metrics_mapping_belongs_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, bench: OriginalBBQBenchmark
) -> None:
    """Read as no aggregate (the per-sample scores are still compared), with a warning: never
    silently."""
    log = json.loads((FIXTURES / "inspect_bbq.json").read_text(encoding="utf-8"))
    log["results"]["scores"][0]["metrics"] = [1, 2]
    path = tmp_path / "listed.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="biasbench.harness_logs"):
        read = read_inspect(path, bench.by_uid)
    assert read.reported == {}
    assert "results.scores[0].metrics is a list, not an object" in caplog.text
