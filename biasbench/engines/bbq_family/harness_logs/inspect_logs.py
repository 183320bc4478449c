"""inspect_ai eval logs of a BBQ task (inspect_evals ``bbq``): the JSON log (``.json``: one
object with ``eval``, ``results`` and ``samples``) and the zipped ``.eval`` log (``header.json``
with ``eval`` and ``results``, one ``samples/<id>_epoch_<n>.json`` per sample).

A sample is mapped to its item by its ``metadata``: ``example_id`` (or ``source_id``) and
``category``; without a category, by the only item with that example id. Its answer is the text
of ``output.choices[0].message.content`` (a string, or content parts whose ``text`` is joined),
read by biasbench's answer parser; a sample without output is an empty answer (""). The
harness's own reading is the first scorer's ``answer`` letter and its ``value`` (C / I).
"""

from __future__ import annotations

import logging
import struct
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family.harness_logs.common import (
    HarnessLog,
    HarnessSample,
    bad,
    check_unique,
    find_uid,
    local_index,
    safe_model_name,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError
from biasbench.responses import MAX_LINE_BYTES, parse_json, read_text

log = logging.getLogger("biasbench.harness_logs")

LETTERS = "ABC"
MAX_MEMBER_BYTES = 4 * MAX_LINE_BYTES
"""The most bytes read for one member of an ``.eval`` zip."""
MAX_LOG_BYTES = 2 << 30
"""The most bytes (uncompressed) read from one ``.eval`` log, all members together: a log of
58,000 BBQ samples holds about 600 MB; a small file asking for more is a zip bomb."""
MAX_EPOCH = 1_000_000
ZIP_STORED, ZIP_DEFLATED, ZIP_ZSTD = 0, 8, 93
"""Member compressions an ``.eval`` log uses: inspect-ai writes zstd (93) in current versions,
deflate in older ones; the standard zipfile module reads only the last two (before 3.14)."""


def _zstd_member(path: Path, info: zipfile.ZipInfo) -> bytes:
    """A zstd member's bytes (at most its declared size): its local header is read from the
    file, its data decompressed with the ``zstandard`` package."""
    try:
        import zstandard
    except ImportError:
        raise InputError(
            "a zstd-compressed .eval log needs the zstandard package: pip install zstandard",
            file=str(path),
        ) from None
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        local = fh.read(30)
        if len(local) < 30 or local[:4] != b"PK\x03\x04":
            raise InputError("damaged zip member (no local header)", file=f"{path}!{info.filename}")
        name_length, extra_length = struct.unpack("<HH", local[26:30])
        fh.seek(info.header_offset + 30 + name_length + extra_length)
        compressed = fh.read(info.compress_size)
    if len(compressed) < info.compress_size:
        raise InputError("damaged zip member (cut short)", file=f"{path}!{info.filename}")
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(compressed)
        data = reader.read(info.file_size + 1)
    except zstandard.ZstdError as exc:
        raise InputError(f"damaged zstd data ({exc})", file=f"{path}!{info.filename}") from None
    if len(data) > info.file_size:
        raise InputError("member longer than its header says", file=f"{path}!{info.filename}")
    if zlib.crc32(data) != info.CRC:
        raise InputError("damaged zip member (bad CRC-32)", file=f"{path}!{info.filename}")
    return data


def _read_member(archive: zipfile.ZipFile, path: Path, name: str) -> bytes:
    """One member's bytes, with every kind of damage one line naming the member."""
    info = archive.getinfo(name)
    where = f"{path}!{name}"
    if info.flag_bits & 0x1:
        raise InputError("encrypted zip member (an inspect log is never encrypted)", file=where)
    if info.file_size > MAX_MEMBER_BYTES or info.compress_size > MAX_MEMBER_BYTES:
        raise InputError(f"member larger than {MAX_MEMBER_BYTES:,} bytes", file=where)
    if info.compress_type == ZIP_ZSTD:
        return _zstd_member(path, info)
    if info.compress_type not in (ZIP_STORED, ZIP_DEFLATED):
        raise InputError(
            f"zip compression method {info.compress_type} (an inspect log uses zstd or deflate)",
            file=where,
        )
    try:
        with archive.open(name) as member:
            data = member.read(info.file_size + 1)
    except (
        zipfile.BadZipFile,
        zlib.error,
        EOFError,
        OSError,
        RuntimeError,
        NotImplementedError,
    ) as exc:
        raise InputError(f"damaged zip member ({exc})", file=where) from None
    if len(data) > info.file_size:
        raise InputError("member longer than its header says", file=where)
    return data


def _members(path: Path) -> tuple[dict[str, Any], Iterator[tuple[str, Any]]]:
    """The header (eval, results) and (source, sample) pairs of a log file."""
    if path.suffix == ".eval" or zipfile.is_zipfile(path):
        return _zip_members(path)
    data = parse_json(read_text(path), str(path))
    if not isinstance(data, dict):
        raise InputError("expected an inspect eval log (a JSON object)", file=str(path))
    samples = data.get("samples")
    if not isinstance(samples, list):
        raise InputError(
            "missing field (an inspect log written with its samples)",
            file=str(path),
            field="samples",
        )
    return data, ((f"{path}!samples[{i}]", s) for i, s in enumerate(samples))


def _zip_members(path: Path) -> tuple[dict[str, Any], Iterator[tuple[str, Any]]]:
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise InputError("not a zip file (an inspect .eval log is one)", file=str(path)) from None
    names = archive.namelist()

    def member(name: str) -> Any:
        raw = _read_member(archive, path, name)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not UTF-8", file=f"{path}!{name}") from None
        return parse_json(text, f"{path}!{name}")

    if "header.json" not in names:
        raise InputError("no header.json in the zip (not an inspect .eval log)", file=str(path))
    sample_names = sorted(n for n in names if n.startswith("samples/") and n.endswith(".json"))
    total = sum(archive.getinfo(n).file_size for n in ["header.json", *sample_names])
    if total > MAX_LOG_BYTES:
        raise InputError(
            f"the log's members hold {total:,} bytes uncompressed, more than "
            f"biasbench reads from one log ({MAX_LOG_BYTES:,})",
            file=str(path),
        )
    header = member("header.json")
    if not isinstance(header, dict):
        raise InputError("expected an object", file=f"{path}!header.json")
    return header, ((f"{path}!{n}", member(n)) for n in sample_names)


def output_text(sample: Mapping[str, Any], source: str) -> str:
    """The completion's text, "" when the sample has no output (an error, a limit)."""
    output = sample.get("output")
    if output is None:
        return ""
    if not isinstance(output, dict):
        raise bad("expected an object", source, "output")
    choices = output.get("choices") or []
    if not isinstance(choices, list):
        raise bad("expected a list", source, "output.choices")
    if not choices:
        return str(output.get("completion") or "")
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type", "text") == "text"
        )
    raise bad("expected a string or content parts", source, "output.choices[0].message.content")


