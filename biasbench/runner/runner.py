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
import hashlib
import json
import logging
import os
import re
import sqlite3
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from biasbench.errors import BiasbenchError, EndpointError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
    TransientModelError,
    UnusableAnswerError,
    is_empty_text,
    normalise_finish_reason,
    text_from_content,
)
from biasbench.progress import progress_bar
from biasbench.runner.retry import EndpointUnreachableError, RetryPolicy
from biasbench.runner.store import ResponseRecord, ResponseStore

log = logging.getLogger("biasbench.runner")


_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, non-ASCII kept as is."""
    return _CANONICAL.encode(value)


def request_key(model: dict[str, Any], prompt_text: str, params: GenerationParams,
                seed: int | None) -> str:
    """The cache key of one request: sha256 (hex) of the canonical JSON of everything that
    changes the answer: the model description (kind, name, prompt mode...), the exact prompt
    text, the decoding parameters and the seed."""
    canonical = _canonical({"model": model, "prompt": prompt_text, "params": params.to_dict(),
                            "seed": seed})
    # surrogatepass: a prompt with a lone surrogate (from a JSON escape in an input file) still
    # gets a key instead of crashing the run; every other text encodes exactly as UTF-8.
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class _KeyMaker:
    """:func:`request_key` for many prompts of one model and parameter set.

    The canonical JSON has its keys sorted (model, params, prompt, seed), so the model and
    params part is a fixed prefix: it is serialised and hashed once, then each key only hashes
    the prompt and the seed. The result is identical to :func:`request_key` (a test checks it).
    """

    def __init__(self, model: dict[str, Any], params: GenerationParams) -> None:
        prefix = f'{{"model":{_canonical(model)},"params":{_canonical(params.to_dict())},"prompt":'
        self._prefix_hash = hashlib.sha256(prefix.encode("utf-8", "surrogatepass"))
        self._encode = _CANONICAL.encode

    def __call__(self, prompt_text: str, seed: int | None) -> str:
        digest = self._prefix_hash.copy()
        seed_text = "null" if seed is None else self._encode(seed)
        digest.update(f'{self._encode(prompt_text)},"seed":{seed_text}}}'.encode(
            "utf-8", "surrogatepass"))
        return digest.hexdigest()


@dataclass(frozen=True)
class Request:
    """One question for the model: a benchmark item's prompt, with the seed to sample under."""

    item_id: str
    """The benchmark item the answer belongs to."""
    prompt: Prompt
    """What to ask."""
    seed: int | None = None
    """Sampling seed sent to the model (part of the key), or None."""


def _key_text(backend: ModelBackend, request: Request) -> str:
    """The text a request's key hashes: the prompt sent, plus the item for backends whose
    answer depends on the item rather than on the prompt (replay)."""
    text = request.prompt.text_for(backend.mode)
    if backend.answers_by_item:
        text = f"{text}\x00item:{request.item_id}"
    return text


def request_keys(backend: ModelBackend, requests: Sequence[Request],
                 params: GenerationParams) -> list[str]:
    """The key of each request, in order, as :func:`run_requests` computes it.

    Requests with the same key share one stored response (whatever their ``item_id``), so
    later stages should find each request's answer by key, not by item id.
    """
    make_key = _KeyMaker(backend.describe(), params)
    return [make_key(_key_text(backend, r), r.seed) for r in requests]


def split_answered(keys: Sequence[str], requests: Sequence[Request],
                   done: set[str]) -> tuple[dict[str, Request], set[str]]:
    """(requests still to send, one per distinct key in order; keys already answered)."""
    pending: dict[str, Request] = {}
    cached: set[str] = set()
    for key, request in zip(keys, requests, strict=True):
        if key in done:
            cached.add(key)
        else:
            pending.setdefault(key, request)
    return pending, cached


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


class _Abort(Exception):
    """Raised inside a worker to stop the whole run with an EndpointError."""

    def __init__(self, error: EndpointError) -> None:
        super().__init__(str(error))
        self.error = error


class StoreWriteError(BiasbenchError):
    """The response store could not be written (disk full, read-only file, I/O error): the run
    stopped sending requests at once, and says how many answers it could not save."""


class _StoreFailed(Exception):
    """Raised inside a worker once the store cannot be written: stops that worker at once."""


