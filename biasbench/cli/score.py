"""``biasbench score NAME --responses FILE --out DIR``: outputs produced elsewhere, scored as a
run's are, with NAME's own ``run`` options; ``--from HARNESS`` (where NAME declares
``harness_logs``): another harness's log, through the benchmark's interface."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer._click.core import Command  # typer vendors its own click

from biasbench.cli.common import (
    BenchmarkCommand,
    BenchmarkGroup,
    click_command,
    echo_lines,
    fail,
    given_options,
    option_parameters,
    with_parameters,
)

EXPORTED_HELP = (
    "eee: Every Eval Ever instance records biasbench exported (a *_samples.jsonl "
    "or the data/ folder); inspect: also an eval log biasbench exported."
)

if TYPE_CHECKING:
    from biasbench.registry.interface import Benchmark, Declaration


def score_benchmark_command(declaration: Declaration) -> Command:
    """``biasbench score NAME`` for the benchmark ``declaration`` declares."""
    name = declaration.name

    def command(responses: Path, out: Path, harness: str | None = None, **values: object) -> None:
        from biasbench.output_health import health_line
        from biasbench.pipeline import score_into
        from biasbench.registry import get_benchmark
        from biasbench.runfolder import RESULTS_NAME, TABLES_DIR
        from biasbench.runfolder.derived import write_results

        given = given_options(declaration, values)
        refused = next(
            (spec for spec in declaration.options if spec.run_only and spec.name in given), None
        )
        if refused is not None:  # before anything is read or written
            fail(f"{refused.flag} is for biasbench run, not score: {refused.run_only}")
        bench = get_benchmark(name, **given)  # its options checked once, as the API's
        if harness is not None and harness in declaration.harness_logs:
            return score_harness(bench, harness, responses, out)  # declared: harness_logs
        if harness is not None:  # a log or records biasbench exported (exporting/read_back)
            from biasbench.exporting.read_back import EXPORT_FORMATS, read_exported

            if harness not in EXPORT_FORMATS:
                known = dict.fromkeys((*declaration.harness_logs, *EXPORT_FORMATS))
                fail(f"--from {harness}: {name} reads {', '.join(known)}")
            frame = read_exported(bench, harness, responses)
        else:
            frame = bench.read_responses(responses)  # before the folder is touched: bad input

        def produce(folder: Path) -> dict[str, Any]:
            results: dict[str, Any] = bench.score(frame, folder, source=str(responses))
            write_results(results, folder)
            return results

        results = score_into(out, name, produce)
        health = results["output_health"]
        echo_lines(
            bench.summary(results)
            + [line for m, h in health.items() if (line := health_line(m, h))]
        )
        typer.echo(f"wrote {out / RESULTS_NAME} and {out / TABLES_DIR}")

    fixed = [
        inspect.Parameter(
            "responses",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[Path, typer.Option(help=declaration.responses_help)],
        ),
        inspect.Parameter(
            "out",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[
                Path, typer.Option(help="Output folder (new, empty, or an earlier score folder).")
            ],
        ),
    ]
    from_help = (
        (declaration.harness_help + " ") if declaration.harness_logs else ""
    ) + EXPORTED_HELP
    fixed.append(
        inspect.Parameter(
            "harness",
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[str | None, typer.Option("--from", help=from_help)],
        )
    )
    doc = f"Score {name} outputs produced elsewhere, one or many models per file."
    function = with_parameters(
        command, [*fixed, *option_parameters(declaration.options, name)], doc
    )
    built = click_command(function, name, cls=BenchmarkCommand)
    built.benchmark = name  # type: ignore[attr-defined]
    return built


def score_harness(bench: Benchmark, harness: str, responses: Path, out: Path) -> None:
    """``score NAME --from HARNESS``: the log read and mapped before the folder is touched,
    scored by the benchmark, the harness's metrics beside."""
    from biasbench.output_health import health_line
    from biasbench.pipeline import score_into
    from biasbench.runfolder import RESULTS_NAME, TABLES_DIR
    from biasbench.runfolder.derived import write_results

    log = bench.read_harness_log(harness, responses)

    def produce(folder: Path) -> dict[str, Any]:
        results = bench.score_harness_log(log, folder, source=f"{harness}:{responses}")
        write_results(results, folder)
        return results

    results = score_into(out, bench.name, produce)
    health = results["output_health"]
    echo_lines(
        bench.summary(results)
        + [line for m, h in health.items() if (line := health_line(m, h))]
        + bench.harness_summary(results)
    )
    typer.echo(f"wrote {out / RESULTS_NAME} and {out / TABLES_DIR}")


score = BenchmarkGroup(
    name="score", build=score_benchmark_command, help="Score outputs produced elsewhere."
)
