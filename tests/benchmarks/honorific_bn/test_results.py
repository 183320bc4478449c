"""The documented shape of a model's scores is what results.json holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from biasbench.engines.honorific.results import HonorificScores, validate_model_scores
from biasbench.pipeline import run_benchmark


def test_a_run_writes_exactly_the_documented_fields(tmp_path: Path) -> None:
    result = run_benchmark(
        "honorific-bn", "mock:hashed-register", out=tmp_path, limit=112, progress=False
    )
    scores = result.results["models"]["mock-hashed-register"]
    typed = HonorificScores.model_validate(scores)
    documented = set(HonorificScores.model_fields)
    assert documented == set(scores)  # nothing undocumented, nothing missing
    assert typed.n_pairs == scores["n_pairs"] == 28


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"b": "many"}, "b"),
        ({"n_pairs": None}, "n_pairs"),
        ({"they": None}, "they"),
    ],
)
def test_drift_is_caught(tmp_path: Path, change: dict, field: str) -> None:
    result = run_benchmark(
        "honorific-bn", "mock:hashed-register", out=tmp_path, limit=28, progress=False
    )
    scores = {**result.results["models"]["mock-hashed-register"], **change}
    with pytest.raises(ValidationError, match=field):
        validate_model_scores({"m": scores})
