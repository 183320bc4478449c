"""Reading one run or score folder (below the benchmarks and the report: both read run folders
through here; it names no benchmark).

A run folder (``biasbench run``) or a score folder (``biasbench score``) holds ``results.json``
with the result's signature, usually ``labels.jsonl`` (one judged response per line) and
tables; a run folder also holds ``responses.sqlite`` with the exact prompt of every request.
Which runs may be compared in one table is :mod:`biasbench.runfolder.grouping`'s.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import ValidationError

from biasbench.errors import InputError
from biasbench.responses import check_fields, iter_jsonl, parse_json, read_text
from biasbench.runfolder import LABELS_NAME, MANIFEST_NAME, RESULTS_NAME, STORE_NAME, TABLES_DIR
from biasbench.runfolder.derived import verify_derived
from biasbench.signature import Signature
from biasbench.tables import read_csv

log = logging.getLogger(__name__)


def _read_json(path: Path) -> dict[str, Any]:
    value = parse_json(read_text(path), str(path))  # UTF-8, bounded lines, one-line errors
    if not isinstance(value, dict):
        raise InputError("expected a JSON object", file=str(path))
    return value


def _signature_from(data: dict[str, Any], path: Path) -> Signature:
    """A :class:`Signature` from a results/manifest ``signature`` object (extra keys ignored)."""
    fields = {name: data[name] for name in Signature.model_fields if name in data}
    missing = [
        name
        for name in (
            "benchmark",
            "benchmark_version",
            "data_sha256",
            "prompt_hash",
            "judge_version",
        )
        if name not in fields
    ]
    if missing:
        raise InputError(f"signature lacks {', '.join(missing)}", file=str(path), field="signature")
    try:
        return Signature(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InputError(
            f"{first['msg']} (got {_short_value(first.get('input'))})",
            file=str(path),
            field=f"signature.{where}",
        ) from None


def _short_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class RunFolder:
    """One run or score folder, read lazily: results first, labels and prompts on demand."""

    path: Path
    results: dict[str, Any]
    signature: Signature
    """The run's signature; ``model`` maps each model name to its backend description."""
    manifest: dict[str, Any] | None = None

    @property
    def benchmark(self) -> str:
        return self.signature.benchmark

    @property
    def name(self) -> str:
        """The folder's own name, to tell runs apart in the report."""
        return self.path.resolve().name or str(self.path)

    @property
    def models(self) -> list[str]:
        """Model names in the order of ``results.json``."""
        return [str(m) for m in self.results.get("models", {})]

    @property
    def status(self) -> str:
        """``complete``/``incomplete`` from the manifest; ``scored`` for a score folder."""
        return str(self.manifest.get("status", "?")) if self.manifest else "scored"

    def file(self, name: str) -> Path | None:
        """``tables/NAME`` (run folders) or ``NAME`` (score folders that keep tables at the top), when
        present."""
        for candidate in (self.path / TABLES_DIR / name, self.path / name):
            if candidate.is_file():
                return candidate
        return None

    def table(self, name: str) -> pd.DataFrame | None:
        """A CSV table of the folder as a DataFrame, or None when the folder has none."""
        path = self.file(name)
        # Template ids are text: "001" (KoBBQ) must not be read back as the number 1.
        return read_csv(path, dtype={"question_index": str}) if path else None

    @cached_property
    def labels(self) -> pd.DataFrame | None:
        """``labels.jsonl``: one judged response per row (None when the folder has none)."""
        path = self.path / LABELS_NAME
        if not path.is_file():
            return None
        rows = []
        for line, obj in iter_jsonl(path):
            # The fields every reader keys on, type-checked with the line named.
            check_fields(
                obj,
                path=path,
                line=line,
                strings=("model", "item_id", "uid"),
                integers=("seed", "pred_index"),
            )
            rows.append(obj)
        if not rows:
            return None
        frame = pd.DataFrame(rows)
        if "seed" in frame.columns:  # None for unseeded runs, as the benchmarks write it
            frame["seed"] = pd.Series(
                [None if pd.isna(s) else int(s) for s in frame["seed"]], dtype=object
            )
        return frame

    def prompts_for(
        self,
        wanted: Iterable[tuple[str, int | None]],
    ) -> dict[tuple[str, int | None], str]:
        """(item id, seed) -> the exact prompt text sent, from the response store.

        Only the ``wanted`` requests are kept (a report embeds a bounded number). A request made
        with this run's model and decoding parameters wins over one of an earlier configuration
        resumed into the same folder. Empty for a folder without a store (``biasbench score``).
        """
        path = self.path / STORE_NAME
        wanted = set(wanted)
        if not path.is_file() or not wanted:
            return {}
        from biasbench.runner.store import ResponseStore

        descriptions = {_normalised(d) for d in self.signature.model.values()}
        decoding = json.loads(json.dumps(self.signature.decoding))
        this_model: dict[str, bool] = {}  # the store's model column repeats one JSON text
        exact: dict[tuple[str, int | None], str] = {}
        other: dict[tuple[str, int | None], str] = {}
        store = ResponseStore(path, readonly=True)  # reports read; they never write
        try:
            for record in store.iter_records(status="ok"):
                key = (record.item_id, record.seed)
                if key not in wanted:
                    continue
                if record.model not in this_model:
                    this_model[record.model] = _normalised(json.loads(record.model)) in descriptions
                if this_model[record.model] and record.params == decoding:
                    exact[key] = record.prompt_text
                else:
                    other.setdefault(key, record.prompt_text)
        finally:
            store.close()
        return {**other, **exact}

    @cached_property
    def items_answered(self) -> tuple[int, str] | None:
        """(number of distinct items answered, checksum of their ids), from the labels.

        The signature's data checksum covers the whole item set, not the ``--limit`` subset
        that was run, so the report also compares which items were actually answered.
        """
        labels = self.labels
        column = next((c for c in ("item_id", "uid") if labels is not None and c in labels), None)
        if labels is None or column is None:
            return None
        ids = sorted(set(labels[column].astype(str)))
        return len(ids), hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()


def _normalised(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def load_run(path: Path | str) -> RunFolder:
    """Read one run or score folder (without a usable ``results.json``: an input error)."""
    path = Path(path)
    results_path = path / RESULTS_NAME
    if not path.is_dir():
        raise InputError("not a folder", file=str(path))
    if not results_path.is_file():
        raise InputError(
            f"not a run folder: no {RESULTS_NAME} (run `biasbench run` or `biasbench score` first)",
            file=str(path),
        )
    manifest_path = path / MANIFEST_NAME
    manifest = _read_json(manifest_path) if manifest_path.is_file() else None
    # Never compute from a short or stale file: the derived files must be the ones recorded.
    verify_derived(path, manifest)
    results = _read_json(results_path)
    raw = results.get("signature") or (manifest or {}).get("signature")
    if not isinstance(raw, dict):
        raise InputError("results have no signature", file=str(results_path), field="signature")
    if "models" not in results or not isinstance(results["models"], dict):
        raise InputError("results have no models", file=str(results_path), field="models")
    for model, entry in results["models"].items():
        if not isinstance(entry, dict):
            raise InputError(
                f"expected an object of scores, got {type(entry).__name__}",
                file=str(results_path),
                field=f"models.{model}",
            )
    health = results.get("output_health")
    if health is not None and not (
        isinstance(health, dict) and all(isinstance(h, dict) for h in health.values())
    ):
        raise InputError(
            f"expected an object of per-model counts, got {type(health).__name__}",
            file=str(results_path),
            field="output_health",
        )
    return RunFolder(
        path=path, results=results, signature=_signature_from(raw, results_path), manifest=manifest
    )
