"""One benchmark against one model, into one run folder: the library call behind ``biasbench run``.

The run folder's layout (file names) is defined once, in :mod:`biasbench.runfolder`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pandas as pd

from biasbench.arguments import check_int, check_run_arguments
from biasbench.benchmarks import Benchmark, get_benchmark
from biasbench.errors import BiasbenchError, ModelSpecError
from biasbench.jsonutil import write_json
from biasbench.models.base import GenerationParams, ModelBackend
from biasbench.models.registry import (
    DEFAULT_MODEL,
    ModelOptions,
    check_model_spec,
    load_model,
)
from biasbench.models.urls import display_url
from biasbench.output_health import health_line, is_truncated, output_health
from biasbench.progress import heartbeat
from biasbench.records import (
    SCHEMA_VERSION,
    HistoryEntry,
    InvocationOptions,
    RunManifest,
    ScoreManifest,
    history_entries,
    read_manifest,
)
from biasbench.runfolder import (
    HISTORY_NAME,
    MANIFEST_NAME,
    STORE_NAME,
    RunFolderError,
    append_history,
    clean_leftovers,
    folder_kind,
    identity,
    identity_conflict,
    publish,
    read_history,
    run_lock,
    run_target_refusal,
    staging_dir,
    write_results,
)
from biasbench.runner.runner import Request, RunStats, request_keys, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.runspec import RunSpec
from biasbench.signals import received_signal_name
from biasbench.signature import Signature
from biasbench.textutil import slug
from biasbench.version import __version__

log = logging.getLogger(__name__)

T = TypeVar("T")


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
    rest = backend.model_id[len(label) + 1:]
    if name != label or (rest and not _DIGEST.match(rest)):
        digest = hashlib.sha256(backend.model_id.encode("utf-8")).hexdigest()[:8]
        name = f"{name}-{digest}"
    return name


def default_run_dir(benchmark: str, backend: ModelBackend, root: Path = Path("runs"), *,
                    limit: int | None = None, seeds: Sequence[int] | None = None) -> Path:
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
            "an API key too: use one of them")


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
    Each row carries the backend's ``finish_reason`` and a ``truncated`` flag (stopped at
    ``max_tokens``), so judges can flag labels that rest on a cut-off output, and ``info``, the
    backend's extras as stored (JSON text: an option-scored answer's choices under both rules,
    which the BBQ engine compares), so no judge reopens the store.
    """
    answers = store.answers()
    rows = [{"model": model, "item_id": r.item_id, "seed": r.seed, "output": answers[k][0],
             "finish_reason": answers[k][1], "truncated": is_truncated(answers[k][1]),
             "info": answers[k][2]}
            for r, k in zip(requests, keys, strict=True) if k in answers]
    return pd.DataFrame(rows, columns=["model", "item_id", "seed", "output", "finish_reason",
                                       "truncated", "info"])


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


def as_spec(benchmark: str | RunSpec, model: str = DEFAULT_MODEL,
            **fields: Any) -> RunSpec:
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
    check_run_arguments(benchmark=s.benchmark, model=s.model, out=s.out, limit=s.limit,
                        seeds=s.seeds, temperature=s.temperature, max_tokens=s.max_tokens)
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
        raise BiasbenchError(f"{backend.model_id} answers by option scores, which runs "
                             "locally: drop --ray-workers/--ray-address (or, if it can "
                             "generate, pass --answer-by generate)")
    backend = adapted
    seeds = s.seeds
    if backend.deterministic and (seeds is None or len(seeds) > 1):
        # Scoring options is deterministic: every seed would give the same answers.
        log.warning("%s answers deterministically; running one seed instead of many",
                    backend.model_id)
        seeds = [0]
    params = bench.params_for(backend, temperature=s.temperature, max_tokens=s.max_tokens)
    requests = bench.requests(limit=s.limit, seeds=seeds)
    signature = bench.signature(backend.describe(), params, seeds, limit=s.limit)
    run_dir = s.out or default_run_dir(bench.name, backend, limit=s.limit, seeds=seeds)
    return RunPlan(s, bench, backend, params, requests, list(seeds) if seeds else None,
                   signature, Path(run_dir))


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
        lines = ["dry run: nothing sent, nothing written",
                 f"run folder: {self.run_dir} ({where})",
                 f"requests: {self.requests:,} ({self.stored:,} already stored, "
                 f"{self.to_send:,} would be sent)",
                 f"signature: {self.signature.short()}"]
        if self.refusal:
            lines.append(f"refused: {self.refusal}")
        lines += ["first prompt:", self.first_prompt if self.first_prompt is not None
                  else "(no requests)"]
        return lines


