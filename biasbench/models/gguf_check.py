"""Checks of a llama.cpp model before it is loaded: a GGUF file and a context window that fits.

llama.cpp reads any file it is given and reports a file that is not GGUF as a traceback in a
warning; a context window of 99,999,999,999 tokens asks for memory no machine has (a hang, or
a traceback under a memory limit). :func:`check_llamacpp` refuses both in one line before
anything loads; the registry calls it for every ``llamacpp`` spec.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from biasbench.errors import ModelSpecError

GGUF_MAGIC = b"GGUF"
"""The first four bytes of every GGUF file."""
MAX_N_CTX = 1 << 20
"""The largest ``-M n_ctx`` accepted (1,048,576 tokens: beyond any model's trained window)."""
MIN_N_CTX = 16


def check_gguf_file(path: str | Path) -> Path:
    """``path`` as a Path once it is a readable regular file starting with ``GGUF``."""
    path = Path(path).expanduser()
    try:
        info = path.stat()
    except OSError:
        raise ModelSpecError(f"GGUF file not found: {path}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ModelSpecError(f"llamacpp:{path}: not a regular file (a GGUF model file is "
                             "needed)")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            head = os.read(fd, len(GGUF_MAGIC))
        finally:
            os.close(fd)
    except OSError as exc:
        raise ModelSpecError(f"llamacpp:{path}: cannot be read ({exc.strerror})") from None
    if head != GGUF_MAGIC:
        raise ModelSpecError(f"llamacpp:{path}: not a GGUF file (it starts with {head!r}, not "
                             f"{GGUF_MAGIC!r}); llama.cpp reads GGUF model files only")
    return path


def check_n_ctx(value: Any) -> None:
    """Refuse an ``-M n_ctx`` that is not a whole number from 16 to :data:`MAX_N_CTX`."""
    try:
        n_ctx = int(str(value).strip())
    except ValueError:
        raise ModelSpecError(f"llamacpp: -M n_ctx={value!r}: expected an integer") from None
    if not MIN_N_CTX <= n_ctx <= MAX_N_CTX:
        raise ModelSpecError(f"llamacpp: -M n_ctx={value!r}: must be from {MIN_N_CTX} to "
                             f"{MAX_N_CTX:,} tokens")


def check_llamacpp(path: str | Path | None, model_args: Mapping[str, Any]) -> None:
    """Both checks for ``llamacpp[:FILE]`` with its ``-M`` options (no file: the embedded
    default model, which is checked where it is downloaded)."""
    if "n_ctx" in model_args:
        check_n_ctx(model_args["n_ctx"])
    if path is not None:
        check_gguf_file(path)
