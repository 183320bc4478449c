"""The runner against a real HTTP mock server on loopback: caching, dedupe, retries, failures,
unreachable endpoints, the concurrency bound, cancellation and progress."""

from __future__ import annotations

import asyncio
import hashlib
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from biasbench.errors import EndpointError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
)
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.runner.keys import _KeyMaker
from biasbench.runner.retry import EndpointUnreachableError, RetryPolicy
from biasbench.runner.runner import (
    Request,
    RunStats,
    request_key,
    request_keys,
    run_requests,
    run_requests_sync,
)
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import (
    MockConfig,
    MockOpenAIServer,
    MockServerThread,
    ReplyRule,
    hashed_reply,
)

PARAMS = GenerationParams(temperature=0.0, max_tokens=16)
MODEL = {"kind": "openai", "model": "m", "mode": "chat"}


def fast_retry(max_attempts: int = 4) -> RetryPolicy:
    return RetryPolicy(
        max_attempts=max_attempts,
        base_delay_s=0.001,
        max_delay_s=0.005,
        retry_window_s=0.0,
        rng=random.Random(0),
    )


def ask(text: str, item_id: str | None = None, seed: int | None = None) -> Request:
    return Request(item_id=item_id or text, prompt=Prompt(((("user", text)),), text), seed=seed)


