"""-M key=value backend options, the backend registry and capability attributes."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from biasbench.errors import ModelSpecError
from biasbench.models import (
    BACKENDS,
    ModelBackend,
    ModelOptions,
    backend_class,
    list_backends,
    load_model,
    parse_model_args,
)
from biasbench.models.base import Generation, GenerationParams, Prompt
from biasbench.models.llamacpp import LlamaCppBackend, physical_cores
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.models.options import BackendOption, parse_value

URL = "http://127.0.0.1:1/v1"


# ------------------------------------------------------------------ parsing -M


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8", 8),
        ("-1", -1),
        ("0.5", 0.5),
        ("1e-3", 0.001),
        ("true", True),
        ("False", False),
        ("null", None),
        ('{"a": 1}', {"a": 1}),
        ("[1, 2]", [1, 2]),
        ('"0123"', "0123"),
        ("cuda:1", "cuda:1"),
        ("bfloat16", "bfloat16"),
        ("", ""),
        ("main", "main"),
    ],
)
def test_parse_value(text: str, expected: Any) -> None:
    assert parse_value(text) == expected
    assert type(parse_value(text)) is type(expected)


def test_parse_value_refuses_broken_json() -> None:
    with pytest.raises(ModelSpecError, match="looks like JSON but does not parse"):
        parse_value('{"a": ')


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        (["dtype=bfloat16", "batch_size=8"], {"dtype": "bfloat16", "batch_size": "8"}),
        (['extra_body={"a": "x=y"}'], {"extra_body": '{"a": "x=y"}'}),  # split at first =
        (["field.stop_token_ids=[1,2]"], {"field.stop_token_ids": "[1,2]"}),
        (["revision="], {"revision": ""}),
    ],
)
def test_parse_model_args_keeps_raw_text(pairs: list[str], expected: dict[str, str]) -> None:
    assert parse_model_args(pairs) == expected


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (["dtype"], "-M 'dtype': expected key=value (e.g. -M dtype=bfloat16)"),
        (["=3"], "-M '=3': expected key=value (e.g. -M dtype=bfloat16)"),
        (["a b=3"], "-M 'a b=3': expected key=value (e.g. -M dtype=bfloat16)"),
        (["n_ctx=1", "n_ctx=2"], "-M n_ctx given twice"),
    ],
)
def test_parse_model_args_errors(pairs: list[str], message: str) -> None:
    with pytest.raises(ModelSpecError) as err:
        parse_model_args(pairs)
    assert str(err.value) == message


# ------------------------------------------------------------------ validation by the backend


@pytest.fixture
def gguf(tmp_path: Path) -> Path:
    # The backend hashes the file at construction and loads it only on the first request.
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 0) + bytes(40))  # a header, no tensors
    return path


@pytest.mark.parametrize(
    ("spec", "args", "message"),
    [
        (
            "hf:some/model",
            {"colour": "red"},
            "hf: unknown model option -M colour (accepted: "
            "device, dtype, revision, batch_size, trust_remote_code)",
        ),
        (
            "llamacpp",
            {"threads": 4},
            "llamacpp: unknown model option -M threads (accepted: "
            "n_threads, n_ctx, slots, n_gpu_layers)",
        ),
        (
            "openai:m",
            {"temperature": 0.5},
            "openai: unknown model option -M temperature (accepted: timeout, extra_body, field.*)",
        ),
        (
            "openai:m",
            {"field.": 1},
            "openai: unknown model option -M field. (accepted: timeout, extra_body, field.*)",
        ),
        ("mock:honorific", {"x": 1}, "mock: unknown model option -M x (accepted: none)"),
        ("replay:r.jsonl", {"x": 1}, "replay: unknown model option -M x (accepted: none)"),
        (
            "hf:some/model",
            {"batch_size": "eight"},
            "hf: -M batch_size='eight': expected an integer",
        ),
        ("hf:some/model", {"batch_size": "0"}, "hf: -M batch_size='0': must be at least 1"),
        (
            "hf:some/model",
            {"dtype": "float8"},
            "hf: -M dtype='float8': must be one of auto, float32, float16, bfloat16",
        ),
        (
            "hf:some/model",
            {"trust_remote_code": "maybe"},
            "hf: -M trust_remote_code='maybe': expected true or false",
        ),
        ("llamacpp", {"n_threads": "0"}, "llamacpp: -M n_threads='0': must be at least 1"),
        (
            "openai:m",
            {"extra_body": "[1]"},
            "openai: -M extra_body='[1]': expected a JSON object, "
            "e.g. '{\"repetition_penalty\": 1.1}'",
        ),
        ("openai:m", {"timeout": "soon"}, "openai: -M timeout='soon': expected a number"),
        (
            "openai:m",
            {"field.stream": "true"},
            "openai: extra request field(s) stream cannot be set; the backend sends them itself",
        ),
        (
            "openai:m",
            {"extra_body": '{"a": 1}', "field.a": "2"},
            "openai: request field 'a' given by both -M extra_body and -M field.a",
        ),
    ],
)
def test_bad_model_args_are_one_line_naming_the_key(
    spec: str, args: dict[str, Any], message: str
) -> None:
    # Checked before anything loads: no model named here exists.
    with pytest.raises(ModelSpecError) as err:
        load_model(spec, ModelOptions(base_url=URL, model_args=args))
    assert str(err.value) == message


def test_llamacpp_options_reach_the_backend(gguf: Path) -> None:
    backend = load_model(
        f"llamacpp:{gguf}",
        ModelOptions(model_args={"n_threads": "3", "n_ctx": "4096", "n_gpu_layers": "-1"}),
    )
    assert isinstance(backend, LlamaCppBackend)
    assert (backend.n_threads, backend.n_ctx, backend.n_gpu_layers) == (3, 4096, -1)
    default = load_model(f"llamacpp:{gguf}")
    assert isinstance(default, LlamaCppBackend)
    assert (default.n_threads, default.n_ctx, default.n_gpu_layers) == (physical_cores(), 2048, 0)
    # The old ModelOptions.threads keeps working; -M n_threads wins over it.
    assert load_model(f"llamacpp:{gguf}", ModelOptions(threads=5)).n_threads == 5  # type: ignore[attr-defined]
    assert (
        load_model(
            f"llamacpp:{gguf}", ModelOptions(threads=5, model_args={"n_threads": 2})
        ).n_threads
        == 2
    )  # type: ignore[attr-defined]


def test_openai_options_reach_the_request(gguf: Path) -> None:
    backend = load_model(
        "openai:m",
        ModelOptions(
            base_url=URL,
            model_args={
                "timeout": "30",
                "extra_body": '{"repetition_penalty": 1.1}',
                "field.chat_template_kwargs": '{"enable_thinking": false}',
                "field.top_a": "0",
            },
        ),
    )
    assert isinstance(backend, OpenAIBackend)
    assert backend.timeout_s == 30.0
    expected = {
        "repetition_penalty": 1.1,
        "chat_template_kwargs": {"enable_thinking": False},
        "top_a": 0,
    }
    assert backend.extra_body == expected
    body = backend.request_body(
        Prompt(messages=(("user", "hi"),), completion="hi"), GenerationParams(), 0
    )
    assert {k: body[k] for k in expected} == expected


# Per option: whether another value changes the model description (the cache key and the
# signature). It must agree with the option's declaration (changes_answers).
@pytest.mark.parametrize(
    ("spec", "key", "value", "changes"),
    [
        ("llamacpp", "n_ctx", 4096, True),
        ("llamacpp", "n_threads", 1, False),
        ("llamacpp", "n_gpu_layers", -1, False),
        ("openai:m", "extra_body", {"repetition_penalty": 1.1}, True),
        ("openai:m", "field.repetition_penalty", 1.1, True),
        ("openai:m", "timeout", 5, False),
    ],
)
def test_options_that_change_answers_enter_the_description(
    gguf: Path, spec: str, key: str, value: Any, changes: bool
) -> None:
    spec = f"llamacpp:{gguf}" if spec == "llamacpp" else spec
    default = load_model(spec, ModelOptions(base_url=URL)).describe()
    changed = load_model(spec, ModelOptions(base_url=URL, model_args={key: value})).describe()
    assert (changed != default) is changes
    option = next(o for o in backend_class(spec.split(":")[0]).model_options if o.matches(key))
    assert option.changes_answers is changes


# ------------------------------------------------------------------ the registry


@pytest.mark.parametrize("name", list(BACKENDS))
def test_every_registered_backend_describes_itself(name: str) -> None:
    cls = backend_class(name)
    assert cls.kind == name and cls.summary and cls.spec_syntax.startswith(name)
    assert cls.from_spec.__func__ is not ModelBackend.from_spec.__func__  # type: ignore[attr-defined]
    assert set(cls.capabilities()) == {
        "can_generate",
        "can_score_options",
        "max_concurrency",
        "deterministic",
        "answers_by_item",
    }


def test_list_backends_shows_names_specs_options_capabilities() -> None:
    listed = {info.name: info.to_dict() for info in list_backends()}
    assert list(listed) == ["llamacpp", "openai", "hf", "replay", "mock"]
    assert [o["name"] for o in listed["hf"]["options"]] == [
        "device",
        "dtype",
        "revision",
        "batch_size",
        "trust_remote_code",
    ]
    assert listed["hf"]["capabilities"]["can_score_options"] is True
    assert listed["llamacpp"]["capabilities"]["max_concurrency"] == 32  # 2 x the slots
    assert listed["replay"]["capabilities"]["answers_by_item"] is True
    lines = list_backends()[0].lines()
    assert lines[1] == "  spec: llamacpp | llamacpp:FILE.gguf"
    assert (
        "  -M n_ctx (int): context window of each sequence, in tokens [changes answers: in "
        "the signature]"
    ) in lines


class ShoutBackend(ModelBackend):
    """A backend defined outside the package: one class plus one registry entry."""

    kind = "shout"
    summary = "upper-cases the prompt"
    spec_syntax = "shout[:SUFFIX]"
    model_options = (BackendOption("times", "int", "repeat count", default=1, minimum=1),)
    deterministic = True

    def __init__(self, suffix: str, times: int) -> None:
        self.suffix, self.times = suffix, times

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> ShoutBackend:
        args = cls.check_model_args(options.model_args)
        return cls(arg or "!", args.get("times", 1))

    @property
    def model_id(self) -> str:
        return f"shout{self.suffix}"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        return Generation(
            text=(prompt.completion.upper() + self.suffix) * self.times,
            prompt_text=prompt.completion,
        )


def test_a_new_backend_is_one_class_and_one_registry_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BACKENDS, "shout", f"{__name__}:ShoutBackend")
    backend = load_model("shout:?", ModelOptions(model_args={"times": "2"}))
    assert isinstance(backend, ShoutBackend) and (backend.suffix, backend.times) == ("?", 2)
    assert "shout" in [info.name for info in list_backends()]
    with pytest.raises(
        ModelSpecError,
        match=r"shout: unknown model option -M x \(accepted: "
        r"times\)",
    ):
        load_model("shout", ModelOptions(model_args={"x": 1}))


def test_a_registry_entry_of_the_wrong_kind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BACKENDS, "loud", f"{__name__}:ShoutBackend")
    with pytest.raises(TypeError, match="is not a ModelBackend of kind 'loud'"):
        load_model("loud")


# ------------------------------------------------------------------ the command line


def _biasbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["-M", "colour=red"], "error: mock: unknown model option -M colour (accepted: none)"),
        (["-M", "colour"], "error: -M 'colour': expected key=value (e.g. -M dtype=bfloat16)"),
        (
            ["--model", "openai:m", "--base-url", URL, "--model-arg", "timeout=x"],
            "error: openai: -M timeout='x': expected a number",
        ),
    ],
)
def test_cli_model_arg_errors_exit_2_with_one_line(
    tmp_path: Path, args: list[str], line: str
) -> None:
    proc = _biasbench(
        "run",
        "honorific-bn",
        "--model",
        "mock:honorific",
        "--limit",
        "2",
        "--out",
        str(tmp_path / "run"),
        *args,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == line
    assert not (tmp_path / "run" / "responses.sqlite").exists()  # refused before any request


def test_a_bad_model_option_is_refused_before_the_benchmark_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import biasbench.pipeline as pipeline
    import biasbench.pipeline.plan as planning  # plan_run loads the benchmark

    def no_benchmark(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the benchmark was loaded before the model options were checked")

    monkeypatch.setattr(planning, "get_benchmark", no_benchmark)
    with pytest.raises(ModelSpecError, match=r"^hf: unknown model option -M devcie "):
        pipeline.run_benchmark(
            "filbbq",
            "hf:some/model",
            out=tmp_path / "run",
            options=ModelOptions(model_args={"devcie": "cuda"}),
        )
