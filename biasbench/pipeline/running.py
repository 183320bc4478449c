"""A run of one benchmark against one model into one run folder, through its four stages in
order: open, collect, score, publish."""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasbench.arguments import check_int
from biasbench.models.base import ModelBackend
from biasbench.models.registry import DEFAULT_MODEL
from biasbench.pipeline.collecting import collect
from biasbench.pipeline.opening import open_run
from biasbench.pipeline.plan import as_spec, plan_run
from biasbench.pipeline.publishing import publish_run, record_interruption
from biasbench.pipeline.scoring import score
from biasbench.runfolder import RunFolderError
from biasbench.runfolder.lock import FolderMovedError, run_lock
from biasbench.runfolder.targets import run_target_refusal
from biasbench.runner.runner import RunStats
from biasbench.runspec import RunSpec


@dataclass
class RunResult:
    run_dir: Path
    stats: RunStats
    results: dict[str, Any]
    summary: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.stats.failed == 0


def run_benchmark(
    benchmark: str | RunSpec,
    model: str = DEFAULT_MODEL,
    *,
    backend: ModelBackend | None = None,
    **fields: Any,
) -> RunResult:
    """Run ``benchmark`` on ``model`` into ``out`` (resuming what is already stored), then score:
    :func:`run` of the :class:`~biasbench.runspec.RunSpec` its arguments describe (``options``
    is the spec's ``model_options``)."""
    return run(as_spec(benchmark, model, **fields), backend)


def run(spec: RunSpec, backend: ModelBackend | None = None) -> RunResult:
    """Run ``spec`` (resuming what its folder already stores), then score, in four stages:
    :func:`open_run` (lock, bind, manifest ``running``), :func:`collect` (send what is missing,
    read back), :func:`score` (judge into a staging folder) and :func:`publish_run` (move the
    files into place, manifest and history).

    With ``ray_workers`` or ``ray_address`` the requests are sharded over Ray actors, each
    building its own replica or client from the model spec; the store stays with this process.

    The folder is locked for the whole call (another writer fails with one line, or queues
    behind this one with ``wait``), bound to one configuration, and its derived files are
    replaced only once all are written (see :mod:`biasbench.runfolder`). Every invocation that
    gets the lock appends its options, counts and timing to the folder's ``history.jsonl``;
    results.json's ``run`` keeps the first invocation's timing and the latest's.
    """
    check_int("concurrency", spec.concurrency, minimum=1, optional=False)
    plan = plan_run(spec, backend)
    model_spec = None if backend is not None else spec.model  # a backend object has no spec
    refusal = run_target_refusal(plan.run_dir)  # before the folder is touched: no lock file left
    if refusal:
        raise RunFolderError(refusal)
    plan.run_dir.mkdir(parents=True, exist_ok=True)
    with run_lock(plan.run_dir, wait=spec.wait) as hold:
        opened = open_run(plan, model_spec)
        try:
            stats: RunStats | None = None
            try:
                stats, frame, label = collect(opened)
                hold.check_in_place()  # before anything is written by path (staging, files)
                scored = score(opened, stats, frame, label)
                try:
                    hold.check_in_place()
                except FolderMovedError:
                    _remove_stray_staging(scored.staging, plan.run_dir)
                    raise
            except FolderMovedError:
                raise  # nothing is written at the old path, not even the manifest
            except BaseException as exc:
                record_interruption(opened, exc, stats)
                raise
            publish_run(opened, scored)
        finally:
            opened.store.close()
    return RunResult(plan.run_dir, scored.stats, scored.results, scored.summary)


def _remove_stray_staging(staging: Path, run_dir: Path) -> None:
    """A folder moved while it was scored: scoring's staging folder re-created the old path;
    remove it (and the old path, if that is all it holds), so no half of the run is left."""
    shutil.rmtree(staging, ignore_errors=True)
    with contextlib.suppress(OSError):
        run_dir.rmdir()  # only when empty
