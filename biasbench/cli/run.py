"""``biasbench run NAME``: one benchmark against one model into one run folder.

Each benchmark gets its own command, built from its declaration alone: ``run NAME --help``
lists only NAME's options, and ``run NAME`` parses them as NAME declares them (two benchmarks
may declare one name with different types).
"""

from __future__ import annotations

import inspect
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer._click.core import Command  # typer vendors its own click
from typer.core import TyperOption

from biasbench.arguments import MAX_SEEDS, check_int
from biasbench.cli.common import (
    EXIT_INCOMPLETE,
    BenchmarkCommand,
    BenchmarkGroup,
    click_command,
    echo_lines,
    fail,
    given_options,
    option_parameters,
    with_parameters,
)

if TYPE_CHECKING:
    from biasbench.registry.interface import Declaration

ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        "-m",
        help="Model spec: llamacpp, "
        "llamacpp:FILE.gguf, openai:NAME, hf:NAME, replay:FILE[@MODEL], mock:SCRIPT.",
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        help="OpenAI-compatible endpoint, e.g. "
        "http://localhost:8000/v1 (default: $OPENAI_BASE_URL, else OpenAI's API)."
    ),
]
ApiOpt = Annotated[str, typer.Option(help="chat or completions (OpenAI-compatible endpoints).")]
KeyEnvOpt = Annotated[str, typer.Option(help="Environment variable holding the API key.")]
ModelArgOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--model-arg",
        "-M",
        metavar="KEY=VALUE",
        help="A backend option, repeatable: e.g. -M "
        "dtype=bfloat16 -M device=cuda (hf), -M n_threads=4 (llamacpp), -M field.NAME=VALUE "
        "(openai). `biasbench list` shows each backend's keys.",
    ),
]

RUN_HELP = """Run {name} against a model; rerunning the same command resumes (no repeated calls).

Seeds and decoding default to {name}'s own protocol (its paper's seeds and temperature)
unless --seeds/--temperature say otherwise.
"""


def _run_options(
    model: ModelOpt = "llamacpp",
    out: Annotated[
        Path | None, typer.Option(help="Run folder (default runs/BENCHMARK--MODEL).")
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Run N items; which ones:")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Requests in flight at once.")] = 8,
    seeds: Annotated[
        int | None, typer.Option(help="Run every prompt under seeds 0..S-1 (at most 1,000).")
    ] = None,
    temperature: Annotated[
        float | None, typer.Option(help="Sampling temperature (default: the benchmark's).")
    ] = None,
    max_tokens: Annotated[int | None, typer.Option(min=1, help="Generation cap.")] = None,
    base_url: BaseUrlOpt = None,
    api: ApiOpt = "chat",
    api_key_env: KeyEnvOpt = "OPENAI_API_KEY",
    model_arg: ModelArgOpt = None,
    chat: Annotated[bool, typer.Option(help="Use the chat template of a local model.")] = False,
    sampler_extras: Annotated[
        bool,
        typer.Option(
            help="openai: send top_k, min_p and "
            "repetition_penalty (vLLM, llama.cpp server); --no-sampler-extras "
            "for a strict OpenAI endpoint."
        ),
    ] = True,
    progress: Annotated[
        bool, typer.Option(help="Show progress: a bar on a terminal, a line every 30 s otherwise.")
    ] = True,
    hf_task: Annotated[str, typer.Option(help="hf: auto, causal or masked.")] = "auto",
    ray_address: Annotated[
        str | None,
        typer.Option(help="Scale out on this Ray cluster (e.g. auto or ray://head:10001)."),
    ] = None,
    ray_workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Ray actors, each with its own model "
            "replica or client (a local Ray instance without --ray-address).",
        ),
    ] = None,
    wait: Annotated[
        bool,
        typer.Option(
            help="If another process is writing to the run folder, "
            "wait for it to finish instead of exiting with status 2."
        ),
    ] = False,
    empty_retries: Annotated[
        int,
        typer.Option(
            min=0,
            help="Ask again this many times when an "
            "answer is empty (then keep it, marked and counted as empty).",
        ),
    ] = 1,
    retry_window: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a failing request keeps "
            "being retried before it is recorded as failed (covers outages).",
        ),
    ] = 45.0,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Print how many requests would be "
            "sent and how many are stored, the first prompt and the signature; send "
            "and write nothing.",
        ),
    ] = False,
) -> None:
    """The options every benchmark's ``run`` takes (their declaration, never called)."""


