"""Stage 3 of a run, score: judge and score this run's responses into a staging folder, with
output health and the run's counts and timing in results.json."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.output_health import health_line, output_health
from biasbench.pipeline.opening import OpenRun
from biasbench.progress import heartbeat
from biasbench.runfolder.derived import staging_dir, write_results
from biasbench.runfolder.records import HistoryEntry
from biasbench.runner.runner import RunStats


@dataclass
class Scored:
    """What scoring left in the staging folder, and what the manifest and summary say of it."""

    staging: Path
    stats: RunStats
    results: dict[str, Any]
    summary: list[str]
    health: dict[str, Any]
    counts: dict[str, int]
    responses_scored: int


def score(opened: OpenRun, stats: RunStats, frame: pd.DataFrame, label: str) -> Scored:
    """Judge and score this run's responses into a staging folder, with output health and the
    run's counts and timing in results.json."""
    plan, entry, history = opened.plan, opened.entry, opened.history
    signature = plan.signature
    staging = staging_dir(plan.run_dir)
    if frame.empty:
        results = {
            "schema_version": 1,
            "benchmark": plan.bench.name,
            "models": {},
            "signature": {**signature.model_dump(), "short": signature.short()},
            "note": "no successful responses to score",
        }
        summary = [f"{label}: no successful responses to score"]
    else:
        with heartbeat(f"scoring {len(frame):,} responses", plan.spec.progress):
            results = plan.bench.evaluate(frame, staging, {label: signature})
        summary = plan.bench.summary(results)
    health = output_health(frame) if not frame.empty else {}
    results["output_health"] = health
    summary += [line for m, h in health.items() if (line := health_line(m, h))]
    counts = {
        "requests": stats.total,
        "cached": stats.cached,
        "completed": stats.completed,
        "failed": stats.failed,
    }
    finished = time.time()
    entry.finished_at = finished
    entry.elapsed_s = round(finished - (entry.started_at or finished), 3)
    entry.requests_elapsed_s = round(stats.elapsed_s, 3)
    entry.counts = {**counts, "empty": stats.empty, "calls": stats.calls}
    entry.status = "complete" if stats.failed == 0 else "incomplete"
    # The first invocation's timing is kept: a rerun that only rescored (0.1 s) must not
    # replace the 31 minutes the answers took.
    results["run"] = {
        **counts,
        "invocations": len(history) + 1,
        "first": _timing(history[0] if history else entry),
        "latest": _timing(entry),
    }
    write_results(results, staging)
    return Scored(staging, stats, results, summary, health, counts, len(frame))


def _timing(entry: HistoryEntry) -> dict[str, Any]:
    return {
        name: getattr(entry, name)
        for name in ("started_at", "finished_at", "elapsed_s", "requests_elapsed_s", "biasbench")
    } | {"completed": (entry.counts or {}).get("completed")}
