"""The ``biasbench`` command: thin argument parsing over library calls.

Every user error (bad file, bad model spec, unreachable endpoint) ends as one line on stderr and a
non-zero exit code, never a traceback.
"""

from __future__ import annotations

import inspect
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from biasbench.benchmarks.base import OptionSpec
from biasbench.errors import BiasbenchError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Measure social bias of language models beyond English.")
data_app = typer.Typer(no_args_is_help=True, help="Build or validate a benchmark's items.")
score_app = typer.Typer(no_args_is_help=True, help="Score outputs produced elsewhere.")
annotate_app = typer.Typer(no_args_is_help=True, help="Human validation of the register judge.")
plot_app = typer.Typer(no_args_is_help=True, help="Figures from run folders.")
app.add_typer(data_app, name="data")
app.add_typer(score_app, name="score")
app.add_typer(annotate_app, name="annotate")
app.add_typer(plot_app, name="plot")

def _version(value: bool) -> None:
    if value:
        from biasbench import __version__

        typer.echo(f"biasbench {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Measure social bias of language models beyond English."""


EXIT_USAGE = 2
EXIT_INCOMPLETE = 3

ModelOpt = Annotated[str, typer.Option("--model", "-m", help="Model spec: llamacpp, "
                     "llamacpp:FILE.gguf, openai:NAME, hf:NAME, replay:FILE[@MODEL], mock:SCRIPT.")]
BaseUrlOpt = Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. "
                       "http://localhost:8000/v1.")]
ApiOpt = Annotated[str, typer.Option(help="chat or completions (OpenAI-compatible endpoints).")]
KeyEnvOpt = Annotated[str, typer.Option(help="Environment variable holding the API key.")]
ModelArgOpt = Annotated[list[str] | None, typer.Option(
    "--model-arg", "-M", metavar="KEY=VALUE", help="A backend option, repeatable: e.g. -M "
    "dtype=bfloat16 -M device=cuda (hf), -M n_threads=4 (llamacpp), -M field.NAME=VALUE "
    "(openai). `biasbench list` shows each backend's keys.")]


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _echo_lines(lines: list[str]) -> None:
    for line in lines:
        typer.echo(line)


@data_app.command("honorific-bn")
def data_honorific(
    out: Annotated[Path, typer.Option(help="Where to write the items CSV.")],
    occupations: Annotated[Path | None, typer.Option(help="Your own occupations CSV (id,en,bn).")] = None,
    frames: Annotated[Path | None, typer.Option(help="Your own frames CSV.")] = None,
) -> None:
    """Write the honorific-bn items (2,016 with the packaged definition) and report inconsistencies."""
    from biasbench.benchmarks.honorific_bn.items import load_definition, validate_definition

    defn = load_definition(occupations=occupations, frames=frames)
    findings = validate_definition(defn)
    for finding in findings:
        typer.echo(str(finding), err=True)
    if any(f.severity == "error" for f in findings):
        _fail("the definition has errors; no items written")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(defn.items_csv_bytes())
    typer.echo(f"wrote {len(defn.items())} items to {out} (sha256 {defn.checksum()})")


@data_app.command("filbbq")
def data_filbbq(
    out: Annotated[Path, typer.Option(help="Output folder for the generated jsonl files.")],
    templates: Annotated[Path | None, typer.Option(help="Local copy of FilBBQ's templates/ folder "
                         "(default: $BIASBENCH_FILBBQ_TEMPLATES, the cache, or a pinned download).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random draw.")] = 0,
    no_subcategory_filter: Annotated[bool, typer.Option(
        help="Ignore the Subcategory restriction (8,088 gender items instead of the paper's "
             "7,952).")] = False,
) -> None:
    """Generate FilBBQ items from the authors' templates (reproducible for a seed)."""
    from biasbench.benchmarks.filbbq.source import generate_filbbq, resolve_templates

    report = generate_filbbq(resolve_templates(templates), out, seed=seed,
                             apply_subcategory_filter=not no_subcategory_filter)
    for category, n in report.counts.items():
        typer.echo(f"{category}: {n:,} items -> {report.files[category]}")
    typer.echo(f"total: {report.total:,} items (seed {seed}; {len(report.warnings)} warnings, "
               "logged above)")


