"""Model specs parse into backends, or fail with one clear line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from biasbench.errors import InputError, ModelSpecError
from biasbench.models import GenerationParams, ModelOptions, Prompt, load_model, parse_model_spec
from biasbench.models.base import PermanentModelError


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("llamacpp", ("llamacpp", None)),
        ("llamacpp:/m/x.gguf", ("llamacpp", "/m/x.gguf")),
        ("openai:gpt-4o-mini", ("openai", "gpt-4o-mini")),
        ("openai:meta/llama-3.3-70b-instruct-maas", ("openai", "meta/llama-3.3-70b-instruct-maas")),
        ("hf:Qwen/Qwen2.5-0.5B", ("hf", "Qwen/Qwen2.5-0.5B")),
        ("replay:out.jsonl@m1", ("replay", "out.jsonl@m1")),
        ("mock:honorific", ("mock", "honorific")),
    ],
)
def test_parse_model_spec(spec: str, expected: tuple[str, str | None]) -> None:
    assert parse_model_spec(spec) == expected


@pytest.mark.parametrize(
    ("spec", "options", "message"),
    [
        ("gpt4", ModelOptions(), "unknown backend 'gpt4'"),
        ("openai:", ModelOptions(), "nothing after ':'"),
        ("openai", ModelOptions(base_url="http://x"), "needs a model name"),
        (
            "openai:gpt-4o",
            ModelOptions(api_key_env="BIASBENCH_TEST_NO_SUCH_KEY"),
            "goes to OpenAI's API (no --base-url or $OPENAI_BASE_URL): https://api.openai.com/v1, "
            "which needs an API key in $BIASBENCH_TEST_NO_SUCH_KEY",
        ),
        (
            "openai:gpt-4o",
            ModelOptions(base_url="http://x", api="responses"),
            "chat or completions",
        ),
        ("mock:nonsense", ModelOptions(), "unknown mock script"),
        (
            "llamacpp:/no/such/model.gguf",
            ModelOptions(),
            "GGUF file not found: /no/such/model.gguf",
        ),
    ],
)
def test_bad_specs_fail_clearly(
    spec: str, options: ModelOptions, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelSpecError) as err:  # a bad spec is the user's error: one line
        load_model(spec, options)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def _prompt(item_id: str) -> Prompt:
    return Prompt(messages=(("user", "hi"),), completion="hi", item_id=item_id)


def test_mock_scripts_are_deterministic() -> None:
    backend = load_model("mock:hashed-register")
    params = GenerationParams()
    first = [asyncio.run(backend.generate(_prompt(f"x|T1|{i}"), params, 0)).text for i in range(20)]
    again = [asyncio.run(backend.generate(_prompt(f"x|T1|{i}"), params, 0)).text for i in range(20)]
    assert first == again
    assert set(first) == {"তিনি নয়টায় আসবেন।", "সে নয়টায় আসবে।"}


def test_replay_backend_answers_by_item_and_seed(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    lines = [
        {"item_id": "a", "model": "m1", "output": "one", "seed": 0},
        {"item_id": "a", "model": "m1", "output": "two", "seed": 1},
        {"item_id": "b", "model": "m1", "output": "three"},
        {"item_id": "a", "model": "m2", "output": "other"},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    with pytest.raises(PermanentModelError, match="several models"):
        load_model(f"replay:{path}")
    backend = load_model(f"replay:{path}@m1")
    params = GenerationParams()
    assert asyncio.run(backend.generate(_prompt("a"), params, 1)).text == "two"
    assert asyncio.run(backend.generate(_prompt("b"), params, 7)).text == "three"
    assert backend.model_id == "replay:m1"
    with pytest.raises(PermanentModelError, match="no response for item 'c'"):
        asyncio.run(backend.generate(_prompt("c"), params, None))


def test_replay_bad_line_names_file_line_field(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        '{"item_id": "a", "output": "x"}\n{"item_id": "b", "output": 3}\n', encoding="utf-8"
    )
    with pytest.raises(InputError) as err:
        load_model(f"replay:{path}")
    assert str(err.value) == f"{path}:2: field 'output': expected a string, got int"


def test_sampler_extras_option_reaches_the_openai_backend() -> None:
    from biasbench.models.registry import ModelOptions

    strict = load_model(
        "openai:m", ModelOptions(base_url="http://127.0.0.1:1/v1", sampler_extras=False)
    )
    default = load_model("openai:m", ModelOptions(base_url="http://127.0.0.1:1/v1"))
    assert strict.describe()["sampler_extras"] is False
    assert "sampler_extras" not in default.describe()  # keys of default runs unchanged by it