def harness_reading(sample: Mapping[str, Any], source: str) -> tuple[int | None, dict[str, Any]]:
    """The first scorer's answer (an option index, None for none) and its score as logged."""
    scores = sample.get("scores") or {}
    if not isinstance(scores, dict):
        raise bad("expected an object", source, "scores")
    if not scores:
        return None, {}
    name, score = next(iter(scores.items()))
    if not isinstance(score, dict):
        raise bad("expected an object", source, f"scores.{name}")
    answer = score.get("answer")
    index = (
        LETTERS.index(answer) if isinstance(answer, str) and answer in LETTERS and answer else None
    )
    return index, {"scorer": name, "value": score.get("value"), "answer": answer}


def reported_metrics(header: Mapping[str, Any]) -> dict[str, float | None]:
    """``results.scores[0].metrics`` as metric -> value (accuracy, stderr...)."""
    results = header.get("results") or {}
    scores = results.get("scores") if isinstance(results, dict) else None
    if not isinstance(scores, list) or not scores or not isinstance(scores[0], dict):
        return {}
    metrics = scores[0].get("metrics") or {}
    if not isinstance(metrics, dict):
        log.warning(
            "inspect log: results.scores[0].metrics is a %s, not an object: the "
            "harness's aggregate is left out (its per-sample scores are read)",
            type(metrics).__name__,
        )
        return {}
    found: dict[str, float | None] = {}
    for name, metric in metrics.items():
        value = metric.get("value") if isinstance(metric, dict) else None
        if name != "stderr":
            found[str(name)] = (
                float(value)
                if isinstance(value, int | float) and not isinstance(value, bool)
                else None
            )
    return found


