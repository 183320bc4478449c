"""``biasbench list``: every registered benchmark (from its declaration: nothing is loaded) and
every model backend."""

from __future__ import annotations

import typer


def list_command() -> None:
    """Every registered benchmark (name, items, languages, paper) and every model backend."""
    from biasbench.models.registry import list_backends
    from biasbench.registry import declarations
    from biasbench.registry.interface import BenchmarkInfo

    typer.echo("benchmarks:")
    for declaration in declarations():
        info = BenchmarkInfo.of(declaration)
        typer.echo(
            f"  {info.name}: items {info.items}; languages {', '.join(info.languages)}; "
            f"{info.paper.citation} ({info.paper.title}); "
            f"licence: {info.licence or 'not stated by the authors'}"
            + (f"; terms: {info.terms}" if info.terms else "")
        )
    typer.echo("backends:")
    for backend in list_backends():
        for line in backend.lines():
            typer.echo(f"  {line}")
