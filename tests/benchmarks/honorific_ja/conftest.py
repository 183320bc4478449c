"""Shared fixtures: the Japanese judge, skipped with a clear message without its analyser."""

from __future__ import annotations

from typing import Any

import pytest

from biasbench.errors import BiasbenchError


def _judge_or_skip(name: str) -> Any:
    from biasbench.benchmarks.honorific_ja.judge import JapaneseJudge
    from biasbench.benchmarks.honorific_ja.judge.analyser import load_analyser

    try:
        load_analyser(name)
    except BiasbenchError as error:
        pytest.skip(f"Japanese analyser {name!r} not installed ({error})")
    return JapaneseJudge(name)


@pytest.fixture(scope="session")
def ja_judge() -> Any:
    """The default (SudachiPy) judge; skips when SudachiPy/sudachidict-core are absent."""
    return _judge_or_skip("sudachi")


@pytest.fixture(scope="session", params=["sudachi", "fugashi"])
def any_ja_judge(request: pytest.FixtureRequest) -> Any:
    """The judge on each analyser adapter (each skipped when its analyser is absent)."""
    return _judge_or_skip(request.param)
