"""What the runner is asked, and the cache key of each request: the sha256 of everything that
changes the answer (the model description, the exact prompt text, the decoding parameters and
the seed), so keys already answered in the store are never sent again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from biasbench.models.base import GenerationParams, ModelBackend, Prompt

_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def canonical_json(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, non-ASCII kept as is."""
    return _CANONICAL.encode(value)


def request_key(
    model: dict[str, Any], prompt_text: str, params: GenerationParams, seed: int | None
) -> str:
    """The cache key of one request: sha256 (hex) of the canonical JSON of everything that
    changes the answer: the model description (kind, name, prompt mode...), the exact prompt
    text, the decoding parameters and the seed."""
    canonical = canonical_json(
        {"model": model, "prompt": prompt_text, "params": params.to_dict(), "seed": seed}
    )
    # surrogatepass: a prompt with a lone surrogate (from a JSON escape in an input file) still
    # gets a key instead of crashing the run; every other text encodes exactly as UTF-8.
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class _KeyMaker:
    """:func:`request_key` for many prompts of one model and parameter set.

    The canonical JSON has its keys sorted (model, params, prompt, seed), so the model and
    params part is a fixed prefix: it is serialised and hashed once, then each key only hashes
    the prompt and the seed. The result is identical to :func:`request_key` (a test checks it).
    """

    def __init__(self, model: dict[str, Any], params: GenerationParams) -> None:
        params_json = canonical_json(params.to_dict())
        prefix = f'{{"model":{canonical_json(model)},"params":{params_json},"prompt":'
        self._prefix_hash = hashlib.sha256(prefix.encode("utf-8", "surrogatepass"))
        self._encode = _CANONICAL.encode

    def __call__(self, prompt_text: str, seed: int | None) -> str:
        digest = self._prefix_hash.copy()
        seed_text = "null" if seed is None else self._encode(seed)
        digest.update(
            f'{self._encode(prompt_text)},"seed":{seed_text}}}'.encode("utf-8", "surrogatepass")
        )
        return digest.hexdigest()


@dataclass(frozen=True)
class Request:
    """One question for the model: a benchmark item's prompt, with the seed to sample under."""

    item_id: str
    """The benchmark item the answer belongs to."""
    prompt: Prompt
    """What to ask."""
    seed: int | None = None
    """Sampling seed sent to the model (part of the key), or None."""


def key_text(backend: ModelBackend, request: Request) -> str:
    """The text a request's key hashes: the prompt sent, plus the item for backends whose
    answer depends on the item rather than on the prompt (replay)."""
    text = request.prompt.text_for(backend.mode)
    if backend.answers_by_item:
        text = f"{text}\x00item:{request.item_id}"
    return text


def request_keys(
    backend: ModelBackend, requests: Sequence[Request], params: GenerationParams
) -> list[str]:
    """The key of each request, in order, as :func:`run_requests` computes it.

    Requests with the same key share one stored response (whatever their ``item_id``), so
    later stages should find each request's answer by key, not by item id.
    """
    make_key = _KeyMaker(backend.describe(), params)
    return [make_key(key_text(backend, r), r.seed) for r in requests]


def split_answered(
    keys: Sequence[str], requests: Sequence[Request], done: set[str]
) -> tuple[dict[str, Request], set[str]]:
    """(requests still to send, one per distinct key in order; keys already answered)."""
    pending: dict[str, Request] = {}
    cached: set[str] = set()
    for key, request in zip(keys, requests, strict=True):
        if key in done:
            cached.add(key)
        else:
            pending.setdefault(key, request)
    return pending, cached
