"""The honorific engine's own commands: ``biasbench classify`` (a language's register judge on
any text) and ``biasbench annotate export|agree`` (human validation of any honorific language's
register judge). Every language's declaration lists them (:mod:`.declaration`); the CLI adds
each once. They read run or score folders of every honorific benchmark.

Light on purpose (typer only at import): the declaration that lists them is read by ``--help``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from biasbench.errors import InputError

if TYPE_CHECKING:
    import pandas as pd


def classify(
    input: Annotated[
        Path, typer.Option("--input", help="JSONL with output and, optionally, condition.")
    ],
    out: Annotated[
        Path,
        typer.Option(
            help="JSONL written with label, plural, evidence, "
            "reason and the judge's readings added."
        ),
    ],
    benchmark: Annotated[
        str, typer.Option(help="The honorific benchmark whose judge labels the outputs.")
    ] = "honorific-bn",
) -> None:
    """Label arbitrary outputs with an honorific language's register judge (default: the
    Bengali one)."""
    from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
    from biasbench.engines.honorific.judging import CONDITIONS, judge_for
    from biasbench.errors import BiasbenchError
    from biasbench.registry import benchmark_class, known
    from biasbench.responses import check_fields, iter_jsonl, write_jsonl

    if not known(benchmark) or not issubclass(
        cls := benchmark_class(benchmark), HonorificEngineBenchmark
    ):
        raise BiasbenchError(f"--benchmark {benchmark!r} is not an honorific benchmark")
    judge = judge_for(cls.language)
    rows = []
    for line, obj in iter_jsonl(input):
        check_fields(
            obj, path=input, line=line, required=("output",), strings=("output", "condition")
        )
        condition = obj.get("condition")
        if condition is not None and condition not in CONDITIONS:
            raise InputError(
                f"unknown condition {condition!r}; expected one of {', '.join(sorted(CONDITIONS))}",
                file=str(input),
                line=line,
                field="condition",
            )
        lab = judge.judge(obj["output"], condition).to_dict()
        rows.append(
            {
                **obj,
                "label": lab["label"],
                "plural": lab["plural"],
                "evidence": lab["evidence"],
                "reason": lab["reason"],
                "readings": lab.get("readings") or {},
            }
        )
    write_jsonl(rows, out)
    typer.echo(f"labelled {len(rows)} outputs -> {out}")


def annotate_export(
    run_dirs: Annotated[
        list[Path],
        typer.Argument(help="Run or score folders of honorific benchmarks (honorific-bn, -hi...)."),
    ],
    out: Annotated[Path, typer.Option(help="The blind sheet for annotators (CSV).")],
    key: Annotated[
        Path, typer.Option(help="The hidden key (rule labels); keep it from annotators.")
    ],
    n: Annotated[int, typer.Option(min=1, help="Sample size.")] = 180,
    pair_share: Annotated[
        float,
        typer.Option(
            help="Share of the sample drawn as complete he/she pairs.", show_default="1/3"
        ),
    ] = 1 / 3,
    seed: Annotated[int, typer.Option(help="Seed of the draw.")] = 0,
) -> None:
    """Draw a stratified sample (models, conditions, frames; a share of matched pairs)."""
    from biasbench.engines.honorific.annotation import (
        draw_annotation_sample,
        write_annotation_sheet,
    )

    labels = read_labels(run_dirs)
    sample = draw_annotation_sample(labels, n=n, pair_share=pair_share, seed=seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    key.parent.mkdir(parents=True, exist_ok=True)
    write_annotation_sheet(sample, out)
    from biasbench.tables import write_csv

    write_csv(sample.key, key)  # formula cells neutralised, CR/LF quoted
    typer.echo(f"sheet: {out} ({len(sample.sheet)} outputs, labels hidden); key: {key}")


def annotate_agree(
    key: Annotated[Path, typer.Option(help="The key written by annotate export.")],
    a: Annotated[Path, typer.Option("--a", help="Annotator A's filled sheet.")],
    b: Annotated[Path, typer.Option("--b", help="Annotator B's filled sheet.")],
    adjudicated: Annotated[Path | None, typer.Option(help="The adjudicated sheet, if any.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the report as JSON too.")] = None,
) -> None:
    """Inter-annotator kappa, and rule-vs-human agreement with a confusion matrix."""
    from biasbench.engines.honorific.annotation import (
        agreement_report,
        read_annotation_key,
        read_annotation_sheet,
    )
    from biasbench.jsonutil import write_json

    rule = read_annotation_key(key)
    final = read_annotation_sheet(adjudicated) if adjudicated else None
    result = agreement_report(rule, read_annotation_sheet(a), read_annotation_sheet(b), final)
    typer.echo(result.to_markdown())
    if out:
        write_json(result.to_dict(), out)


def _is_honorific(benchmark: str) -> bool:
    from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
    from biasbench.registry import benchmark_class, known

    return known(benchmark) and issubclass(benchmark_class(benchmark), HonorificEngineBenchmark)


def read_labels(run_dirs: list[Path]) -> pd.DataFrame:
    """The labels of honorific run or score folders (any language; the target term as
    ``occupation_target``), with a ``response_id`` per response; a folder of another benchmark
    is one error line naming it and its benchmark."""
    import pandas as pd

    from biasbench.engines.honorific.label_table import canonical_columns
    from biasbench.runfolder import LABELS_NAME
    from biasbench.runfolder.reading import load_run

    frames = []
    for run_dir in run_dirs:
        path = run_dir / LABELS_NAME
        if not path.is_file():
            raise InputError(
                f"no {LABELS_NAME} (not an honorific run or score folder)", file=str(run_dir)
            )
        # the labels must be the ones recorded after scoring, never torn
        run = load_run(run_dir)
        if not _is_honorific(run.benchmark):
            raise InputError(
                f"a {run.benchmark} run; annotate export samples the outputs of "
                f"an honorific benchmark for its register judge",
                file=str(run_dir),
            )
        frames.append(canonical_columns(pd.read_json(path, lines=True, dtype={"seed": "Int64"})))
    labels = pd.concat(frames, ignore_index=True)
    seeds = labels["seed"].map(lambda v: "" if pd.isna(v) else str(int(v)))
    labels["response_id"] = (
        labels["model"].astype(str) + "|" + labels["item_id"].astype(str) + "|" + seeds
    )
    return labels
