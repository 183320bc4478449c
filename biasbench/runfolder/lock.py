"""One writer at a time: the run folder's ``flock`` (see :mod:`biasbench.runfolder`)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from biasbench.runfolder import LOCK_NAME, RunFolderError

log = logging.getLogger(__name__)


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return "another process"
    pid, host = info.get("pid"), info.get("host")
    where = f" on {host}" if host and host != socket.gethostname() else ""
    return f"process {pid}{where}" if pid else "another process"


class FolderHold:
    """The held folder's identity (device and inode of the folder and of its lock file), to
    check before anything is written by path: a folder moved (or replaced) while the run wrote
    keeps its store (an open file follows the inode), so writing derived files at the old path
    would split one run into two halves, neither whole."""

    def __init__(self, run_dir: Path, fd: int) -> None:
        self.run_dir, self.fd = Path(run_dir), fd
        self.identity = _identity(os.stat(self.run_dir))

    def check_in_place(self) -> None:
        """Raise :class:`RunFolderError` (one line: where the folder went, what to run) when
        the path no longer names the folder the lock was taken in."""
        here: tuple[int, int] | None
        lock_here: tuple[int, int] | None
        try:
            here = _identity(os.stat(self.run_dir))
            lock_here = _identity(os.stat(self.run_dir / LOCK_NAME))
        except OSError:
            here = lock_here = None
        if here == self.identity and lock_here == _identity(os.fstat(self.fd)):
            return
        now = self.whereabouts()
        where = f"it is now at {now}" if now else "it was moved or removed"
        rerun = (
            f"run again with --out {now} to score it"
            if now
            else "put it back, or run again with --out at its new place"
        )
        raise FolderMovedError(
            f"run folder {self.run_dir} was moved while the run wrote ({where}): its store went "
            f"with it, holding every answer received; nothing was published at either path: "
            f"{rerun}"
        )

    def whereabouts(self) -> Path | None:
        """Where the locked folder is now (Linux: the lock file's open descriptor names it)."""
        try:
            target = os.readlink(f"/proc/self/fd/{self.fd}")
        except OSError:
            return None
        if target.endswith(" (deleted)") or not target.startswith("/"):
            return None
        return Path(target).parent


class FolderMovedError(RunFolderError):
    """The run folder is no longer at its path (see :class:`FolderHold`)."""


def _identity(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino


@contextlib.contextmanager
def run_lock(run_dir: Path, *, wait: bool = False) -> Iterator[FolderHold]:
    """Hold the run folder's writer lock for the duration of the ``with`` block.

    Yields the folder's :class:`FolderHold` (is it still at its path?).
    Raises :class:`RunFolderError` naming the folder and the holder's pid when another process
    holds it (unless ``wait``, which blocks until it is free). ``flock`` locks belong to the open
    file: the kernel releases them when the process dies, so there is nothing stale to clean up.
    """
    path = Path(run_dir) / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            holder = _holder(path)
            if not wait:
                raise RunFolderError(
                    f"run folder {run_dir} is in use by {holder} (one writer at a time); wait "
                    "for it to finish, or pass --wait to queue behind it"
                ) from None
            log.warning("run folder %s is in use by %s; waiting for it", run_dir, holder)
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(
            fd,
            json.dumps(
                {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
            ).encode(),
            0,
        )
        yield FolderHold(run_dir, fd)
    finally:
        os.close(fd)  # releases the lock
