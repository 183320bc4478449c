"""One benchmark against one model, into one run folder: the library call behind ``biasbench run``.

Run folder layout::

    RUN_DIR/
      responses.sqlite   every request and response (the source of truth; resumable)
      manifest.json      signature, command options, counts, status
      labels.jsonl       one label with its evidence per response
      results.json       scores with their statistics and the signature
      tables/            Markdown, CSV and LaTeX tables
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

import biasbench
from biasbench.benchmarks import get_benchmark
from biasbench.errors import BiasbenchError
from biasbench.jsonutil import write_json
from biasbench.models.base import ModelBackend
from biasbench.models.registry import DEFAULT_MODEL, ModelOptions, load_model
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.runner import Request, RunStats, request_keys, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.textutil import slug

log = logging.getLogger(__name__)

STORE_NAME = "responses.sqlite"
MANIFEST_NAME = "manifest.json"


def model_label(backend: ModelBackend) -> str:
    """Short display name of a model (the id without its weights digest after @ or #)."""
    return re.split(r"[@#]", backend.model_id, maxsplit=1)[0]


def default_run_dir(benchmark: str, backend: ModelBackend, root: Path = Path("runs")) -> Path:
    """A deterministic folder per (benchmark, model), so rerunning the same command resumes."""
    return root / f"{benchmark}--{slug(model_label(backend))}"


@dataclass
class RunResult:
    run_dir: Path
    stats: RunStats
    results: dict[str, Any]
    summary: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.stats.failed == 0


def responses_frame(store: ResponseStore, requests: Sequence[Request], keys: Sequence[str],
                    model: str) -> pd.DataFrame:
    """The stored ok responses for exactly this run's requests (not earlier configurations).

    Joined through each request's key, so two items whose prompts coincide each get the answer.
    """
    outputs = store.outputs()
    rows = [{"model": model, "item_id": r.item_id, "seed": r.seed, "output": outputs[k]}
            for r, k in zip(requests, keys, strict=True) if k in outputs]
    return pd.DataFrame(rows, columns=["model", "item_id", "seed", "output"])


def run_benchmark(benchmark: str, model: str = DEFAULT_MODEL, *,
                  options: ModelOptions | None = None, out: Path | None = None,
                  limit: int | None = None, concurrency: int = 8,
                  seeds: Sequence[int] | None = None, temperature: float | None = None,
                  max_tokens: int | None = None, progress: bool = True,
                  backend: ModelBackend | None = None,
                  benchmark_options: dict[str, Any] | None = None,
                  retry: RetryPolicy | None = None, ray_address: str | None = None,
                  ray_workers: int | None = None) -> RunResult:
    """Run ``benchmark`` on ``model`` into ``out`` (resuming what is already stored), then score.

    With ``ray_workers`` or ``ray_address`` the requests are sharded over Ray actors, each
    building its own replica or client from ``model``; the store stays with this process.
    """
    bench = get_benchmark(benchmark, **(benchmark_options or {}))
    distributed = bool(ray_workers or ray_address)
    if distributed and backend is not None:
        raise BiasbenchError("a Ray run builds its models from the model spec; pass no backend")
    backend = backend or load_model(model, options)
    if hasattr(bench, "adapt_backend"):
        adapted = bench.adapt_backend(backend)
        if distributed and adapted is not backend:
            raise BiasbenchError(f"{backend.model_id} answers by option scores, which runs "
                                 "locally: drop --ray-workers/--ray-address")
        backend = adapted
    if getattr(backend, "deterministic", False) and (seeds is None or len(seeds) > 1):
        # Scoring options is deterministic: every seed would give the same answers.
        log.warning("%s answers deterministically; running one seed instead of many",
                    backend.model_id)
        seeds = [0]
    params = bench.params_for(backend, temperature=temperature, max_tokens=max_tokens)
    requests = bench.requests(limit=limit, seeds=seeds)
    description = backend.describe()
    signature = bench.signature(description, params, seeds, limit=limit)
    run_dir = out or default_run_dir(bench.name, backend)
    run_dir.mkdir(parents=True, exist_ok=True)
    keys = request_keys(backend, requests, params)
    manifest: dict[str, Any] = {
        "schema_version": 1, "biasbench": biasbench.__version__, "benchmark": bench.name,
        "model_spec": model, "model": description, "signature": signature.model_dump(),
        "signature_short": signature.short(), "limit": limit, "seeds": list(seeds or []),
        "executor": {"kind": "ray", "address": ray_address, "workers": ray_workers or 2}
        if distributed else {"kind": "local", "concurrency": concurrency},
        "n_requests": len(requests), "n_unique_requests": len(set(keys)), "status": "running", "started_at": time.time()}
    write_json(manifest, run_dir / MANIFEST_NAME)
    try:
        stats, frame, label = _collect(backend, requests, keys, params, run_dir, model, options,
                                       distributed, ray_address, ray_workers, concurrency,
                                       retry, progress)
        if frame.empty:
            results = {"schema_version": 1, "benchmark": bench.name, "models": {},
                       "signature": {**signature.model_dump(), "short": signature.short()},
                       "note": "no successful responses to score"}
            summary = [f"{label}: no successful responses to score"]
        else:
            results = bench.evaluate(frame, run_dir, {label: signature})
            summary = bench.summary(results)
    except BaseException as exc:
        # Whatever stopped the run, finished responses are in the store: say why it stopped.
        manifest.update(status="interrupted", error=str(exc) or type(exc).__name__)
        write_json(manifest, run_dir / MANIFEST_NAME)
        raise
    results["run"] = {"requests": stats.total, "cached": stats.cached, "completed": stats.completed,
                      "failed": stats.failed, "elapsed_s": round(stats.elapsed_s, 3)}
    write_json(results, run_dir / "results.json")
    manifest.update(status="complete" if stats.failed == 0 else "incomplete",
                    finished_at=time.time(), counts=results["run"])
    write_json(manifest, run_dir / MANIFEST_NAME)
    return RunResult(run_dir, stats, results, summary)


def _collect(backend: ModelBackend, requests: Sequence[Request], keys: Sequence[str],
             params: Any, run_dir: Path, model: str, options: ModelOptions | None,
             distributed: bool, ray_address: str | None, ray_workers: int | None,
             concurrency: int, retry: RetryPolicy | None,
             progress: bool) -> tuple[RunStats, pd.DataFrame, str]:
    """Send what the store lacks (locally or on Ray) and read back this run's responses."""
    store = ResponseStore(run_dir / STORE_NAME)
    try:
        if distributed:
            from biasbench.runner.distributed import run_requests_ray

            stats = run_requests_ray(model, options or ModelOptions(), backend, requests, params,
                                     store, address=ray_address, workers=ray_workers or 2,
                                     concurrency=concurrency, retry=retry, progress=progress)
        else:
            stats = run_requests_sync(backend, requests, params, store,
                                      concurrency=concurrency, progress=progress, retry=retry)
        label = model_label(backend)
        return stats, responses_frame(store, requests, keys, label), label
    finally:
        store.close()
