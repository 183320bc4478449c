"""``biasbench lint NAME`` / ``biasbench lint NAME --items FILES``: the data lint of a
benchmark's items, or of item files in a format its engine reads (a thin layer over the API's
``lint``, which goes through the benchmark interface)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from biasbench.cli.common import echo_lines, fail


def lint(
    name: Annotated[
        str | None, typer.Argument(help="a registered benchmark (its items, or its formats)")
    ] = None,
    items: Annotated[
        str | None,
        typer.Option(
            help="comma-separated item files instead, in any format the benchmark's engine "
            "reads (NAMESPACE=FILE allowed)"
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
    option, missing polarity/context pairs (the data lint's page in docs/)."""
    from biasbench.api import lint as data_lint

    if name is None:
        fail("give a benchmark NAME (and --items FILES to lint files in its formats)")
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
