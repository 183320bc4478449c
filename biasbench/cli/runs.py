"""``biasbench runs``: the run folders under a folder, a thin command over
:mod:`biasbench.runfolder.catalog`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def runs(
    root: Annotated[Path, typer.Argument(help="Folder to search for run folders.")] = Path("runs"),
) -> None:
    """List run folders: benchmark, model, status, counts, invocations and signature."""
    from biasbench.runfolder.catalog import format_table, list_runs

    table = list_runs(root)
    if table.empty:
        typer.echo(f"no run folders under {root}")
        return
    typer.echo(format_table(table))
    for row in table.itertuples():
        if row.detail:  # why a folder is failed or torn, one line each
            typer.echo(f"{row.folder}: {row.status}: {row.detail}")
