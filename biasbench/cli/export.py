"""``biasbench export``: tidy tables of run folders, a thin command over
:mod:`biasbench.export`."""

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
