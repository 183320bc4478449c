"""Responses produced elsewhere (a paper's raw outputs, another harness's log) as JSONL.

Each line is a JSON object; readers validate the fields they need and name the file, line and
field of the first problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from biasbench.errors import InputError


def iter_json_objects(lines: Iterable[str], source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for every non-blank line; bad JSON names source and line."""
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON ({exc.msg})", file=source, line=lineno) from None
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", file=source, line=lineno)
        yield lineno, obj


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for every non-blank line of a JSONL file."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", file=str(path))
    with path.open(encoding="utf-8-sig") as fh:
        yield from iter_json_objects(fh, str(path))


def check_fields(obj: dict[str, Any], *, path: str | Path, line: int,
                 required: Sequence[str] = (), strings: Sequence[str] = (),
                 integers: Sequence[str] = ()) -> None:
    """Raise InputError naming the first missing or mistyped field."""
    for name in required:
        if name not in obj or obj[name] is None:
            raise InputError("missing field", file=str(path), line=line, field=name)
    for name in strings:
        if name in obj and obj[name] is not None and not isinstance(obj[name], str):
            raise InputError(f"expected a string, got {type(obj[name]).__name__}",
                             file=str(path), line=line, field=name)
    for name in integers:
        value = obj.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(f"expected an integer, got {value!r}", file=str(path), line=line,
                             field=name)


def write_jsonl(rows: Sequence[dict[str, Any]] | Iterator[dict[str, Any]], path: str | Path) -> None:
    """Write rows as UTF-8 JSONL (non-ASCII kept readable)."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
