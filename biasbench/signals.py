"""SIGTERM handled like Ctrl-C, and which of the two stopped a run.

A run stopped by SIGTERM (a scheduler, ``kill``, a container stop) must leave what Ctrl-C
leaves: every finished answer flushed to the store and the manifest marked ``interrupted``
with the reason. :func:`install` makes SIGTERM call whatever handles SIGINT at that moment:
asyncio's runner (which cancels the run, so the runner's ``finally`` flushes the store) or
Python's default (``KeyboardInterrupt``). The CLI then exits 143 (128 + 15) instead of 130.

Where SIGINT is ignored (a command started with ``&`` from a script: the shell sets SIGINT to
SIG_IGN, and asyncio then installs no handler of its own), SIGTERM cancels the running request
loop through :func:`cancel_on_sigterm`, the same graceful path Ctrl-C takes in the foreground,
instead of a ``KeyboardInterrupt`` raised wherever the loop happens to be (which dropped the
answers in flight).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

_received: list[int] = []
_cancellers: list[Callable[[], None]] = []


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    elif _cancellers:
        _cancellers[-1]()
    else:
        raise KeyboardInterrupt


@contextmanager
def cancel_on_sigterm(cancel: Callable[[], None]) -> Iterator[None]:
    """While inside, a SIGTERM arriving with SIGINT not handled by a callable (ignored, or
    handled by the default action) calls ``cancel`` instead of raising ``KeyboardInterrupt``:
    ``cancel`` must be safe to call from a signal handler (``loop.call_soon_threadsafe``)."""
    _cancellers.append(cancel)
    try:
        yield
    finally:
        _cancellers.remove(cancel)


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
