"""Responses produced elsewhere (a paper's raw outputs, another harness's log) as JSONL.

Each line is a JSON object; readers validate the fields they need and name the file, line and
field of the first problem.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError, InputError

_DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024


def _max_line_bytes_from_environment() -> tuple[int, str | None]:
    """The line cap ``BIASBENCH_MAX_LINE_BYTES`` sets, and the one-line refusal of a value that
    is not a whole number of bytes (raised where files are read, never at import)."""
    raw = os.environ.get("BIASBENCH_MAX_LINE_BYTES")
    if raw is None:
        return _DEFAULT_MAX_LINE_BYTES, None
    try:
        value = int(raw.strip().replace("_", ""))
    except ValueError:
        value = 0
    if value < 1:
        return _DEFAULT_MAX_LINE_BYTES, (
            f"BIASBENCH_MAX_LINE_BYTES={raw!r}: must be a whole "
            "number of bytes, at least 1 (e.g. 33554432)"
        )
    return value, None


MAX_LINE_BYTES, ENVIRONMENT_ERROR = _max_line_bytes_from_environment()
"""The most bytes read for one line of an input file (16 MiB unless the environment variable
``BIASBENCH_MAX_LINE_BYTES`` says otherwise): a longer line is refused, so a 100 MB line
cannot take gigabytes of memory."""

_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _check_bom(head: bytes, source: str) -> int:
    """Length of a UTF-8 byte-order mark to skip; raise for UTF-16/UTF-32 text."""
    for bom, name in _WIDE_BOMS:
        if head.startswith(bom):
            raise InputError(
                f"{name} text (byte-order mark {bom.hex(' ').upper()}); biasbench "
                f"reads UTF-8: convert it (e.g. iconv -f {name} -t UTF-8)",
                file=source,
                line=1,
            )
    return len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0


def _decode(raw: bytes, source: str, line: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
        raise InputError(
            f"not UTF-8: byte 0x{raw[exc.start]:02X} at column {column} (a "
            "Latin-1 or other legacy encoding?); save the file as UTF-8",
            file=source,
            line=line,
        ) from None


def _size_cap(source: str, line: int, cap: int) -> InputError:
    return InputError(
        f"line longer than {cap:,} bytes, the most read for one line (set "
        "BIASBENCH_MAX_LINE_BYTES to allow more); not read further",
        file=source,
        line=line,
    )


def text_lines(path: str | Path, *, max_line_bytes: int | None = None) -> Iterator[str]:
    """The lines of a UTF-8 text file (a BOM dropped), read with bounded memory.

    Raises InputError naming file and line for a missing file, UTF-16/32 text, bytes that are
    not UTF-8, or a line longer than :data:`MAX_LINE_BYTES`.
    """
    path = Path(path)
    source = str(path)
    if max_line_bytes is None:
        check_environment()
    cap = max_line_bytes or MAX_LINE_BYTES
    if not path.is_file():
        raise InputError("file not found", file=source)
    with path.open("rb") as fh:
        skip = _check_bom(fh.read(4), source)
        fh.seek(skip)
        for lineno, raw in enumerate(iter(lambda: fh.readline(cap + 1), b""), start=1):
            if len(raw) > cap:
                raise _size_cap(source, lineno, cap)
            yield _decode(raw, source, lineno)


def check_environment() -> None:
    """Refuse, in one line, a ``BIASBENCH_MAX_LINE_BYTES`` that is not a number of bytes."""
    if ENVIRONMENT_ERROR is not None:
        raise BiasbenchError(ENVIRONMENT_ERROR)


def read_text(path: str | Path) -> str:
    """A whole UTF-8 text file (a BOM dropped), with the checks of :func:`text_lines`."""
    return "".join(text_lines(path))


def parse_json(text: str, source: str, line: int | None = None) -> Any:
    """``json.loads`` whose every failure is an InputError naming source and line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = line if line is not None else exc.lineno
        raise InputError(f"not valid JSON ({exc.msg})", file=source, line=where) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to read", file=source, line=line) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise InputError(f"not valid JSON ({exc})", file=source, line=line) from None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_no_lone_surrogate(obj: Any, source: str, line: int) -> None:
    """A JSON escape of half a UTF-16 pair (``\\ud800`` alone) is no character: UTF-8 cannot
    write it, so it is refused here, naming the field, not when a label is written."""
    items = obj.items() if isinstance(obj, dict) else enumerate(obj)
    for name, value in items:
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise InputError(
                    f"holds a lone UTF-16 surrogate (\\u{ord(value[exc.start]):04x}), "
                    "which is not a character",
                    file=source,
                    line=line,
                    field=str(name),
                ) from None
        elif isinstance(value, dict | list):
            _check_no_lone_surrogate(value, source, line)


def iter_json_objects(lines: Iterable[str], source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for every non-blank line; bad JSON names source and line."""
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        obj = parse_json(raw, source, lineno)
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", file=source, line=lineno)
        if "\\u" in raw and _SURROGATE_ESCAPE.search(raw):
            _check_no_lone_surrogate(obj, source, lineno)
        yield lineno, obj


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for every non-blank line of a JSONL file (UTF-8, lines of at
    most :data:`MAX_LINE_BYTES`)."""
    yield from iter_json_objects(text_lines(path), str(path))


def check_fields(
    obj: dict[str, Any],
    *,
    path: str | Path,
    line: int,
    required: Sequence[str] = (),
    strings: Sequence[str] = (),
    integers: Sequence[str] = (),
) -> None:
    """Raise InputError naming the first missing or mistyped field."""
    for name in required:
        if name not in obj or obj[name] is None:
            raise InputError("missing field", file=str(path), line=line, field=name)
    for name in strings:
        if name in obj and obj[name] is not None and not isinstance(obj[name], str):
            raise InputError(
                f"expected a string, got {type(obj[name]).__name__}",
                file=str(path),
                line=line,
                field=name,
            )
    for name in integers:
        value = obj.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(
                f"expected an integer, got {value!r}", file=str(path), line=line, field=name
            )
        if isinstance(value, int) and not -INT64_MAX - 1 <= value <= INT64_MAX:
            raise InputError(
                f"integer {value} is out of range (64-bit: at most {INT64_MAX:,})",
                file=str(path),
                line=line,
                field=name,
            )


INT64_MAX = 2**63 - 1
"""The largest integer a field may hold (SQLite, Parquet and Arrow store 64 bits)."""


def write_jsonl(
    rows: Sequence[dict[str, Any]] | Iterator[dict[str, Any]], path: str | Path
) -> None:
    """Write rows as UTF-8 JSONL (non-ASCII kept readable), atomically: a temporary file in
    the same folder replaces ``path`` only once complete, so a kill never leaves a short file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