def dry_run(benchmark: str | RunSpec, model: str = DEFAULT_MODEL, *,
            backend: ModelBackend | None = None, **fields: Any) -> DryRun:
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
            refusal = identity_conflict(held, identity(plan.signature.model_dump(),
                                                       plan.spec.limit), plan.run_dir)
    first = plan.requests[0].prompt.text_for(plan.backend.mode) if plan.requests else None
    return DryRun(plan.run_dir, len(distinct), stored, first, plan.signature,
                  plan.run_dir.exists(), refusal)


def _history_options(plan: RunPlan, model_spec: str | None) -> InvocationOptions:
    """The options of an invocation, as the history records them (never a credential)."""
    s = plan.spec
    found = InvocationOptions(benchmark=plan.bench.name, model_spec=model_spec, limit=s.limit,
                              seeds=plan.seeds, decoding=plan.params.to_dict(),
                              concurrency=s.concurrency, executor=s.executor,
                              benchmark_options=dict(s.benchmark_options))
    options = s.model_options
    if options is not None:
        shown = {k: v for k, v in options.__dict__.items() if k != "model_args"}
        if options.base_url:
            shown["base_url"] = display_url(options.base_url)
        shown["model_args"] = {k: "***" if _SECRET.search(k) else v
                               for k, v in options.model_args.items()}
        found.model_options = shown
    return found


_SECRET = re.compile(r"key|token|secret|password|auth", re.IGNORECASE)


def _timing(entry: HistoryEntry) -> dict[str, Any]:
    return {name: getattr(entry, name) for name in ("started_at", "finished_at", "elapsed_s",
                                                    "requests_elapsed_s", "biasbench")} | {
        "completed": (entry.counts or {}).get("completed")}


def run_benchmark(benchmark: str | RunSpec, model: str = DEFAULT_MODEL, *,
                  backend: ModelBackend | None = None, **fields: Any) -> RunResult:
    """Run ``benchmark`` on ``model`` into ``out`` (resuming what is already stored), then score:
    :func:`run` of the :class:`~biasbench.runspec.RunSpec` its arguments describe (``options``
    is the spec's ``model_options``)."""
    return run(as_spec(benchmark, model, **fields), backend)


@dataclass
class _OpenRun:
    """A run folder opened for one invocation: locked, its store bound, the manifest saying
    ``running``, the history entry begun."""

    plan: RunPlan
    store: ResponseStore
    keys: list[str]
    history: list[HistoryEntry]
    manifest: RunManifest
    entry: HistoryEntry


@dataclass
class _Scored:
    """What scoring left in the staging folder, and what the manifest and summary say of it."""

    staging: Path
    stats: RunStats
    results: dict[str, Any]
    summary: list[str]
    health: dict[str, Any]
    counts: dict[str, int]
    responses_scored: int


def run(spec: RunSpec, backend: ModelBackend | None = None) -> RunResult:
    """Run ``spec`` (resuming what its folder already stores), then score, in four stages:
    :func:`_open` (lock, bind, manifest ``running``), :func:`_collect` (send what is missing,
    read back), :func:`_score` (judge into a staging folder) and :func:`_publish` (move the
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
    with run_lock(plan.run_dir, wait=spec.wait):
        opened = _open(plan, model_spec)
        try:
            stats: RunStats | None = None
            try:
                stats, frame, label = _collect(opened)
                scored = _score(opened, stats, frame, label)
            except BaseException as exc:
                _interrupted(opened, exc, stats)
                raise
            _publish(opened, scored)
        finally:
            opened.store.close()
    return RunResult(plan.run_dir, scored.stats, scored.results, scored.summary)


def _open(plan: RunPlan, model_spec: str | None) -> _OpenRun:
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
            schema_version=SCHEMA_VERSION, biasbench=__version__, kind="run",
            benchmark=plan.bench.name, model_spec=model_spec, model=description,
            signature=signature.model_dump(), signature_short=signature.short(),
            identity=wanted, limit=plan.spec.limit,
            seeds=list(signature.seeds or []),  # the effective seeds, as the signature's
            executor=plan.spec.executor, n_requests=len(plan.requests),
            n_unique_requests=len(set(keys)), status="running", pid=os.getpid(),
            started_at=started, first_started_at=started if first is None else first)
        entry = HistoryEntry(kind="run", biasbench=__version__, started_at=started,
                             pid=os.getpid(), signature_short=signature.short(),
                             options=_history_options(plan, model_spec))
        write_json(manifest.to_json(), run_dir / MANIFEST_NAME)
    except BaseException:
        store.close()
        raise
    return _OpenRun(plan, store, keys, history, manifest, entry)


def _collect(opened: _OpenRun) -> tuple[RunStats, pd.DataFrame, str]:
    """Send what the store lacks (locally or on Ray) and read back this run's responses."""
    plan, s = opened.plan, opened.plan.spec
    if s.distributed:
        from biasbench.runner.distributed import run_requests_ray

        stats = run_requests_ray(s.model, s.model_options or ModelOptions(), plan.backend,
                                 plan.requests, plan.params, opened.store,
                                 address=s.ray_address, workers=s.ray_workers or 2,
                                 concurrency=s.concurrency, retry=s.retry,
                                 progress=s.progress)
    else:
        stats = run_requests_sync(plan.backend, plan.requests, plan.params, opened.store,
                                  concurrency=s.concurrency, progress=s.progress, retry=s.retry)
    label = model_label(plan.backend)
    return stats, responses_frame(opened.store, plan.requests, opened.keys, label), label


