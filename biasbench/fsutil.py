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


class NotRegularFileError(OSError):
    """A path that is not a regular file (a FIFO, a device, a folder) or is larger than allowed:
    never read, so a reader can neither hang on a FIFO nor exhaust memory on /dev/zero."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def read_regular(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (after symlinks) of at most ``max_bytes``.

    Opened without blocking (a FIFO with no writer would block ``open``) and checked with
    ``fstat`` on the open file, so what is checked is what is read.
    """
    import errno
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(errno.EINVAL, "not a regular file; not read", str(path))
        if info.st_size > max_bytes:
            raise NotRegularFileError(errno.EFBIG, f"{info.st_size:,} bytes, more than the "
                                      f"{max_bytes:,} read; not read", str(path))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:  # grew while being read
            raise NotRegularFileError(errno.EFBIG, f"more than the {max_bytes:,} bytes read; "
                                      "not read", str(path))
        return data
    finally:
        os.close(fd)
