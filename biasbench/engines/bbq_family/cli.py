"""The BBQ engine's own command, ``biasbench plot jitter`` (every BBQ-format benchmark adds it
through its declaration, :mod:`biasbench.engines.bbq_family.declaration`; the CLI names no benchmark)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from biasbench.errors import InputError

if TYPE_CHECKING:
    from biasbench.runfolder.grouping import RunGroup

PER_SEED_TABLE = "per_template_per_seed.csv"


def plot_jitter(
    run_dirs: Annotated[
        list[Path],
        typer.Argument(
            help="FilBBQ/BBQ run or score folders "
            "with one signature (as report merges them); one row per model."
        ),
    ],
    template: Annotated[str, typer.Option(help="Template id (question_index), e.g. ENBBQ-01.")],
    out: Annotated[Path, typer.Option(help="Figure file (.png, .pdf or .svg).")],
    score: Annotated[str, typer.Option(help="s_amb or s_dis.")] = "s_amb",
    category: Annotated[
        str | None, typer.Option(help="Category, when the id is in several.")
    ] = None,
) -> None:
    """Per-seed bias scores of one template, one row per model (the paper's Figures 1-2)."""
    from biasbench.engines.bbq_family.presenting.jitter import jitter_plot

    group = comparable_runs(run_dirs)
    missing = [str(run.path) for run in group.runs if run.file(PER_SEED_TABLE) is None]
    if missing:
        raise InputError(f"no {PER_SEED_TABLE} (not a FilBBQ/BBQ run)", file=missing[0])
    per_seed = group.concat(PER_SEED_TABLE)
    if per_seed is None:
        raise InputError(f"no per-seed scores in {PER_SEED_TABLE}", file=str(run_dirs[0]))
    jitter_plot(per_seed, template, score, out, category=category)  # type: ignore[arg-type]
    typer.echo(f"wrote {out}")


def comparable_runs(run_dirs: list[Path]) -> RunGroup:
    """The one group of comparable runs among ``run_dirs`` (what ``report`` would merge); runs
    whose signatures disagree are one error line naming the fields, never drawn together."""
    # Function-level: run folders are read with pandas, and `--help` reads this module.
    from biasbench.runfolder.grouping import load_runs

    plan = load_runs(run_dirs)  # each folder's derived files must match its manifest
    first = plan.groups[0]
    for group in plan.groups[1:]:
        if group.benchmark != first.benchmark:
            why = f"benchmark: {first.benchmark} vs {group.benchmark}"
        else:
            why = "; ".join(d.description for d in group.differences) or "signature"
        raise InputError(
            f"runs whose signatures disagree are not drawn on one figure (report keeps them "
            f"apart too): {', '.join(r.name for r in group.runs)} vs "
            f"{', '.join(r.name for r in first.runs)} differ in {why}; plot each set separately"
        )
    return first