def _score(opened: _OpenRun, stats: RunStats, frame: pd.DataFrame, label: str) -> _Scored:
    """Judge and score this run's responses into a staging folder, with output health and the
    run's counts and timing in results.json."""
    plan, entry, history = opened.plan, opened.entry, opened.history
    signature = plan.signature
    staging = staging_dir(plan.run_dir)
    if frame.empty:
        results = {"schema_version": 1, "benchmark": plan.bench.name, "models": {},
                   "signature": {**signature.model_dump(), "short": signature.short()},
                   "note": "no successful responses to score"}
        summary = [f"{label}: no successful responses to score"]
    else:
        with heartbeat(f"scoring {len(frame):,} responses", plan.spec.progress):
            results = plan.bench.evaluate(frame, staging, {label: signature})
        summary = plan.bench.summary(results)
    health = output_health(frame) if not frame.empty else {}
    results["output_health"] = health
    summary += [line for m, h in health.items() if (line := health_line(m, h))]
    counts = {"requests": stats.total, "cached": stats.cached,
              "completed": stats.completed, "failed": stats.failed}
    finished = time.time()
    entry.finished_at = finished
    entry.elapsed_s = round(finished - (entry.started_at or finished), 3)
    entry.requests_elapsed_s = round(stats.elapsed_s, 3)
    entry.counts = {**counts, "empty": stats.empty, "calls": stats.calls}
    entry.status = "complete" if stats.failed == 0 else "incomplete"
    # The first invocation's timing is kept: a rerun that only rescored (0.1 s) must not
    # replace the 31 minutes the answers took.
    results["run"] = {**counts, "invocations": len(history) + 1,
                      "first": _timing(history[0] if history else entry),
                      "latest": _timing(entry)}
    write_results(results, staging)
    return _Scored(staging, stats, results, summary, health, counts, len(frame))


def _publish(opened: _OpenRun, scored: _Scored) -> None:
    """Move the staged files into place, then vouch for them in the manifest (each file's
    bytes and digest, the store's ``ok`` count and digest) and append the history line."""
    run_dir, manifest, store = opened.plan.run_dir, opened.manifest, opened.store
    try:
        files = publish(scored.staging, run_dir)
        store_ok = store.counts()["ok"]
        store_sha256 = store.answers_digest()
    except BaseException as exc:
        _interrupted(opened, exc, scored.stats)
        raise
    manifest.status = "complete" if scored.stats.failed == 0 else "incomplete"
    manifest.finished_at = time.time()
    manifest.counts = {**scored.counts, "elapsed_s": round(scored.stats.elapsed_s, 3),
                       "output_health": scored.health}
    manifest.derived = {"files": files, "store_ok": store_ok, "store_sha256": store_sha256,
                        "responses_scored": scored.responses_scored}
    write_json(manifest.to_json(), run_dir / MANIFEST_NAME)
    _append_history(run_dir, opened.entry)


def _interrupted(opened: _OpenRun, exc: BaseException, stats: RunStats | None) -> None:
    """Whatever stopped the run, finished responses are in the store: the manifest and the
    history say why."""
    run_dir, manifest, entry = opened.plan.run_dir, opened.manifest, opened.entry
    manifest.status, manifest.error, manifest.stopped_at = ("interrupted", stop_reason(exc),
                                                            time.time())
    write_json(manifest.to_json(), run_dir / MANIFEST_NAME)
    stopped = time.time()
    entry.status, entry.error, entry.finished_at = "interrupted", stop_reason(exc), stopped
    entry.elapsed_s = round(stopped - (entry.started_at or stopped), 3)
    if stats is not None:
        entry.counts = {"requests": stats.total, "cached": stats.cached,
                        "completed": stats.completed, "failed": stats.failed}
    _append_history(run_dir, entry)


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


