"""Every backend stores why generation ended, in one vocabulary: ``stop``, ``length`` (cut at
max_tokens), ``unknown`` or the server's own reason, so truncated outputs can be counted."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    Prompt,
    normalise_finish_reason,
)
from biasbench.models.mock import MockBackend
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.models.replay import ReplayBackend
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule

PROMPT = Prompt((("user", "q"),), "q", item_id="i1")


@pytest.mark.parametrize(
    ("reported", "normalised"),
    [
        ("stop", "stop"),
        ("eos", "stop"),
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("STOP", "stop"),
        ("length", "length"),
        ("max_tokens", "length"),
        ("MAX_TOKENS", "length"),
        ("model_length", "length"),
        (None, "unknown"),
        ("", "unknown"),
        ("content_filter", "content_filter"),
        ("tool_calls", "tool_calls"),
        ("Abort", "abort"),
        (7, "7"),
    ],
)
def test_normalise_finish_reason(reported: Any, normalised: str) -> None:
    assert normalise_finish_reason(reported) == normalised


@pytest.mark.parametrize(
    ("reported", "stored", "raw"),
    [
        ("stop", "stop", None),
        ("length", "length", None),
        ("max_tokens", "length", "max_tokens"),
        (None, "unknown", None),
        ("content_filter", "content_filter", None),
    ],
)
@pytest.mark.parametrize("api", ["chat", "completions"])
def test_openai_answers_carry_a_normalised_finish_reason(
    tmp_path: Path, api: str, reported: str | None, stored: str, raw: str | None
) -> None:
    config = MockConfig(rules=[ReplyRule(contains="", finish_reason=reported)])
    with MockServerThread(config) as mock, ResponseStore(tmp_path / "r.sqlite") as store:
        backend = OpenAIBackend("m", mock.base_url, api=api)  # type: ignore[arg-type]
        run_requests_sync(
            backend, [Request("i1", PROMPT)], GenerationParams(), store, progress=False
        )
        (row,) = store.iter_records()
    assert row.info["finish_reason"] == stored
    assert row.info.get("finish_reason_raw") == raw


def test_mock_backend_answers_end_by_themselves() -> None:
    generation = asyncio.run(MockBackend("honorific").generate(PROMPT, GenerationParams(), None))
    assert generation.info["finish_reason"] == "stop"


def test_replay_passes_a_files_finish_reason_through(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(line)
            for line in [
                {"item_id": "i1", "output": "cut mid", "finish_reason": "max_tokens"},
                {"item_id": "i2", "output": "whole"},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    backend = ReplayBackend(path)
    first = asyncio.run(backend.generate(PROMPT, GenerationParams(), None))
    second = asyncio.run(
        backend.generate(Prompt((("user", "q"),), "q", item_id="i2"), GenerationParams(), None)
    )
    assert first.info == {"finish_reason": "length"}
    assert second.info == {}  # the file does not say: nothing is invented


class RawReasonBackend(ModelBackend):
    kind = "raw"

    @property
    def model_id(self) -> str:
        return "raw"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        return Generation(text="x", prompt_text="q", info={"finish_reason": "MAX_LENGTH"})


def test_runner_normalises_whatever_a_backend_reports(tmp_path: Path) -> None:
    with ResponseStore(tmp_path / "r.sqlite") as store:
        run_requests_sync(
            RawReasonBackend(), [Request("i1", PROMPT)], GenerationParams(), store, progress=False
        )
        (row,) = store.iter_records()
    assert row.info["finish_reason"] == "length"
