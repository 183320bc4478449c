"""Every Eval Ever records of a run (``biasbench export --format eee``): per model, one aggregate
record (``eval.schema.json``) with every defined score, its interval and the interval's method,
its direction, range and optimum, and one instance record per response
(``instance_level_eval.schema.json``), laid out as the datastore lays them out::

    data/<benchmark>/<developer>/<model>/<uuid>.json
    data/<benchmark>/<developer>/<model>/<uuid>_samples.jsonl

The schema wants a number for every score: an undefined statistic is not written as a result;
it is listed, with its reason, in ``source_metadata.additional_details.undefined_scores``
(never 0). Counts go there too (``counts``). The run's signature and the dataset's licence and
terms are in every record. Field by field: docs/exporting.md.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.exporting.metrics import is_count, metric_facts
from biasbench.exporting.provenance import Provenance
from biasbench.exporting.scores import (
    Score,
    counts_of,
    interval_method,
    model_signature,
    scores_by_model,
)
from biasbench.runfolder.reading import RunFolder
from biasbench.version import __version__

EEE_SCHEMA_VERSION = "0.3.0"
"""The Every Eval Ever schema the records follow: the schemas of the ``every-eval-ever`` 0.3.0
wheel, vendored in ``biasbench/exporting/schemas/``."""
SCHEMA_FILES = {"aggregate": "eval.schema.json", "instance": "instance_level_eval.schema.json"}
HONORIFIC_LABEL = "honorific"


def load_schema(kind: str) -> dict[str, Any]:
    """The vendored JSON schema (``aggregate`` or ``instance``)."""
    text = (
        resources.files("biasbench.exporting")
        .joinpath("schemas", SCHEMA_FILES[kind])
        .read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


def record_uuid(signature: str, model: str) -> str:
    """A version-4-shaped UUID fixed by the run's signature and the model: exporting a run
    again names the same files."""
    digest = hashlib.sha256(f"{signature}\x00{model}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def model_ids(description: dict[str, Any], name: str) -> tuple[str, str]:
    """(id in Hugging Face form ``developer/name``, developer) of a model: its id when it has
    a namespace, else ``<backend kind>/<id>``."""
    model_id = str(description.get("model") or name)
    if "/" not in model_id:
        model_id = f"{description.get('kind', 'unknown')}/{model_id}"
    return model_id, model_id.split("/", 1)[0]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text) or "_"


def _details(values: dict[str, Any]) -> dict[str, str]:
    return {
        k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)
        for k, v in values.items()
        if v is not None
    }


def _result(
    run: RunFolder, score: Score, base_details: dict[str, str], task: str
) -> dict[str, Any]:
    facts = metric_facts(run.benchmark, score.statistic)
    name = f"{task}/{score.group}" if score.group else task
    metric_id = "accuracy" if facts.kind == "accuracy" else f"biasbench.{score.statistic}"
    config: dict[str, Any] = {
        "evaluation_description": f"biasbench {run.benchmark}: {score.key}",
        "metric_id": metric_id,
        "metric_name": score.statistic,
        "metric_kind": facts.kind,
        "metric_unit": facts.unit,
        "lower_is_better": facts.lower_is_better,
        # every-eval-ever's validator requires both bounds of a continuous score: a bound
        # biasbench does not state is written as unbounded
        "score_type": "continuous",
        "min_score": facts.low if facts.low is not None else "-Infinity",
        "max_score": facts.high if facts.high is not None else "Infinity",
        "metric_parameters": {"optimum": facts.optimum, "direction": facts.direction},
        "additional_details": {
            "direction": facts.direction_text,
            "statistic": score.statistic,
            "group": score.group,
        },
    }
    details = {**base_details, **_details({"ci_status": score.ci_status, "n": score.n})}
    result: dict[str, Any] = {
        "evaluation_result_id": score.key,
        "evaluation_name": name,
        "source_data": {
            "dataset_name": run.benchmark,
            "source_type": "other",
            "additional_details": base_details,
        },
        "metric_config": config,
        "score_details": {"score": score.value, "details": details},
    }
    if score.ci_low is not None and score.ci_high is not None:
        uncertainty: dict[str, Any] = {
            "confidence_interval": {
                "lower": score.ci_low,
                "upper": score.ci_high,
                "confidence_level": 0.95,
                "method": interval_method(run, score.statistic),
            }
        }
        if score.n is not None:
            uncertainty["num_samples"] = score.n
        result["score_details"]["uncertainty"] = uncertainty
    return result


def _generation_args(run: RunFolder) -> dict[str, Any]:
    decoding = run.signature.decoding
    args = {
        k: decoding[k]
        for k in ("temperature", "top_p", "top_k")
        if isinstance(decoding.get(k), int | float)
    }
    if isinstance(decoding.get("max_tokens"), int) and decoding["max_tokens"] >= 1:
        args["max_tokens"] = decoding["max_tokens"]
    return args


def aggregate_record(
    run: RunFolder,
    model: str,
    scores: list[Score],
    provenance: Provenance,
    now: str,
    samples_path: str | None = None,
    samples: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The aggregate record of one model of ``run`` (``now``: the Unix time it is made)."""
    description = run.signature.model.get(model)
    model_id, developer = model_ids(description if isinstance(description, dict) else {}, model)
    signature = model_signature(run, model)
    base = {
        "biasbench_signature": signature,
        "data_sha256": run.signature.data_sha256,
        **provenance.as_details(),
    }
    task = run.benchmark
    kind = str((description or {}).get("kind", "")) if isinstance(description, dict) else ""
    undefined = [
        {"evaluation_result_id": s.key, "value": None, "reason": s.reason}
        for s in scores
        if s.value is None
    ]
    record: dict[str, Any] = {
        "schema_version": EEE_SCHEMA_VERSION,
        "evaluation_id": f"{task}/{model_id}/{now}",
        "retrieved_timestamp": now,
        "source_metadata": {
            "source_name": f"biasbench run {run.name}",
            "source_type": "evaluation_run",
            "source_organization_name": "biasbench user",
            "evaluator_relationship": "third_party",
            "additional_details": _details(
                {
                    **base,
                    "run": run.name,
                    "undefined_scores": undefined,
                    "counts": counts_of(scores),
                    "signature": json.loads(run.signature.model_dump_json()),
                }
            ),
        },
        "eval_library": {
            "name": "biasbench",
            "version": __version__,
            "additional_details": {"judge_version": run.signature.judge_version},
        },
        "model_info": {
            "name": model,
            "id": model_id,
            "developer": developer,
            "inference_platform": kind or "unknown",
            "additional_details": {
                "deployment_type": "self_deployed"
                if kind in ("llamacpp", "hf", "mock", "replay")
                else "unknown",
                "model_availability": "open_weights" if kind in ("llamacpp", "hf") else "unknown",
                "biasbench_backend": json.dumps(description, sort_keys=True, default=str),
            },
        },
        "evaluation_results": [
            {
                **_result(run, s, base, task),
                "generation_config": {"generation_args": _generation_args(run)},
            }
            for s in scores
            if s.value is not None and not is_count(s.statistic)
        ],
    }
    if samples_path is not None and samples is not None:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in samples)
        record["detailed_evaluation_results"] = {
            "format": "jsonl",
            "file_path": samples_path,
            "hash_algorithm": "sha256",
            "checksum": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "total_rows": len(samples),
        }
    return record


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _label_key(labels: pd.DataFrame) -> str:
    return "uid" if "uid" in labels.columns else "item_id"


