"""The Python API: ``biasbench.run``, ``biasbench.score``, ``biasbench.load`` (and
``biasbench.api.lint``, the data lint of BBQ-format items).

The same library calls as the ``biasbench`` command, returning :class:`Results`: the results
document, the signature, the run folder and the run's counts, with the tidy tables of
:mod:`biasbench.export` as pandas DataFrames (``responses``, ``labels``, ``scores``)::

    import biasbench

    result = biasbench.run("honorific-bn", model="mock:hashed-register", limit=40,
                           out="runs/demo")
    result.signature.short()      # what makes the numbers comparable
    result.scores                 # model, group, statistic, value, ci_low, ci_high, n
    result.labels                 # one judged response per row
    result.responses              # every request with its prompt and raw output

Everything is imported when first called: ``import biasbench`` stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from biasbench.models.base import ModelBackend
    from biasbench.pipeline import DryRun
    from biasbench.runfolder.reading import RunFolder
    from biasbench.runner.runner import RunStats
    from biasbench.runspec import RunSpec
    from biasbench.signature import Signature


@dataclass
class Results:
    """A scored run or score folder, as the Python API returns it."""

    run_dir: Path
    """The run (or score) folder everything was written to."""
    results: dict[str, Any]
    """The results document (``results.json``)."""
    signature: Signature
    """What makes these numbers comparable with others (``signature.short()``: one line)."""
    stats: RunStats | None = None
    """What this call did: requests, cached, completed, failed, elapsed (None for
    :func:`score` and :func:`load`)."""
    summary: list[str] = field(default_factory=list)
    """The lines ``biasbench run`` prints."""

    @property
    def complete(self) -> bool:
        """No request failed in this call (a rerun retries failed ones)."""
        return self.stats is None or self.stats.failed == 0

    @cached_property
    def folder(self) -> RunFolder:
        from biasbench.runfolder.reading import load_run

        return load_run(self.run_dir)

    @cached_property
    def responses(self) -> pd.DataFrame:
        """Every stored request (model, item_id, seed, status, prompt, output, ...), each row
        with the signature columns; empty for a score folder."""
        from biasbench.export import run_tables

        return run_tables(self.folder).responses

    @cached_property
    def labels(self) -> pd.DataFrame:
        """One judged response per row (the benchmark's labels), with the signature columns."""
        from biasbench.export import run_tables

        return run_tables(self.folder).labels

    @cached_property
    def scores(self) -> pd.DataFrame:
        """One statistic per row: model, group, statistic, value, ci_low, ci_high, n,
        ci_status, with the signature columns."""
        from biasbench.export import run_tables

        return run_tables(self.folder).scores

    def export(self, out: Path | str, format: str = "parquet") -> list[Path]:
        """Write the tables as ``biasbench export`` does (parquet, csv, jsonl or hf)."""
        from biasbench.export import export_runs

        return export_runs([self.run_dir], format, Path(out))


def _seeds(seeds: int | Sequence[int] | None) -> list[int] | None:
    from biasbench.arguments import MAX_SEEDS, check_int, check_seeds

    if seeds is None:
        return None
    if isinstance(seeds, int) and not isinstance(seeds, bool):
        count = check_int("seeds", seeds, minimum=1, maximum=MAX_SEEDS, optional=False)
        return list(range(count or 0))
    return check_seeds(seeds)


def _options_arguments(
    out: Any, model_args: Any, base_url: Any = None, api: Any = "chat"
) -> Path | None:
    """``out`` as a Path and ``model_args``, ``base_url`` and ``api`` checked, or one line
    naming the argument."""
    from biasbench.arguments import check_path, check_text

    check_text("base_url", base_url, optional=True)
    check_text("api", api)
    from biasbench.errors import BiasbenchError

    if model_args is not None and not isinstance(model_args, dict):
        raise BiasbenchError(f"model_args must be a dict of -M options, not {model_args!r}")
    return check_path("out", out)


def run(
    benchmark: str,
    model: str = "llamacpp",
    *,
    out: Path | str | None = None,
    limit: int | None = None,
    seeds: int | Sequence[int] | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    concurrency: int = 8,
    base_url: str | None = None,
    api: str = "chat",
    api_key_env: str = "OPENAI_API_KEY",
    chat: bool = False,
    model_args: dict[str, Any] | None = None,
    hf_task: str = "auto",
    backend: ModelBackend | None = None,
    progress: bool = True,
    wait: bool = False,
    **benchmark_options: Any,
) -> Results:
    """Run ``benchmark`` against ``model`` and score it, as ``biasbench run`` does.

    ``model`` is a model spec (``llamacpp``, ``openai:NAME``, ``hf:NAME``, ``mock:SCRIPT``...;
    ``biasbench list`` shows them) and ``model_args`` its ``-M`` options; ``seeds`` is a count
    (seeds 0..S-1) or a list; ``backend`` replaces the spec with a backend object of your own.
    Other keyword arguments are the benchmark's own options (``items=``, ``templates=``...).
    Rerunning into the same ``out`` resumes: nothing already answered is asked again.
    ``progress`` writes to stderr: a bar on a terminal, a line every 30 s elsewhere (a
    notebook, a log).
    """
    from biasbench.pipeline import run as run_spec

    out = _options_arguments(out, model_args, base_url, api)
    spec = _spec(
        benchmark,
        model,
        out,
        limit,
        seeds,
        temperature,
        max_tokens,
        base_url,
        api,
        api_key_env,
        chat,
        model_args,
        hf_task,
        benchmark_options,
        concurrency=concurrency,
        progress=progress,
        wait=wait,
    )
    done = run_spec(spec, backend)
    found = load(done.run_dir)
    found.stats, found.summary = done.stats, done.summary
    return found


def dry_run(
    benchmark: str,
    model: str = "llamacpp",
    *,
    out: Path | str | None = None,
    limit: int | None = None,
    seeds: int | Sequence[int] | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    base_url: str | None = None,
    api: str = "chat",
    api_key_env: str = "OPENAI_API_KEY",
    chat: bool = False,
    model_args: dict[str, Any] | None = None,
    hf_task: str = "auto",
    backend: ModelBackend | None = None,
    **benchmark_options: Any,
) -> DryRun:
    """What :func:`run` would do (requests to send and already stored, the first prompt, the
    signature), sending nothing and writing nothing."""
    from biasbench.pipeline import dry_run as plan

    spec = _spec(
        benchmark,
        model,
        Path(out) if out is not None else None,
        limit,
        seeds,
        temperature,
        max_tokens,
        base_url,
        api,
        api_key_env,
        chat,
        model_args,
        hf_task,
        benchmark_options,
    )
    return plan(spec, backend=backend)


def _spec(
    benchmark: str,
    model: str,
    out: Path | None,
    limit: int | None,
    seeds: int | Sequence[int] | None,
    temperature: float | None,
    max_tokens: int | None,
    base_url: str | None,
    api: str,
    api_key_env: str,
    chat: bool,
    model_args: dict[str, Any] | None,
    hf_task: str,
    benchmark_options: dict[str, Any],
    **run_fields: Any,
) -> RunSpec:
    """The one :class:`~biasbench.runspec.RunSpec` of an API call (:func:`run`,
    :func:`dry_run`)."""
    from biasbench.models.registry import ModelOptions
    from biasbench.runspec import RunSpec

    options = ModelOptions(
        base_url=base_url,
        api=api,
        api_key_env=api_key_env,
        chat=chat,
        hf_task=hf_task,
        model_args=dict(model_args or {}),
    )
    return RunSpec(
        benchmark,
        model,
        model_options=options,
        out=out,
        limit=limit,
        seeds=_seeds(seeds),
        temperature=temperature,
        max_tokens=max_tokens,
        benchmark_options=benchmark_options,
        **run_fields,
    )


def score(
    benchmark: str, responses: Path | str, out: Path | str, **benchmark_options: Any
) -> Results:
    """Score outputs produced elsewhere (a JSONL file; one or many models) into the score
    folder ``out``, as ``biasbench score`` does. Keyword arguments are the benchmark's options
    (e.g. ``items=`` for a BBQ-format benchmark)."""
    from biasbench.arguments import check_path, check_text
    from biasbench.errors import BiasbenchError
    from biasbench.pipeline import score_into
    from biasbench.registry import get_benchmark
    from biasbench.runfolder.derived import write_results

    check_text("benchmark", benchmark)
    path, target = check_path("responses", responses), check_path("out", out)
    if path is None or target is None:
        missing = "responses" if path is None else "out"
        raise BiasbenchError(f"--{missing} must be a path, not None")
    bench = get_benchmark(benchmark, **benchmark_options)
    frame = bench.read_responses(path)

    def produce(folder: Path) -> dict[str, Any]:
        results = bench.score(frame, folder, source=str(path))  # as `biasbench score` does
        write_results(results, folder)
        return results

    results = score_into(target, bench.name, produce)
    found = load(out)
    found.summary = bench.summary(results)
    return found


def load(run_dir: Path | str) -> Results:
    """A finished run or score folder (its derived files verified against its manifest)."""
    from biasbench.arguments import check_path
    from biasbench.runfolder.reading import load_run

    folder = load_run(check_path("run_dir", run_dir) or Path(""))
    signature = folder.signature
    described = list(signature.model.values())
    if described and all(isinstance(d, dict) for d in described):
        # results.json maps each model name to its description; the signature of one model
        # names it (``short()`` shows model:NAME), that of several shows model:*.
        signature = signature.model_copy(
            update={"model": described[0] if len(described) == 1 else {}}
        )
    found = Results(run_dir=Path(run_dir), results=folder.results, signature=signature)
    found.folder = folder  # type: ignore[misc]  # cached_property: set once, read many
    return found


def lint(
    benchmark: str | None = None, *, items: Sequence[Path | str] | None = None, **options: Any
) -> Any:
    """The data lint (docs/bbq-engine/data-lint.md) of a registered benchmark's items
    (``options``: its own, e.g. ``data=DIR``, ``categories="Age"``), or, with ``items``, of
    item files in a format its engine reads; ``biasbench lint`` prints it."""
    from biasbench.errors import BiasbenchError
    from biasbench.registry import benchmark_class, get_benchmark

    if benchmark is None:
        raise BiasbenchError("name the benchmark whose items, or whose engine's formats, to lint")
    if items is not None:
        return benchmark_class(str(benchmark)).lint_files(list(items))
    return get_benchmark(str(benchmark), **options).data_lint()


__all__ = ["Results", "dry_run", "lint", "load", "run", "score"]
