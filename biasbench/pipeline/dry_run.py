"""``biasbench run --dry-run``: what a run would do, without sending a request or creating or
changing anything."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.models.base import ModelBackend
from biasbench.models.registry import DEFAULT_MODEL
from biasbench.pipeline.plan import as_spec, plan_run
from biasbench.runfolder import STORE_NAME
from biasbench.runfolder.identity import identity, identity_conflict
from biasbench.runfolder.targets import run_target_refusal
from biasbench.runner.store import ResponseStore
from biasbench.runspec import RunSpec
from biasbench.signature import Signature


@dataclass
class DryRun:
    """What ``run`` would do (``biasbench run --dry-run``): counts, first prompt, signature."""

    run_dir: Path
    requests: int
    """Distinct requests of the run (a prompt asked twice under one seed counts once)."""
    stored: int
    """Of those, already answered in the run folder's store (not sent again)."""
    first_prompt: str | None
    """The first request's prompt, rendered as the model would receive it."""
    signature: Signature
    folder_exists: bool
    refusal: str | None = None
    """Why the run folder would refuse this run (it holds another configuration), if it would."""

    @property
    def to_send(self) -> int:
        return self.requests - self.stored

    def lines(self) -> list[str]:
        where = "exists" if self.folder_exists else "would be created"
        lines = [
            "dry run: nothing sent, nothing written",
            f"run folder: {self.run_dir} ({where})",
            f"requests: {self.requests:,} ({self.stored:,} already stored, "
            f"{self.to_send:,} would be sent)",
            f"signature: {self.signature.short()}",
        ]
        if self.refusal:
            lines.append(f"refused: {self.refusal}")
        lines += [
            "first prompt:",
            self.first_prompt if self.first_prompt is not None else "(no requests)",
        ]
        return lines


def dry_run(
    benchmark: str | RunSpec,
    model: str = DEFAULT_MODEL,
    *,
    backend: ModelBackend | None = None,
    **fields: Any,
) -> DryRun:
    """What :func:`run_benchmark` with the same arguments would do, without sending a request or
    creating or changing anything (the store, when there is one, is opened read-only)."""
    plan = plan_run(as_spec(benchmark, model, **fields), backend)
    keys = plan.keys()
    distinct = set(keys)
    stored, refusal = 0, run_target_refusal(plan.run_dir)
    store_path = plan.run_dir / STORE_NAME
    if store_path.is_file():
        with ResponseStore(store_path, readonly=True) as store:
            stored = len(distinct & store.completed_keys())
            held = store.get_meta("identity")
        if held is not None:
            refusal = identity_conflict(
                held, identity(plan.signature.model_dump(), plan.spec.limit), plan.run_dir
            )
    first = plan.requests[0].prompt.text_for(plan.backend.mode) if plan.requests else None
    return DryRun(
        plan.run_dir, len(distinct), stored, first, plan.signature, plan.run_dir.exists(), refusal
    )