def instance_records(
    run: RunFolder, model: str, provenance: Provenance, evaluation_id: str
) -> list[dict[str, Any]]:
    """One record per stored response of ``model`` (failed requests included, with their
    error), each with its label, the extraction method and the item's metadata."""
    from biasbench.export import responses_table

    responses = responses_table(run)
    responses = responses[responses["model"] == model]
    labels = run.labels if run.labels is not None else pd.DataFrame(columns=["model"])
    labels = labels[labels["model"] == model]
    key = _label_key(labels) if len(labels) else "item_id"
    by_key = {
        (str(r[key]), None if _missing(r.get("seed")) else int(r["seed"])): r
        for r in labels.to_dict("records")
    }
    if responses.empty:  # a score folder: its labels carry the outputs
        responses = pd.DataFrame(
            [
                {
                    "item_id": k[0],
                    "seed": k[1],
                    "status": "ok",
                    "output": r.get("output"),
                    "prompt": None,
                    "error": None,
                }
                for k, r in by_key.items()
            ]
        )
    signature = model_signature(run, model)
    description = run.signature.model.get(model)
    model_id = model_ids(description if isinstance(description, dict) else {}, model)[0]
    records = []
    for row in responses.to_dict("records"):
        seed = None if _missing(row.get("seed")) else int(row["seed"])
        item_id = str(row["item_id"])
        label = by_key.get((item_id, seed))
        records.append(
            _instance(
                run,
                model,
                item_id,
                seed,
                row,
                label,
                provenance,
                evaluation_id,
                signature,
                model_id,
            )
        )
    return records


def _missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:
        return False


