"""Hugging Face Hub eval results (``biasbench export --format hf-eval-results``): for a model
repository, ``.eval_results/<benchmark>.yaml`` with one headline value per task, written with
``huggingface_hub``'s own ``EvalResultEntry``; for the benchmark's owner, an ``eval.yaml``
draft declaring the tasks. The format is the Hub's (its docs page "Evaluation Results",
hub-docs ``docs/hub/eval-results.md``); docs/exporting.md shows an example and why each
headline is the one.

A task is the benchmark (honorific benchmarks) or one of its categories (BBQ family). The value
is :data:`~biasbench.exporting.metrics.HEADLINES`' first defined statistic; a task whose headline
is undefined gets no entry (the Hub's ``value`` is a number: never 0 for undefined) and a note.
The full signed scores travel beside: ``scores/<run>--<model>.json`` (every score with its
interval, direction and reason), named in each entry's ``notes`` with the signature.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError
from biasbench.exporting.metrics import HEADLINES, metric_facts
from biasbench.exporting.provenance import Provenance
from biasbench.exporting.scores import Score, model_signature, scores_by_model
from biasbench.runfolder.reading import RunFolder


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text) or "_"


def headline(scores: list[Score]) -> dict[str, Score | None]:
    """Task (group; "" for the whole benchmark) -> its headline: the first statistic of
    :data:`HEADLINES` it has, None when that one is undefined."""
    tasks: dict[str, Score | None] = {}
    for group in dict.fromkeys(s.group for s in scores if "/" not in s.group):
        present = {s.statistic: s for s in scores if s.group == group}
        wanted = next((name for name in HEADLINES if name in present), None)
        if wanted is not None:
            chosen = present[wanted]
            tasks[group] = chosen if chosen.value is not None else None
    return tasks


def task_id(benchmark: str, group: str) -> str:
    return f"{benchmark}_{_slug(group)}".lower() if group else benchmark


def _full_scores(
    run: RunFolder, model: str, scores: list[Score], provenance: Provenance
) -> dict[str, Any]:
    rows = []
    for s in scores:
        facts = metric_facts(run.benchmark, s.statistic)
        rows.append(
            {
                "task": s.group,
                "statistic": s.statistic,
                "value": s.value,
                "ci_low": s.ci_low,
                "ci_high": s.ci_high,
                "n": s.n,
                "reason": s.reason,
                "direction": facts.direction_text,
                "min": facts.low,
                "max": facts.high,
                "optimum": facts.optimum,
            }
        )
    return {
        "benchmark": run.benchmark,
        "model": model,
        "run": run.name,
        "signature": model_signature(run, model),
        "dataset_licence": provenance.licence,
        "dataset_terms": provenance.terms,
        "scores": rows,
    }


def write_hf_results(
    runs: list[RunFolder],
    provenances: dict[str, Provenance],
    out: Path,
    dataset_id: str | None = None,
) -> tuple[list[Path], list[str]]:
    """Write ``.eval_results/`` per model, ``scores/`` beside and ``eval.yaml`` drafts."""
    try:
        import yaml  # type: ignore[import-untyped]  # no stubs in the dev set-up
        from huggingface_hub import EvalResultEntry, eval_result_entries_to_yaml
    except ImportError:
        raise BiasbenchError(
            "--format hf-eval-results needs a huggingface_hub with "
            "EvalResultEntry (tested: 2.4) and pyyaml: pip install -U "
            "huggingface_hub pyyaml"
        ) from None
    from biasbench.fsutil import write_files_atomically

    contents: dict[Path, bytes] = {}
    notes: list[str] = []
    tasks_of: dict[str, set[str]] = {}
    date = datetime.now(UTC).date().isoformat()
    for run in runs:
        provenance = provenances[run.benchmark]
        hub_id = dataset_id or f"biasbench/{run.benchmark}"
        for model, scores in scores_by_model(run).items():
            stem = f"{_slug(run.name)}--{_slug(model)}"
            full = Path("scores") / f"{stem}.json"
            contents[out / full] = (
                json.dumps(
                    _full_scores(run, model, scores, provenance), ensure_ascii=False, indent=2
                )
                + "\n"
            ).encode()
            entries = []
            for group, score in headline(scores).items():
                tid = task_id(run.benchmark, group)
                tasks_of.setdefault(run.benchmark, set()).add(tid)
                if score is None or score.value is None:
                    notes.append(
                        f"{run.name} / {model} / {tid}: headline undefined, no entry "
                        f"written (see {full.as_posix()})"
                    )
                    continue
                direction = metric_facts(run.benchmark, score.statistic).direction_text
                entries.append(
                    EvalResultEntry(
                        dataset_id=hub_id,
                        task_id=tid,
                        value=round(score.value, 6),
                        date=date,
                        notes=(
                            f"{score.statistic} ({direction}); signature "
                            f"{model_signature(run, model)}; full scores: {full.as_posix()}; "
                            f"data: {provenance.licence}"
                        ),
                    )
                )
            path = out / _slug(model) / ".eval_results" / f"{_slug(run.benchmark)}.yaml"
            if path in contents:
                raise BiasbenchError(
                    f"two runs of {run.benchmark} for model {model}: export "
                    "them one at a time (one value per task)"
                )
            contents[path] = yaml.safe_dump(
                eval_result_entries_to_yaml(entries), allow_unicode=True, sort_keys=False
            ).encode()
    for benchmark, tasks in tasks_of.items():
        draft = {
            "name": benchmark,
            "description": f"{benchmark} as biasbench runs it (a DRAFT for the dataset's "
            "owner: check the tasks and their config and split)",
            "evaluation_framework": "biasbench",
            "tasks": [{"id": t, "config": "default", "split": "test"} for t in sorted(tasks)],
        }
        contents[out / "eval.yaml.drafts" / f"{_slug(benchmark)}.eval.yaml"] = yaml.safe_dump(
            draft, allow_unicode=True, sort_keys=False
        ).encode()
    write_files_atomically(contents)
    return sorted(contents), notes
