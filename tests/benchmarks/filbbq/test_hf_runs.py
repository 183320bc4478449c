"""FilBBQ through the transformers backend, on tiny models built in the test: a masked LM
answers by option pseudo-log-likelihoods, a causal LM generates under each seed."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from biasbench.models.registry import ModelOptions  # noqa: E402
from biasbench.pipeline import run_benchmark  # noqa: E402
from tests.models.test_hf import build_tiny_model  # noqa: E402

pytestmark = pytest.mark.hf


@pytest.fixture(scope="module")
def templates(reference_dir: Path) -> Path:
    return reference_dir / "filbbq" / "templates"


def test_masked_lm_answers_by_option_scores(tmp_path: Path, templates: Path) -> None:
    folder = build_tiny_model(tmp_path / "tiny-roberta", "roberta", positions=512)
    result = run_benchmark("filbbq", f"hf:{folder}", out=tmp_path / "run", limit=24,
                           seeds=[0, 1, 2], progress=False, options=ModelOptions(hf_task="masked"),
                           benchmark_options={"templates": templates})
    # Option scoring is deterministic, so one seed stands for all.
    assert result.stats.total == 24
    assert result.results["signature"]["model"]["tiny-roberta"]["answers_by"] == (
        "option pseudo-log-likelihood")
    for entry in result.results["models"]["tiny-roberta"].values():
        assert entry["unparsed_pct"] == 0 and entry["seeds_run"] == 1


def test_causal_lm_generates_under_each_seed(tmp_path: Path, templates: Path) -> None:
    folder = build_tiny_model(tmp_path / "tiny-gpt2", "gpt2", positions=512)
    result = run_benchmark("filbbq", f"hf:{folder}", out=tmp_path / "run", limit=8,
                           seeds=[0, 1], max_tokens=4, progress=False,
                           benchmark_options={"templates": templates})
    assert result.stats.total == 16 and result.stats.failed == 0
    assert result.results["signature"]["decoding"]["temperature"] == 1.0
    assert result.results["signature"]["seeds"] == [0, 1]