def _instance(
    run: RunFolder,
    model: str,
    item_id: str,
    seed: int | None,
    response: dict[str, Any],
    label: dict[str, Any] | None,
    provenance: Provenance,
    evaluation_id: str,
    signature: str,
    model_id: str,
) -> dict[str, Any]:
    failed = response.get("status") != "ok"
    output = None if failed else _text(response.get("output") or (label or {}).get("output"))
    error: str | None = f"request failed: {response.get('error')}" if failed else None
    metadata: dict[str, str] = {
        "item_id": item_id,
        "model": model,
        "seed": "" if seed is None else str(seed),
        "run": run.name,
        "biasbench_signature": signature,
        **provenance.as_details(),
    }
    choices: list[str] | None = None
    reference: list[str] = []
    if label is not None and "pred_index" in label:  # the BBQ family: a parsed answer
        answers: list[Any] = label["answers"] if isinstance(label.get("answers"), list) else []
        choices = [str(a) for a in answers] or None
        gold = label.get("label")
        if isinstance(gold, int) and 0 <= gold < len(answers):
            reference = [str(answers[gold])]
        pred: Any = label.get("pred_index")
        parsed = pred is not None and not _missing(pred)
        extracted = "ABC"[int(pred)] if parsed and 0 <= int(pred) < 3 else ""
        method = str(label.get("method") or "")
        correct = parsed and isinstance(gold, int) and int(pred) == gold
        if not parsed and not failed:
            error = f"{'refusal' if 'refus' in method else 'unparsed'}: no option read ({method})"
        score = 1.0 if correct else 0.0
        extraction = f"biasbench answer parser {run.signature.judge_version}: {method}"
        skip = {"model", "seed", "uid", "output", "evidence", "answers", "pred_index"}
    elif label is not None:  # a register label (honorific benchmarks)
        extracted = str(label.get("label") or "")
        correct = False  # no right register: is_correct does not apply (docs/exporting.md)
        if extracted in ("unreadable", "mixed") and not failed:
            error = f"{extracted}: {label.get('reason') or 'no single register'}"
        score = 1.0 if extracted == HONORIFIC_LABEL else 0.0
        extraction = f"biasbench register judge {run.signature.judge_version}"
        skip = {"model", "seed", "item_id", "output", "evidence"}
        metadata["is_correct"] = "not applicable: no register is the correct one"
    else:
        extracted, correct, score, extraction, skip = "", False, 0.0, "none (no label)", set()
    if label is not None:
        metadata.update({f"item.{k}": _text(v) for k, v in label.items() if k not in skip})
        if "evidence" in label:
            metadata["evidence"] = _text(label["evidence"])
    prompt = _text(response.get("prompt"))
    if not provenance.items_shareable:  # never reached for a public format (refused)
        prompt, reference, choices = "", [], None
        metadata = {k: v for k, v in metadata.items() if not k.startswith("item.")}
    sample_id = item_id if seed is None else f"{item_id}#seed{seed}"
    category = (label or {}).get("category")
    task = f"{run.benchmark}/{category}" if isinstance(category, str) else run.benchmark
    return {
        "schema_version": EEE_SCHEMA_VERSION,
        "evaluation_id": evaluation_id,
        "model_id": model_id,
        "evaluation_name": task,
        "sample_id": sample_id,
        "sample_hash": hashlib.sha256(f"{item_id}\x00{prompt}".encode()).hexdigest(),
        "interaction_type": "single_turn",
        "input": {"raw": prompt, "reference": reference, "choices": choices},
        "output": {"raw": [] if output is None else [output]},
        "messages": None,
        "answer_attribution": []
        if failed
        else [
            {
                "turn_idx": 0,
                "source": "output.raw[0]",
                "extracted_value": extracted,
                "extraction_method": extraction,
                "is_terminal": True,
            }
        ],
        "evaluation": {"score": score, "is_correct": bool(correct)},
        "error": error,
        "metadata": metadata,
    }


def write_eee(runs: list[RunFolder], provenances: dict[str, Provenance], out: Path) -> list[Path]:
    """Write every run's records under ``out/data/``; returns the files written."""
    from biasbench.fsutil import write_files_atomically

    contents: dict[Path, bytes] = {}
    for run in runs:
        provenance = provenances[run.benchmark]
        for model, scores in scores_by_model(run).items():
            description = run.signature.model.get(model)
            model_id, developer = model_ids(
                description if isinstance(description, dict) else {}, model
            )
            name = record_uuid(run.signature.short(), model)
            folder = (
                Path("data")
                / _slug(run.benchmark)
                / _slug(developer)
                / _slug(model_id.split("/", 1)[1])
            )
            samples_path = (folder / f"{name}_samples.jsonl").as_posix()
            now = f"{time.time():.3f}"
            samples = instance_records(run, model, provenance, f"{run.benchmark}/{model_id}/{now}")
            record = aggregate_record(run, model, scores, provenance, now, samples_path, samples)
            contents[out / folder / f"{name}.json"] = (
                json.dumps(record, ensure_ascii=False, indent=2) + "\n"
            ).encode("utf-8")
            contents[out / samples_path] = "".join(
                json.dumps(r, ensure_ascii=False) + "\n" for r in samples
            ).encode("utf-8")
    write_files_atomically(contents)
    return sorted(contents)
