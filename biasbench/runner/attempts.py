"""One run's workers: each request tried, retried or given up on (transient, permanent,
unusable, unreachable, empty), and every outcome buffered and written to the store."""

from __future__ import annotations

import logging
import sqlite3
import time
import traceback
from collections.abc import Iterator
from typing import Any

from biasbench.errors import BiasbenchError, EndpointError
from biasbench.models.base import (
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    TransientModelError,
    UnusableAnswerError,
    is_empty_text,
)
from biasbench.runner.answers import checked, clean_text, raw_json, truncated
from biasbench.runner.keys import Request, canonical_json
from biasbench.runner.retry import EndpointUnreachableError, RetryPolicy
from biasbench.runner.store import ResponseRecord, ResponseStore, is_disk_full

log = logging.getLogger("biasbench.runner")  # the runner's one logger, whichever module logs


class Abort(Exception):
    """Raised inside a worker to stop the whole run with an EndpointError."""

    def __init__(self, error: EndpointError) -> None:
        super().__init__(str(error))
        self.error = error


class StoreWriteError(BiasbenchError):
    """The response store could not be written (disk full, read-only file, I/O error): the run
    stopped sending requests at once, and says how many answers it could not save."""


class StoreFailed(Exception):
    """Raised inside a worker once the store cannot be written: stops that worker at once."""


# Errors that one row can cause (a value of a type SQLite cannot bind, a failed constraint), as
# opposed to the store failing (full disk, lock, I/O, corruption). A batch that fails with one
# of these is written row by row so that one bad row cannot discard the others.
_ROW_ERRORS = (
    sqlite3.IntegrityError,
    sqlite3.DataError,
    sqlite3.ProgrammingError,
    sqlite3.InterfaceError,
    TypeError,
    ValueError,
    OverflowError,
)


class RunState:
    """The mutable state of one :func:`run_requests` call, shared by its workers."""

    def __init__(
        self,
        backend: ModelBackend,
        params: GenerationParams,
        store: ResponseStore,
        retry: RetryPolicy,
        flush_every: int,
        workers: int,
    ) -> None:
        self.backend = backend
        self.params = params
        self.store = store
        self.retry = retry
        self.flush_every = max(1, flush_every)
        self.workers = workers
        self.model_json = canonical_json(backend.describe())
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
        self.disk_full = False
        """The store failed because the disk is full."""
        self.saved_from_reserve = 0
        """Answers stored after the disk filled, in the space the run held in reserve."""
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
            release = getattr(self.store, "release_reserve", None)
            if is_disk_full(exc) and release is not None and release():
                # The disk is full: the space held in reserve stores what was received, and
                # the run stops sending (store_error) as for any store failure.
                self.store_error = self.store_error or exc
                self.disk_full = True
                try:
                    self._write(records)
                    self.saved_from_reserve += len(records)
                    return False
                except Exception:
                    pass
            self.buffer = records + self.buffer
            if self.store_error is None:
                self.store_error = exc
            if is_disk_full(exc):
                self.disk_full = True
            return False
        if self.disk_full:
            self.saved_from_reserve += len(records)
        return self.store_error is None

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
        reason = truncated(f"the answer could not be stored: {type(exc).__name__}: {exc}", 300)
        replacement = ResponseRecord(
            key=str(record.key),
            item_id=clean_text(str(record.item_id))[0],
            model=self.model_json,
            seed=None,
            prompt_text=clean_text(str(record.prompt_text))[0],
            params=self.params_dict,
            output=None,
            error=self.backend.redact(reason),
            status="failed",
            attempts=1,
            latency_s=0.0,
            started_at=time.time(),
            finished_at=time.time(),
            info={
                "error_type": "UnstorableAnswer",
                "raw_output": raw_json(record.output, self.backend.redact),
            },
        )
        if record.status == "ok":
            self.completed -= 1
            self.failed += 1
        # Made of well-typed values only: if the store refuses this too, the store is broken,
        # and the error propagates as a store failure.
        self.store.put_many([replacement])

    def _record(self, record: ResponseRecord) -> None:
        self.buffer.append(record)
        if len(self.buffer) >= self.flush_every and not self.flush():
            raise StoreFailed

    def unsaved(self) -> int:
        return len(self.buffer)

    # -- requests ------------------------------------------------------------------------------

    async def worker(self, pending: Iterator[tuple[str, Request, str]]) -> None:
        # The iterator is shared by all workers; next() never yields to the event loop, so
        # each request is taken by exactly one worker.
        for key, request, prompt_text in pending:
            if self.store_error is not None:
                raise StoreFailed  # never send a request whose answer cannot be saved
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
                    raise Abort(
                        EndpointError(
                            backend.redact(
                                f"model endpoint {unreachable.endpoint} is unreachable ({exc}); no request was "
                                f"answered. Check --base-url and that the server is running."
                            )
                        )
                    ) from None
                if self.stopping:
                    return  # stopping: not retried now and not recorded; a rerun asks again
                if not retry.gives_up(attempts, retry.clock() - first_try):
                    await retry.sleep(retry.delay(attempts, exc.retry_after))
                    continue
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                if unreachable:
                    self.unreachable_streak += 1
                    if self.unreachable_streak >= max(self.workers, 2):
                        raise Abort(
                            EndpointError(
                                backend.redact(
                                    f"model endpoint {unreachable.endpoint} stopped answering ({exc}); "
                                    f"finished responses are saved, rerun to continue"
                                )
                            )
                        ) from None
                return
            except PermanentModelError as exc:
                latency = time.perf_counter() - t0
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                return
            except Exception as exc:  # a backend bug: record it rather than lose the request
                latency = time.perf_counter() - t0
                if not self.logged_unexpected:
                    self.logged_unexpected = True
                    log.warning(
                        "unexpected error from %s backend: %s",
                        backend.kind,
                        backend.redact("".join(traceback.format_exception(exc))),
                    )
                self._failed(key, request, prompt_text, exc, attempts, latency, started_at)
                return
            finished_at = time.time()
            self.answered = True
            self.unreachable_streak = 0
            latency = time.perf_counter() - t0
            try:
                text, info = checked(generation)
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
            self._record(
                ResponseRecord(
                    key=key,
                    item_id=clean_text(request.item_id)[0],
                    model=self.model_json,
                    seed=request.seed,
                    prompt_text=clean_text(sent if isinstance(sent, str) else prompt_text)[0],
                    params=self.params_dict,
                    output=text,
                    error=None,
                    status="ok",
                    attempts=attempts,
                    latency_s=latency,
                    started_at=started_at,
                    finished_at=finished_at,
                    info=info,
                )
            )
            return

    def _failed(
        self,
        key: str,
        request: Request,
        prompt_text: str,
        exc: BaseException,
        attempts: int,
        latency: float,
        started_at: float,
    ) -> None:
        self.failed += 1
        message = " ".join((str(exc) or type(exc).__name__).split())  # one line
        info: dict[str, Any] = {"error_type": type(exc).__name__}
        if isinstance(exc, UnusableAnswerError):
            info["raw_content"] = raw_json(exc.raw, self.backend.redact)  # paid: keep it
        self._record(
            ResponseRecord(
                key=key,
                item_id=clean_text(request.item_id)[0],
                model=self.model_json,
                seed=request.seed,
                prompt_text=clean_text(prompt_text)[0],
                params=self.params_dict,
                output=None,
                error=self.backend.redact(clean_text(truncated(message, 2000))[0]),
                status="failed",
                attempts=attempts,
                latency_s=latency,
                started_at=started_at,
                finished_at=time.time(),
                info=info,
            )
        )