def _add_data_commands() -> None:
    """``biasbench data NAME --out DIR ...`` for every registered benchmark that generates its
    own items (``Benchmark.generate_items``), its options from ``Benchmark.data_options``.
    Commands defined above keep their own flags."""
    from biasbench.benchmarks import benchmark_classes

    taken = {c.name for c in data_app.registered_commands}
    for cls in benchmark_classes():
        if cls.name in taken or not cls.generates_items():
            continue
        data_app.command(cls.name)(_data_command(cls))


def _data_command(cls: Any) -> Callable[..., None]:
    def command(out: Path, **options: object) -> None:
        given = {s.name: options[s.name] for s in cls.data_options
                 if options[s.name] != s.default}
        _echo_lines(cls.generate_items(out, **given))

    parameters = [inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[
        Path, typer.Option(help="Output folder for the generated items.")])]
    for spec in cls.data_options:
        kind: Any = spec.kind if spec.default is not None else spec.kind | None
        parameters.append(inspect.Parameter(
            spec.name, inspect.Parameter.KEYWORD_ONLY, default=spec.default,
            annotation=Annotated[kind, typer.Option(*_flags(spec), help=spec.help)]))
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = (cls.generate_items.__doc__ or "").strip().split("\n")[0]
    return command


def _with_benchmark_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give ``command`` (which takes ``**benchmark_options``) one typer option per option the
    registered benchmarks declare (:class:`~biasbench.benchmarks.base.OptionSpec`); the help
    names the benchmarks that take it."""
    from biasbench.benchmarks import benchmark_classes

    signature = inspect.signature(command, eval_str=True)
    fixed = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    owners: dict[str, tuple[OptionSpec, dict[str, list[str]]]] = {}
    for cls in benchmark_classes():
        for spec in cls.options:
            # benchmarks sharing an option may describe it in their own words: help -> names
            owners.setdefault(spec.name, (spec, {}))[1].setdefault(spec.help, []).append(cls.name)
    extra = []
    for name, (spec, helps) in owners.items():
        kind: Any = spec.kind if spec.default is not None else spec.kind | None
        text = " ".join(f"{', '.join(names)}: {help_}" for help_, names in helps.items())
        extra.append(inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, default=spec.default,
            annotation=Annotated[kind, typer.Option(*_flags(spec), help=text)]))
    parameters = fixed + extra
    command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return command


def _flags(spec: OptionSpec) -> tuple[str, ...]:
    return (f"{spec.flag}/--no-{spec.flag[2:]}",) if spec.kind is bool else (spec.flag,)


def _benchmark_options(benchmark: str, given: dict[str, object]) -> dict[str, object]:
    """The options of ``benchmark`` that were set (a value away from its default); an option
    another benchmark declares is refused in one line instead of being ignored."""
    from biasbench.benchmarks import benchmark_class, benchmark_classes

    specs = {spec.name: spec for spec in benchmark_class(benchmark).options}
    defaults = {s.name: s.default for c in benchmark_classes() for s in c.options}
    chosen: dict[str, object] = {}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            if value != defaults.get(name):
                flag = "--" + name.replace("_", "-")
                _fail(f"{flag} is not an option of {benchmark}")
            continue
        if spec.choices and value not in spec.choices:
            _fail(f"{spec.flag} must be one of {', '.join(spec.choices)}, not {value!r}")
        if value != spec.default:
            chosen[name] = value
    return chosen


_add_data_commands()


@app.command()
@_with_benchmark_options
def run(
    benchmark: Annotated[str, typer.Argument(help="A registered benchmark (biasbench list).")],
    model: ModelOpt = "llamacpp",
    out: Annotated[Path | None, typer.Option(help="Run folder (default runs/BENCHMARK--MODEL).")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Run N items. BBQ benchmarks "
                     "(filbbq, bbq): stratified over category x context condition x question "
                     "polarity, spread over templates, deterministic; honorific-bn: the first "
                     "N in published order.")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Requests in flight at once.")] = 8,
    seeds: Annotated[int | None, typer.Option(min=1, help="Run every prompt under seeds "
                     "0..S-1.")] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature (default: the "
                           "benchmark's).")] = None,
    max_tokens: Annotated[int | None, typer.Option(min=1, help="Generation cap.")] = None,
    base_url: BaseUrlOpt = None,
    api: ApiOpt = "chat",
    api_key_env: KeyEnvOpt = "OPENAI_API_KEY",
    model_arg: ModelArgOpt = None,
    chat: Annotated[bool, typer.Option(help="Use the chat template of a local model.")] = False,
    sampler_extras: Annotated[bool, typer.Option(help="openai: send top_k, min_p and "
                              "repetition_penalty (vLLM, llama.cpp server); --no-sampler-extras "
                              "for a strict OpenAI endpoint.")] = True,
    progress: Annotated[bool, typer.Option(help="Show progress: a bar on a terminal, a line "
                        "every 30 s otherwise.")] = True,
    hf_task: Annotated[str, typer.Option(help="hf: auto, causal or masked.")] = "auto",
    ray_address: Annotated[str | None, typer.Option(help="Scale out on this Ray cluster "
                           "(e.g. auto or ray://head:10001).")] = None,
    ray_workers: Annotated[int | None, typer.Option(min=1, help="Ray actors, each with its own model "
                           "replica or client (a local Ray instance without --ray-address).")] = None,
    wait: Annotated[bool, typer.Option(help="If another process is writing to the run folder, "
                    "wait for it to finish instead of exiting with status 2.")] = False,
    empty_retries: Annotated[int, typer.Option(min=0, help="Ask again this many times when an "
                             "answer is empty (then keep it, marked and counted as empty).")] = 1,
    retry_window: Annotated[float, typer.Option(min=0, help="Seconds a failing request keeps "
                            "being retried before it is recorded as failed (covers outages).")
                            ] = 45.0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print how many requests would be "
                       "sent and how many are stored, the first prompt and the signature; send "
                       "and write nothing.")] = False,
    **benchmark_options: object,
) -> None:
    """Run a benchmark against a model; rerunning the same command resumes (no repeated calls).

    Seeds and decoding default to the benchmark's own protocol (e.g. filbbq: 50 seeds at
    temperature 1.0) unless --seeds/--temperature say otherwise; the options named after a
    benchmark are that benchmark's own.
    """
    from biasbench.models.registry import ModelOptions, parse_model_args
    from biasbench.pipeline import run_benchmark
    from biasbench.runfolder import STORE_NAME
    from biasbench.runner.retry import RetryPolicy

    options = ModelOptions(base_url=base_url, api=api, api_key_env=api_key_env, chat=chat,
                           hf_task=hf_task, sampler_extras=sampler_extras,
                           model_args=parse_model_args(model_arg or []))
    bench_options = _benchmark_options(benchmark, benchmark_options)
    if dry_run:
        from biasbench.pipeline import dry_run as plan_only

        plan = plan_only(
            benchmark, model, options=options, out=out, limit=limit,
            seeds=list(range(seeds)) if seeds else None, temperature=temperature,
            max_tokens=max_tokens, benchmark_options=bench_options, ray_address=ray_address,
            ray_workers=ray_workers)
        _echo_lines(plan.lines())
        if plan.refusal:  # the run itself would stop here, with status 2
            _fail(plan.refusal)
        return
    result = run_benchmark(
        benchmark, model, options=options, out=out, limit=limit, concurrency=concurrency,
        seeds=list(range(seeds)) if seeds else None, temperature=temperature,
        max_tokens=max_tokens, progress=progress,
        benchmark_options=bench_options, ray_address=ray_address, ray_workers=ray_workers,
        wait=wait, retry=RetryPolicy(empty_retries=empty_retries, retry_window_s=retry_window))
    _echo_lines(result.summary)
    s = result.stats
    typer.echo(f"run folder: {result.run_dir}  ({s.total} requests: {s.cached} cached, "
               f"{s.completed} new, {s.failed} failed; {s.elapsed_s:.1f}s)")
    if s.failed:
        _fail(f"{s.failed} requests failed and are recorded as failed in "
              f"{result.run_dir / STORE_NAME}; rerun the same command to retry them",
              EXIT_INCOMPLETE)


@app.command("list")
def list_command() -> None:
    """Every registered benchmark (name, items, languages, paper) and every model backend."""
    from biasbench.benchmarks import benchmark_classes
    from biasbench.benchmarks.base import BenchmarkInfo

    typer.echo("benchmarks:")
    for cls in benchmark_classes():
        info = BenchmarkInfo.of(cls)
        typer.echo(f"  {info.name}: items {info.items}; languages {', '.join(info.languages)}; "
                   f"{info.paper.citation} ({info.paper.title}); "
                   f"licence: {info.licence or 'not stated by the authors'}")
    typer.echo("backends:")
    from biasbench.models.registry import list_backends

    for backend in list_backends():
        for line in backend.lines():
            typer.echo(f"  {line}")


@score_app.command("honorific-bn")
def score_honorific(
    responses: Annotated[Path, typer.Option(help="JSONL: item_id, model, output[, seed].")],
    out: Annotated[Path, typer.Option(help="Output folder.")],
) -> None:
    """Score honorific-bn outputs produced elsewhere, one or many models per file."""
    from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
    from biasbench.output_health import health_line, output_health
    from biasbench.pipeline import score_into
    from biasbench.runfolder import write_results

    bench = HonorificBenchmark()
    frame = bench.read_responses(responses)
    sigs = {m: bench.signature({"kind": "external", "model": m, "source": str(responses)},
                               None, None) for m in frame["model"].unique()}
    def produce(folder: Path) -> dict[str, object]:
        results = bench.evaluate(frame, folder, sigs)
        # No finish reasons in outputs produced elsewhere: truncation is unknown (null).
        results["output_health"] = output_health(frame)
        write_results(results, folder)
        return results

    results = score_into(out, bench.name, produce)
    health = results["output_health"]
    _echo_lines(bench.summary(results)
                + [line for m, h in health.items() if (line := health_line(m, h))])
    typer.echo(f"wrote {out / 'results.json'} and {out / 'tables'}")


@score_app.command("bbq")
def score_bbq(
    items: Annotated[str, typer.Option(help="BBQ jsonl file(s), comma-separated; "
                     "NAMESPACE=FILE (mbbq/es=Age_es.jsonl) for files of several languages.")],
    responses: Annotated[Path, typer.Option(help="JSONL: example_id, category, model, "
                         "[seed], output or pred[, namespace or language].")],
    out: Annotated[Path, typer.Option(help="Output folder.")],
) -> None:
    """Score BBQ-format outputs produced elsewhere (any BBQ-format benchmark)."""
    from biasbench.benchmarks.bbq.benchmark import score_bbq_files
    from biasbench.pipeline import score_into

    def produce(folder: Path) -> list[str]:  # lines name the folder published, not the staging
        return [line.replace(str(folder), str(out))
                for line in score_bbq_files(items, responses, folder)]

    _echo_lines(score_into(out, "bbq", produce))


@app.command()
def classify(
    input: Annotated[Path, typer.Option("--input", help="JSONL with output[, condition].")],
    out: Annotated[Path, typer.Option(help="JSONL written with label, plural, evidence added.")],
) -> None:
    """Label arbitrary Bengali outputs with the register classifier."""
    from biasbench.benchmarks.honorific_bn.classifier import classify_register
    from biasbench.responses import check_fields, iter_jsonl, write_jsonl

    rows = []
    for line, obj in iter_jsonl(input):
        check_fields(obj, path=input, line=line, required=("output",),
                     strings=("output", "condition"))
        lab = classify_register(obj["output"], condition=obj.get("condition")).to_dict()
        rows.append({**obj, "label": lab["label"], "plural": lab["plural"],
                     "evidence": lab["evidence"], "reason": lab["reason"]})
    write_jsonl(rows, out)
    typer.echo(f"labelled {len(rows)} outputs -> {out}")


@annotate_app.command("export")
def annotate_export(
    run_dirs: Annotated[list[Path], typer.Argument(help="honorific-bn run or score folders.")],
    out: Annotated[Path, typer.Option(help="The blind sheet for annotators (CSV).")],
    key: Annotated[Path, typer.Option(help="The hidden key (rule labels); keep it from "
                   "annotators.")],
    n: Annotated[int, typer.Option(min=1, help="Sample size.")] = 180,
    pair_share: Annotated[float, typer.Option(help="Share of the sample drawn as complete "
                          "he/she pairs.")] = 1 / 3,
    seed: Annotated[int, typer.Option(help="Seed of the draw.")] = 0,
) -> None:
    """Draw a stratified sample (models, conditions, frames; a share of matched pairs)."""
    from biasbench.benchmarks.honorific_bn.annotation import (
        draw_annotation_sample,
        write_annotation_sheet,
    )

    labels = _read_labels(run_dirs)
    sample = draw_annotation_sample(labels, n=n, pair_share=pair_share, seed=seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    key.parent.mkdir(parents=True, exist_ok=True)
    write_annotation_sheet(sample, out)
    sample.key.to_csv(key, index=False)
    typer.echo(f"sheet: {out} ({len(sample.sheet)} outputs, labels hidden); key: {key}")


@annotate_app.command("agree")
def annotate_agree(
    key: Annotated[Path, typer.Option(help="The key written by annotate export.")],
    a: Annotated[Path, typer.Option("--a", help="Annotator A's filled sheet.")],
    b: Annotated[Path, typer.Option("--b", help="Annotator B's filled sheet.")],
    adjudicated: Annotated[Path | None, typer.Option(help="The adjudicated sheet, if any.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the report as JSON too.")] = None,
) -> None:
    """Inter-annotator kappa, and rule-vs-human agreement with a confusion matrix."""
    from biasbench.benchmarks.honorific_bn.annotation import (
        agreement_report,
        read_annotation_key,
        read_annotation_sheet,
    )
    from biasbench.jsonutil import write_json

    rule = read_annotation_key(key)
    final = read_annotation_sheet(adjudicated) if adjudicated else None
    result = agreement_report(rule, read_annotation_sheet(a), read_annotation_sheet(b), final)
    typer.echo(result.to_markdown())
    if out:
        write_json(result.to_dict(), out)


def _read_labels(run_dirs: list[Path]) -> object:
    import pandas as pd

    from biasbench.errors import InputError
    from biasbench.runfolder import LABELS_NAME
    from biasbench.runs import load_run

    frames = []
    for run_dir in run_dirs:
        path = run_dir / LABELS_NAME
        if not path.is_file():
            raise InputError(f"no {LABELS_NAME} (not an honorific-bn run or score folder)",
                             file=str(run_dir))
        load_run(run_dir)  # the labels must be the ones recorded after scoring, never torn
        frames.append(pd.read_json(path, lines=True, dtype={"seed": "Int64"}))
    labels = pd.concat(frames, ignore_index=True)
    seeds = labels["seed"].map(lambda v: "" if pd.isna(v) else str(int(v)))
    labels["response_id"] = (labels["model"].astype(str) + "|" + labels["item_id"].astype(str)
                             + "|" + seeds)
    return labels


@plot_app.command("jitter")
def plot_jitter(
    run_dirs: Annotated[list[Path], typer.Argument(help="FilBBQ/BBQ run or score folders; "
                        "one row per model.")],
    template: Annotated[str, typer.Option(help="Template id (question_index), e.g. ENBBQ-01.")],
    out: Annotated[Path, typer.Option(help="Figure file (.png, .pdf or .svg).")],
    score: Annotated[str, typer.Option(help="s_amb or s_dis.")] = "s_amb",
    category: Annotated[str | None, typer.Option(help="Category, when the id is in several.")] = None,
) -> None:
    """Per-seed bias scores of one template, one row per model (the paper's Figures 1-2)."""
    import pandas as pd

    from biasbench.benchmarks.bbq.plots import jitter_plot
    from biasbench.errors import InputError
    from biasbench.runfolder import TABLES_DIR
    from biasbench.runs import load_run
    from biasbench.tables import read_csv

    tables = []
    for run_dir in run_dirs:
        load_run(run_dir)  # the tables must be the ones recorded after scoring, never torn
        path = run_dir / TABLES_DIR / "per_template_per_seed.csv"
        if not path.is_file():
            path = run_dir / "per_template_per_seed.csv"  # a `score bbq` folder
        if not path.is_file():
            raise InputError("no per_template_per_seed.csv (not a FilBBQ/BBQ run)",
                             file=str(run_dir))
        tables.append(read_csv(path, dtype={"question_index": str}))
    jitter_plot(pd.concat(tables, ignore_index=True), template, score,  # type: ignore[arg-type]
                out, category=category)
    typer.echo(f"wrote {out}")


@app.command()
def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run or score folders.")],
    out: Annotated[Path, typer.Option(help="Report folder.")],
) -> None:
    """Build one self-contained HTML report with figures and tables from run folders."""
    from biasbench.report.html import build_report

    path = build_report(run_dirs, out)
    typer.echo(f"report: {path}")


