"""Stage 2 of a run, collect: send what the store lacks (locally or on Ray) and read back this
run's responses."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from biasbench.models.registry import ModelOptions
from biasbench.output_health import is_truncated
from biasbench.pipeline.opening import OpenRun
from biasbench.pipeline.plan import model_label
from biasbench.runner.runner import Request, RunStats, run_requests_sync
from biasbench.runner.store import ResponseStore


def collect(opened: OpenRun) -> tuple[RunStats, pd.DataFrame, str]:
    """Send what the store lacks (locally or on Ray) and read back this run's responses."""
    plan, s = opened.plan, opened.plan.spec
    if s.distributed:
        from biasbench.runner.distributed import run_requests_ray

        stats = run_requests_ray(
            s.model,
            s.model_options or ModelOptions(),
            plan.backend,
            plan.requests,
            plan.params,
            opened.store,
            address=s.ray_address,
            workers=s.ray_workers or 2,
            concurrency=s.concurrency,
            retry=s.retry,
            progress=s.progress,
        )
    else:
        stats = run_requests_sync(
            plan.backend,
            plan.requests,
            plan.params,
            opened.store,
            concurrency=s.concurrency,
            progress=s.progress,
            retry=s.retry,
        )
    label = model_label(plan.backend)
    return stats, responses_frame(opened.store, plan.requests, opened.keys, label), label


def responses_frame(
    store: ResponseStore, requests: Sequence[Request], keys: Sequence[str], model: str
) -> pd.DataFrame:
    """The stored ok responses for exactly this run's requests (not earlier configurations).

    Joined through each request's key, so two items whose prompts coincide each get the answer.
    Each row carries the backend's ``finish_reason`` and a ``truncated`` flag (stopped at
    ``max_tokens``), so judges can flag labels that rest on a cut-off output, and ``info``, the
    backend's extras as stored (JSON text: an option-scored answer's choices under both rules,
    which the BBQ engine compares), so no judge reopens the store.
    """
    answers = store.answers()
    rows = [
        {
            "model": model,
            "item_id": r.item_id,
            "seed": r.seed,
            "output": answers[k][0],
            "finish_reason": answers[k][1],
            "truncated": is_truncated(answers[k][1]),
            "info": answers[k][2],
        }
        for r, k in zip(requests, keys, strict=True)
        if k in answers
    ]
    return pd.DataFrame(
        rows, columns=["model", "item_id", "seed", "output", "finish_reason", "truncated", "info"]
    )
