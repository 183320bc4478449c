"""A harness's log scored as a run's responses are: read and mapped (:mod:`.lm_eval`,
:mod:`.inspect_logs`), scored by the benchmark's engine, the harness's own metrics set beside
(:mod:`.compare`) in ``results.json: harness_log`` and ``tables/harness_comparison``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from biasbench.engines.bbq_family.declaration import HARNESS_LOGS
from biasbench.engines.bbq_family.harness_logs.common import HarnessLog
from biasbench.engines.bbq_family.harness_logs.compare import COLUMNS, comparison_rows
from biasbench.errors import BiasbenchError
from biasbench.responses import iter_jsonl
from biasbench.runfolder import LABELS_NAME, TABLES_DIR
from biasbench.tables import write_table

if TYPE_CHECKING:
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark

NOTE = (
    "the harness's metrics as its aggregate file reports them (else as its per-sample fields "
    "give them), beside biasbench's scores of the same answers: lm-eval's answer is its "
    "argmax over the options' log-likelihoods, inspect's text is read by biasbench's parser"
)


def read_harness_log(harness: str, path: Path, bench: BBQBenchmark) -> HarnessLog:
    """The log at ``path`` of ``harness`` (lm-eval or inspect), mapped to ``bench``'s items."""
    if harness == "lm-eval":
        from biasbench.engines.bbq_family.harness_logs.lm_eval import read_lm_eval

        return read_lm_eval(path, bench.by_uid, benchmark=bench.name)
    if harness == "inspect":
        from biasbench.engines.bbq_family.harness_logs.inspect_logs import read_inspect

        return read_inspect(path, bench.by_uid)
    raise BiasbenchError(f"--from {harness}: biasbench reads {' and '.join(HARNESS_LOGS)} logs")


def score_harness_log(
    bench: BBQBenchmark, log: HarnessLog, folder: Path, source: str
) -> dict[str, Any]:
    """Score the log's answers with ``bench`` into ``folder`` and add the comparison."""
    results: dict[str, Any] = bench.score(log.frame(), folder, source=source)
    labels = [row for _, row in iter_jsonl(folder / LABELS_NAME)]
    rows = comparison_rows(log, results, labels, bench.by_uid)
    results["harness_log"] = {
        "harness": log.harness,
        "files": log.files,
        "tasks": sorted(set(log.tasks)),
        "n_samples": len(log.samples),
        "note": NOTE,
        "comparison": rows,
    }
    if log.notes:
        results["harness_log"]["notes"] = list(log.notes)
    if log.errored:
        results["harness_log"]["samples_with_errors"] = {
            "n": len(log.errored),
            "first": {"sample": log.errored[0][0], "error": log.errored[0][1]},
            "note": "left out of every score: the harness logged an error, not an answer",
        }
    write_table(
        pd.DataFrame(rows, columns=list(COLUMNS)), folder / TABLES_DIR / "harness_comparison"
    )
    return results
