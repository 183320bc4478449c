"""Signatures say when two results are comparable."""

from __future__ import annotations

import pytest

from biasbench.models.base import GenerationParams
from biasbench.signature import Signature


def _sig(**changes: object) -> Signature:
    base = dict(
        benchmark="honorific-bn",
        benchmark_version="1.0",
        data_sha256="924a30f0" + "0" * 56,
        prompt_hash="abc123def456",
        model={"kind": "openai", "model": "m1"},
        decoding={"temperature": 0.0, "max_tokens": 96},
        seeds=None,
        judge_version="bn-register/1",
    )
    base.update(changes)
    return Signature(**base)  # type: ignore[arg-type]


def test_short_form() -> None:
    decoding = GenerationParams(max_tokens=96).to_dict()
    assert _sig(decoding=decoding).short() == (
        "honorific-bn:1.0|data:924a30f0|prompt:abc123de|model:m1|"
        "t:0.0|top_p:1.0|top_k:0|min_p:0.0|rep:1.0|"
        "max:96|seeds:none|judge:bn-register/1|biasbench:0.1.0"
    )
    assert "seeds:50(0..49)" in _sig(seeds=list(range(50))).short()


@pytest.mark.parametrize(
    ("decoding", "model", "shown"),
    [
        # the complete sampler, whatever its values
        (
            GenerationParams(
                temperature=1.0, top_p=0.95, top_k=40, min_p=0.05, repetition_penalty=1.1
            ).to_dict(),
            {"model": "m1"},
            "t:1.0|top_p:0.95|top_k:40|min_p:0.05|rep:1.1",
        ),
        # results of older versions recorded only some fields: the rest is unknown, not a default
        (
            {"temperature": 1.0, "max_tokens": 96, "top_p": None},
            {"model": "m1"},
            "t:1.0|top_p:?|top_k:?|min_p:?|rep:?",
        ),
        # a strict OpenAI endpoint picks its own top_k/min_p/penalty
        (
            GenerationParams(temperature=1.0).to_dict(),
            {"model": "m1", "sampler_extras": False},
            "t:1.0|top_p:1.0|top_k:server|min_p:server|rep:server",
        ),
    ],
)
def test_short_form_shows_the_complete_sampler(decoding: dict, model: dict, shown: str) -> None:
    assert f"|{shown}|" in _sig(decoding=decoding, model=model).short()


def test_one_temperature_with_another_sampler_is_not_comparable() -> None:
    plain = _sig(decoding=GenerationParams(temperature=1.0).to_dict())
    truncated = _sig(decoding=GenerationParams(temperature=1.0, top_k=40, top_p=0.95).to_dict())
    assert plain.differences(truncated) == ["decoding"]


def test_models_differ_but_results_are_comparable() -> None:
    assert _sig().differences(_sig(model={"kind": "hf", "model": "m2"})) == []


def test_changed_prompt_or_decoding_is_not_comparable() -> None:
    assert _sig().differences(_sig(prompt_hash="ffff")) == ["prompt_hash"]
    assert _sig().differences(
        _sig(decoding={"temperature": 0.7, "max_tokens": 96}, seeds=[0, 1])
    ) == ["decoding", "seeds"]
