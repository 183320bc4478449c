"""Send a run's requests to a model with bounded concurrency, retries, caching and resume.

The flow of :func:`run_requests`:

1. Every request gets a key (:func:`request_key`): the sha256 of everything that changes the
   answer. Keys already answered (``ok``) in the store are skipped, so rerunning a finished run
   makes zero model calls; a key appearing twice in the input is sent once.
2. A fixed pool of ``concurrency`` worker coroutines pulls from one shared iterator (no task per
   request, so memory and scheduling cost stay flat for any run size).
3. Transient failures (429, 5xx, timeouts, dropped connections, a server restarting) are
   retried with exponential backoff and full jitter, honouring Retry-After, for at least
   ``RetryPolicy.retry_window_s`` (45 s) and ``max_attempts`` tries; a request that keeps
   failing, or fails permanently (400, 401...), is stored as ``failed`` with its last error, and
   the next run retries it. An empty answer is asked again ``empty_retries`` times, then kept
   and marked empty. Every answer's types are checked before it is stored.
4. Answers are buffered and written in one transaction every ``flush_every`` records or
   ``flush_interval_s`` seconds, and always at the end, on error and on cancellation. A killed
   process loses at most the unflushed buffer, which the rerun asks again; the key is the primary
   key, so nothing is ever stored twice. A store that cannot be written (full disk) stops new
   requests at once and ends the run with one :class:`StoreWriteError`.
5. If the endpoint cannot be reached before it has answered anything, the run stops after a few
   quick tries with an :class:`~biasbench.errors.EndpointError` naming the endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench import signals
from biasbench.errors import EndpointError
from biasbench.models.base import GenerationParams, ModelBackend
from biasbench.progress import progress_bar
from biasbench.runner.attempts import Abort, RunState, StoreFailed, StoreWriteError
from biasbench.runner.keys import Request, request_key, request_keys, split_answered
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.store import ResponseStore

__all__ = [
    "STOP_GRACE_S",
    "Request",
    "RunStats",
    "StoreWriteError",
    "request_key",
    "request_keys",
    "run_requests",
    "run_requests_sync",
    "split_answered",
]
"""The runner's public face: what callers pass and get back, wherever it is defined."""

log = logging.getLogger("biasbench.runner")


@dataclass
class RunStats:
    """What a call of :func:`run_requests` did."""

    total: int
    """Distinct requests asked for (duplicated keys counted once)."""
    cached: int
    """Of those, already answered in the store before this call (not sent)."""
    completed: int
    """Answered during this call."""
    failed: int
    """Recorded as failed during this call (a rerun retries them)."""
    elapsed_s: float
    """Wall time of the call, in seconds."""
    calls: int
    """Model calls made, retries included."""
    empty: int = 0
    """Of ``completed``, answers kept empty (no text, or whitespace only) after the retries the
    policy allows; their stored rows carry ``info["empty"] = True``."""

    @property
    def unfinished(self) -> int:
        """Requests neither answered nor recorded as failed (an early stop leaves some)."""
        return self.total - self.cached - self.completed - self.failed


STOP_GRACE_S = 1.5
"""How long requests in flight at Ctrl-C or SIGTERM may still finish (and be stored) before the
run stops; a second Ctrl-C stops at once."""


