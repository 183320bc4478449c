"""Stage 1 of a run, open: under the folder's lock, refuse another configuration, bind the
store, clear a killed writer's leftovers, write the manifest saying ``running`` and begin the
invocation's history entry."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.jsonutil import write_json
from biasbench.models.urls import display_url
from biasbench.pipeline.plan import RunPlan
from biasbench.runfolder import HISTORY_NAME, MANIFEST_NAME, STORE_NAME, RunFolderError
from biasbench.runfolder.derived import clean_leftovers
from biasbench.runfolder.history import append_history, read_history
from biasbench.runfolder.identity import identity, identity_conflict
from biasbench.runfolder.records import (
    SCHEMA_VERSION,
    HistoryEntry,
    InvocationOptions,
    RunManifest,
    history_entries,
    read_manifest,
)
from biasbench.runfolder.targets import run_target_refusal
from biasbench.runner.runner import request_keys
from biasbench.runner.store import ResponseStore
from biasbench.version import __version__


@dataclass
class OpenRun:
    """A run folder opened for one invocation: locked, its store bound, the manifest saying
    ``running``, the history entry begun."""

    plan: RunPlan
    store: ResponseStore
    keys: list[str]
    history: list[HistoryEntry]
    manifest: RunManifest
    entry: HistoryEntry


def open_run(plan: RunPlan, model_spec: str | None) -> OpenRun:
    """Under the folder's lock: refuse another configuration, bind the store, clear a killed
    writer's leftovers, and write the manifest saying ``running`` (until scoring finishes the
    folder's derived files are not vouched for, so readers refuse them)."""
    run_dir, signature = plan.run_dir, plan.signature
    refusal = run_target_refusal(run_dir)  # again under the lock: it may have changed
    if refusal:
        raise RunFolderError(refusal)
    wanted = identity(signature.model_dump(), plan.spec.limit)
    _check_manifest_identity(run_dir, wanted)
    store = ResponseStore(run_dir / STORE_NAME)
    try:
        description = plan.backend.describe()
        _bind(store, wanted, run_dir, description, plan.params.to_dict())
        clean_leftovers(run_dir)
        history = _seed_history(run_dir)
        keys = request_keys(plan.backend, plan.requests, plan.params)
        started = time.time()
        first = history[0].started_at if history else None
        manifest = RunManifest(
            schema_version=SCHEMA_VERSION,
            biasbench=__version__,
            kind="run",
            benchmark=plan.bench.name,
            model_spec=model_spec,
            model=description,
            signature=signature.model_dump(),
            signature_short=signature.short(),
            identity=wanted,
            limit=plan.spec.limit,
            seeds=list(signature.seeds or []),  # the effective seeds, as the signature's
            executor=plan.spec.executor,
            n_requests=len(plan.requests),
            n_unique_requests=len(set(keys)),
            status="running",
            pid=os.getpid(),
            started_at=started,
            first_started_at=started if first is None else first,
        )
        entry = HistoryEntry(
            kind="run",
            biasbench=__version__,
            started_at=started,
            pid=os.getpid(),
            signature_short=signature.short(),
            options=_history_options(plan, model_spec),
        )
        write_json(manifest.to_json(), run_dir / MANIFEST_NAME)
    except BaseException:
        store.close()
        raise
    return OpenRun(plan, store, keys, history, manifest, entry)


def _check_manifest_identity(run_dir: Path, wanted: dict[str, Any]) -> None:
    """A run folder whose store is gone still says, in its manifest, what it held: another
    configuration is refused as the store would refuse it."""
    if (run_dir / STORE_NAME).exists() or not (run_dir / MANIFEST_NAME).is_file():
        return
    try:
        found = json.loads((run_dir / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return
    held = found.get("identity") if isinstance(found, dict) else None
    if isinstance(held, dict):
        conflict = identity_conflict(held, wanted, run_dir)
        if conflict:
            raise RunFolderError(conflict)


def _bind(
    store: ResponseStore,
    wanted: dict[str, Any],
    run_dir: Path,
    description: dict[str, Any],
    decoding: dict[str, Any],
) -> None:
    """Bind the store to this run's configuration, or refuse one that holds another."""
    held = store.get_meta("identity")
    if held is None:
        # A store of an older biasbench (no identity recorded): judge by what its rows hold.
        for model_json, params_json in store.configurations():
            if json.loads(model_json) != description or json.loads(params_json) != decoding:
                raise RunFolderError(
                    f"run folder {run_dir} holds answers of another configuration "
                    f"({_short_model(model_json)}); a run folder holds one configuration: "
                    "pass another --out"
                )
        store.set_meta("identity", wanted)
        return
    conflict = identity_conflict(held, wanted, run_dir)
    if conflict:
        raise RunFolderError(conflict)


def _short_model(model_json: str) -> str:
    try:
        found = json.loads(model_json)
        return f"{found.get('kind')}:{found.get('model')}"
    except (ValueError, AttributeError):
        return "unknown model"


def _seed_history(run_dir: Path) -> list[HistoryEntry]:
    """The folder's history; a folder written before histories existed gets one first line
    rebuilt from its manifest (the last invocation it recorded), so its timing is kept."""
    history = history_entries(read_history(run_dir), run_dir / HISTORY_NAME)
    if history:
        return history
    try:
        found = read_manifest(run_dir / MANIFEST_NAME)
    except (OSError, ValueError):  # pydantic's ValidationError is a ValueError
        return []
    if (
        not isinstance(found, RunManifest)
        or "kind" not in found.model_fields_set
        or found.started_at is None
    ):
        return []
    end = found.finished_at or found.stopped_at
    counts = found.counts or {}
    entry = HistoryEntry(
        kind="run",
        biasbench=found.biasbench,
        started_at=found.started_at,
        finished_at=end,
        elapsed_s=round(end - found.started_at, 3) if end else None,
        requests_elapsed_s=counts.get("elapsed_s"),
        status=found.status,
        counts={k: v for k, v in counts.items() if k != "output_health"},
        signature_short=found.signature_short,
        source=f"rebuilt from {MANIFEST_NAME} (written before {HISTORY_NAME} existed)",
    )
    append_history(run_dir, entry.to_json())
    return [entry]


def _history_options(plan: RunPlan, model_spec: str | None) -> InvocationOptions:
    """The options of an invocation, as the history records them (never a credential)."""
    s = plan.spec
    found = InvocationOptions(
        benchmark=plan.bench.name,
        model_spec=model_spec,
        limit=s.limit,
        seeds=plan.seeds,
        decoding=plan.params.to_dict(),
        concurrency=s.concurrency,
        executor=s.executor,
        benchmark_options=dict(s.benchmark_options),
    )
    options = s.model_options
    if options is not None:
        shown = {k: v for k, v in options.__dict__.items() if k != "model_args"}
        if options.base_url:
            shown["base_url"] = display_url(options.base_url)
        shown["model_args"] = {
            k: "***" if _SECRET.search(k) else v for k, v in options.model_args.items()
        }
        found.model_options = shown
    return found


_SECRET = re.compile(r"key|token|secret|password|auth", re.IGNORECASE)