def free_port() -> int:
    """A loopback port with nothing listening on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def store(tmp_path: Path):
    with ResponseStore(tmp_path / "responses.sqlite") as opened:
        yield opened


def run(
    mock: MockServerThread, store: ResponseStore, requests: list[Request], **options: object
) -> RunStats:
    backend = OpenAIBackend("m", mock.base_url)
    options.setdefault("retry", fast_retry())
    options.setdefault("progress", False)
    return run_requests_sync(backend, requests, PARAMS, store, **options)


# -- keys ----------------------------------------------------------------------------------------


def test_request_key_is_sha256_of_canonical_json() -> None:
    canonical = (
        '{"model":{"kind":"openai","mode":"chat","model":"m"},'
        '"params":{"max_tokens":16,"min_p":0.0,"repetition_penalty":1.0,"stop":[],'
        '"temperature":0.0,"top_k":0,"top_p":1.0},'
        '"prompt":"শিক্ষক","seed":3}'
    )
    expected = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert request_key(MODEL, "শিক্ষক", PARAMS, 3) == expected


@pytest.mark.parametrize(
    "changed",
    [
        {"model": {**MODEL, "model": "other"}},
        {"model": {**MODEL, "mode": "completion"}},
        {"prompt": "<user>hello "},
        {"params": GenerationParams(temperature=0.7, max_tokens=16)},
        {"params": GenerationParams(temperature=0.0, max_tokens=16, stop=("\n",))},
        # every part of the sampler (one temperature, one sampler)
        {"params": GenerationParams(temperature=0.0, max_tokens=16, top_p=0.95)},
        {"params": GenerationParams(temperature=0.0, max_tokens=16, top_k=40)},
        {"params": GenerationParams(temperature=0.0, max_tokens=16, min_p=0.05)},
        {"params": GenerationParams(temperature=0.0, max_tokens=16, repetition_penalty=1.1)},
        {"seed": 2},
        {"seed": None},
    ],
)
def test_everything_that_changes_the_answer_changes_the_key(changed: dict) -> None:
    base = {"model": MODEL, "prompt": "<user>hello", "params": PARAMS, "seed": 1}
    key = request_key(base["model"], base["prompt"], base["params"], base["seed"])
    other = {**base, **changed}
    assert request_key(other["model"], other["prompt"], other["params"], other["seed"]) != key
    assert request_key(base["model"], base["prompt"], base["params"], base["seed"]) == key


@pytest.mark.parametrize("prompt", ["", "<user>hello", 'quote " and \\ and\nnewline', "শিক্ষক 🙂"])
@pytest.mark.parametrize("seed", [None, 0, 12345])
def test_fast_key_maker_matches_request_key(prompt: str, seed: int | None) -> None:
    params = GenerationParams(temperature=0.5, top_p=0.9, stop=("\n", "।"))
    assert _KeyMaker(MODEL, params)(prompt, seed) == request_key(MODEL, prompt, params, seed)


# -- caching and dedupe --------------------------------------------------------------------------


def test_rerun_makes_zero_calls(store: ResponseStore) -> None:
    requests = [ask(f"q{i}") for i in range(20)]
    with MockServerThread() as mock:
        first = run(mock, store, requests, concurrency=4)
        assert (first.total, first.cached, first.completed, first.failed, first.calls) == (
            20,
            0,
            20,
            0,
            20,
        )
        assert mock.stats()["calls"] == 20
        second = run(mock, store, requests, concurrency=4)
        assert (second.total, second.cached, second.completed, second.calls) == (20, 20, 0, 0)
        assert mock.stats()["calls"] == 20
    by_item = {r.item_id: r for r in store.iter_records()}
    assert by_item["q3"].output == hashed_reply("<user>q3", None)
    assert by_item["q3"].prompt_text == "<user>q3"
    assert by_item["q3"].params == PARAMS.to_dict()


@pytest.mark.parametrize(
    ("requests", "expected_calls"),
    [
        ([ask("a"), ask("a"), ask("b")], 2),  # same prompt twice
        ([ask("a", "item-1"), ask("a", "item-2")], 1),  # same key, other item id
        ([ask("a", seed=1), ask("a", seed=2), ask("a", seed=1)], 2),  # seeds are part of the key
        ([ask("a"), ask("a ")], 2),  # exact prompt text
    ],
)
def test_duplicate_keys_run_once(
    store: ResponseStore, requests: list[Request], expected_calls: int
) -> None:
    with MockServerThread() as mock:
        stats = run(mock, store, requests)
        assert mock.stats()["calls"] == expected_calls
    assert (stats.total, stats.completed) == (expected_calls, expected_calls)
    assert store.counts()["ok"] == expected_calls


def test_request_keys_find_each_requests_answer(store: ResponseStore) -> None:
    requests = [ask("a", "item-1"), ask("a", "item-2"), ask("b", "item-3", seed=4)]
    with MockServerThread() as mock:
        run(mock, store, requests)
        keys = request_keys(OpenAIBackend("m", mock.base_url), requests, PARAMS)
    assert keys[0] == keys[1] != keys[2]  # item-1 and item-2 ask the same thing
    assert set(keys) == store.completed_keys()
    assert [store.get(k).output for k in keys] == [  # type: ignore[union-attr]
        hashed_reply("<user>a", None),
        hashed_reply("<user>a", None),
        hashed_reply("<user>b", 4),
    ]


def test_seed_reaches_the_server_and_the_store(store: ResponseStore) -> None:
    with MockServerThread() as mock:
        run(mock, store, [ask("a", "x", seed=5), ask("a", "y", seed=6)])
        seeds = sorted(r["body"]["seed"] for r in mock.server.requests)
    assert seeds == [5, 6]
    outputs = {r.seed: r.output for r in store.iter_records()}
    assert outputs == {5: hashed_reply("<user>a", 5), 6: hashed_reply("<user>a", 6)}


# -- retries and failures ------------------------------------------------------------------------


def test_retries_429_with_retry_after_then_500_then_succeeds(store: ResponseStore) -> None:
    config = MockConfig(
        retry_after_s=0.2, rules=[ReplyRule(contains="flaky", fail=(429, 500), reply="finally")]
    )
    with MockServerThread(config) as mock:
        started = time.perf_counter()
        stats = run(mock, store, [ask("flaky"), ask("steady")])
        elapsed = time.perf_counter() - started
        server = mock.stats()
    assert server["by_prompt"] == {"<user>flaky": 3, "<user>steady": 1}
    assert server["by_status"] == {"429": 1, "500": 1, "200": 2}
    assert (stats.completed, stats.failed, stats.calls) == (2, 0, 4)
    flaky = next(r for r in store.iter_records() if r.item_id == "flaky")
    assert (flaky.status, flaky.output, flaky.attempts) == ("ok", "finally", 3)
    assert elapsed >= 0.2  # the 200 ms Retry-After was honoured, not the 1-5 ms backoff


@pytest.mark.parametrize(
    ("failure", "attempts", "error_part"),
    [
        (503, 4, "HTTP 503"),
        (429, 4, "HTTP 429"),
        ("drop", 4, "connection"),
        (400, 1, "HTTP 400"),  # permanent: not retried
        (404, 1, "HTTP 404"),
    ],
)
def test_request_that_keeps_failing_is_recorded_failed(
    store: ResponseStore, failure: int | str, attempts: int, error_part: str
) -> None:
    config = MockConfig(
        retry_after_s=0.001,
        rules=[ReplyRule(contains="doomed", fail_always=failure, message="no luck")],
    )
    with MockServerThread(config) as mock:
        stats = run(mock, store, [ask("doomed"), ask("fine")], retry=fast_retry(4))
        assert mock.stats()["by_prompt"]["<user>doomed"] == attempts
    assert (stats.completed, stats.failed) == (1, 1)
    assert store.counts() == {"ok": 1, "failed": 1}
    doomed = next(store.iter_records("failed"))
    assert doomed.attempts == attempts
    assert doomed.output is None
    assert error_part in doomed.error
    if failure != "drop":
        assert "no luck" in doomed.error  # the server's own message is kept


def test_rerun_retries_failed_rows_and_replaces_them(store: ResponseStore) -> None:
    config = MockConfig(rules=[ReplyRule(contains="doomed", fail_always=500)])
    with MockServerThread(config) as mock:
        first = run(mock, store, [ask("doomed"), ask("fine")], retry=fast_retry(2))
        assert (first.completed, first.failed) == (1, 1)
        mock.server.config.rules = ()  # the server recovers
        second = run(mock, store, [ask("doomed"), ask("fine")])
        assert mock.stats()["by_prompt"] == {"<user>doomed": 3, "<user>fine": 1}
    assert (second.cached, second.completed, second.failed, second.calls) == (1, 1, 0, 1)
    assert store.counts() == {"ok": 2, "failed": 0}


class ScriptedBackend(ModelBackend):
    """Answers the first ``good`` calls, then raises ``error`` for every later call."""

    kind = "scripted"

    def __init__(self, good: int, error: Exception) -> None:
        self.good, self.error, self.calls = good, error, 0

    @property
    def model_id(self) -> str:
        return "scripted"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        self.calls += 1
        number = self.calls
        await asyncio.sleep(0)
        if number > self.good:
            raise self.error
        return Generation(text="answer", prompt_text=prompt.text_for(self.mode))


def test_unexpected_backend_error_is_recorded_not_lost(store: ResponseStore) -> None:
    backend = ScriptedBackend(good=2, error=KeyError("bug"))
    stats = run_requests_sync(
        backend,
        [ask(f"q{i}") for i in range(4)],
        PARAMS,
        store,
        concurrency=1,
        progress=False,
        retry=fast_retry(),
    )
    assert (stats.completed, stats.failed, stats.calls) == (2, 2, 4)
    failed = list(store.iter_records("failed"))
    assert [r.info["error_type"] for r in failed] == ["KeyError", "KeyError"]
    assert all(r.attempts == 1 for r in failed)


def test_permanent_error_fails_at_once(store: ResponseStore) -> None:
    backend = ScriptedBackend(good=0, error=PermanentModelError("HTTP 401: bad key"))
    stats = run_requests_sync(
        backend,
        [ask("a"), ask("b")],
        PARAMS,
        store,
        concurrency=2,
        progress=False,
        retry=fast_retry(),
    )
    assert (stats.failed, stats.calls) == (2, 2)
    assert {r.error for r in store.iter_records()} == {"HTTP 401: bad key"}


# -- unreachable endpoint ------------------------------------------------------------------------


def test_unreachable_endpoint_stops_early_naming_the_url(store: ResponseStore) -> None:
    # Work finished by an earlier run must survive the failed one.
    with MockServerThread() as mock:
        run(mock, store, [ask("done-1"), ask("done-2")])
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIBackend("m", url)
    requests = [ask("done-1"), ask("done-2")] + [ask(f"q{i}") for i in range(50)]
    started = time.perf_counter()
    with pytest.raises(EndpointError) as caught:
        run_requests_sync(
            backend,
            requests,
            PARAMS,
            store,
            concurrency=4,
            progress=False,
            retry=RetryPolicy(base_delay_s=0.01, unreachable_attempts=3),
        )
    # Backing off through all 50 requests would take far longer than stopping early.
    assert time.perf_counter() - started < 5.0
    message = str(caught.value)
    assert url in message and "unreachable" in message
    assert "\n" not in message
    assert store.counts() == {"ok": 2, "failed": 0}  # nothing lost, nothing half-written


def test_endpoint_lost_mid_run_stops_and_keeps_finished_work(store: ResponseStore) -> None:
    error = EndpointUnreachableError(
        "cannot reach http://127.0.0.1:9/v1: refused", "http://127.0.0.1:9/v1"
    )
    backend = ScriptedBackend(good=5, error=error)
    requests = [ask(f"q{i}") for i in range(40)]
    with pytest.raises(EndpointError, match="stopped answering"):
        run_requests_sync(
            backend,
            requests,
            PARAMS,
            store,
            concurrency=2,
            progress=False,
            retry=fast_retry(2),
            flush_every=1000,
            flush_interval_s=60,
        )
    counts = store.counts()
    assert counts["ok"] == 5  # flushed on the way out although no flush was due
    assert counts["failed"] == 2  # the two requests that exhausted their tries before the stop
    stats = run_requests_sync(
        ScriptedBackend(good=100, error=error), requests, PARAMS, store, progress=False
    )
    assert (stats.cached, stats.completed) == (5, 35)


# -- concurrency ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("concurrency", "backend_cap", "expected_in_flight"),
    [
        (1, None, 1),
        (4, None, 4),
        (8, 2, 2),  # a backend's max_concurrency wins
    ],
)
def test_concurrency_bound(
    store: ResponseStore, concurrency: int, backend_cap: int | None, expected_in_flight: int
) -> None:
    with MockServerThread(MockConfig(latency_s=0.02)) as mock:
        backend = OpenAIBackend("m", mock.base_url)
        backend.max_concurrency = backend_cap
        run_requests_sync(
            backend,
            [ask(f"q{i}") for i in range(12)],
            PARAMS,
            store,
            concurrency=concurrency,
            progress=False,
        )
        assert mock.stats()["max_in_flight"] == expected_in_flight
    assert backend.max_connections == expected_in_flight


def test_cancellation_flushes_finished_answers(store: ResponseStore) -> None:
    requests = [ask(f"q{i}") for i in range(200)]

    async def cancelled_run() -> int:
        async with MockOpenAIServer(MockConfig(latency_s=0.01)) as server:
            backend = OpenAIBackend("m", server.base_url)
            task = asyncio.create_task(
                run_requests(
                    backend,
                    requests,
                    PARAMS,
                    store,
                    concurrency=4,
                    progress=False,
                    flush_every=10_000,
                    flush_interval_s=60,
                )
            )  # nothing flushed before the cancel
            while server.counters.by_status.get("200", 0) < 20:
                await asyncio.sleep(0.005)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await backend.aclose()
            return server.counters.by_status["200"]

    answered = asyncio.run(cancelled_run())
    stored = store.counts()["ok"]
    # Every answer that reached the client is stored; only the (at most 4) in flight are lost.
    assert answered - 4 <= stored <= answered
    with MockServerThread() as mock:
        stats = run(mock, store, requests)
        assert mock.stats()["calls"] == 200 - stored
    assert (stats.cached, stats.completed) == (stored, 200 - stored)


def test_progress_bar_shows_done_total_and_failures(
    store: ResponseStore, capfd, monkeypatch
) -> None:
    # The bar is for a terminal (elsewhere a plain line every 30 s: tests/test_progress.py).
    monkeypatch.setattr("biasbench.progress._is_terminal", lambda stream: True)
    config = MockConfig(rules=[ReplyRule(contains="doomed", fail_always=400)])
    with MockServerThread(config) as mock:
        run(mock, store, [ask("doomed")] + [ask(f"q{i}") for i in range(9)], progress=True)
    err = capfd.readouterr().err
    assert "10/10" in err
    assert "failed=1" in err


def test_empty_and_fully_cached_runs_open_no_connection(store: ResponseStore) -> None:
    backend = OpenAIBackend("m", f"http://127.0.0.1:{free_port()}/v1")
    stats = run_requests_sync(backend, [], PARAMS, store, progress=False)
    assert (stats.total, stats.calls) == (0, 0)
    assert backend._session is None


def test_first_calls_failing_server_wide_are_retried(store: ResponseStore) -> None:
    with MockServerThread(MockConfig(fail_first=3, fail_status=503)) as mock:
        stats = run(mock, store, [ask(f"q{i}") for i in range(5)], concurrency=1)
        assert mock.stats()["by_status"] == {"503": 3, "200": 5}
    assert (stats.completed, stats.failed, stats.calls) == (5, 0, 8)


def test_driver_process_reports_unreachable_endpoint_in_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.runner.drive_runner",
            "--base-url",
            url,
            "--store",
            str(tmp_path / "r.sqlite"),
            "--n",
            "5",
        ],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and url in lines[0] and lines[0].startswith("error: model endpoint")


# -- retry policy --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attempt", "ceiling"), [(1, 0.5), (2, 1.0), (3, 2.0), (6, 16.0), (7, 30.0), (500, 30.0)]
)
def test_backoff_ceiling_doubles_up_to_the_cap(attempt: int, ceiling: float) -> None:
    assert RetryPolicy(base_delay_s=0.5, max_delay_s=30.0).ceiling(attempt) == ceiling


@pytest.mark.parametrize(("retry_after", "expected"), [(5.0, 5.0), (0.0, 0.0), (600.0, 60.0)])
def test_retry_after_is_honoured_and_capped(retry_after: float, expected: float) -> None:
    policy = RetryPolicy(max_retry_after_s=60.0, max_attempts=10)
    assert policy.delay(1, retry_after) == expected
    assert policy.delay(9, retry_after) == expected  # the attempt number plays no part


@pytest.mark.parametrize(
    ("attempt", "retry_after", "at_least"),
    [(6, 0.0, 8.0), (6, None, 8.0), (7, 1.0, 15.0), (50, None, 15.0), (5, 0.0, 0.0)],
)
def test_retries_the_window_grants_are_never_a_tight_loop(
    attempt: int, retry_after: float | None, at_least: float
) -> None:
    # Past max_attempts (6) a request is retried only because its window is not over: the wait
    # is then at least half the backoff ceiling, even when the server says Retry-After: 0.
    policy = RetryPolicy(base_delay_s=0.5, max_delay_s=30.0, rng=random.Random(1))
    assert min(policy.delay(attempt, retry_after) for _ in range(200)) >= at_least


def test_full_jitter_draws_uniformly_below_the_ceiling() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0, rng=random.Random(7))
    replica = random.Random(7)
    draws = [policy.delay(3) for _ in range(2000)]
    assert draws[:3] == [replica.uniform(0, 4.0) for _ in range(3)]
    assert 0.0 <= min(draws) < 0.05 and 3.95 < max(draws) <= 4.0
    assert abs(sum(draws) / len(draws) - 2.0) < 0.1


@pytest.mark.parametrize(
    "bad",
    [
        {"max_attempts": 0},
        {"unreachable_attempts": 0},
        {"base_delay_s": -1.0},
        {"retry_window_s": -1.0},
    ],
)
def test_retry_policy_rejects_nonsense(bad: dict) -> None:
    with pytest.raises(ValueError):
        RetryPolicy(**bad)
