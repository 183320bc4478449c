"""A short outage does not fail requests: the default retry schedule covers a server gone for
30 s and more (budgeted by elapsed time, not only by tries), run here in virtual time; a server
that never answered still fails fast; one that stays away is given up after a bounded number
of calls."""

from __future__ import annotations

import asyncio
import random
import socket
import time
from pathlib import Path

import pytest

from biasbench.errors import EndpointError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    Prompt,
    TransientModelError,
)
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.runner.retry import EndpointUnreachableError, RetryPolicy
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule, hashed_reply

PARAMS = GenerationParams(max_tokens=16)
URL = "http://127.0.0.1:9/v1"


def ask(text: str) -> Request:
    return Request(item_id=text, prompt=Prompt((("user", text),), text))


class VirtualTime:
    """A clock and a sleep for RetryPolicy: waiting advances the clock instantly."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


class OutageBackend(ModelBackend):
    """Takes 0.1 virtual seconds per call; fails with ``error`` while the virtual clock is in
    ``[down_at, down_at + down_for)``."""

    kind = "outage"

    def __init__(
        self, clock: VirtualTime, down_at: float, down_for: float, error: Exception
    ) -> None:
        self.clock, self.down_at, self.down_for, self.error = clock, down_at, down_for, error
        self.calls = 0

    @property
    def model_id(self) -> str:
        return "outage"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        self.calls += 1
        self.clock.now += 0.1
        await asyncio.sleep(0)
        if self.down_at <= self.clock.now < self.down_at + self.down_for:
            raise self.error
        return Generation(text="answer", prompt_text=prompt.text_for(self.mode))


ERRORS = {
    "refused": EndpointUnreachableError(f"cannot reach {URL}: refused", URL),
    "503": TransientModelError(f"HTTP 503 from {URL}: restarting", retry_after=None),
    "503 Retry-After 1": TransientModelError(f"HTTP 503 from {URL}: restarting", retry_after=1.0),
    "dropped": TransientModelError(f"connection to {URL} failed: Server disconnected"),
}


@pytest.mark.parametrize("down_for", [3.0, 30.0, 44.0])
@pytest.mark.parametrize("error", list(ERRORS))
@pytest.mark.parametrize("seed", range(5))
def test_default_schedule_rides_out_an_outage(
    tmp_path: Path, down_for: float, error: str, seed: int
) -> None:
    clock = VirtualTime()
    backend = OutageBackend(clock, down_at=1.0, down_for=down_for, error=ERRORS[error])
    policy = RetryPolicy(rng=random.Random(seed), clock=clock.clock, sleep=clock.sleep)
    requests = [ask(f"q{i}") for i in range(60)]
    with ResponseStore(tmp_path / "r.sqlite") as store:
        stats = run_requests_sync(
            backend, requests, PARAMS, store, concurrency=4, progress=False, retry=policy
        )
        assert store.counts() == {"ok": 60, "failed": 0}
    assert (stats.completed, stats.failed) == (60, 0)
    assert clock.now > 1.0 + down_for  # the outage really happened in the middle of the run


@pytest.mark.parametrize("seed", range(300))
def test_schedule_covers_the_window_with_a_bounded_number_of_calls(seed: int) -> None:
    # Fail every try: the last one is at least retry_window_s (45 s, so 30 s outages are
    # covered) after the first, and the tries stay few even though the window, not the count,
    # decides.
    policy = RetryPolicy(rng=random.Random(seed))
    elapsed, attempt = 0.0, 1
    while not policy.gives_up(attempt, elapsed):
        elapsed += policy.delay(attempt)
        attempt += 1
    assert elapsed >= 45.0 >= 30.0
    assert attempt <= 12
    assert elapsed <= 45.0 + 30.0  # never more than one capped backoff past the window


def test_server_that_stays_away_is_given_up_after_the_window(tmp_path: Path) -> None:
    clock = VirtualTime()
    backend = OutageBackend(clock, down_at=1.0, down_for=1e9, error=ERRORS["503"])
    policy = RetryPolicy(rng=random.Random(0), clock=clock.clock, sleep=clock.sleep)
    requests = [ask(f"q{i}") for i in range(12)]
    with ResponseStore(tmp_path / "r.sqlite") as store:
        stats = run_requests_sync(
            backend, requests, PARAMS, store, concurrency=1, progress=False, retry=policy
        )
        failed = list(store.iter_records("failed"))
    assert stats.failed == len(failed) > 0
    assert all(6 <= r.attempts <= 12 for r in failed)
    assert all("HTTP 503" in (r.error or "") for r in failed)


def test_never_reachable_endpoint_still_fails_fast_with_the_default_policy(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    started = time.perf_counter()
    with ResponseStore(tmp_path / "r.sqlite") as store, pytest.raises(EndpointError) as caught:
        run_requests_sync(
            OpenAIBackend("m", url),
            [ask(f"q{i}") for i in range(20)],
            PARAMS,
            store,
            concurrency=4,
            progress=False,
            retry=RetryPolicy(rng=random.Random(0)),
        )
    assert time.perf_counter() - started < 5.0  # not the 45 s window
    assert "unreachable" in str(caught.value) and url in str(caught.value)


def test_real_server_down_and_back_fails_no_request(tmp_path: Path) -> None:
    # The server stops listening for 0.3 s (refusing connections, dropping requests on open
    # ones) when q5 arrives; a policy with a 1 s window rides it out, as 45 s rides out 30 s.
    config = MockConfig(outage_s=0.3, rules=[ReplyRule(contains="q5", fail=("down",))])
    policy = RetryPolicy(
        base_delay_s=0.02, max_delay_s=0.1, retry_window_s=1.0, rng=random.Random(0)
    )
    requests = [ask(f"q{i}") for i in range(30)]
    with MockServerThread(config) as mock, ResponseStore(tmp_path / "r.sqlite") as store:
        stats = run_requests_sync(
            OpenAIBackend("m", mock.base_url),
            requests,
            PARAMS,
            store,
            concurrency=4,
            progress=False,
            retry=policy,
        )
        assert mock.stats()["by_status"]["down"] >= 1
        outputs = {r.item_id: r.output for r in store.iter_records()}
    assert (stats.completed, stats.failed) == (30, 0)
    assert outputs == {f"q{i}": hashed_reply(f"<user>q{i}", None) for i in range(30)}
