"""The OpenAI-compatible backend against the mock server: payloads, parsing, error mapping,
and the API key staying out of everything but the Authorization header."""

from __future__ import annotations

import asyncio
import email.utils
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from biasbench.errors import ModelSpecError
from biasbench.models.base import (
    GenerationParams,
    PermanentModelError,
    Prompt,
    TransientModelError,
)
from biasbench.models.openai_compat import OpenAIBackend, display_url, parse_retry_after
from biasbench.runner.retry import EndpointUnreachableError, RetryPolicy
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule, hashed_reply

PROMPT = Prompt(
    messages=(("system", "Translate into Bengali."), ("user", "The teacher came.")),
    completion="English: The teacher came.\nBengali:",
)
SECRET = "sk-test-5ecret-do-not-leak-9f3a"
DEFAULTS = GenerationParams()


def generate(
    backend: OpenAIBackend,
    params: GenerationParams = DEFAULTS,
    seed: int | None = None,
    prompt: Prompt = PROMPT,
) -> Any:
    async def once() -> Any:
        try:
            return await backend.generate(prompt, params, seed)
        finally:
            await backend.aclose()

    return asyncio.run(once())


@pytest.fixture
def mock():
    with MockServerThread() as server:
        yield server


# The complete sampler is always sent: without it a server applies its own defaults.
NEUTRAL = {"top_p": 1.0, "top_k": 0, "min_p": 0.0, "repetition_penalty": 1.0}


@pytest.mark.parametrize(
    ("params", "seed", "expected"),
    [
        (GenerationParams(), None, {"temperature": 0.0, "max_tokens": 128, **NEUTRAL}),
        (
            GenerationParams(temperature=0.7, max_tokens=32, top_p=0.9, stop=("\n", "।")),
            42,
            {
                "temperature": 0.7,
                "max_tokens": 32,
                **NEUTRAL,
                "top_p": 0.9,
                "stop": ["\n", "।"],
                "seed": 42,
            },
        ),
        (
            GenerationParams(temperature=1.0),
            0,
            {"temperature": 1.0, "max_tokens": 128, **NEUTRAL, "seed": 0},
        ),
        (
            GenerationParams(temperature=1.0, top_k=40, min_p=0.05, repetition_penalty=1.1),
            None,
            {
                "temperature": 1.0,
                "max_tokens": 128,
                "top_p": 1.0,
                "top_k": 40,
                "min_p": 0.05,
                "repetition_penalty": 1.1,
            },
        ),
    ],
)
@pytest.mark.parametrize("api", ["chat", "completions"])
def test_payload_reaches_the_server(
    mock: MockServerThread, api: str, params: GenerationParams, seed: int | None, expected: dict
) -> None:
    backend = OpenAIBackend("tiny-model", mock.base_url, api=api)  # type: ignore[arg-type]
    generation = generate(backend, params, seed)
    (received,) = mock.server.requests
    body = received["body"]
    prompt_field = {
        "chat": {
            "messages": [
                {"role": "system", "content": "Translate into Bengali."},
                {"role": "user", "content": "The teacher came."},
            ]
        },
        "completions": {"prompt": "English: The teacher came.\nBengali:"},
    }[api]
    assert body == {"model": "tiny-model", **expected, **prompt_field}
    assert (
        received["path"] == {"chat": "/v1/chat/completions", "completions": "/v1/completions"}[api]
    )
    sent_text = PROMPT.text_for("chat" if api == "chat" else "completion")
    assert generation.prompt_text == sent_text
    assert generation.text == hashed_reply(sent_text, seed)


def test_answer_extras_are_recorded(mock: MockServerThread) -> None:
    generation = generate(OpenAIBackend("m", mock.base_url))
    assert generation.info == {
        "finish_reason": "stop",
        "system_fingerprint": "mock-fp",
        # the mock counts whitespace-separated words of "<system>Translate into Bengali.\n
        # <user>The teacher came." (6) and of its one-word reply
        "usage": {"prompt_tokens": 6, "completion_tokens": 1, "total_tokens": 7},
    }


