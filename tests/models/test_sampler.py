"""One temperature means one sampler: GenerationParams carries the complete sampler with
neutral defaults, and each backend applies exactly it (llama.cpp's own defaults of top_k 40,
top_p 0.95, min_p 0.05 never act silently)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from biasbench.models.base import GenerationParams, Prompt
from biasbench.models.llamacpp import LlamaCppBackend, sampler_kwargs

NEUTRAL = {"top_p": 1.0, "top_k": 0, "min_p": 0.0, "repetition_penalty": 1.0}


def test_defaults_switch_every_truncation_and_penalty_off() -> None:
    params = GenerationParams(temperature=1.0)
    assert params.sampler() == {"temperature": 1.0, **NEUTRAL}
    assert {k: params.to_dict()[k] for k in NEUTRAL} == NEUTRAL


@pytest.mark.parametrize("bad", [
    {"top_p": None}, {"top_p": 0.0}, {"top_p": 1.5}, {"top_k": -1}, {"top_k": 2.5},
    {"min_p": -0.1}, {"min_p": 1.1}, {"repetition_penalty": 0.0}, {"temperature": -1.0},
    {"max_tokens": 0},
])
def test_invalid_sampler_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        GenerationParams(**bad)


@pytest.mark.parametrize(("params", "expected"), [
    (GenerationParams(), {"temperature": 0.0, "top_p": 1.0, "top_k": 0, "min_p": 0.0,
                          "repeat_penalty": 1.0}),
    (GenerationParams(temperature=1.0), {"temperature": 1.0, "top_p": 1.0, "top_k": 0,
                                         "min_p": 0.0, "repeat_penalty": 1.0}),
    (GenerationParams(temperature=0.7, top_p=0.9, top_k=40, min_p=0.05,
                      repetition_penalty=1.1),
     {"temperature": 0.7, "top_p": 0.9, "top_k": 40, "min_p": 0.05, "repeat_penalty": 1.1}),
])
def test_llamacpp_gets_every_sampler_argument(params: GenerationParams,
                                              expected: dict) -> None:
    # llama.cpp's other samplers are off too
    assert sampler_kwargs(params) == {**expected, "typical_p": 1.0, "frequency_penalty": 0.0,
                                      "presence_penalty": 0.0, "mirostat_mode": 0, "tfs_z": 1.0}


class FakeLlama:
    """Records the arguments llama-cpp-python would receive."""

    def __init__(self, finish_reason: str) -> None:
        self.kwargs: dict[str, Any] = {}
        self.finish_reason = finish_reason
        self.resets = 0

    def reset(self) -> None:
        self.resets += 1

    def create_completion(self, prompt: str, **kwargs: Any) -> dict[str, Any]:
        self.kwargs = kwargs
        return {"choices": [{"text": " sagot", "finish_reason": self.finish_reason}],
                "usage": {"completion_tokens": 2}}


@pytest.mark.parametrize("finish_reason", ["stop", "length"])
def test_llamacpp_backend_sends_the_sampler_and_records_finish_reason(
        tmp_path: Path, finish_reason: str) -> None:
    weights = tmp_path / "tiny.gguf"
    weights.write_bytes(b"GGUF" + b"\0" * 64)
    backend = LlamaCppBackend(weights)
    fake = FakeLlama(finish_reason)
    backend._llm = fake
    params = GenerationParams(temperature=1.0, max_tokens=4, stop=("\n",))
    generation = asyncio.run(backend.generate(Prompt((("user", "q"),), "q"), params, 3))
    assert {k: fake.kwargs[k] for k in ("temperature", "top_p", "top_k", "min_p",
                                        "repeat_penalty")} == {
        "temperature": 1.0, "top_p": 1.0, "top_k": 0, "min_p": 0.0, "repeat_penalty": 1.0}
    assert (fake.kwargs["seed"], fake.kwargs["max_tokens"], fake.kwargs["stop"]) == (3, 4, ["\n"])
    assert generation.info["finish_reason"] == finish_reason
    assert fake.resets == 1  # no prefix carried over from the previous request
