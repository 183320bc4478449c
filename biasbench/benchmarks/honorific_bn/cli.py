"""honorific-bn's own command: ``biasbench classify`` (the register judge on any Bengali text).
``annotate export|agree`` (human validation of the judge) are the honorific engine's
(:mod:`biasbench.engines.honorific.cli`), re-exported here for importers. The CLI adds them
through :meth:`HonorificBenchmark.commands`; it names neither."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from biasbench.engines.honorific.cli import annotate_agree, annotate_export, read_labels

__all__ = ["annotate_agree", "annotate_export", "classify", "read_labels"]


def classify(
    input: Annotated[Path, typer.Option("--input", help="JSONL with output and, optionally, "
                                        "condition.")],
    out: Annotated[Path, typer.Option(help="JSONL written with label, plural, evidence added.")],
) -> None:
    """Label arbitrary Bengali outputs with the register classifier."""
    from biasbench.benchmarks.honorific_bn.classifier import classify_register
    from biasbench.responses import check_fields, iter_jsonl, write_jsonl

    rows = []
    for line, obj in iter_jsonl(input):
        check_fields(obj, path=input, line=line, required=("output",),
                     strings=("output", "condition"))
        lab = classify_register(obj["output"], condition=obj.get("condition")).to_dict()
        rows.append({**obj, "label": lab["label"], "plural": lab["plural"],
                     "evidence": lab["evidence"], "reason": lab["reason"]})
    write_jsonl(rows, out)
    typer.echo(f"labelled {len(rows)} outputs -> {out}")
