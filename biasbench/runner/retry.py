"""When and how long to wait before trying a failed model request again.

Exponential backoff with *full jitter* (the delay is drawn uniformly from zero up to the
exponential ceiling), so that many workers hitting the same rate limit spread out instead of
retrying in lock-step. A server's ``Retry-After`` wins over the drawn delay, capped so one
misbehaving header cannot stall a run for hours.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from biasbench.models.base import EndpointUnreachableError

__all__ = ["EndpointUnreachableError", "RetryPolicy"]


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to try a request and how long to wait between tries."""

    max_attempts: int = 6
    """Total tries per request, the first one included; then the request is recorded as failed."""
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

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.empty_retries < 0:
            raise ValueError("empty_retries must not be negative")
        if self.unreachable_attempts < 1:
            raise ValueError("unreachable_attempts must be at least 1")
        if min(self.base_delay_s, self.max_delay_s, self.max_retry_after_s) < 0:
            raise ValueError("delays must not be negative")

    def ceiling(self, attempt: int) -> float:
        """The largest backoff after failed try number ``attempt`` (1-based)."""
        # min() before the power would overflow for absurd attempt counts
        exponent = min(attempt - 1, 62)
        return min(self.max_delay_s, self.base_delay_s * (2.0**exponent))

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed try number ``attempt`` (1-based).

        A server's ``retry_after`` is honoured (capped at ``max_retry_after_s``); otherwise the
        delay is drawn uniformly from ``[0, ceiling(attempt)]``.
        """
        if retry_after is not None and retry_after >= 0:
            return min(retry_after, self.max_retry_after_s)
        return self.rng.uniform(0.0, self.ceiling(attempt))