def _append_history(run_dir: Path, entry: HistoryEntry) -> None:
    """Record the invocation; a history that cannot be written (full disk) is a warning, not a
    failed run: the answers and results are already saved, and an error here would hide why a
    run stopped."""
    try:
        append_history(run_dir, entry.to_json())
    except OSError as exc:
        log.warning("could not append to %s: %s", run_dir / HISTORY_NAME, exc)


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
    if (not isinstance(found, RunManifest) or "kind" not in found.model_fields_set
            or found.started_at is None):
        return []
    end = found.finished_at or found.stopped_at
    counts = found.counts or {}
    entry = HistoryEntry(
        kind="run", biasbench=found.biasbench, started_at=found.started_at, finished_at=end,
        elapsed_s=round(end - found.started_at, 3) if end else None,
        requests_elapsed_s=counts.get("elapsed_s"), status=found.status,
        counts={k: v for k, v in counts.items() if k != "output_health"},
        signature_short=found.signature_short,
        source=f"rebuilt from {MANIFEST_NAME} (written before {HISTORY_NAME} existed)")
    append_history(run_dir, entry.to_json())
    return [entry]


def stop_reason(exc: BaseException) -> str:
    """Why a run stopped, in words for the manifest (a signal is named)."""
    if isinstance(exc, KeyboardInterrupt):
        return f"interrupted by {received_signal_name()}"
    return str(exc) or type(exc).__name__


def _bind(store: ResponseStore, wanted: dict[str, Any], run_dir: Path,
          description: dict[str, Any], decoding: dict[str, Any]) -> None:
    """Bind the store to this run's configuration, or refuse one that holds another."""
    held = store.get_meta("identity")
    if held is None:
        # A store of an older biasbench (no identity recorded): judge by what its rows hold.
        for model_json, params_json in store.configurations():
            if json.loads(model_json) != description or json.loads(params_json) != decoding:
                raise RunFolderError(
                    f"run folder {run_dir} holds answers of another configuration "
                    f"({_short_model(model_json)}); a run folder holds one configuration: "
                    "pass another --out")
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


def score_into(out: Path, benchmark: str, produce: Callable[[Path], T]) -> T:
    """Run ``produce(folder)`` (scoring outputs produced elsewhere) and publish what it writes
    into ``out`` as a score folder: locked, atomic, recorded in a manifest like a run's.

    ``out`` must be new, empty (leftovers of a killed writer aside), or a score folder of
    biasbench: the files of a folder that is not biasbench's are never replaced, and a run
    folder is never overwritten by a score. A manifest with status ``scoring`` is written before
    any derived file moves in, so a kill at any point leaves a folder that the same command
    scores again and that nobody reads as scored; the finished manifest is written last.
    """
    out = Path(out)
    created = folder_kind(out) == "new"
    _check_score_target(out)  # before the lock too, so a refused folder gets no lock file
    out.mkdir(parents=True, exist_ok=True)
    try:
        with run_lock(out):
            _check_score_target(out)
            clean_leftovers(out)
            previous = out / MANIFEST_NAME
            started = time.time()
            staging = staging_dir(out)
            try:
                result = produce(staging)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            record = ScoreManifest(schema_version=SCHEMA_VERSION, biasbench=__version__,
                                   kind="score", benchmark=benchmark, started_at=started,
                                   status="scoring")
            # From here until the last write the folder is "scoring": its files are not
            # vouched for, so readers refuse them, and a rerun replaces them.
            write_json(record.to_json(), previous)
            files = publish(staging, out)
            record.status, record.finished_at = "scored", time.time()
            record.derived = {"files": files}
            write_json(record.to_json(), previous)
    except BaseException:
        if created:  # a failed first score leaves nothing behind
            shutil.rmtree(out, ignore_errors=True)
        raise
    return result


def _check_score_target(out: Path) -> None:
    kind = folder_kind(out)
    if kind == "run":
        raise RunFolderError(f"{out} is a run folder (it holds {STORE_NAME} or a run's "
                             f"{MANIFEST_NAME}); score into another folder")
    if kind == "file":
        raise RunFolderError(f"{out}: a file, not a folder; score into a new or empty folder")
    if kind == "other":
        if (out / MANIFEST_NAME).exists():
            raise RunFolderError(f"{out}: holds a manifest that is not a score folder's; "
                                 "score into another folder")
        raise RunFolderError(f"{out}: not empty and not a biasbench score folder; score into "
                             "a new or empty folder")
