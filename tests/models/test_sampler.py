"""One temperature means one sampler: GenerationParams carries the complete sampler with
neutral defaults, and each backend applies exactly it (llama.cpp's own defaults of top_k 40,
top_p 0.95, min_p 0.05 never act silently)."""

from __future__ import annotations

import pytest

from biasbench.models.base import GenerationParams
from biasbench.models.llamacpp import sampling_of
from biasbench.models.llamacpp_requests import Sampling

NEUTRAL = {"top_p": 1.0, "top_k": 0, "min_p": 0.0, "repetition_penalty": 1.0}


def test_defaults_switch_every_truncation_and_penalty_off() -> None:
    params = GenerationParams(temperature=1.0)
    assert params.sampler() == {"temperature": 1.0, **NEUTRAL}
    assert {k: params.to_dict()[k] for k in NEUTRAL} == NEUTRAL


@pytest.mark.parametrize(
    "bad",
    [
        {"top_p": None},
        {"top_p": 0.0},
        {"top_p": 1.5},
        {"top_k": -1},
        {"top_k": 2.5},
        {"min_p": -0.1},
        {"min_p": 1.1},
        {"repetition_penalty": 0.0},
        {"temperature": -1.0},
        {"max_tokens": 0},
    ],
)
def test_invalid_sampler_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        GenerationParams(**bad)


@pytest.mark.parametrize(
    ("params", "seed", "expected"),
    [
        (GenerationParams(), None, Sampling(0.0, 1.0, 0, 0.0, 1.0, 0)),
        (GenerationParams(temperature=1.0), 7, Sampling(1.0, 1.0, 0, 0.0, 1.0, 7)),
        (
            GenerationParams(
                temperature=0.7, top_p=0.9, top_k=40, min_p=0.05, repetition_penalty=1.1
            ),
            3,
            Sampling(0.7, 0.9, 40, 0.05, 1.1, 3),
        ),
    ],
)
def test_llamacpp_gets_every_sampler_argument(
    params: GenerationParams, seed: int | None, expected: Sampling
) -> None:
    # every stage explicit: llama.cpp's defaults (top_k 40, top_p 0.95, min_p 0.05) never act
    assert sampling_of(params, seed) == expected
    assert expected.greedy_argmax is (params.temperature == 0 and params.repetition_penalty == 1.0)
