"""``openai:NAME`` without ``--base-url``: ``$OPENAI_BASE_URL``, else OpenAI's own endpoint (the
openai SDK's order); keys as before. Nothing here touches the network."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from biasbench.errors import ModelSpecError
from biasbench.models.openai_compat import (
    OPENAI_API_BASE_URL,
    OpenAIBackend,
    is_openai_api,
    resolve_base_url,
)
from biasbench.models.registry import ModelOptions, load_model

LOCAL = "http://127.0.0.1:8000/v1"


@pytest.mark.parametrize(
    ("given", "env", "expected"),
    [
        (None, {}, (OPENAI_API_BASE_URL, "OpenAI's API (no --base-url or $OPENAI_BASE_URL)")),
        (None, {"OPENAI_BASE_URL": LOCAL}, (LOCAL, "$OPENAI_BASE_URL")),
        (
            None,
            {"OPENAI_BASE_URL": "  "},
            (OPENAI_API_BASE_URL, "OpenAI's API (no --base-url or $OPENAI_BASE_URL)"),
        ),
        (LOCAL, {"OPENAI_BASE_URL": "http://elsewhere:1/v1"}, (LOCAL, "--base-url")),
    ],
)
def test_base_url_resolution(
    given: str | None, env: dict[str, str], expected: tuple[str, str]
) -> None:
    assert resolve_base_url(given, env) == expected


def test_the_default_is_openais_public_endpoint() -> None:
    assert OPENAI_API_BASE_URL == "https://api.openai.com/v1"
    assert is_openai_api(OPENAI_API_BASE_URL) and is_openai_api("https://API.openai.com/v1/")
    assert not is_openai_api(LOCAL) and not is_openai_api("https://api.openai.com.evil/v1")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "MY_KEY"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_openai_name_goes_to_openai_with_a_key_from_the_env(env: pytest.MonkeyPatch) -> None:
    env.setenv("OPENAI_API_KEY", "sk-test-not-real")
    backend = load_model("openai:gpt-4o-mini")
    assert isinstance(backend, OpenAIBackend)
    assert backend.base_url == OPENAI_API_BASE_URL
    assert backend._url == OPENAI_API_BASE_URL + "/chat/completions"
    # OpenAI's API rejects top_k/min_p/repetition_penalty, so they are not sent, and the
    # signature says the server's sampler applies
    assert backend.sampler_extras is False
    assert backend.describe() == {
        "kind": "openai",
        "model": "gpt-4o-mini",
        "mode": "chat",
        "sampler_extras": False,
    }


def test_api_key_env_names_the_key(env: pytest.MonkeyPatch) -> None:
    env.setenv("MY_KEY", "sk-test-not-real")
    backend = load_model("openai:gpt-4o-mini", ModelOptions(api_key_env="MY_KEY"))
    assert (backend.base_url, backend.api_key_env) == (OPENAI_API_BASE_URL, "MY_KEY")


def test_openai_base_url_from_the_environment(env: pytest.MonkeyPatch) -> None:
    env.setenv("OPENAI_BASE_URL", LOCAL + "/")
    backend = load_model("openai:qwen", ModelOptions(api="completions"))
    assert backend.base_url == LOCAL and backend._url == LOCAL + "/completions"
    assert backend.sampler_extras is True  # a local server reads them; no key needed


def test_a_given_base_url_wins(env: pytest.MonkeyPatch) -> None:
    env.setenv("OPENAI_BASE_URL", "http://elsewhere:9/v1")
    assert load_model("openai:m", ModelOptions(base_url=LOCAL)).base_url == LOCAL


def test_a_bad_url_in_the_environment_is_named(env: pytest.MonkeyPatch) -> None:
    env.setenv("OPENAI_BASE_URL", "localhost:8000/v1")
    with pytest.raises(ModelSpecError, match=r"^\$OPENAI_BASE_URL: base URL must start with "):
        load_model("openai:m")


def test_no_key_for_openai_is_one_line_before_any_request(
    env: pytest.MonkeyPatch, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    clean = {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "run",
            "honorific-bn",
            "--model",
            "openai:gpt-4o-mini",
            "--limit",
            "1",
            "--out",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        env=clean,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "error: openai:gpt-4o-mini goes to OpenAI's API (no --base-url or $OPENAI_BASE_URL): "
        "https://api.openai.com/v1, which needs an API key in $OPENAI_API_KEY (or name the "
        "variable with --api-key-env; --base-url or $OPENAI_BASE_URL for another endpoint)"
    )
