"""Replay: answers read from a responses file instead of a model (re-scoring, other harnesses)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from biasbench.errors import ModelSpecError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
    normalise_finish_reason,
)
from biasbench.models.options import ModelOptions
from biasbench.responses import check_fields, iter_jsonl


def response_key(obj: dict) -> str:
    """The item a response line answers: ``item_id``, or ``category:example_id`` for BBQ."""
    if obj.get("item_id") is not None:
        return str(obj["item_id"])
    return f"{obj['category']}:{obj['example_id']}"


class ReplayBackend(ModelBackend):
    """Looks each answer up by item id (and seed) in a JSONL file of earlier outputs.

    Lines need ``output`` and either ``item_id`` or ``category`` + ``example_id``; ``seed`` and
    ``model`` are optional. With several models in one file, pick one with ``replay:FILE@MODEL``.
    """

    kind = "replay"
    summary = "answers read from a JSONL file of earlier outputs (re-scoring, other harnesses)"
    spec_syntax = "replay:FILE.jsonl[@MODEL]"
    answers_by_item = True

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> ReplayBackend:
        if not arg:
            raise ModelSpecError("replay needs a file: --model replay:FILE.jsonl[@MODEL]")
        path, _, model = arg.partition("@")
        return cls(path, model or None)

    def __init__(self, path: str | Path, model: str | None = None) -> None:
        self.path = Path(path)
        self.model_name = model
        self._answers: dict[tuple[str, int | None], str] = {}
        # A responses file may say why each output ended (``finish_reason``); kept normalised.
        self._finish: dict[tuple[str, int | None], str] = {}
        self._sha256 = (
            hashlib.sha256(self.path.read_bytes()).hexdigest() if self.path.is_file() else ""
        )
        models: set[str] = set()
        for line, obj in iter_jsonl(self.path):
            check_fields(
                obj,
                path=self.path,
                line=line,
                required=("output",),
                strings=("output", "item_id", "model", "finish_reason"),
                integers=("seed",),
            )
            if obj.get("item_id") is None:
                check_fields(obj, path=self.path, line=line, required=("category", "example_id"))
            if model is not None and obj.get("model") != model:
                continue
            models.add(str(obj.get("model")))
            self._answers[(response_key(obj), obj.get("seed"))] = obj["output"]
            if obj.get("finish_reason") is not None:
                self._finish[(response_key(obj), obj.get("seed"))] = normalise_finish_reason(
                    obj["finish_reason"]
                )
        if model is None and len(models) > 1:
            raise PermanentModelError(
                f"{self.path} holds several models ({', '.join(sorted(models))}); "
                f"use replay:{self.path}@MODEL"
            )
        if model is None and models:
            self.model_name = next(iter(models))

    @property
    def model_id(self) -> str:
        return f"replay:{self.model_name or self.path.stem}"

    def describe(self) -> dict[str, Any]:
        # The file's checksum is in the cache key: edited outputs are never served from cache.
        return {**super().describe(), "file_sha256": self._sha256}

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        key = prompt.item_id or ""
        found = (key, seed) if (key, seed) in self._answers else (key, None)
        text = self._answers.get(found)
        if text is None:
            raise PermanentModelError(f"no response for item {key!r} (seed {seed}) in {self.path}")
        info = {"finish_reason": self._finish[found]} if found in self._finish else {}
        return Generation(text=text, prompt_text=prompt.text_for(self.mode), info=info)
