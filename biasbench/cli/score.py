"""``biasbench score NAME --responses FILE --out DIR``: outputs produced elsewhere, scored as a
run's are, with NAME's own ``run`` options (``score bbq --items FILES``: any BBQ-format items)."""

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
from biasbench.engines.bbq_family.declaration import FROM_HELP

if TYPE_CHECKING:
    from biasbench.benchmarks.base import Declaration


def score_benchmark_command(declaration: Declaration) -> Command:
    """``biasbench score NAME`` for the benchmark ``declaration`` declares."""
    name = declaration.name

    def command(responses: Path, out: Path, harness: str | None = None,
                **values: object) -> None:
        from biasbench.benchmarks import get_benchmark
        from biasbench.output_health import health_line
        from biasbench.pipeline import score_into
        from biasbench.runfolder import RESULTS_NAME, TABLES_DIR
        from biasbench.runfolder.derived import write_results

        given = given_options(declaration, values)
        refused = next((spec for spec in declaration.options
                        if spec.run_only and spec.name in given), None)
        if refused is not None:  # before anything is read or written
            fail(f"{refused.flag} is for biasbench run, not score: {refused.run_only}")
        # As `run` and the API: the options the engine declares for every benchmark it serves
        # (--answer-by, --language-rules, --target-match...) are applied after construction.
        bench = get_benchmark(name, **given)
        if harness is not None:  # another harness's log (BBQ engine: harness_logs/)
            return score_harness(bench, harness, responses, out)
        frame = bench.read_responses(responses)  # before the folder is touched: bad input

        def produce(folder: Path) -> dict[str, Any]:
            results: dict[str, Any] = bench.score(frame, folder, source=str(responses))
            write_results(results, folder)
            return results

        results = score_into(out, name, produce)
        health = results["output_health"]
        echo_lines(bench.summary(results)
                   + [line for m, h in health.items() if (line := health_line(m, h))])
        typer.echo(f"wrote {out / RESULTS_NAME} and {out / TABLES_DIR}")

    fixed = [
        inspect.Parameter("responses", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[
            Path, typer.Option(help=declaration.responses_help)]),
        inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[
            Path, typer.Option(help="Output folder (new, empty, or an earlier score folder).")]),
    ]
    if declaration.harness_logs:
        fixed.append(inspect.Parameter(
            "harness", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
                str | None, typer.Option("--from", help=FROM_HELP)]))
    doc = f"Score {name} outputs produced elsewhere, one or many models per file."
    function = with_parameters(command, [*fixed, *option_parameters(declaration.options, name)],
                               doc)
    built = click_command(function, name, cls=BenchmarkCommand)
    built.benchmark = name  # type: ignore[attr-defined]
    return built


def score_harness(bench: Any, harness: str, responses: Path, out: Path) -> None:
    """``score NAME --from HARNESS``: the log read and mapped before the folder is touched,
    scored by the engine, the harness's metrics beside (BBQ engine, ``harness_logs/``)."""
    from biasbench.engines.bbq_family.harness_logs.compare import summary_lines
    from biasbench.engines.bbq_family.harness_logs.rescore import (
        read_harness_log,
        score_harness_log,
    )
    from biasbench.output_health import health_line
    from biasbench.pipeline import score_into
    from biasbench.runfolder import RESULTS_NAME, TABLES_DIR
    from biasbench.runfolder.derived import write_results

    log = read_harness_log(harness, responses, bench)

    def produce(folder: Path) -> dict[str, Any]:
        results = score_harness_log(bench, log, folder, source=f"{harness}:{responses}")
        write_results(results, folder)
        return results

    results = score_into(out, bench.name, produce)
    health = results["output_health"]
    echo_lines(bench.summary(results)
               + [line for m, h in health.items() if (line := health_line(m, h))]
               + summary_lines(results["harness_log"]["comparison"], harness))
    typer.echo(f"wrote {out / RESULTS_NAME} and {out / TABLES_DIR}")


score = BenchmarkGroup(name="score", build=score_benchmark_command,
                       help="Score outputs produced elsewhere.")
