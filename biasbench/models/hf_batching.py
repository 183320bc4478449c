"""The hf backend's micro-batcher: requests made concurrently on one event loop, gathered into
batches that run in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


class MicroBatcher:
    """Gathers requests made concurrently on one event loop into batches.

    ``submit(key, payload)`` queues a payload; requests with equal keys may share a batch.
    A drain task waits until ``expected`` requests are queued or the queue stops growing for a
    few event-loop turns (the runner's workers are all waiting, or there is no more work), then
    runs batches of up to ``size`` in a worker thread through ``run(key, payloads)``, which
    returns one result or exception per payload. If a whole batch raises, its requests are
    retried one by one, so one bad request fails alone.
    """

    _IDLE_TURNS = 3
    """Event-loop turns without a new request after which a partial batch runs."""

    def __init__(self, size: int, run: Callable[[tuple[Any, ...], list[Any]], list[Any]]) -> None:
        self.size = size
        self.expected = size
        self._run = run
        self._queue: dict[tuple[Any, ...], list[tuple[Any, asyncio.Future[Any]]]] = {}
        self._drainer: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def submit(self, key: tuple[Any, ...], payload: Any) -> Any:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a later run on another event loop starts afresh
            self._loop, self._queue, self._drainer = loop, {}, None
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.setdefault(key, []).append((payload, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        return await future

    def _queued(self) -> int:
        return sum(len(jobs) for jobs in self._queue.values())

    async def _drain(self) -> None:
        while self._queue:
            idle, seen = 0, self._queued()
            while seen < min(self.expected, self.size) and idle < self._IDLE_TURNS:
                await asyncio.sleep(0)
                now = self._queued()
                idle, seen = (0, now) if now > seen else (idle + 1, seen)
            key = max(self._queue, key=lambda k: len(self._queue[k]))  # the fullest batch first
            jobs = self._queue[key][: self.size]
            rest = self._queue[key][self.size :]
            if rest:
                self._queue[key] = rest
            else:
                del self._queue[key]
            jobs = [(payload, future) for payload, future in jobs if not future.cancelled()]
            if jobs:
                await self._run_jobs(key, jobs)

    async def _run_jobs(
        self, key: tuple[Any, ...], jobs: list[tuple[Any, asyncio.Future[Any]]]
    ) -> None:
        payloads = [payload for payload, _ in jobs]
        try:
            results = await asyncio.to_thread(self._run, key, payloads)
        except Exception as exc:  # the batch as a whole failed: find the request that did
            if len(jobs) == 1:
                results = [exc]
            else:
                results = []
                for payload in payloads:
                    try:
                        results.extend(await asyncio.to_thread(self._run, key, [payload]))
                    except Exception as single:
                        results.append(single)
        except BaseException as exc:  # cancelled: every waiting request learns it
            for _, future in jobs:
                if not future.done():
                    future.cancel()
            raise exc
        for (_, future), result in zip(jobs, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)
