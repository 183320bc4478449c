"""FilBBQ through the transformers backend, on tiny models built in the test: a masked LM
answers by option pseudo-log-likelihoods, a causal LM by option log-likelihoods by default and
generates under each seed with --answer-by generate."""

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
    result = run_benchmark(
        "filbbq",
        f"hf:{folder}",
        out=tmp_path / "run",
        limit=24,
        seeds=[0, 1, 2],
        progress=False,
        options=ModelOptions(hf_task="masked"),
        benchmark_options={"templates": templates},
    )
    # Option scoring is deterministic, so one seed stands for all.
    assert result.stats.total == 24
    assert result.results["signature"]["model"]["tiny-roberta"]["answers_by"] == (
        "option pseudo-log-likelihood"
    )
    for entry in result.results["models"]["tiny-roberta"].values():
        assert entry["unparsed_pct"] == 0 and entry["seeds_run"] == 1
    # both choices are reported (lm-eval's acc and acc_norm); the signature names the headline
    assert result.results["signature"]["model"]["tiny-roberta"]["option_score"] == "per_char"
    scoring = result.results["option_scoring"]
    assert (scoring["headline"], scoring["alternative"], scoring["n_responses"]) == (
        "per_char",
        "sum",
        24,
    )
    assert set(scoring["alternative_models"]["tiny-roberta"]) == set(
        result.results["models"]["tiny-roberta"]
    )
    assert any(
        line.startswith("option scores: answers chosen by per_char") for line in result.summary
    )


def test_summed_scores_penalise_the_long_unknown_option(tmp_path: Path, templates: Path) -> None:
    """The effect docs/benchmarks/filbbq.md reports: on a random-weight model every token costs
    about the same, so the sum picks the shortest option and almost never FilBBQ's longer unknown
    answer; per character it does not."""
    folder = build_tiny_model(tmp_path / "tiny-roberta", "roberta", positions=512)
    # 208: since --limit is stratified half the items are ambiguous, and 104
    # left ~26 ambiguous items per category, where the two choices tied on one of them.
    result = run_benchmark(
        "filbbq",
        f"hf:{folder}",
        out=tmp_path / "run",
        limit=208,
        progress=False,
        options=ModelOptions(hf_task="masked"),
        benchmark_options={"templates": templates},
    )
    headline = result.results["models"]["tiny-roberta"]
    by_sum = result.results["option_scoring"]["alternative_models"]["tiny-roberta"]
    for category in headline:  # unknown is the right answer in ambiguous contexts
        assert by_sum[category]["acc_ambig"]["mean"] < headline[category]["acc_ambig"]["mean"]


def test_causal_lm_answers_by_option_scores_by_default(tmp_path: Path, templates: Path) -> None:
    folder = build_tiny_model(tmp_path / "tiny-gpt2", "gpt2", positions=512)
    result = run_benchmark(
        "filbbq",
        f"hf:{folder}",
        out=tmp_path / "run",
        limit=8,
        seeds=[0, 1],
        progress=False,
        benchmark_options={"templates": templates},
    )
    assert result.stats.total == 8 and result.stats.failed == 0
    model = result.results["signature"]["model"]["tiny-gpt2"]
    assert (model["answers_by"], model["option_text"]) == (
        "option log-likelihood",
        "prompt + ' ' + option",
    )
    for entry in result.results["models"]["tiny-gpt2"].values():
        assert entry["unparsed_pct"] == 0 and entry["seeds_run"] == 1


def test_causal_lm_generates_under_each_seed(tmp_path: Path, templates: Path) -> None:
    folder = build_tiny_model(tmp_path / "tiny-gpt2", "gpt2", positions=512)
    result = run_benchmark(
        "filbbq",
        f"hf:{folder}",
        out=tmp_path / "run",
        limit=8,
        seeds=[0, 1],
        max_tokens=4,
        progress=False,
        benchmark_options={"templates": templates, "answer_by": "generate"},
    )
    assert result.stats.total == 16 and result.stats.failed == 0
    assert result.results["signature"]["decoding"]["temperature"] == 1.0
    assert result.results["signature"]["seeds"] == [0, 1]