def test_strict_endpoint_gets_top_p_only_and_the_description_says_so(
    mock: MockServerThread,
) -> None:
    backend = OpenAIBackend("m", mock.base_url, sampler_extras=False)
    generate(backend, GenerationParams(temperature=1.0))
    body = mock.server.requests[0]["body"]
    assert body["top_p"] == 1.0
    assert not {"top_k", "min_p", "repetition_penalty"} & set(body)
    assert backend.describe()["sampler_extras"] is False
    # A sampler a strict endpoint cannot be told is refused, not silently replaced.
    with pytest.raises(PermanentModelError, match="sampler extras off"):
        generate(backend, GenerationParams(temperature=1.0, top_k=40))


def test_extra_body_is_sent_and_part_of_the_description(mock: MockServerThread) -> None:
    backend = OpenAIBackend("m", mock.base_url, extra_body={"repetition_penalty": 1.1})
    generate(backend)
    assert mock.server.requests[0]["body"]["repetition_penalty"] == 1.1
    assert backend.describe() == {
        "kind": "openai",
        "model": "m",
        "mode": "chat",
        "extra_body": {"repetition_penalty": 1.1},
    }


@pytest.mark.parametrize(("api", "mode"), [("chat", "chat"), ("completions", "completion")])
def test_mode_follows_the_api(api: str, mode: str) -> None:
    backend = OpenAIBackend("m", "http://127.0.0.1:1/v1", api=api)  # type: ignore[arg-type]
    assert backend.mode == mode
    assert backend.describe() == {"kind": "openai", "model": "m", "mode": mode}


def test_invalid_arguments_are_refused() -> None:
    with pytest.raises(ModelSpecError, match="api must be"):
        OpenAIBackend("m", "http://127.0.0.1:1/v1", api="responses")  # type: ignore[arg-type]
    with pytest.raises(ModelSpecError, match="http:// or https://"):
        OpenAIBackend("m", "localhost:8000/v1")


# -- the API key ---------------------------------------------------------------------------------


def test_key_from_named_env_var_is_sent_as_bearer(
    mock: MockServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_PROVIDER_KEY", SECRET)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-wrong-one")
    generate(OpenAIBackend("m", mock.base_url, api_key_env="MY_PROVIDER_KEY"))
    assert mock.server.requests[0]["authorization"] == f"Bearer {SECRET}"


