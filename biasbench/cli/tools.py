"""``biasbench export`` and ``biasbench runs``: thin commands over :mod:`biasbench.export` and
:mod:`biasbench.catalog`, registered on the main app by :func:`register`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def export(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run or score folders.", metavar="RUN...")],
    out: Annotated[Path, typer.Option(help="Folder to write the tables (or the dataset) into.")],
    format: Annotated[str, typer.Option(
        "--format", "-f", help="parquet, csv or jsonl: responses, labels and scores files; hf: "
        "a datasets folder with one split per table (datasets.load_from_disk).")] = "parquet",
) -> None:
    """Write responses, labels and scores as tidy tables, the signature on every row."""
    from biasbench.export import export_runs

    for path in export_runs(run_dirs, format, out):
        typer.echo(f"wrote {path}")


def runs(
    root: Annotated[Path, typer.Argument(help="Folder to search for run folders.")] = Path("runs"),
) -> None:
    """List run folders: benchmark, model, status, counts, invocations and signature."""
    from biasbench.catalog import format_table, list_runs

    table = list_runs(root)
    if table.empty:
        typer.echo(f"no run folders under {root}")
        return
    typer.echo(format_table(table))
    for row in table.itertuples():
        if row.detail:  # why a folder is failed or torn, one line each
            typer.echo(f"{row.folder}: {row.status}: {row.detail}")


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("runs")(runs)
