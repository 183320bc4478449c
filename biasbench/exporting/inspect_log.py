"""Inspect eval logs of a run (``biasbench export --format inspect``), written with inspect-ai's
own types and ``write_eval_log``, so ``inspect view`` lists them and ``read_eval_log`` reads
them; and the reading back of logs biasbench wrote (``score NAME --from inspect``).

One log per run and model: task = the benchmark, one sample per response (epoch = seed + 1;
1 for an unseeded run), input = the prompt, output = the model's text, target = the correct
option's letter (BBQ family; none for the honorific benchmarks), the biasbench label as the
sample's score and its evidence as the score's metadata, the run's scores as the log's results
(undefined ones in the score's metadata with their reason). The signature, licence and terms
are in the eval's metadata. For data whose items may not be shared (JBBQ) the item text (input,
target, choices, item fields) is left out, and the notes say so.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.errors import BiasbenchError
from biasbench.exporting.metrics import is_count
from biasbench.exporting.provenance import ITEM_FIELDS, Provenance
from biasbench.exporting.scores import model_signature, scores_by_model
from biasbench.runfolder.reading import RunFolder

SCORER = "biasbench"
LETTERS = "ABC"
_SLUG = re.compile(r"[^A-Za-z0-9_.-]+")


def _inspect() -> Any:
    try:
        import inspect_ai.log as log
    except ImportError:
        raise BiasbenchError("--format inspect needs inspect-ai: pip install inspect-ai") from None
    return log


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:
        return False


def _sample(
    run: RunFolder,
    row: dict[str, Any],
    label: dict[str, Any] | None,
    provenance: Provenance,
    model: str,
    index: int,
) -> Any:
    from inspect_ai.log import EvalError, EvalSample
    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import Score

    seed = None if _missing(row.get("seed")) else int(row["seed"])
    item_id = str(row["item_id"])
    shareable = provenance.items_shareable
    # response_index: the run's order, which a zipped log loses (its members sort by id) and
    # the resampled intervals of a rescoring depend on.
    metadata: dict[str, Any] = {"item_id": item_id, "seed": seed, "response_index": index}
    target = ""
    choices: list[str] | None = None
    score = None
    if label is not None and "pred_index" in label:  # BBQ family: category + example id
        local = item_id.rsplit("/", 1)[-1]
        category, _, example = local.rpartition(":")
        metadata.update(
            {
                "category": category,
                "example_id": int(example) if example.lstrip("-").isdigit() else example,
            }
        )
        answers = [str(a) for a in label.get("answers") or []]
        gold = label.get("label")
        pred: Any = label.get("pred_index")
        answer = LETTERS[int(pred)] if not _missing(pred) and 0 <= int(pred) < 3 else None
        if shareable:
            choices = answers or None
            target = LETTERS[gold] if isinstance(gold, int) and 0 <= gold < 3 else ""
        value = (
            "C"
            if answer is not None and isinstance(gold, int) and LETTERS.index(answer) == gold
            else "I"
        )
        score = Score(
            value=value,
            answer=answer,
            explanation=str(label.get("method") or ""),
            metadata={
                "method": str(label.get("method") or ""),
                "evidence": _text(label.get("evidence")),
            },
        )
    elif label is not None:  # honorific benchmarks: the register label
        score = Score(
            value=str(label.get("label") or ""),
            answer=str(label.get("label") or ""),
            explanation=str(label.get("reason") or ""),
            metadata={"evidence": _text(label.get("evidence"))},
        )
    if label is not None and shareable:
        metadata.update(
            {
                f"item.{k}": v if isinstance(v, str | int | float | bool) else _text(v)
                for k, v in label.items()
                if k not in ("model", "seed", "output", "evidence", "uid", "item_id")
            }
        )
    failed = row.get("status") != "ok"
    output = _text(row.get("output") or (label or {}).get("output"))
    prompt = (
        _text(row.get("prompt")) if shareable else (f"(item text left out: {provenance.terms})")
    )
    return EvalSample(
        id=item_id,
        epoch=1 if seed is None else seed + 1,
        input=prompt or item_id,
        target=target,
        choices=choices,
        output=ModelOutput.from_content(model, "" if failed else output),
        scores={SCORER: score} if score is not None and not failed else None,
        metadata=metadata,
        error=EvalError(
            message=f"request failed: {row.get('error')}", traceback="", traceback_ansi=""
        )
        if failed
        else None,
    )


def _rows(run: RunFolder, model: str) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    from biasbench.export import responses_table

    labels = run.labels if run.labels is not None else pd.DataFrame(columns=["model"])
    labels = labels[labels["model"] == model]
    key = "uid" if "uid" in labels.columns else "item_id"
    by_key = {
        (str(r[key]), None if _missing(r.get("seed")) else int(r["seed"])): r
        for r in labels.to_dict("records")
    }
    responses = responses_table(run)
    rows = responses[responses["model"] == model].to_dict("records")
    if not rows:  # a score folder: its labels carry the outputs
        rows = [
            {"item_id": k[0], "seed": k[1], "status": "ok", "output": r.get("output")}
            for k, r in by_key.items()
        ]
    return [
        (
            row,
            by_key.get(
                (str(row["item_id"]), None if _missing(row.get("seed")) else int(row["seed"]))
            ),
        )
        for row in rows
    ]


def eval_log(run: RunFolder, model: str, provenance: Provenance) -> Any:
    """The inspect ``EvalLog`` of ``model`` in ``run``."""
    log = _inspect()
    scores = scores_by_model(run).get(model, [])
    samples = [
        _sample(run, row, label, provenance, model, index)
        for index, (row, label) in enumerate(_rows(run, model))
    ]
    epochs = len(run.signature.seeds or [0])
    metrics = {
        s.key: log.EvalMetric(name=s.key, value=float(s.value))
        for s in scores
        if s.value is not None and not is_count(s.statistic)
    }
    undefined = {s.key: s.reason for s in scores if s.value is None}
    signature = model_signature(run, model)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    metadata = {
        "biasbench_signature": signature,
        "run": run.name,
        "signature": json.loads(run.signature.model_dump_json()),
        **provenance.as_details(),
    }
    if not provenance.items_shareable:
        metadata["left_out"] = list(ITEM_FIELDS)
    ok = [s for s in samples if s.error is None]
    return log.EvalLog(
        version=2,
        status="success",
        eval=log.EvalSpec(
            created=created,
            task=run.benchmark,
            task_version=0,
            # ids fixed by the signature, as inspect-ai gives every log one
            task_id=hashlib.sha256(signature.encode()).hexdigest()[:22],
            run_id=hashlib.sha256(f"{run.name}\x00{signature}".encode()).hexdigest()[:22],
            dataset=log.EvalDataset(name=run.benchmark, samples=len({s.id for s in samples})),
            model=model,
            config=log.EvalConfig(epochs=epochs),
            metadata=metadata,
        ),
        plan=log.EvalPlan(),
        results=log.EvalResults(
            total_samples=len(samples),
            completed_samples=len(ok),
            scores=[
                log.EvalScore(
                    name=SCORER,
                    scorer=SCORER,
                    metrics=metrics,
                    metadata={
                        "undefined": undefined,
                        "counts": {
                            s.key: s.value
                            for s in scores
                            if is_count(s.statistic) and s.value is not None
                        },
                    },
                )
            ],
        ),
        stats=log.EvalStats(started_at=created, completed_at=created),
        samples=samples,
    )


def write_inspect_logs(
    runs: list[RunFolder], provenances: dict[str, Provenance], out: Path
) -> tuple[list[Path], list[str]]:
    """One ``.eval`` log per run and model under ``out``; returns the files and the notes."""
    log = _inspect()
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    notes: list[str] = []
    for run in runs:
        provenance = provenances[run.benchmark]
        if not provenance.items_shareable:
            notes.append(
                f"{run.name}: {run.benchmark}'s items may not be shared "
                f"({provenance.terms}): left out {', '.join(ITEM_FIELDS)}"
            )
        for model in run.models:
            path = out / f"{_SLUG.sub('_', run.name)}--{_SLUG.sub('_', model)}.eval"
            partial = path.with_name(f".{path.name}.tmp.eval")
            log.write_eval_log(eval_log(run, model, provenance), str(partial))
            partial.replace(path)  # a crash never leaves half a log under the final name
            written.append(path)
    return written, notes
