"""The ``biasbench`` command: thin argument parsing over library calls.

Every user error (bad file, bad model spec, unreachable endpoint) ends as one line on stderr and a
non-zero exit code, never a traceback.
"""

from __future__ import annotations

import inspect
import logging
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from biasbench.benchmarks.base import OptionSpec
from biasbench.errors import BiasbenchError

# Help texts are plain text (rich markup would eat "[seed]"-like words and print "model, ,"),
# wrapped at the terminal's width (click's own cap is 80 columns).
PLAIN: Any = None
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=PLAIN, context_settings={"max_content_width": 10_000},
                  help="Measure social bias of language models beyond English.")
data_app = typer.Typer(no_args_is_help=True, rich_markup_mode=PLAIN,
                       help="Build or validate a benchmark's items.")
score_app = typer.Typer(no_args_is_help=True, rich_markup_mode=PLAIN,
                        help="Score outputs produced elsewhere.")
app.add_typer(data_app, name="data")
app.add_typer(score_app, name="score")

def _version(value: bool) -> None:
    if value:
        from biasbench import __version__

        typer.echo(f"biasbench {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log every detail (e.g. each "
                       "template generator warning, which are otherwise counted in one "
                       "line).")] = False,
) -> None:
    """Measure social bias of language models beyond English."""
    if verbose:
        logging.getLogger().setLevel(logging.INFO)


EXIT_USAGE = 2
EXIT_INCOMPLETE = 3

ModelOpt = Annotated[str, typer.Option("--model", "-m", help="Model spec: llamacpp, "
                     "llamacpp:FILE.gguf, openai:NAME, hf:NAME, replay:FILE[@MODEL], mock:SCRIPT.")]
BaseUrlOpt = Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. "
                       "http://localhost:8000/v1 (default: $OPENAI_BASE_URL, else OpenAI's API).")]
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


def _add_data_commands() -> None:
    """``biasbench data NAME --out ...`` for every registered benchmark that generates its own
    items (``Benchmark.generate_items``), its options from ``Benchmark.data_options`` (an
    ``out`` spec there only describes ``--out``, which is always required)."""
    from biasbench.benchmarks import benchmark_classes

    for cls in benchmark_classes():
        if cls.generates_items():
            data_app.command(cls.name)(_data_command(cls))


def _data_command(cls: Any) -> Callable[..., None]:
    specs = [spec for spec in cls.data_options if spec.name != "out"]
    out_help = next((spec.help for spec in cls.data_options if spec.name == "out"),
                    "Output folder for the generated items.")

    def command(out: Path, **options: object) -> None:
        given = {s.name: options[s.name] for s in specs if options[s.name] != s.default}
        _echo_lines(cls.generate_items(out, **given))

    out_parameter = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY,
                                      annotation=Annotated[Path, typer.Option(help=out_help)])
    return _with_parameters(command, [out_parameter, *_option_parameters(specs)],
                            _first_line(cls.generate_items.__doc__))


def _add_score_commands() -> None:
    """``biasbench score NAME --responses FILE --out DIR`` for every registered benchmark, with
    its own ``run`` options (a BBQ-format benchmark's ``--items FILES``: any BBQ-format items)."""
    from biasbench.benchmarks import benchmark_classes

    for cls in benchmark_classes():
        score_app.command(cls.name)(_score_command(cls))


def _score_command(cls: Any) -> Callable[..., None]:
    def command(responses: Path, out: Path, **options: object) -> None:
        from biasbench.output_health import health_line
        from biasbench.pipeline import score_into
        from biasbench.runfolder import RESULTS_NAME, TABLES_DIR, write_results

        bench = cls(**_benchmark_options(cls.name, options))
        frame = bench.read_responses(responses)  # before the folder is touched: bad input

        def produce(folder: Path) -> dict[str, Any]:
            results: dict[str, Any] = bench.score(frame, folder, source=str(responses))
            write_results(results, folder)
            return results

        results = score_into(out, cls.name, produce)
        health = results["output_health"]
        _echo_lines(bench.summary(results)
                    + [line for m, h in health.items() if (line := health_line(m, h))])
        typer.echo(f"wrote {out / RESULTS_NAME} and {out / TABLES_DIR}")

    fixed = [
        inspect.Parameter("responses", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[
            Path, typer.Option(help=cls.responses_help)]),
        inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[
            Path, typer.Option(help="Output folder (new, empty, or an earlier score folder).")]),
    ]
    return _with_parameters(command, [*fixed, *_option_parameters(cls.options)],
                            f"Score {cls.name} outputs produced elsewhere, one or many models "
                            "per file.")


def _add_benchmark_commands() -> None:
    """The commands benchmarks own (``Benchmark.commands``): ``biasbench NAME`` or ``biasbench
    GROUP NAME``; a command shared through an engine is added once."""
    from biasbench.benchmarks import benchmark_classes

    groups: dict[str, typer.Typer] = {}
    added: dict[tuple[str | None, str], Callable[..., None]] = {}
    for cls in benchmark_classes():
        for command in cls.commands():
            where = (command.group, command.name)
            if where in added:
                if added[where] is not command.function:  # two benchmarks, one command name
                    raise TypeError(f"{cls.name} adds a second command "
                                    f"{' '.join(filter(None, where))!r}")
                continue
            added[where] = command.function
            if command.group is None:
                app.command(command.name)(command.function)
                continue
            if command.group not in groups:
                groups[command.group] = typer.Typer(no_args_is_help=True, rich_markup_mode=PLAIN,
                                                    help=command.group_help)
                app.add_typer(groups[command.group], name=command.group)
            groups[command.group].command(command.name)(command.function)


