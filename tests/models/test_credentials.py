"""Credentials in a base URL (http://user:secret@host/v1) are sent as Basic auth and redacted
from everything stored or printed, in every form a server may echo them, like API keys."""

from __future__ import annotations

import asyncio
import base64
import logging
import socket
from pathlib import Path
from urllib.parse import quote

import pytest

from biasbench.errors import EndpointError, ModelSpecError
from biasbench.models.base import GenerationParams, Prompt
from biasbench.models.openai_compat import OpenAIBackend, display_url
from biasbench.models.registry import ModelOptions, load_model
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule, hashed_reply

USER, PASSWORD = "alice", "pa55-w0rd/with:odd@chars"
PAIR = f"{USER}:{PASSWORD}"
FORMS = [PASSWORD, PAIR, quote(PASSWORD, safe=""), base64.b64encode(PAIR.encode()).decode()]
QUICK = RetryPolicy(max_attempts=2, base_delay_s=0.001, retry_window_s=0.0, unreachable_attempts=1)


def with_credentials(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{quote(USER, safe='')}:{quote(PASSWORD, safe='')}@{rest}"


def ask(text: str) -> Request:
    return Request(item_id=text, prompt=Prompt((("user", text),), text))


def assert_clean(text: str) -> None:
    for form in FORMS:
        assert form not in text, form


@pytest.fixture(autouse=True)
def no_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_credentials_are_sent_as_basic_auth_not_in_the_url() -> None:
    with MockServerThread() as mock:
        backend = OpenAIBackend("m", with_credentials(mock.base_url))

        async def once() -> str:
            try:
                return (await backend.generate(ask("hi").prompt, GenerationParams(), None)).text
            finally:
                await backend.aclose()

        assert asyncio.run(once()) == hashed_reply("<user>hi", None)
        (received,) = mock.server.requests
    assert received["authorization"] == "Basic " + base64.b64encode(PAIR.encode()).decode()
    assert received["path"] == "/v1/chat/completions"
    assert backend.base_url == mock.base_url and backend.endpoint == mock.base_url


@pytest.mark.parametrize(
    "echo",
    [
        "bad credentials: {authorization}",  # the Basic header itself
        f"user {PAIR} is not allowed",  # decoded
        f"denied for {quote(PASSWORD, safe='')}",  # percent-encoded
    ],
)
@pytest.mark.parametrize("status", [401, 503])
def test_server_echoing_credentials_never_gets_them_stored_or_printed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, echo: str, status: int
) -> None:
    caplog.set_level(logging.DEBUG)
    config = MockConfig(rules=[ReplyRule(contains="leaky", fail_always=status, message=echo)])
    with MockServerThread(config) as mock:
        backend = OpenAIBackend("m", with_credentials(mock.base_url))
        with ResponseStore(tmp_path / "r.sqlite") as store:
            stats = run_requests_sync(
                backend,
                [ask("fine"), ask("leaky")],
                GenerationParams(),
                store,
                progress=False,
                retry=QUICK,
            )
            (failed,) = list(store.iter_records("failed"))
        assert mock.server.requests[0]["authorization"].startswith("Basic ")
    assert (stats.completed, stats.failed) == (1, 1)
    assert f"HTTP {status}" in (failed.error or "") and "***" in (failed.error or "")
    assert_clean(failed.error or "")
    for text in (repr(backend), str(backend.describe()), str(vars(backend)), caplog.text):
        assert_clean(text)
    for path in tmp_path.iterdir():  # the database and its WAL/SHM files
        for form in FORMS:
            assert form.encode() not in path.read_bytes()


def test_unreachable_endpoint_error_has_no_credentials(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = with_credentials(f"http://127.0.0.1:{port}/v1")
    with ResponseStore(tmp_path / "r.sqlite") as store, pytest.raises(EndpointError) as caught:
        run_requests_sync(
            OpenAIBackend("m", url),
            [ask("a")],
            GenerationParams(),
            store,
            progress=False,
            retry=QUICK,
        )
    assert f"http://127.0.0.1:{port}/v1" in str(caught.value)
    assert_clean(str(caught.value))


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://alice:pa55-w0rd@localhost:99999/v1", "invalid port: http://localhost:99999/v1"),
        ("http://alice:pa55-w0rd@localhost:80a/v1", "invalid port: http://localhost:80a/v1"),
        ("http://alice:pa55-w0rd@/v1", "no host"),
    ],
)
def test_bad_urls_are_one_line_without_credentials(url: str, message: str) -> None:
    with pytest.raises(ModelSpecError) as caught:
        OpenAIBackend("m", url)
    assert message in str(caught.value)
    assert "pa55" not in str(caught.value) and "\n" not in str(caught.value)


def test_credentials_and_an_api_key_together_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-something")
    with pytest.raises(ModelSpecError) as caught:
        OpenAIBackend("m", "http://alice:pa55-w0rd@localhost:8000/v1")
    assert "credentials" in str(caught.value) and "OPENAI_API_KEY" in str(caught.value)
    assert "pa55" not in str(caught.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://alice:pa55@host:99999/v1", "http://host:99999/v1"),
        ("http://token123@host/v1", "http://host/v1"),
    ],
)
def test_display_url_never_raises_and_never_shows_credentials(url: str, shown: str) -> None:
    assert display_url(url) == shown


def test_model_options_repr_hides_credentials() -> None:
    options = ModelOptions(base_url="http://alice:pa55-w0rd@localhost:8000/v1")
    assert "pa55" not in repr(options) and "localhost:8000" in repr(options)
    backend = load_model("openai:m", options)
    assert "pa55" not in repr(backend) and "pa55" not in str(vars(backend))


def test_token_as_user_name_is_redacted() -> None:
    backend = OpenAIBackend("m", "http://tok-abc123@localhost:8000/v1")
    assert backend.redact("echo tok-abc123") == "echo ***"
