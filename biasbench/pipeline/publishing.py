"""Stage 4 of a run, publish: move the staged files into place, vouch for them in the manifest
and append the history line; and, whatever stopped a run, say why in both."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from biasbench.jsonutil import write_json
from biasbench.pipeline.opening import OpenRun
from biasbench.pipeline.scoring import Scored
from biasbench.runfolder import HISTORY_NAME, MANIFEST_NAME
from biasbench.runfolder.derived import publish
from biasbench.runfolder.history import append_history
from biasbench.runfolder.records import HistoryEntry
from biasbench.runner.runner import RunStats
from biasbench.signals import received_signal_name

log = logging.getLogger("biasbench.pipeline")  # one logger for the whole pipeline


def publish_run(opened: OpenRun, scored: Scored) -> None:
    """Move the staged files into place, then vouch for them in the manifest (each file's
    bytes and digest, the store's ``ok`` count and digest) and append the history line."""
    run_dir, manifest, store = opened.plan.run_dir, opened.manifest, opened.store
    try:
        files = publish(scored.staging, run_dir)
        store_ok = store.counts()["ok"]
        store_sha256 = store.answers_digest()
    except BaseException as exc:
        record_interruption(opened, exc, scored.stats)
        raise
    manifest.status = "complete" if scored.stats.failed == 0 else "incomplete"
    manifest.finished_at = time.time()
    manifest.counts = {
        **scored.counts,
        "elapsed_s": round(scored.stats.elapsed_s, 3),
        "output_health": scored.health,
    }
    manifest.derived = {
        "files": files,
        "store_ok": store_ok,
        "store_sha256": store_sha256,
        "responses_scored": scored.responses_scored,
    }
    write_json(manifest.to_json(), run_dir / MANIFEST_NAME)
    _append_history(run_dir, opened.entry)


def record_interruption(opened: OpenRun, exc: BaseException, stats: RunStats | None) -> None:
    """Whatever stopped the run, finished responses are in the store: the manifest and the
    history say why."""
    run_dir, manifest, entry = opened.plan.run_dir, opened.manifest, opened.entry
    manifest.status, manifest.error, manifest.stopped_at = (
        "interrupted",
        stop_reason(exc),
        time.time(),
    )
    try:
        write_json(manifest.to_json(), run_dir / MANIFEST_NAME)
    except OSError as write_error:  # a full disk: the error that stopped the run is the one
        # to report; the manifest still says "running", which a rerun reads as stopped
        log.warning(
            "could not record the interruption in %s: %s", run_dir / MANIFEST_NAME, write_error
        )
    stopped = time.time()
    entry.status, entry.error, entry.finished_at = "interrupted", stop_reason(exc), stopped
    entry.elapsed_s = round(stopped - (entry.started_at or stopped), 3)
    if stats is not None:
        entry.counts = {
            "requests": stats.total,
            "cached": stats.cached,
            "completed": stats.completed,
            "failed": stats.failed,
        }
    _append_history(run_dir, entry)


def _append_history(run_dir: Path, entry: HistoryEntry) -> None:
    """Record the invocation; a history that cannot be written (full disk) is a warning, not a
    failed run: the answers and results are already saved, and an error here would hide why a
    run stopped."""
    try:
        append_history(run_dir, entry.to_json())
    except OSError as exc:
        log.warning("could not append to %s: %s", run_dir / HISTORY_NAME, exc)


def stop_reason(exc: BaseException) -> str:
    """Why a run stopped, in words for the manifest (a signal is named)."""
    if isinstance(exc, KeyboardInterrupt):
        return f"interrupted by {received_signal_name()}"
    return str(exc) or type(exc).__name__
