"""Checks of a llama.cpp model before it is loaded: a GGUF file and a context window that fits.

llama.cpp reads any file it is given and reports a file that is not GGUF as a traceback in a
warning; a context window of 99,999,999,999 tokens asks for memory no machine has (a hang, or
a traceback under a memory limit). :func:`check_llamacpp` refuses both in one line before
anything loads; the registry calls it for every ``llamacpp`` spec.
"""

from __future__ import annotations

import mmap
import os
import stat
import struct
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
        raise ModelSpecError(f"llamacpp:{path}: not a regular file (a GGUF model file is needed)")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            head = os.read(fd, len(GGUF_MAGIC))
        finally:
            os.close(fd)
    except OSError as exc:
        raise ModelSpecError(f"llamacpp:{path}: cannot be read ({exc.strerror})") from None
    if head != GGUF_MAGIC:
        raise ModelSpecError(
            f"llamacpp:{path}: not a GGUF file (it starts with {head!r}, not "
            f"{GGUF_MAGIC!r}); llama.cpp reads GGUF model files only"
        )
    problem = gguf_header_problem(path)
    if problem is not None:
        raise ModelSpecError(
            f"llamacpp:{path}: a damaged GGUF file ({problem}); download or convert it again"
        )
    return path


# GGUF value types (gguf.md): fixed sizes by type number; 8 is a string, 9 an array.
_SCALAR_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9
_MAX_COUNT = 1 << 40  # no real header holds more entries; a larger count is damage


class _Truncated(Exception):
    pass


def gguf_header_problem(path: str | Path) -> str | None:
    """What is wrong with the GGUF header of ``path`` (version, metadata, tensor table, each
    tensor's data inside the file), or None: llama.cpp meets a damaged header with a traceback
    for every request. Walks the lengths only (nothing decoded): about 0.1 s for a 262,144-token
    vocabulary."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size < 24:
                return f"{size} bytes: shorter than a GGUF header"
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _walk(data, size)
    except (OSError, ValueError) as exc:
        return f"cannot be read ({exc})"


def _walk(data: mmap.mmap, size: int) -> str | None:
    version, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    if version not in (2, 3):
        return f"GGUF version {version}, where llama.cpp reads 2 and 3"
    if n_tensors > _MAX_COUNT or n_kv > _MAX_COUNT:
        return "impossible tensor or metadata count"
    position = 24
    alignment = 32

    def need(n: int) -> None:
        if n < 0 or position + n > size:
            raise _Truncated

    def skip_value(kind: int) -> None:
        nonlocal position
        if kind in _SCALAR_SIZES:
            need(_SCALAR_SIZES[kind])
            position += _SCALAR_SIZES[kind]
        elif kind == _STRING:
            need(8)
            (length,) = struct.unpack_from("<Q", data, position)
            need(8 + length)
            position += 8 + length
        elif kind == _ARRAY:
            need(12)
            inner, count = struct.unpack_from("<IQ", data, position)
            position += 12
            if count > _MAX_COUNT:
                raise _Truncated
            if inner in _SCALAR_SIZES:
                need(_SCALAR_SIZES[inner] * count)
                position += _SCALAR_SIZES[inner] * count
            else:
                for _ in range(count):
                    skip_value(inner)
        else:
            raise ValueError(f"unknown metadata type {kind}")

    try:
        for _ in range(n_kv):
            need(8)
            (length,) = struct.unpack_from("<Q", data, position)
            need(8 + length + 4)
            key = bytes(data[position + 8 : position + 8 + length])
            (kind,) = struct.unpack_from("<I", data, position + 8 + length)
            position += 8 + length + 4
            if key == b"general.alignment" and kind == 4:
                need(4)
                (alignment,) = struct.unpack_from("<I", data, position)
            skip_value(kind)
        offsets = []
        for _ in range(n_tensors):
            need(8)
            (length,) = struct.unpack_from("<Q", data, position)
            need(8 + length + 4)
            position += 8 + length
            (n_dims,) = struct.unpack_from("<I", data, position)
            need(4 + 8 * n_dims + 12)
            position += 4 + 8 * n_dims
            position += 4  # the tensor's type
            (offset,) = struct.unpack_from("<Q", data, position)
            position += 8
            offsets.append(offset)
    except _Truncated:
        return f"the header ends past the file's end ({size:,} bytes): a truncated file"
    except ValueError as exc:
        return str(exc)
    start = position + (-position) % max(alignment, 1)
    if offsets and start + max(offsets) >= size:
        return f"tensor data begins past the file's end ({size:,} bytes): a truncated file"
    return None


def check_n_ctx(value: Any) -> None:
    """Refuse an ``-M n_ctx`` that is not a whole number from 16 to :data:`MAX_N_CTX`."""
    try:
        n_ctx = int(str(value).strip())
    except ValueError:
        raise ModelSpecError(f"llamacpp: -M n_ctx={value!r}: expected an integer") from None
    if not MIN_N_CTX <= n_ctx <= MAX_N_CTX:
        raise ModelSpecError(
            f"llamacpp: -M n_ctx={value!r}: must be from {MIN_N_CTX} to {MAX_N_CTX:,} tokens"
        )


def check_llamacpp(path: str | Path | None, model_args: Mapping[str, Any]) -> None:
    """Both checks for ``llamacpp[:FILE]`` with its ``-M`` options (no file: the embedded
    default model, which is checked where it is downloaded)."""
    if "n_ctx" in model_args:
        check_n_ctx(model_args["n_ctx"])
    if path is not None:
        check_gguf_file(path)
