"""When and how long to wait before trying a failed model request again.

Exponential backoff with *full jitter* (the delay is drawn uniformly from zero up to the
exponential ceiling), so that many workers hitting the same rate limit spread out instead of
retrying in lock-step. A server's ``Retry-After`` wins over the drawn delay, capped so one
misbehaving header cannot stall a run for hours.

A request is given up only when both budgets are spent: ``max_attempts`` tries *and*
``retry_window_s`` seconds since its first try. Counting tries alone let a short outage fail
requests (six tries with full jitter can all fall within three seconds); the window makes any
outage shorter than it (45 s by default: a server restart, a deploy, a network blip) cost
retries, never answers. Retries granted by the window alone wait at least half the backoff
ceiling, so a server that keeps failing costs a handful of extra calls, not a tight loop.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from biasbench.models.base import EndpointUnreachableError

__all__ = ["EndpointUnreachableError", "RetryPolicy"]


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to try a request and how long to wait between tries."""

    max_attempts: int = 6
    """Tries per request, the first one included, before a request that keeps failing may be
    given up (once ``retry_window_s`` has passed too) and recorded as failed."""
    retry_window_s: float = 45.0
    """Seconds after a request's first try during which transient failures are always retried,
    whatever the number of tries: an outage shorter than this fails no request. 0 gives up
    after ``max_attempts`` tries alone."""
    base_delay_s: float = 0.5
    """Ceiling of the first backoff; it doubles with every further retry."""
    max_delay_s: float = 30.0
    """Upper bound of the exponential ceiling."""
    max_retry_after_s: float = 60.0
    """Upper bound on a server's Retry-After."""
    unreachable_attempts: int = 3
    """Tries of a request that cannot reach the endpoint before a run that has had no answer yet
    gives up with an EndpointError (short, so an unreachable endpoint fails fast)."""
    empty_retries: int = 1
    """How many more times an empty answer (no text, or whitespace only: a spent reasoning
    budget, a content filter) is asked again before it is kept as an ``ok`` answer marked
    ``info["empty"]`` and counted in ``RunStats.empty``. 0 keeps the first empty answer."""
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)
    """Source of the jitter; pass a seeded one for reproducible delays in tests."""
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)
    """Seconds on a monotonic clock, to measure the retry window (injectable for tests)."""
    sleep: Callable[[float], Awaitable[None]] = field(
        default=asyncio.sleep, compare=False, repr=False
    )
    """How the runner waits between tries (injectable, so tests run outages in virtual time)."""

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.empty_retries < 0:
            raise ValueError("empty_retries must not be negative")
        if self.unreachable_attempts < 1:
            raise ValueError("unreachable_attempts must be at least 1")
        if (
            min(self.base_delay_s, self.max_delay_s, self.max_retry_after_s, self.retry_window_s)
            < 0
        ):
            raise ValueError("delays must not be negative")

    def ceiling(self, attempt: int) -> float:
        """The largest backoff after failed try number ``attempt`` (1-based)."""
        # min() before the power would overflow for absurd attempt counts
        exponent = min(attempt - 1, 62)
        return min(self.max_delay_s, self.base_delay_s * (2.0**exponent))

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed try number ``attempt`` (1-based).

        A server's ``retry_after`` is honoured (capped at ``max_retry_after_s``); otherwise the
        delay is drawn uniformly from ``[0, ceiling(attempt)]``. Once ``max_attempts`` tries
        are spent (retries the window grants), the wait is at least ``ceiling(attempt) / 2``.
        """
        if retry_after is not None and retry_after >= 0:
            wait = min(retry_after, self.max_retry_after_s)
        else:
            wait = self.rng.uniform(0.0, self.ceiling(attempt))
        if attempt >= self.max_attempts:
            wait = max(wait, self.ceiling(attempt) / 2)
        return wait

    def gives_up(self, attempts: int, elapsed_s: float) -> bool:
        """Whether a request that failed transiently on try number ``attempts``, ``elapsed_s``
        seconds after its first try, is recorded as failed rather than tried again."""
        return attempts >= self.max_attempts and elapsed_s >= self.retry_window_s
