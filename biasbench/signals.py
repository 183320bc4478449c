"""SIGTERM handled like Ctrl-C, and which of the two stopped a run.

A run stopped by SIGTERM (a scheduler, ``kill``, a container stop) must leave what Ctrl-C
leaves: every finished answer flushed to the store and the manifest marked ``interrupted``
with the reason. :func:`install` makes SIGTERM call whatever handles SIGINT at that moment:
asyncio's runner (which cancels the run, so the runner's ``finally`` flushes the store) or
Python's default (``KeyboardInterrupt``). The CLI then exits 143 (128 + 15) instead of 130.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

_received: list[int] = []


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


def install() -> None:
    """Route SIGTERM through the SIGINT handling (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)


def received_sigterm() -> bool:
    """Whether a SIGTERM arrived in this process."""
    return bool(_received)


def received_signal_name() -> str:
    """``SIGTERM`` or ``Ctrl-C (SIGINT)``: what interrupted the process."""
    return "SIGTERM" if _received else "Ctrl-C (SIGINT)"


def exit_code() -> int:
    """The shell's convention for a process stopped by its signal: 128 + the signal number."""
    return 128 + (signal.SIGTERM if _received else signal.SIGINT)