def read_inspect(path: Path, by_uid: Mapping[str, BBQItem], model: str | None = None) -> HarnessLog:
    """Every sample of the inspect log at ``path`` (.json or .eval), mapped to the items."""
    path = Path(path)
    if path.is_dir():
        logs = sorted(p.name for p in path.iterdir() if p.suffix in (".eval", ".json"))
        raise InputError(
            "a folder: --from inspect reads one eval log (.eval or .json); "
            + (
                f"this one holds {', '.join(logs[:3])}{', ...' if len(logs) > 3 else ''}"
                if logs
                else "this one holds none"
            ),
            file=str(path),
        )
    if not path.is_file():
        raise InputError("file not found", file=str(path))
    header, members = _members(path)
    spec = header.get("eval") or {}
    task = str(spec.get("task") or "bbq") if isinstance(spec, dict) else "bbq"
    label = model or (
        safe_model_name(str(spec.get("model")))
        if isinstance(spec, dict) and spec.get("model")
        else "inspect"
    )
    index = local_index(by_uid)
    samples = []
    errored: list[tuple[str, str]] = []
    for source, sample in members:
        if not isinstance(sample, dict):
            raise bad("expected a sample object", source)
        if sample.get("error"):
            errored.append((source, _error_text(sample["error"])))
            continue
        metadata = sample.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise bad("expected an object", source, "metadata")
        id_field = "example_id" if "example_id" in metadata else "source_id"
        if metadata.get(id_field) is None:
            raise bad("missing field (the sample's BBQ example id)", source, "metadata.example_id")
        uid = find_uid(
            index,
            by_uid,
            metadata.get("category"),
            metadata[id_field],
            source,
            f"metadata.{id_field}",
            "metadata.category",
        )
        epoch = sample.get("epoch", 1)
        if isinstance(epoch, bool) or not isinstance(epoch, int) or not 1 <= epoch <= MAX_EPOCH:
            raise bad(
                f"expected an epoch from 1 to {MAX_EPOCH:,}, got {str(epoch)[:40]}", source, "epoch"
            )
        answer, score = harness_reading(sample, source)
        samples.append(
            HarnessSample(
                uid,
                label,
                task,
                source,
                seed=epoch - 1,
                output=output_text(sample, source),
                harness_answer=answer,
                per_sample=score,
            )
        )
    status = header.get("status")
    if not samples and errored:
        raise InputError(
            f"every sample carries an error ({len(errored)} of {len(errored)}; the log's status "
            f"is {str(status)[:20]!r}; first: {errored[0][1]}): there are no answers to score",
            file=str(path),
        )
    if not samples:
        raise InputError("no samples", file=str(path))
    if errored:
        log.warning(
            "%s: %d of %d samples carry an error instead of an answer (first: %s); they "
            "are left out of every score",
            path,
            len(errored),
            len(errored) + len(samples),
            errored[0][1],
        )
    check_unique(samples, "id")
    reported = reported_metrics(header)
    return HarnessLog(
        "inspect",
        samples,
        {(label, task): reported} if reported else {},
        [str(path)],
        [task],
        errored,
    )


def _error_text(error: Any) -> str:
    """An inspect sample error's message, short: its last line, where inspect puts the
    underlying exception after a dump of the request."""
    message = str(error.get("message") if isinstance(error, dict) else error)
    # The message is often a repr, its newlines written as backslash-n.
    message = message.replace("\\n", "\n").replace("\\'", "'")
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if last.endswith("')") and last.count("(") < last.count(")"):
        last = last[:-2]  # the repr's own closing quote and parenthesis
    return " ".join(last.split())[:160]