def test_no_key_sends_no_authorization(
    mock: MockServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    generate(OpenAIBackend("m", mock.base_url))
    assert mock.server.requests[0]["authorization"] is None


def test_key_never_leaks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MY_PROVIDER_KEY", SECRET)
    # A server that echoes the key back in its error message must not get it into our errors.
    config = MockConfig(
        rules=[ReplyRule(contains="leaky", fail_always=401, message=f"invalid key {SECRET}")]
    )
    with MockServerThread(config) as server:
        backend = OpenAIBackend("m", server.base_url, api_key_env="MY_PROVIDER_KEY")
        store_path = tmp_path / "responses.sqlite"
        with ResponseStore(store_path) as store:
            requests = [Request("ok", PROMPT), Request("leaky", Prompt((("user", "leaky"),), ""))]
            stats = run_requests_sync(backend, requests, GenerationParams(), store, progress=False)
            errors = [r.error for r in store.iter_records("failed")]
            store.set_meta("backend", backend.describe())
        assert server.server.requests[0]["authorization"] == f"Bearer {SECRET}"
    assert (stats.completed, stats.failed) == (1, 1)
    assert errors == ["HTTP 401 from " + server.base_url + ": invalid key ***"]
    for text in (repr(backend), str(backend.describe()), str(vars(backend))):
        assert SECRET not in text
    for path in tmp_path.iterdir():  # the database and any WAL/SHM files
        assert SECRET.encode() not in path.read_bytes()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://user:pa55@api.example.test/v1?key=abc#x", "https://api.example.test/v1"),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
        ("http://[::1]:8000/v1", "http://[::1]:8000/v1"),
    ],
)
def test_display_url_drops_credentials(url: str, shown: str) -> None:
    assert display_url(url) == shown
    assert "pa55" not in repr(OpenAIBackend("m", url))


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "error_type", "retry_after"),
    [
        (429, TransientModelError, 0.25),
        (500, TransientModelError, None),
        (502, TransientModelError, None),
        (503, TransientModelError, None),
        (504, TransientModelError, None),
        (408, TransientModelError, None),
        ("drop", TransientModelError, None),
        (400, PermanentModelError, None),
        (401, PermanentModelError, None),
        (404, PermanentModelError, None),
        (422, PermanentModelError, None),
        (501, PermanentModelError, None),
    ],
)
def test_status_mapping(
    failure: int | str, error_type: type, retry_after: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    config = MockConfig(
        retry_after_s=0.25,
        rules=[ReplyRule(contains="", fail_always=failure, message="server says no")],
    )
    with MockServerThread(config) as server:
        with pytest.raises(error_type) as caught:
            generate(OpenAIBackend("m", server.base_url))
    assert type(caught.value) is error_type  # not the unreachable subclass
    if error_type is TransientModelError:
        assert caught.value.retry_after == retry_after
    if failure != "drop":
        assert str(caught.value) == f"HTTP {failure} from {server.base_url}: server says no"


def test_missing_key_is_hinted_on_401(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_PROVIDER_KEY", raising=False)
    config = MockConfig(rules=[ReplyRule(contains="", fail_always=401, message="no key")])
    with MockServerThread(config) as server:
        with pytest.raises(PermanentModelError) as caught:
            generate(OpenAIBackend("m", server.base_url, api_key_env="MY_PROVIDER_KEY"))
    assert str(caught.value) == (
        f"HTTP 401 from {server.base_url}: no key "
        "(no API key: set the environment variable MY_PROVIDER_KEY)"
    )


def test_timeout_is_transient() -> None:
    with MockServerThread(MockConfig(latency_s=0.3)) as server:
        # The reply comes after 0.3 s: an error (not the reply) proves the 0.1 s timeout fired.
        with pytest.raises(TransientModelError, match="within 0.1 s"):
            generate(OpenAIBackend("m", server.base_url, timeout_s=0.1))


def test_unreachable_endpoint_is_named() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    with pytest.raises(EndpointUnreachableError) as caught:
        generate(OpenAIBackend("m", url))
    assert caught.value.endpoint == url
    assert str(caught.value).startswith(f"cannot reach {url}")


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after-ms": "250", "Retry-After": "3"}, 0.25),  # the precise one wins
        ({"Retry-After": "3"}, 3.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"Retry-After": "-4"}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_parse_retry_after(headers: dict, expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_parse_retry_after_http_date() -> None:
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 28 <= parse_retry_after({"Retry-After": when}) <= 30


# -- sessions ------------------------------------------------------------------------------------


def test_one_session_per_event_loop(mock: MockServerThread) -> None:
    backend = OpenAIBackend("m", mock.base_url)

    async def two_calls() -> tuple[object, object]:
        await backend.generate(PROMPT, GenerationParams(), None)
        first = backend._session
        await backend.generate(PROMPT, GenerationParams(), 1)
        return first, backend._session

    first, second = asyncio.run(two_calls())
    assert first is second  # shared, not per request
    # A later asyncio.run gets a working session of its own (the old loop is gone).
    assert generate(backend, seed=2).text == hashed_reply(PROMPT.text_for("chat"), 2)
    assert backend._session is None  # aclose() released it


def test_pool_is_sized_to_the_runner_concurrency(mock: MockServerThread, tmp_path: Path) -> None:
    backend = OpenAIBackend("m", mock.base_url)
    requests = [Request(str(i), Prompt((("user", f"q{i}"),), "")) for i in range(10)]
    with ResponseStore(tmp_path / "r.sqlite") as store:
        run_requests_sync(
            backend,
            requests,
            GenerationParams(),
            store,
            concurrency=3,
            progress=False,
            retry=RetryPolicy(base_delay_s=0.001),
        )
    assert backend.max_connections == 3


def test_mock_script_file_rules(tmp_path: Path) -> None:
    script = tmp_path / "replies.json"
    script.write_text(
        json.dumps(
            {
                "default": "echo",
                "rules": [
                    {"contains": "teacher", "reply": "শিক্ষক"},
                    {"contains": "flaky", "fail": [503], "reply": "second time lucky"},
                ],
            }
        ),
        encoding="utf-8",
    )
    config = MockConfig.from_script(script, retry_after_s=None)
    with MockServerThread(config) as server:
        backend = OpenAIBackend("m", server.base_url)
        assert generate(backend).text == "শিক্ষক"
        assert generate(backend, prompt=Prompt((("user", "say hi"),), "")).text == "say hi"
        flaky = Prompt((("user", "flaky"),), "")
        with pytest.raises(TransientModelError, match="HTTP 503"):
            generate(backend, prompt=flaky)
        assert generate(backend, prompt=flaky).text == "second time lucky"
