"""``biasbench report``: one self-contained HTML page from run folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run or score folders.")],
    out: Annotated[Path, typer.Option(help="Report folder.")],
) -> None:
    """Build one self-contained HTML report with figures and tables from run folders."""
    from biasbench.report.html import build_report

    path = build_report(run_dirs, out)
    typer.echo(f"report: {path}")
