"""Answers in flight at Ctrl-C or SIGTERM are stored, not paid again (round 2, item 5)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from biasbench.models.base import Generation, GenerationParams, Prompt
from biasbench.models.mock import MockBackend
from biasbench.runner.runner import Request, run_requests
from biasbench.runner.store import ResponseStore


class _Slow(MockBackend):
    """Every answer takes ``delay`` seconds to arrive."""

    def __init__(self, delay: float) -> None:
        super().__init__("hashed-register")
        self.delay = delay

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        self.calls += 1
        await asyncio.sleep(self.delay)
        return Generation(
            text=f"answer {prompt.item_id}",
            prompt_text=prompt.completion,
            info={"finish_reason": "stop"},
        )


def _requests(n: int) -> list[Request]:
    return [
        Request(
            item_id=f"i{i}", prompt=Prompt((("user", f"q{i}"),), f"q{i}", item_id=f"i{i}"), seed=0
        )
        for i in range(n)
    ]


@pytest.mark.parametrize(
    ("delay", "stored"),
    [
        (0.3, 8),  # every request in flight finishes within the grace period: all 8 kept
    ],
)
def test_answers_in_flight_at_an_interrupt_are_stored(
    tmp_path: Path, delay: float, stored: int
) -> None:
    backend = _Slow(delay)
    requests = _requests(40)

    async def interrupted() -> None:
        with ResponseStore(tmp_path / "s.sqlite") as store:
            task = asyncio.create_task(
                run_requests(
                    backend, requests, GenerationParams(), store, concurrency=8, progress=False
                )
            )
            await asyncio.sleep(delay / 3)  # 8 requests sent, none answered yet
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(interrupted())
    assert backend.calls == 8  # nothing new started after the interrupt
    with ResponseStore(tmp_path / "s.sqlite") as store:
        assert store.counts() == {"ok": stored, "failed": 0}
        again = _Slow(0.0)

        async def rerun() -> None:
            await run_requests(
                again, requests, GenerationParams(), store, concurrency=8, progress=False
            )

        asyncio.run(rerun())
    assert again.calls == 40 - stored  # the kept answers are not paid again
