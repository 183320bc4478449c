"""``biasbench data NAME --out DIR``: write the items of a benchmark that generates its own
(``Benchmark.generate_items``), with its ``data_options`` (an ``out`` entry there only gives
``--out`` its help; ``--out`` is always required)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from typer._click.core import Command  # typer vendors its own click

from biasbench.cli.common import (
    BenchmarkGroup,
    click_command,
    echo_lines,
    option_parameters,
    with_parameters,
)

if TYPE_CHECKING:
    from biasbench.registry.interface import Declaration


def data_benchmark_command(declaration: Declaration) -> Command:
    """``biasbench data NAME`` for the benchmark ``declaration`` declares."""
    name = declaration.name
    specs = [spec for spec in declaration.data_options if spec.name != "out"]
    out_help = next(
        (spec.help for spec in declaration.data_options if spec.name == "out"),
        "Output folder for the generated items.",
    )

    def command(out: Path, **options: object) -> None:
        from biasbench.registry import benchmark_class

        given = {s.name: options[s.name] for s in specs if options[s.name] != s.default}
        echo_lines(benchmark_class(name).generate_items(out, **given))

    out_parameter = inspect.Parameter(
        "out",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[Path, typer.Option(help=out_help)],
    )
    return click_command(
        with_parameters(
            command, [out_parameter, *option_parameters(specs, name)], declaration.data_help
        ),
        name,
    )


data = BenchmarkGroup(
    name="data",
    build=data_benchmark_command,
    include=lambda declaration: declaration.generates_items,
    help="Build or validate a benchmark's items.",
)
