"""Results biasbench exported, read back as responses to rescore (``score NAME --from inspect``
for the benchmarks whose engine reads no inspect log, ``score NAME --from eee`` for all):
the outputs of an Inspect log or of Every Eval Ever instance records, mapped to items by the
``item_id`` and ``seed`` biasbench wrote into their metadata, then read by the benchmark's own
:meth:`~biasbench.registry.interface.Benchmark.read_responses`, so they are checked as any
responses file is. Failed requests (an inspect sample with an error, an instance record whose
error says the request failed) are left out, as the run left them out.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.errors import InputError
from biasbench.responses import iter_jsonl

EXPORT_FORMATS: tuple[str, ...] = ("inspect", "eee")
_BBQ_UID = re.compile(r"^(?:(?P<namespace>.+)/)?(?P<category>[^/:]+):(?P<example>-?\d+)$")
FAILED = "request failed"


def _row(model: Any, item_id: Any, seed: Any, output: Any, source: str) -> dict[str, Any]:
    if not isinstance(item_id, str) or not item_id:
        raise InputError(
            "missing field (biasbench writes the item's id here)",
            file=source,
            field="metadata.item_id",
        )
    row: dict[str, Any] = {
        "model": str(model),
        "item_id": item_id,
        "output": output if isinstance(output, str) else "",
    }
    if seed not in (None, ""):
        try:
            row["seed"] = int(seed)
        except (TypeError, ValueError):
            raise InputError(
                f"expected an integer seed, got {str(seed)[:40]!r}",
                file=source,
                field="metadata.seed",
            ) from None
    found = _BBQ_UID.match(item_id)
    if found:  # the BBQ family's responses name the item by category and example id
        row.update(category=found["category"], example_id=int(found["example"]))
        if found["namespace"]:
            row["namespace"] = found["namespace"]
    return row


def inspect_rows(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(source, response row) of every answered sample of an inspect log biasbench wrote."""
    from biasbench.engines.bbq_family.harness_logs.inspect_logs import _members, output_text

    if not path.is_file():
        raise InputError("file not found", file=str(path))
    header, members = _members(path)
    spec: dict[str, Any] = header["eval"] if isinstance(header.get("eval"), dict) else {}
    model = str(spec.get("model") or "inspect")
    found: list[tuple[int, str, dict[str, Any]]] = []
    for position, (source, sample) in enumerate(members):
        if not isinstance(sample, dict):
            raise InputError("expected a sample object", file=source)
        if sample.get("error"):
            continue
        metadata: dict[str, Any] = (
            sample["metadata"] if isinstance(sample.get("metadata"), dict) else {}
        )
        index = metadata.get("response_index")
        order = index if isinstance(index, int) and not isinstance(index, bool) else position
        found.append(
            (
                order,
                source,
                _row(
                    model,
                    metadata.get("item_id"),
                    metadata.get("seed"),
                    output_text(sample, source),
                    source,
                ),
            )
        )
    # the run's order (a zipped log sorts its samples by id): resampling depends on it
    for _, source, row in sorted(found, key=lambda entry: entry[0]):
        yield source, row


def eee_rows(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(source, response row) of every answered Every Eval Ever instance record biasbench
    wrote: one ``*_samples.jsonl`` file, or a folder holding them (the ``data/`` tree)."""
    files = sorted(path.rglob("*_samples.jsonl")) if path.is_dir() else [path]
    if not files:
        raise InputError(
            "no *_samples.jsonl (Every Eval Ever instance records) here", file=str(path)
        )
    for file in files:
        for line, record in iter_jsonl(file):
            source = f"{file}:{line}"
            if str(record.get("error") or "").startswith(FAILED):
                continue
            metadata: dict[str, Any] = (
                record["metadata"] if isinstance(record.get("metadata"), dict) else {}
            )
            output: dict[str, Any] = (
                record["output"] if isinstance(record.get("output"), dict) else {}
            )
            raw: list[Any] = output["raw"] if isinstance(output.get("raw"), list) else []
            yield (
                source,
                _row(
                    metadata.get("model") or record.get("model_id"),
                    metadata.get("item_id"),
                    metadata.get("seed"),
                    raw[0] if raw else "",
                    source,
                ),
            )


def read_exported(bench: Any, fmt: str, path: Path) -> pd.DataFrame:
    """The responses of an exported log (``fmt``: inspect or eee) as ``bench`` reads a
    responses file; an error names the log's sample or line, not a temporary file."""
    path = Path(path)
    rows = list(inspect_rows(path) if fmt == "inspect" else eee_rows(path))
    if not rows:
        raise InputError("no answered samples", file=str(path))
    with tempfile.TemporaryDirectory(prefix="biasbench-read-back-") as folder:
        responses = Path(folder) / "responses.jsonl"
        responses.write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for _, row in rows), encoding="utf-8"
        )
        try:
            frame: pd.DataFrame = bench.read_responses(responses)
        except InputError as exc:
            line = exc.line
            source = rows[line - 1][0] if line is not None and 0 < line <= len(rows) else str(path)
            raise InputError(exc.reason, file=source, field=exc.field) from None
    return frame
