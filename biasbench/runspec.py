"""One run, as its caller asked for it: built once (by ``biasbench run`` or the Python API) and
passed down to the pipeline, which decides the rest (:class:`biasbench.pipeline.RunPlan`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasbench.models.registry import DEFAULT_MODEL, ModelOptions
from biasbench.runner.retry import RetryPolicy


@dataclass(frozen=True)
class RunSpec:
    """What ``biasbench run NAME ...`` (or ``biasbench.run``) asks for, before anything is
    loaded. Values are as given: the pipeline checks them (one line per bad value) and turns
    them into a plan (the benchmark's own seeds and decoding where these are None)."""

    benchmark: str
    """The registered benchmark's name."""
    model: str = DEFAULT_MODEL
    """The model spec (``llamacpp``, ``openai:NAME``, ``hf:NAME``, ``mock:SCRIPT``...)."""
    model_options: ModelOptions | None = None
    """The backend's options (``--base-url``, ``-M key=value``...); None: the defaults, and
    the history records none."""
    out: Path | None = None
    """The run folder; None: ``runs/BENCHMARK--MODEL`` (with the limit and seeds)."""
    limit: int | None = None
    """Run only N items (which ones: the benchmark's ``limit_help``)."""
    seeds: Sequence[int] | None = None
    """The seeds asked for; None: the benchmark's own (the plan holds the effective ones)."""
    temperature: float | None = None
    """None: the benchmark's decoding."""
    max_tokens: int | None = None
    """None: the benchmark's generation cap."""
    concurrency: int = 8
    """Requests in flight at once (a local batched backend keeps its own)."""
    progress: bool = True
    """Show progress on stderr."""
    benchmark_options: Mapping[str, Any] = field(default_factory=dict)
    """The benchmark's own options that were set (away from their defaults)."""
    retry: RetryPolicy | None = None
    """How failing and empty answers are retried; None: the runner's default policy."""
    ray_address: str | None = None
    """Shard the requests over this Ray cluster."""
    ray_workers: int | None = None
    """Ray actors (a local Ray instance without ``ray_address``)."""
    wait: bool = False
    """Queue behind another writer of the folder instead of exiting."""

    @property
    def distributed(self) -> bool:
        """Whether the requests go to Ray actors."""
        return bool(self.ray_workers or self.ray_address)

    @property
    def executor(self) -> dict[str, Any]:
        """Where the requests are sent, as the manifest and history record it."""
        if self.distributed:
            return {"kind": "ray", "address": self.ray_address, "workers": self.ray_workers or 2}
        return {"kind": "local", "concurrency": self.concurrency}