# Errors that one row can cause (a value of a type SQLite cannot bind, a failed constraint), as
# opposed to the store failing (full disk, lock, I/O, corruption). A batch that fails with one
# of these is written row by row so that one bad row cannot discard the others.
_ROW_ERRORS = (sqlite3.IntegrityError, sqlite3.DataError, sqlite3.ProgrammingError,
               sqlite3.InterfaceError, TypeError, ValueError, OverflowError)
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_DEPTH = 32
_RAW_LIMIT = 4000


def _clean_text(text: str) -> tuple[str, int]:
    """``text`` with lone surrogates (which UTF-8 cannot encode, so SQLite cannot store)
    replaced by U+FFFD, and how many were replaced."""
    if _SURROGATE.search(text) is None:
        return text, 0
    return _SURROGATE.subn("\ufffd", text)


def _json_safe(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON data the store can always write: strings cleaned of lone
    surrogates, tuples as lists, keys as strings, anything else (objects, sets, bytes, too
    deep) as a short repr. Backends' extras never poison a batch."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _clean_text(value)[0]
    if isinstance(value, dict | list | tuple) and depth >= _MAX_DEPTH:
        return f"<{type(value).__name__} nested more than {_MAX_DEPTH} deep>"  # no repr: deep
    if isinstance(value, dict):
        return {_clean_text(str(k))[0]: _json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v, depth + 1) for v in value]
    try:
        shown = repr(value)
    except Exception as exc:  # a repr that raises is still not allowed to lose the answer
        shown = f"<{type(value).__name__}: repr failed: {type(exc).__name__}>"
    return _clean_text(_truncated(shown, 200))[0]