from biasbench.cli.tools import register as _register_tools  # noqa: E402

_register_tools(app)  # export, runs


def main() -> None:
    """Entry point: run the app, turning user errors into one line and exit code 2.

    Exit codes: 0 done, 2 bad input or a refused run folder (one line), 3 some requests
    failed (recorded; rerun to retry), 130 Ctrl-C, 143 SIGTERM (both after the finished
    answers are saved and the manifest says why the run stopped).
    """
    import sqlite3

    from biasbench import signals

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")
    signals.install()
    try:
        app()
    except SystemExit as exc:
        # typer turns a KeyboardInterrupt inside a command into a silent exit 130.
        if exc.code == 130:
            _interrupted()
        raise
    except KeyboardInterrupt:
        _interrupted()
    except (BiasbenchError, OSError) as exc:
        _one_line(str(exc))
    except UnicodeDecodeError as exc:
        _one_line(f"input is not UTF-8 text ({exc.reason} at byte {exc.start})")
    except RecursionError:
        _one_line("input nested too deeply to read (JSON deeper than Python's recursion "
                  "limit)")
    except sqlite3.DatabaseError as exc:
        _one_line(f"response store unreadable ({exc})")


def _one_line(message: str) -> None:
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    sys.exit(EXIT_USAGE)


def _interrupted() -> None:
    """Say what happened, then leave at once: exiting through the interpreter's shutdown can
    make uvloop print "Event loop is closed" for transports collected after their loop."""
    import os

    from biasbench import signals as sig

    what = "terminated (SIGTERM)" if sig.received_sigterm() else "interrupted (Ctrl-C)"
    typer.echo(f"{what}: finished responses are saved in the store and the manifest records "
               "the interruption; rerun the same command to resume", err=True)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(sig.exit_code())