def _common_parameters(declaration: Declaration) -> list[inspect.Parameter]:
    """The parameters of :func:`_run_options`, ``--limit`` saying what it picks of
    ``declaration``'s items."""
    parameters = []
    for parameter in inspect.signature(_run_options, eval_str=True).parameters.values():
        if parameter.name == "limit":
            info = parameter.annotation.__metadata__[0]
            option = typer.Option(min=1, help=f"{info.help} {declaration.limit_help}.")
            parameter = parameter.replace(
                annotation=Annotated[parameter.annotation.__origin__, option]
            )
        parameters.append(parameter)
    return parameters


def run_benchmark_command(declaration: Declaration) -> Command:
    """``biasbench run NAME`` for the benchmark ``declaration`` declares."""
    name = declaration.name
    own = {spec.name for spec in declaration.options}

    def command(**values: object) -> None:
        run_once(
            name,
            {k: v for k, v in values.items() if k not in own},
            given_options(declaration, values),
        )

    common = _common_parameters(declaration)
    shadowed = own & {p.name for p in common}
    if shadowed:  # a benchmark option may not take the name of one every run has
        raise TypeError(f"{name} declares run options named {', '.join(sorted(shadowed))}")
    parameters = [*common, *option_parameters(declaration.options, name)]
    function = with_parameters(command, parameters, RUN_HELP.format(name=name))
    built = click_command(function, name, cls=BenchmarkCommand, short_help=declaration.paper.title)
    built.benchmark = name  # type: ignore[attr-defined]
    return built


def run_once(benchmark: str, options: dict[str, Any], benchmark_options: dict[str, object]) -> None:
    """One ``biasbench run``: ``options`` are the common ones (:func:`_run_options`),
    ``benchmark_options`` the benchmark's own that were set; the run's one
    :class:`~biasbench.runspec.RunSpec` is built here."""
    from biasbench import pipeline
    from biasbench.models.registry import ModelOptions, parse_model_args
    from biasbench.runfolder import STORE_NAME
    from biasbench.runner.retry import RetryPolicy
    from biasbench.runspec import RunSpec

    o = options
    # Checked here, not by typer's max=: one line, where click prints its usage block.
    check_int("seeds", o["seeds"], minimum=1, maximum=MAX_SEEDS)
    spec = RunSpec(
        benchmark,
        o["model"],
        model_options=ModelOptions(
            base_url=o["base_url"],
            api=o["api"],
            api_key_env=o["api_key_env"],
            chat=o["chat"],
            hf_task=o["hf_task"],
            sampler_extras=o["sampler_extras"],
            model_args=parse_model_args(o["model_arg"] or []),
        ),
        out=o["out"],
        limit=o["limit"],
        seeds=list(range(o["seeds"])) if o["seeds"] else None,
        temperature=o["temperature"],
        max_tokens=o["max_tokens"],
        concurrency=o["concurrency"],
        progress=o["progress"],
        benchmark_options=benchmark_options,
        retry=RetryPolicy(empty_retries=o["empty_retries"], retry_window_s=o["retry_window"]),
        ray_address=o["ray_address"],
        ray_workers=o["ray_workers"],
        wait=o["wait"],
    )
    if o["dry_run"]:
        plan = pipeline.dry_run(spec)
        echo_lines(plan.lines())
        if plan.refusal:  # the run itself would stop here, with status 2
            fail(plan.refusal)
        return
    result = pipeline.run(spec)
    echo_lines(result.summary)
    s = result.stats
    typer.echo(
        f"run folder: {result.run_dir}  ({s.total} requests: {s.cached} cached, "
        f"{s.completed} new, {s.failed} failed; {s.elapsed_s:.1f}s)"
    )
    if s.failed:
        fail(
            f"{s.failed} requests failed and are recorded as failed in "
            f"{result.run_dir / STORE_NAME}; rerun the same command to retry them",
            EXIT_INCOMPLETE,
        )


@cache
def _value_flags() -> set[str]:
    """The common flags that take a value (so ``run --model M NAME`` finds NAME)."""
    built = click_command(_run_options, "run")
    return {
        flag
        for param in built.params
        if isinstance(param, TyperOption) and not param.is_flag
        for flag in (*param.opts, *param.secondary_opts)
    }


run = BenchmarkGroup(
    name="run",
    build=run_benchmark_command,
    value_flags=_value_flags,
    help="Run a benchmark against a model; rerunning the same command resumes (no repeated "
    "calls). `biasbench run NAME --help` lists NAME's own options.",
    subcommand_metavar="NAME [OPTIONS]",
)
