"""One benchmark against one model, into one run folder: the library call behind ``biasbench run``.

A run reads as its stages, one module each: :mod:`~biasbench.pipeline.plan` (the spec turned
into a benchmark, a backend, requests, a signature and a folder; nothing sent or written), then
:func:`~biasbench.pipeline.running.run` through :mod:`~biasbench.pipeline.opening` (lock, bind
the store, manifest ``running``), :mod:`~biasbench.pipeline.collecting` (send what is missing,
read back), :mod:`~biasbench.pipeline.scoring` (judge into a staging folder) and
:mod:`~biasbench.pipeline.publishing` (files into place, manifest, history). Beside them:
:mod:`~biasbench.pipeline.dry_run` (``--dry-run``) and :mod:`~biasbench.pipeline.score_folder`
(``biasbench score``). The run folder's layout (file names) is defined once, in
:mod:`biasbench.runfolder`.
"""

from __future__ import annotations

from biasbench.pipeline.collecting import responses_frame
from biasbench.pipeline.dry_run import DryRun, dry_run
from biasbench.pipeline.plan import (
    RunPlan,
    as_spec,
    check_base_url,
    default_run_dir,
    folder_name,
    model_label,
    plan_run,
)
from biasbench.pipeline.publishing import stop_reason
from biasbench.pipeline.running import RunResult, run, run_benchmark
from biasbench.pipeline.score_folder import score_into

__all__ = [
    "DryRun",
    "RunPlan",
    "RunResult",
    "as_spec",
    "check_base_url",
    "default_run_dir",
    "dry_run",
    "folder_name",
    "model_label",
    "plan_run",
    "responses_frame",
    "run",
    "run_benchmark",
    "score_into",
    "stop_reason",
]
