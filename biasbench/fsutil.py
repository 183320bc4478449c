"""Files written so that a crash or an error never leaves half of one behind."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path


def write_files_atomically(contents: Mapping[Path, bytes]) -> None:
    """Write several files so that none is left half-written: each goes to a temporary file in
    its target folder first, and only when all are written are they moved into place."""
    pending: list[tuple[str, Path]] = []
    try:
        for path, data in contents.items():
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                                 suffix=".tmp")
            pending.append((temporary, path))
            os.chmod(temporary, 0o644)  # mkstemp makes 0600; results are for sharing
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
        for temporary, path in pending:
            os.replace(temporary, path)
        pending.clear()
    finally:
        for temporary, _ in pending:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass


def write_text_atomically(path: Path, text: str) -> None:
    """Write one UTF-8 text file atomically."""
    write_files_atomically({path: text.encode("utf-8")})
