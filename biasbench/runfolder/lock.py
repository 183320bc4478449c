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


@contextlib.contextmanager
def run_lock(run_dir: Path, *, wait: bool = False) -> Iterator[None]:
    """Hold the run folder's writer lock for the duration of the ``with`` block.

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
                    "for it to finish, or pass --wait to queue behind it") from None
            log.warning("run folder %s is in use by %s; waiting for it", run_dir, holder)
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                  "since": time.time()}).encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock
