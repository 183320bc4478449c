"""``history.jsonl``: one line per invocation that wrote to the folder, appended whole or not
at all, read back skipping a damaged line."""

from __future__ import annotations

import errno
import json
import logging
import os
from pathlib import Path
from typing import Any

from biasbench.runfolder import HISTORY_NAME

log = logging.getLogger(__name__)


def append_history(run_dir: Path, entry: dict[str, Any]) -> None:
    """Append one invocation's record to ``RUN_DIR/history.jsonl`` (call under the lock).

    A whole line or nothing: the line is written with ``O_APPEND`` and, if the write comes back
    short or fails (a full disk), the file is cut back to its old length. A last line a kill
    left without its newline is closed first, so it never swallows the new one. Values JSON
    cannot hold (paths) are written as text.
    """
    data = (json.dumps(entry, ensure_ascii=False, sort_keys=True, default=str) + "\n").encode(
        "utf-8", "surrogatepass"
    )
    fd = os.open(Path(run_dir) / HISTORY_NAME, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(errno.ENOSPC, f"short write ({written} of {len(data)} bytes)")
        except OSError:
            os.ftruncate(fd, size)
            raise
    finally:
        os.close(fd)


def read_history(run_dir: Path) -> list[dict[str, Any]]:
    """The folder's invocation records, oldest first. A damaged line (cut by a kill, even
    inside a UTF-8 character, or edited) is skipped with a warning: the others still count."""
    from biasbench.fsutil import read_regular

    path = Path(run_dir) / HISTORY_NAME
    if not path.is_file():
        return []
    entries = []
    for number, raw in enumerate(read_regular(path, HISTORY_MAX_BYTES).split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            found = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            log.warning("%s:%d: a damaged line (cut by a kill or edited) is skipped", path, number)
            continue
        if isinstance(found, dict):
            entries.append(found)
    return entries


HISTORY_MAX_BYTES = 256 << 20
"""The most of history.jsonl that is read (a larger one is refused in one line)."""
