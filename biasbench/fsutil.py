"""Files written so that a crash or an error never leaves half of one behind."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path


def write_files_atomically(contents: Mapping[Path, bytes]) -> None:
    """Write several files so that none is left half-written: each goes to a temporary file in
    its target folder first, and only when all are written are they moved into place."""
    pending: list[tuple[str, Path]] = []
    try:
        for path, data in contents.items():
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(
                dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
            )
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
            raise NotRegularFileError(
                errno.EFBIG,
                f"{info.st_size:,} bytes, more than the {max_bytes:,} read; not read",
                str(path),
            )
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:  # grew while being read
            raise NotRegularFileError(
                errno.EFBIG, f"more than the {max_bytes:,} bytes read; not read", str(path)
            )
        return data
    finally:
        os.close(fd)


class OutputWriteError(OSError):
    """A folder of outputs (an export, a report) could not be written; nothing was left behind.
    Its text is the one line the command prints."""

    def __str__(self) -> str:
        return str(self.strerror)


@contextmanager
def staged_folder(out: Path, what: str) -> Iterator[Path]:
    """A staging folder beside ``out`` for ``what`` (export, report) to write into; moved into
    place only when the block ends without an error, so a full disk or a crash never leaves a
    partial set of files at ``out``. Files already at ``out`` are replaced only by complete new
    ones (renames on one file system, which need no space). On failure the staging folder is
    removed and an error of the disk (no space, quota, read-only) becomes one line naming
    ``out``. The name is visible, not hidden, so a folder a kill leaves behind explains itself."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f"{out.name}.incomplete-"))
    os.chmod(staging, 0o755)  # mkdtemp makes 0700; outputs are for sharing
    try:
        yield staging
        _move_into_place(staging, out)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG):
            raise OutputWriteError(error.errno, _disk_line(out, what, error)) from None
        raise
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)


def _move_into_place(staging: Path, out: Path) -> None:
    if not out.exists():
        os.rename(staging, out)
        return
    for source in sorted(staging.rglob("*")):
        target = out / source.relative_to(staging)
        if source.is_dir():
            target.mkdir(exist_ok=True)
        else:
            os.replace(source, target)


def _disk_line(out: Path, what: str, error: OSError) -> str:
    try:
        free = f"{shutil.disk_usage(out.parent).free / 2**20:.1f} MiB free"
    except OSError:
        free = "free space unknown"
    reason = os.strerror(error.errno) if error.errno else str(error)
    return (
        f"{out}: the {what} could not be written ({reason}; {free}); nothing was written "
        f"there: free space (or pass another --out) and run it again"
    )
