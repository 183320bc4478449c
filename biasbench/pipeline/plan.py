"""Planning a run: the caller's :class:`~biasbench.runspec.RunSpec` turned into a benchmark, a
backend, decoding, requests, a signature and a folder, before anything is sent or written (and
the checks that refuse a run before then)."""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from biasbench.arguments import check_run_arguments
from biasbench.errors import BiasbenchError, ModelSpecError
from biasbench.models.base import GenerationParams, ModelBackend
from biasbench.models.registry import DEFAULT_MODEL, check_model_spec, load_model
from biasbench.registry import Benchmark, get_benchmark
from biasbench.runner.runner import Request, request_keys
from biasbench.runspec import RunSpec
from biasbench.signature import Signature
from biasbench.textutil import slug

log = logging.getLogger("biasbench.pipeline")  # one logger for the whole pipeline


def model_label(backend: ModelBackend) -> str:
    """Short display name of a model (the id without its weights digest after @ or #)."""
    return re.split(r"[@#]", backend.model_id, maxsplit=1)[0]


# A weights digest appended by a backend: "<size>-<hex>" (llama.cpp) or hex (transformers).
_DIGEST = re.compile(r"^(\d+-)?[0-9a-f]{8,64}$")


def folder_name(backend: ModelBackend) -> str:
    """The default folder name of a model: its display slug, made unique when the slug loses
    part of the name.

    The slug drops a weights digest after @ or # (backends append one) and replaces characters
    a file name cannot hold. When it dropped anything else (``openai:m@2024-08-06``) or
    changed a character (``org/model``), 8 hex digits of the full model id are appended, so
    that two model names that differ never share a folder.
    """
    label = model_label(backend)
    name = slug(label).strip("._") or "model"  # never a hidden name or a path part
    rest = backend.model_id[len(label) + 1 :]
    if name != label or (rest and not _DIGEST.match(rest)):
        digest = hashlib.sha256(backend.model_id.encode("utf-8")).hexdigest()[:8]
        name = f"{name}-{digest}"
    return name


def default_run_dir(
    benchmark: str,
    backend: ModelBackend,
    root: Path = Path("runs"),
    *,
    limit: int | None = None,
    seeds: Sequence[int] | None = None,
) -> Path:
    """A deterministic folder per (benchmark, model[, limit, seeds]): rerunning the same
    command resumes, and a ``--limit`` or ``--seeds`` run never lands in the full run's folder."""
    name = f"{benchmark}--{folder_name(backend)}"
    if limit:
        name += f"--limit{limit}"
    if seeds:
        name += f"--seeds{len(seeds)}"
    return root / name


def check_base_url(url: str, api_key_env: str = "OPENAI_API_KEY") -> None:
    """Refuse, in one line that never shows credentials, a base URL that cannot work: no
    http(s) scheme or host, a port that is not a number in 1-65535, or user:password in the
    URL while an API key is set too (two Authorization headers: the HTTP client refuses)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # e.g. an unclosed IPv6 bracket
        raise ModelSpecError("--base-url does not parse as a URL") from None
    netloc = parts.netloc.rsplit("@", 1)[-1]
    shown = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelSpecError(f"--base-url must be http(s)://HOST[:PORT]/..., not {shown!r}")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        raise ModelSpecError(f"--base-url {shown}: the port must be a number from 1 to 65535")
    if (parts.username or parts.password) and os.environ.get(api_key_env):
        raise ModelSpecError(
            f"--base-url {shown} carries credentials (user:password@) and ${api_key_env} holds "
            "an API key too: use one of them"
        )


@dataclass
class RunPlan:
    """Everything a run is decided by, before anything is sent or written: the caller's
    :class:`~biasbench.runspec.RunSpec` turned into a benchmark, a backend, decoding, requests,
    a signature and a folder."""

    spec: RunSpec
    bench: Benchmark
    backend: ModelBackend
    params: GenerationParams
    requests: list[Request]
    seeds: list[int] | None
    """The seeds as asked (after a deterministic backend's one seed); the benchmark's own
    default applies when None, and ``signature.seeds`` holds the effective ones."""
    signature: Signature
    run_dir: Path

    @property
    def distributed(self) -> bool:
        return self.spec.distributed

    def keys(self) -> list[str]:
        return request_keys(self.backend, self.requests, self.params)


def as_spec(benchmark: str | RunSpec, model: str = DEFAULT_MODEL, **fields: Any) -> RunSpec:
    """``benchmark`` when it is a spec already; else the spec of the keyword form
    (``run_benchmark(NAME, "mock:x", limit=4, options=...)``)."""
    if isinstance(benchmark, RunSpec):
        if fields or model != DEFAULT_MODEL:
            raise TypeError("pass a RunSpec or keyword arguments, not both")
        return benchmark
    if "options" in fields:
        fields["model_options"] = fields.pop("options")
    if "benchmark_options" in fields and fields["benchmark_options"] is None:
        del fields["benchmark_options"]  # None, as the keyword form always took: none set
    return RunSpec(benchmark, model, **fields)


def plan_run(spec: RunSpec, backend: ModelBackend | None = None) -> RunPlan:
    """Load the benchmark and the model and decide the run's requests, decoding, signature
    and folder; nothing is sent and nothing is written. ``backend`` replaces the model spec
    with a backend object."""
    s = spec
    check_run_arguments(
        benchmark=s.benchmark,
        model=s.model,
        out=s.out,
        limit=s.limit,
        seeds=s.seeds,
        temperature=s.temperature,
        max_tokens=s.max_tokens,
    )
    options = s.model_options
    if options is not None and options.base_url:
        check_base_url(options.base_url, options.api_key_env)
    if backend is None:  # a bad spec or -M option fails before the benchmark loads its items
        check_model_spec(s.model, options)
    bench = get_benchmark(s.benchmark, **dict(s.benchmark_options))
    if s.distributed and backend is not None:
        raise BiasbenchError("a Ray run builds its models from the model spec; pass no backend")
    backend = backend or load_model(s.model, options)
    adapted = bench.adapt_backend(backend)
    if s.distributed and adapted is not backend:
        raise BiasbenchError(
            f"{backend.model_id} answers by option scores, which runs "
            "locally: drop --ray-workers/--ray-address (or, if it can "
            "generate, pass --answer-by generate)"
        )
    backend = adapted
    seeds = s.seeds
    if backend.deterministic and (seeds is None or len(seeds) > 1):
        # Scoring options is deterministic: every seed would give the same answers.
        log.warning(
            "%s answers deterministically; running one seed instead of many", backend.model_id
        )
        seeds = [0]
    params = bench.params_for(backend, temperature=s.temperature, max_tokens=s.max_tokens)
    requests = bench.requests(limit=s.limit, seeds=seeds)
    signature = bench.signature(backend.describe(), params, seeds, limit=s.limit)
    run_dir = s.out or default_run_dir(bench.name, backend, limit=s.limit, seeds=seeds)
    return RunPlan(
        s,
        bench,
        backend,
        params,
        requests,
        list(seeds) if seeds else None,
        signature,
        Path(run_dir),
    )