def _option_parameters(specs: Iterable[OptionSpec]) -> list[inspect.Parameter]:
    """One keyword parameter, annotated as a typer option, per declared option."""
    parameters = []
    for spec in specs:
        kind: Any = spec.kind if spec.default is not None else spec.kind | None
        parameters.append(inspect.Parameter(
            spec.name, inspect.Parameter.KEYWORD_ONLY, default=spec.default,
            annotation=Annotated[kind, typer.Option(*_flags(spec), help=spec.help)]))
    return parameters


def _with_parameters(command: Callable[..., None], parameters: list[inspect.Parameter],
                     doc: str) -> Callable[..., None]:
    """``command`` (which takes ``**options``) as typer sees a function with ``parameters``."""
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = doc
    return command


def _first_line(doc: str | None) -> str:
    """A docstring's first sentence, however it was wrapped."""
    return " ".join((doc or "").strip().split("\n\n")[0].split())


_CLI_DEFAULTS: dict[str, object] = {}
"""The default of each benchmark option as ``run`` offers it: the benchmarks' own when they all
agree, else None (unset)."""


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
        specs = [s for c in benchmark_classes() for s in c.options if s.name == name]
        text = " ".join(f"{', '.join(names)}: {help_}" for help_, names in helps.items())
        if len({(s.kind, repr(s.default)) for s in specs}) == 1:
            kind: Any = spec.kind if spec.default is not None else spec.kind | None
            default = spec.default
        else:
            # Benchmarks declare this name with other types or defaults (mbbq's --prompt-variant
            # is a number, cbbq's a name): the option is unset (None) unless given, and each
            # benchmark reads the value as its own type (_benchmark_options).
            kinds = {s.kind for s in specs}
            kind = (kinds.pop() if len(kinds) == 1 else str) | None
            default = None
            text += " Defaults: " + "; ".join(
                f"{c.name} {s.default}" for c in benchmark_classes() for s in c.options
                if s.name == name) + "."
        _CLI_DEFAULTS[name] = default
        extra.append(inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, default=default,
            annotation=Annotated[kind, typer.Option(*_flags(spec), help=text)]))
    parameters = fixed + extra
    picks: dict[str, list[str]] = {}  # what --limit picks, in each benchmark's words
    for cls in benchmark_classes():
        picks.setdefault(cls.limit_help, []).append(cls.name)
    for parameter in fixed:
        if parameter.name == "limit":
            info = parameter.annotation.__metadata__[0]
            info.help = f"{info.help} " + "; ".join(
                f"{', '.join(names)}: {text}" for text, names in picks.items()) + "."
    command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return command


def _flags(spec: OptionSpec) -> tuple[str, ...]:
    return (f"{spec.flag}/--no-{spec.flag[2:]}",) if spec.kind is bool else (spec.flag,)


def _benchmark_options(benchmark: str, given: dict[str, object]) -> dict[str, object]:
    """The options of ``benchmark`` that were set (a value away from its default); an option
    another benchmark declares is refused in one line instead of being ignored."""
    from biasbench.benchmarks import benchmark_class

    specs = {spec.name: spec for spec in benchmark_class(benchmark).options}
    chosen: dict[str, object] = {}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            if value != _CLI_DEFAULTS.get(name):
                flag = "--" + name.replace("_", "-")
                _fail(f"{flag} is not an option of {benchmark}")
            continue
        if value is None and _CLI_DEFAULTS.get(name) is None and spec.default is not None:
            continue  # a shared option left unset: the benchmark's own default applies
        if value is not None and not isinstance(value, spec.kind):
            try:
                value = spec.kind(value)
            except (TypeError, ValueError):
                _fail(f"{spec.flag} of {benchmark} takes {spec.kind.__name__} values, not "
                      f"{value!r}")
        if spec.choices and value not in spec.choices:
            _fail(f"{spec.flag} must be one of {', '.join(spec.choices)}, not {value!r}")
        if value != spec.default:
            chosen[name] = value
    return chosen


_add_data_commands()
_add_score_commands()


@app.command()
@_with_benchmark_options
def run(
    benchmark: Annotated[str, typer.Argument(help="A registered benchmark (biasbench list).")],
    model: ModelOpt = "llamacpp",
    out: Annotated[Path | None, typer.Option(help="Run folder (default runs/BENCHMARK--MODEL).")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Run N items; which ones, per "
                     "benchmark:")] = None,
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


@app.command()
def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run or score folders.")],
    out: Annotated[Path, typer.Option(help="Report folder.")],
) -> None:
    """Build one self-contained HTML report with figures and tables from run folders."""
    from biasbench.report.html import build_report

    path = build_report(run_dirs, out)
    typer.echo(f"report: {path}")


_add_benchmark_commands()

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
        from biasbench.responses import check_environment

        check_environment()
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
