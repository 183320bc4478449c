"""``biasbench lint NAME`` / ``biasbench lint --items FILES``: the data lint of a named BBQ-format
benchmark's items or of item files in a published format (a thin layer over
:mod:`biasbench.engines.bbq_family.items.lint`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from biasbench.cli.common import echo_lines, fail


def lint(
    name: Annotated[str | None, typer.Argument(help="a registered BBQ-format benchmark")] = None,
    items: Annotated[
        str | None,
        typer.Option(
            help="comma-separated item files instead (BBQ/GG-BBQ JSONL, BharatBBQ/GBFA CSV; "
            "NAMESPACE=FILE allowed)"
        ),
    ] = None,
    data: Annotated[Path | None, typer.Option(help="the benchmark's --data folder")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="a benchmark option KEY=VALUE, its value as text (e.g. -o categories=Age)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the lint as JSON")] = False,
    strict: Annotated[bool, typer.Option(help="exit 1 when there is any finding")] = False,
) -> None:
    """List what in a BBQ dataset skews or shrinks its scores: invalid rows (every one),
    duplicate options, the unknown option's position balance, targets equal to the unknown
    option, missing polarity/context pairs (docs/bbq-engine/data-lint.md)."""
    from biasbench.api import lint as data_lint

    if (name is None) == (items is None):
        fail("give a benchmark NAME or --items FILES (one of them)")
    options: dict[str, object] = {}
    if data is not None:
        options["data"] = data
    for entry in option or []:
        key, sep, value = entry.partition("=")
        if not sep:
            fail(f"--option needs KEY=VALUE, not {entry!r}")
        options[key.strip().replace("-", "_")] = value
    report = data_lint(
        name, items=None if items is None else [p for p in items.split(",") if p.strip()], **options
    )
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=1))
    else:
        echo_lines(report.lines())
    if strict and report.findings:
        raise typer.Exit(1)