async def run_requests(
    backend: ModelBackend,
    requests: Sequence[Request],
    params: GenerationParams,
    store: ResponseStore,
    *,
    concurrency: int = 8,
    retry: RetryPolicy | None = None,
    progress: bool = True,
    flush_every: int = 256,
    flush_interval_s: float = 0.25,
) -> RunStats:
    """Send every request not yet answered in ``store`` to ``backend`` and store the outcomes.

    Raises :class:`~biasbench.errors.EndpointError` (after saving everything finished) when the
    endpoint cannot be reached. The caller owns ``backend`` and ``store`` and closes them.
    """
    started = time.perf_counter()
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    retry = retry or RetryPolicy()
    mode = backend.mode
    keys = request_keys(backend, requests, params)
    to_send, cached = split_answered(keys, requests, store.completed_keys())
    pending = {
        key: (key, request, request.prompt.text_for(mode)) for key, request in to_send.items()
    }
    total = len(pending) + len(cached)

    limit = (
        backend.max_concurrency
        if backend.owns_concurrency and backend.max_concurrency
        else min(concurrency, backend.max_concurrency or concurrency)
    )
    workers = min(limit, max(len(pending), 1))
    backend.set_concurrency(workers)
    run = RunState(backend, params, store, retry, flush_every, workers)
    # A Ray worker's in-memory buffer has no disk to hold a reserve on.
    reserved = bool(pending) and hasattr(store, "hold_reserve") and store.hold_reserve()
    bar = progress_bar(total, len(cached), progress)
    tasks: list[asyncio.Task[None]] = []
    ticker: asyncio.Task[None] | None = None

    async def tick() -> None:
        # Periodic flush (bounds what a kill can lose) and progress update, off the hot path.
        # Returns only when the store cannot be written: the run then stops at once.
        shown_done = shown_failed = 0
        while True:
            await asyncio.sleep(flush_interval_s)
            if not run.flush():
                return
            if bar is not None:
                done_now = run.completed + run.failed
                if run.failed != shown_failed:  # shown only once something failed
                    shown_failed = run.failed
                    bar.set_postfix(failed=shown_failed, refresh=False)
                # Even with nothing new: a plain (non-terminal) progress line still comes
                # every interval while a slow model answers nothing.
                bar.update(done_now - shown_done)
                shown_done = done_now

    endpoint_error: EndpointError | None = None
    workers_done: asyncio.Future[list[None]] | None = None
    interrupted = False
    try:
        if pending:
            iterator = iter(pending.values())
            tasks = [asyncio.create_task(run.worker(iterator)) for _ in range(workers)]
            ticker = asyncio.create_task(tick())
            # Ends when every worker is done, one raised (gather), or the ticker found the
            # store unwritable; the others are cancelled below.
            workers_done = asyncio.gather(*tasks)
            waited: list[asyncio.Future[Any]] = [workers_done, ticker]
            await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            if workers_done.done() and not workers_done.cancelled():
                error = workers_done.exception()
                if isinstance(error, Abort):
                    endpoint_error = error.error
                elif error is not None and not isinstance(error, StoreFailed):
                    raise error
    except asyncio.CancelledError:  # Ctrl-C or SIGTERM (asyncio's runner cancels the run)
        interrupted = True
        raise
    finally:
        if (interrupted or run.disk_full) and tasks:
            # Answers the server has already sent (or is sending) are paid for: let the
            # requests in flight finish for a moment, starting nothing new, and store them
            # (after a full disk, in the space the run held in reserve).
            run.stopping = True
            running = [t for t in tasks if not t.done()]
            if running:
                with contextlib.suppress(asyncio.CancelledError):
                    # an in-process backend has sent nothing yet: what it has finished is
                    # stored already, and its forward pass stops at once (Ctrl-C within 1 s)
                    grace = 0.0 if backend.owns_concurrency else STOP_GRACE_S
                    if grace:
                        await asyncio.wait(running, timeout=grace)
        for task in [*tasks, ticker]:
            if task is not None and not task.done():
                task.cancel()
        run.flush()  # before any await: a second cancellation cannot skip it
        if tasks or ticker:
            # return_exceptions: every task's outcome is retrieved here, so asyncio never
            # reports "Task exception was never retrieved".
            await asyncio.gather(
                *tasks,
                *([ticker] if ticker else []),
                *([workers_done] if workers_done else []),
                return_exceptions=True,
            )
            run.flush()
        if reserved:
            store.release_reserve()
        if bar is not None:
            if run.failed:
                bar.set_postfix(failed=run.failed, refresh=False)
            bar.update(run.completed + run.failed - (bar.n - len(cached)))
            bar.close()
    if run.store_error is not None and run.disk_full:
        raise StoreWriteError(_disk_full_message(store, run)) from None
    if run.store_error is not None:
        exc = run.store_error
        detail = " ".join((str(exc) or type(exc).__name__).split())
        raise StoreWriteError(
            f"cannot write the response store {getattr(store, 'path', '')}: {detail}; stopped "
            f"sending requests, {run.unsaved()} answers could not be saved (everything else "
            f"is stored); free the space or fix the file, then rerun to continue"
        ) from None
    if endpoint_error is not None:
        raise endpoint_error from None

    stats = RunStats(
        total=total,
        cached=len(cached),
        completed=run.completed,
        failed=run.failed,
        elapsed_s=time.perf_counter() - started,
        calls=run.calls,
        empty=run.empty,
    )
    if stats.failed:
        log.warning(
            "%d of %d requests failed (stored as failed; rerun to retry them)",
            stats.failed,
            stats.total,
        )
    if stats.empty:
        log.warning(
            "%d of %d answers are empty (kept, marked empty in the store)",
            stats.empty,
            stats.completed,
        )
    return stats


def _loop_factory() -> Any:
    """uvloop's event loop when it is installed (faster HTTP), else asyncio's default.

    ``BIASBENCH_EVENT_LOOP=asyncio`` forces the default loop (to compare, or to debug)."""
    if os.environ.get("BIASBENCH_EVENT_LOOP", "").lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _disk_full_message(store: ResponseStore, run: RunState) -> str:
    import shutil

    path = Path(getattr(store, "path", "."))
    try:
        free = f"{shutil.disk_usage(path.parent).free / 1e6:.1f} MB free now"
    except OSError:
        free = "free space unknown"
    exc = run.store_error
    detail = " ".join((str(exc) or type(exc).__name__).split())
    kept = run.completed + run.failed - run.unsaved()
    return (
        f"cannot write the response store {path}: {detail}: the disk is full; stopped "
        f"sending requests, {run.unsaved()} answers could not be saved ({kept} answers of "
        f"this run are stored, {run.saved_from_reserve} of them in the space biasbench held "
        f"in reserve); free some space ({free}, the reserve included), then rerun the same "
        f"command to continue"
    )


def run_requests_sync(
    backend: ModelBackend,
    requests: Sequence[Request],
    params: GenerationParams,
    store: ResponseStore,
    **options: Any,
) -> RunStats:
    """:func:`run_requests` on a fresh event loop; closes the backend's connections after."""

    async def main() -> RunStats:
        loop, task = asyncio.get_running_loop(), asyncio.current_task()
        assert task is not None

        def cancel() -> None:
            loop.call_soon_threadsafe(task.cancel)

        # With SIGINT ignored asyncio installs no Ctrl-C handler; SIGTERM then cancels this
        # task, as Ctrl-C would, so the runner stores every answer already delivered.
        with signals.cancel_on_sigterm(cancel):
            try:
                return await run_requests(backend, requests, params, store, **options)
            finally:
                await backend.aclose()

    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        try:
            return runner.run(main())
        except asyncio.CancelledError:
            if signals.received_sigterm():
                raise KeyboardInterrupt from None  # the CLI's interrupted path, exit 143
            raise
