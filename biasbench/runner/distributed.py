"""Scale out on Ray: shard a run's requests over workers that each hold a model replica or client.

The driver keeps the run's SQLite store: it computes every request's key, skips what is already
answered, sends the rest to Ray actors in chunks, and writes each chunk's records to the store as
it comes back. A killed driver loses only the chunks in flight; rerunning resumes as a local run
does. Each actor builds its own backend from the model spec (a llama.cpp or transformers replica
on its node, or an HTTP client to a shared endpoint) and runs its chunk with the local runner, so
retries, backoff and bounded concurrency behave exactly as on one machine.

Ray is an optional dependency (``pip install 'biasbench[ray]'``), imported only here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from biasbench.errors import BiasbenchError, EndpointError
from biasbench.models.base import GenerationParams, ModelBackend
from biasbench.models.registry import ModelOptions, load_model
from biasbench.progress import progress_bar
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.runner import (
    Request,
    RunStats,
    StoreWriteError,
    request_keys,
    run_requests_sync,
    split_answered,
)
from biasbench.runner.store import ResponseRecord, ResponseStore


class RecordBuffer:
    """A store stand-in inside a worker: keeps a chunk's records to send back to the driver."""

    def __init__(self) -> None:
        self.records: list[ResponseRecord] = []

    def completed_keys(self) -> set[str]:
        return set()  # the driver sends only unanswered requests

    def put_many(self, records: Sequence[ResponseRecord]) -> None:
        self.records.extend(records)


class ModelWorker:
    """One Ray actor: a model replica (or client) that answers chunks of requests."""

    def __init__(self, model: str, options: ModelOptions) -> None:
        self.backend = load_model(model, options)

    def describe(self) -> dict[str, Any]:
        return self.backend.describe()

    def run_chunk(
        self,
        requests: list[Request],
        params: GenerationParams,
        concurrency: int,
        retry: RetryPolicy | None,
    ) -> tuple[list[ResponseRecord], int, str | None]:
        """(records, model calls, the error that stopped the chunk or None). Errors come back as
        values so the driver still stores what this chunk finished."""
        buffer = RecordBuffer()
        error = None
        try:
            calls = run_requests_sync(
                self.backend,
                requests,
                params,
                buffer,  # type: ignore[arg-type]
                concurrency=concurrency,
                retry=retry,
                progress=False,
            ).calls
        except BiasbenchError as exc:
            error, calls = str(exc), len(buffer.records)
        worker = f"{os.uname().nodename}:{os.getpid()}"
        records = [replace(r, info={**r.info, "worker": worker}) for r in buffer.records]
        return records, calls, error


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BiasbenchError("Ray is not installed: pip install 'biasbench[ray]'") from None
    return ray


def run_requests_ray(
    model: str,
    options: ModelOptions,
    backend: ModelBackend,
    requests: Sequence[Request],
    params: GenerationParams,
    store: ResponseStore,
    *,
    address: str | None = None,
    workers: int = 2,
    chunk_size: int = 64,
    concurrency: int = 8,
    retry: RetryPolicy | None = None,
    progress: bool = True,
    worker_cpus: float = 1.0,
) -> RunStats:
    """Run ``requests`` on ``workers`` Ray actors built from ``model``; store results as they come.

    ``backend`` is the driver's own instance of the same model: its description keys the
    requests, and every actor must describe its replica identically (else the stored answers
    would not be found), which is checked before any request is sent. ``address`` is a Ray
    cluster address (``auto``, ``ray://host:10001``); None starts a local Ray instance. Each
    actor holds ``worker_cpus`` CPUs (a llama.cpp replica uses as many threads) and keeps
    ``concurrency`` requests in flight. API keys are read from each worker's own environment.
    """
    ray = _ray()
    started = time.perf_counter()
    keys = request_keys(backend, requests, params)
    pending, cached = split_answered(keys, requests, store.completed_keys())
    total = len(pending) + len(cached)
    todo = list(pending.values())
    chunks = [todo[i : i + chunk_size] for i in range(0, len(todo), chunk_size)]
    completed = failed = calls = empty = 0
    errors: list[str] = []
    bar = progress_bar(total, len(cached), progress)
    if chunks:
        if not ray.is_initialized():
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        if options.threads is None:
            options = replace(options, threads=max(1, int(worker_cpus)))
        actor_class = ray.remote(num_cpus=worker_cpus)(ModelWorker)
        actors = [actor_class.remote(model, options) for _ in range(min(workers, len(chunks)))]
        try:
            expected = backend.describe()
            for described in ray.get([a.describe.remote() for a in actors]):
                if described != expected:
                    raise BiasbenchError(
                        f"a Ray worker's model differs from the driver's: {described} vs {expected}"
                    )
            idle = list(actors)
            in_flight: dict[Any, Any] = {}
            in_flight_chunks: dict[Any, list[Request]] = {}
            while in_flight or (chunks and not errors):
                while idle and chunks and not errors:
                    actor = idle.pop()
                    chunk = chunks.pop(0)
                    ref = actor.run_chunk.remote(chunk, params, concurrency, retry)
                    in_flight[ref] = actor
                    in_flight_chunks[ref] = chunk
                ready, _ = ray.wait(list(in_flight), num_returns=1)
                actor = in_flight.pop(ready[0])
                in_flight_chunks.pop(ready[0], None)
                records, chunk_calls, error = ray.get(ready[0])
                try:
                    store.put_many(records)  # each chunk is saved the moment it returns
                except Exception as exc:  # full disk, I/O: stop at once, in one line
                    detail = " ".join((str(exc) or type(exc).__name__).split())
                    lost = len(records) + sum(len(c) for c in in_flight_chunks.values())
                    raise StoreWriteError(
                        f"cannot write the response store {store.path}: {detail}; stopped "
                        f"sending requests, up to {lost} answers could not be saved "
                        f"(everything else is stored); free the space or fix the file, then "
                        f"rerun to continue"
                    ) from None
                idle.append(actor)
                calls += chunk_calls
                ok = sum(r.status == "ok" for r in records)
                completed += ok
                empty += sum(r.status == "ok" and bool(r.info.get("empty")) for r in records)
                failed += len(records) - ok
                if error:
                    errors.append(error)  # stop sending; let the chunks in flight finish
                if bar is not None:
                    bar.update(len(records))
        finally:
            for actor in actors:
                ray.kill(actor)
            if bar is not None:
                bar.close()
    if errors:
        raise EndpointError(errors[0])
    return RunStats(
        total=total,
        cached=len(cached),
        completed=completed,
        failed=failed,
        elapsed_s=time.perf_counter() - started,
        calls=calls,
        empty=empty,
    )
