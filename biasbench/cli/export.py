"""``biasbench export``: tidy tables of run folders, a thin command over
:mod:`biasbench.export`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def export(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run or score folders.", metavar="RUN...")],
    out: Annotated[Path, typer.Option(help="Folder to write the tables (or the dataset) into.")],
    format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="parquet, csv or jsonl: responses, labels and scores files; hf: "
            "a datasets folder with one split per table (datasets.load_from_disk); eee: Every Eval "
            "Ever records; hf-eval-results: a model repository's .eval_results YAML and an "
            "eval.yaml draft; inspect: an Inspect log per run and model (docs/exporting.md).",
        ),
    ] = "parquet",
    hf_dataset: Annotated[
        str | None,
        typer.Option(
            help="hf-eval-results: the benchmark's dataset id on the Hub (default: "
            "biasbench/NAME, a placeholder to replace)."
        ),
    ] = None,
) -> None:
    """Write responses, labels and scores as tidy tables, the signature on every row, or in a
    shared format (Every Eval Ever, Hugging Face eval results, Inspect logs)."""
    from biasbench.exporting import TRAVEL_FORMATS

    if format in TRAVEL_FORMATS:
        from biasbench.exporting import export_travelling

        written, notes = export_travelling(run_dirs, format, out, hf_dataset=hf_dataset)
        for note in notes:
            typer.echo(note, err=True)
    else:
        from biasbench.export import export_runs

        written = export_runs(run_dirs, format, out)
    for path in written:
        typer.echo(f"wrote {path}")