def _truncated(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _checked(generation: Generation) -> tuple[str, dict[str, Any]]:
    """An answer's text and info, checked before they reach the store (no backend can poison a
    batch): the output must be text (content parts are joined; anything else raises
    :class:`UnusableAnswerError`), the info plain JSON data."""
    if not isinstance(generation, Generation):  # a backend bug: say so, keep what came back
        raise UnusableAnswerError(
            f"the backend returned a {type(generation).__name__}, not a Generation",
            raw=_json_safe(generation))
    text: Any = generation.text
    raw_info = generation.info
    info: dict[str, Any] = raw_info if isinstance(raw_info, dict) else (
        {} if raw_info is None else {"info": raw_info})
    if not isinstance(text, str):
        text, notes = text_from_content(text)
        info = {**info, **notes}
    if "finish_reason" in info:  # one vocabulary whatever the backend (stop, length, ...)
        info = {**info, "finish_reason": normalise_finish_reason(info["finish_reason"])}
    text, replaced = _clean_text(text)
    info = _json_safe(info)
    if replaced:
        info["replaced_surrogates"] = replaced
    return text, info


def _raw_json(value: Any) -> str:
    """A bounded JSON rendering of content a server sent that could not be used."""
    try:
        text = json.dumps(_json_safe(value), ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return _truncated(text, _RAW_LIMIT)


class _Run:
    """The mutable state of one :func:`run_requests` call, shared by its workers."""

    def __init__(self, backend: ModelBackend, params: GenerationParams, store: ResponseStore,
                 retry: RetryPolicy, flush_every: int, workers: int) -> None:
        self.backend = backend
        self.params = params
        self.store = store
        self.retry = retry
        self.flush_every = max(1, flush_every)
        self.workers = workers
        self.model_json = _canonical(backend.describe())
        self.params_dict = params.to_dict()
        self.buffer: list[ResponseRecord] = []
        self.completed = 0
        self.failed = 0
        self.calls = 0
        self.empty = 0
        self.answered = False  # has the endpoint answered anything during this run?
        self.unreachable_streak = 0  # requests in a row that failed as unreachable
        self.logged_unexpected = False
        self.store_error: BaseException | None = None
        """The first failure to write the store; once set, no new request is sent."""
        self.stopping = False
        """Set on Ctrl-C/SIGTERM: no new request or retry starts; answers in flight are kept."""

    # -- writing -------------------------------------------------------------------------------

    def flush(self) -> bool:
        """Write the buffer; False (and ``store_error`` set) when the store cannot be written.

        Never raises: a store failure stops the run through ``store_error``, and the unwritten
        records stay in the buffer for one last attempt at the end."""
        if not self.buffer:
            return self.store_error is None
        records, self.buffer = self.buffer, []
        try:
            self._write(records)
        except Exception as exc:
            self.buffer = records + self.buffer
            if self.store_error is None:
                self.store_error = exc
            return False
        return True

    def _write(self, records: list[ResponseRecord]) -> None:
        try:
            self.store.put_many(records)
            return
        except _ROW_ERRORS:
            pass  # anything else is the store failing, and propagates
        for record in records:
            try:
                self.store.put_many([record])
            except _ROW_ERRORS as exc:
                self._write_unstorable(record, exc)

    def _write_unstorable(self, record: ResponseRecord, exc: BaseException) -> None:
        """Store ``record``, which the store refused, as a failed row naming why."""
        reason = _truncated(f"the answer could not be stored: {type(exc).__name__}: {exc}", 300)
        replacement = ResponseRecord(
            key=str(record.key), item_id=_clean_text(str(record.item_id))[0],
            model=self.model_json, seed=None, prompt_text=_clean_text(str(record.prompt_text))[0],
            params=self.params_dict, output=None, error=self.backend.redact(reason),
            status="failed", attempts=1, latency_s=0.0, started_at=time.time(),
            finished_at=time.time(), info={"error_type": "UnstorableAnswer",
                                           "raw_output": _raw_json(record.output)})
        if record.status == "ok":
            self.completed -= 1
            self.failed += 1
        # Made of well-typed values only: if the store refuses this too, the store is broken,
        # and the error propagates as a store failure.
        self.store.put_many([replacement])

    def _record(self, record: ResponseRecord) -> None:
        self.buffer.append(record)
        if len(self.buffer) >= self.flush_every and not self.flush():
            raise _StoreFailed

    def unsaved(self) -> int:
        return len(self.buffer)

    # -- requests ------------------------------------------------------------------------------

    async def worker(self, pending: Iterator[tuple[str, Request, str]]) -> None:
        # The iterator is shared by all workers; next() never yields to the event loop, so
        # each request is taken by exactly one worker.
        for key, request, prompt_text in pending:
            if self.store_error is not None:
                raise _StoreFailed  # never send a request whose answer cannot be saved
            if self.stopping:
                return
            await self.run_one(key, request, prompt_text)

    async def run_one(self, key: str, request: Request, prompt_text: str) -> None:
        backend, retry = self.backend, self.retry
        attempts = 0
        empty_tries = 0
        started_at = time.time()
        first_try = retry.clock()
        while True:
            attempts += 1
            self.calls += 1
            t0 = time.perf_counter()
            try:
                generation = await backend.generate(request.prompt, self.params, request.seed)
            except TransientModelError as exc:
                latency = time.perf_counter() - t0
                unreachable = exc if isinstance(exc, EndpointUnreachableError) else None
                if unreachable and not self.answered and attempts >= retry.unreachable_attempts:
                    raise _Abort(EndpointError(backend.redact(
                        f"model endpoint {unreachable.endpoint} is unreachable ({exc}); no request was "
                        f"answered. Check --base-url and that the server is running."))) from None
                if self.stopping:
                    return  # stopping: not retried now and not recorded; a rerun asks again
                if not retry.gives_up(attempts, retry.clock() - first_try):
                    await retry.sleep(retry.delay(attempts, exc.retry_after))
                    continue
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                if unreachable:
                    self.unreachable_streak += 1
                    if self.unreachable_streak >= max(self.workers, 2):
                        raise _Abort(EndpointError(backend.redact(
                            f"model endpoint {unreachable.endpoint} stopped answering ({exc}); "
                            f"finished responses are saved, rerun to continue"))) from None
                return
            except PermanentModelError as exc:
                latency = time.perf_counter() - t0
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                return
            except Exception as exc:  # a backend bug: record it rather than lose the request
                latency = time.perf_counter() - t0
                if not self.logged_unexpected:
                    self.logged_unexpected = True
                    log.warning("unexpected error from %s backend: %s", backend.kind,
                                backend.redact("".join(traceback.format_exception(exc))))
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                return
            finished_at = time.time()
            self.answered = True
            self.unreachable_streak = 0
            latency = time.perf_counter() - t0
            try:
                text, info = _checked(generation)
            except UnusableAnswerError as exc:
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                return
            if is_empty_text(text):
                if empty_tries < retry.empty_retries:
                    empty_tries += 1  # a filter or a spent reasoning budget may not recur
                    continue
                info["empty"] = True
                info["empty_retries"] = empty_tries
                self.empty += 1
            sent = generation.prompt_text
            self.completed += 1
            self._record(ResponseRecord(
                key=key, item_id=_clean_text(request.item_id)[0], model=self.model_json,
                seed=request.seed,
                prompt_text=_clean_text(sent if isinstance(sent, str) else prompt_text)[0],
                params=self.params_dict, output=text, error=None, status="ok",
                attempts=attempts, latency_s=latency, started_at=started_at,
                finished_at=finished_at, info=info))
            return

    def _failed(self, key: str, request: Request, prompt_text: str, exc: BaseException,
                attempts: int, latency: float, started_at: float) -> None:
        self.failed += 1
        message = " ".join((str(exc) or type(exc).__name__).split())  # one line
        info: dict[str, Any] = {"error_type": type(exc).__name__}
        if isinstance(exc, UnusableAnswerError):
            info["raw_content"] = self.backend.redact(_raw_json(exc.raw))  # paid: keep it
        self._record(ResponseRecord(
            key=key, item_id=_clean_text(request.item_id)[0], model=self.model_json,
            seed=request.seed,
            prompt_text=_clean_text(prompt_text)[0], params=self.params_dict, output=None,
            error=self.backend.redact(_clean_text(_truncated(message, 2000))[0]),
            status="failed", attempts=attempts, latency_s=latency, started_at=started_at,
            finished_at=time.time(), info=info))


STOP_GRACE_S = 1.5
"""How long requests in flight at Ctrl-C or SIGTERM may still finish (and be stored) before the
run stops; a second Ctrl-C stops at once."""


async def run_requests(backend: ModelBackend, requests: Sequence[Request],
                       params: GenerationParams, store: ResponseStore, *, concurrency: int = 8,
                       retry: RetryPolicy | None = None, progress: bool = True,
                       flush_every: int = 256, flush_interval_s: float = 0.25) -> RunStats:
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
    pending = {key: (key, request, request.prompt.text_for(mode))
               for key, request in to_send.items()}
    total = len(pending) + len(cached)

    limit = (backend.max_concurrency if backend.owns_concurrency and backend.max_concurrency
             else min(concurrency, backend.max_concurrency or concurrency))
    workers = min(limit, max(len(pending), 1))
    backend.set_concurrency(workers)
    run = _Run(backend, params, store, retry, flush_every, workers)
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
                if isinstance(error, _Abort):
                    endpoint_error = error.error
                elif error is not None and not isinstance(error, _StoreFailed):
                    raise error
    except asyncio.CancelledError:  # Ctrl-C or SIGTERM (asyncio's runner cancels the run)
        interrupted = True
        raise
    finally:
        if interrupted and tasks:
            # Answers the server has already sent (or is sending) are paid for: let the
            # requests in flight finish for a moment, starting nothing new, and store them.
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
            await asyncio.gather(*tasks, *([ticker] if ticker else []),
                                 *([workers_done] if workers_done else []),
                                 return_exceptions=True)
            run.flush()
        if bar is not None:
            if run.failed:
                bar.set_postfix(failed=run.failed, refresh=False)
            bar.update(run.completed + run.failed - (bar.n - len(cached)))
            bar.close()
    if run.store_error is not None:
        exc = run.store_error
        detail = " ".join((str(exc) or type(exc).__name__).split())
        raise StoreWriteError(
            f"cannot write the response store {getattr(store, 'path', '')}: {detail}; stopped "
            f"sending requests, {run.unsaved()} answers could not be saved (everything else "
            f"is stored); free the space or fix the file, then rerun to continue") from None
    if endpoint_error is not None:
        raise endpoint_error from None

    stats = RunStats(total=total, cached=len(cached), completed=run.completed, failed=run.failed,
                     elapsed_s=time.perf_counter() - started, calls=run.calls, empty=run.empty)
    if stats.failed:
        log.warning("%d of %d requests failed (stored as failed; rerun to retry them)",
                    stats.failed, stats.total)
    if stats.empty:
        log.warning("%d of %d answers are empty (kept, marked empty in the store)",
                    stats.empty, stats.completed)
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


def run_requests_sync(backend: ModelBackend, requests: Sequence[Request],
                      params: GenerationParams, store: ResponseStore, **options: Any) -> RunStats:
    """:func:`run_requests` on a fresh event loop; closes the backend's connections after."""

    async def main() -> RunStats:
        try:
            return await run_requests(backend, requests, params, store, **options)
        finally:
            await backend.aclose()

    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        return runner.run(main())
