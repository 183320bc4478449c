"""Run folders as tidy tables: one row per response, per label, per score (with its interval).

Every row carries the run's signature (its short form and the key fields), so rows from many
runs can be concatenated and still be told apart and compared honestly. The same tables back
the Python API (``biasbench.load(run).scores``) and ``biasbench export``:

- ``responses``: every stored request (ok or failed) with its prompt and raw output, from the
  run's response store (a score folder has none: its labels carry the outputs);
- ``labels``: ``labels.jsonl``, one judged response per row;
- ``scores``: the benchmark's statistics (:meth:`Benchmark.score_rows`): model, group,
  statistic, value, ci_low, ci_high, n.

Nested values (evidence lists, answer options, decoding) are written as JSON text, so every
format holds the same flat columns.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from biasbench.errors import BiasbenchError
from biasbench.fsutil import staged_folder
from biasbench.runfolder import STORE_NAME
from biasbench.runfolder.reading import RunFolder, load_run
from biasbench.runfolder.targets import output_target_refusal
from biasbench.tables import write_csv

Format = Literal["parquet", "csv", "jsonl", "hf"]
FORMATS: tuple[str, ...] = ("parquet", "csv", "jsonl", "hf")
TABLES: tuple[str, ...] = ("responses", "labels", "scores")

SIGNATURE_COLUMNS: tuple[str, ...] = (
    "run",
    "signature",
    "benchmark",
    "benchmark_version",
    "data_sha256",
    "prompt_hash",
    "decoding",
    "seeds",
    "limit",
    "judge_version",
    "package_version",
)
"""The columns every exported row starts with: the run folder's name, the short signature and
the signature's key fields."""

RESPONSE_COLUMNS: tuple[str, ...] = (
    "model",
    "item_id",
    "seed",
    "status",
    "prompt",
    "output",
    "error",
    "finish_reason",
    "attempts",
    "latency_s",
    "started_at",
    "finished_at",
    "key",
)


def signature_fields(run: RunFolder) -> dict[str, Any]:
    """The signature columns of ``run``'s rows."""
    sig = run.signature
    raw = run.results.get("signature") or {}
    short = raw.get("short") if isinstance(raw, dict) else None
    return {
        "run": run.name,
        "signature": short or sig.short(),
        "benchmark": sig.benchmark,
        "benchmark_version": sig.benchmark_version,
        "data_sha256": sig.data_sha256,
        "prompt_hash": sig.prompt_hash,
        "decoding": json.dumps(sig.decoding, sort_keys=True),
        "seeds": len(sig.seeds) if sig.seeds else None,
        "limit": sig.limit,
        "judge_version": sig.judge_version,
        "package_version": sig.package_version,
    }


def _with_signature(run: RunFolder, frame: pd.DataFrame) -> pd.DataFrame:
    fields = signature_fields(run)
    clashing = [c for c in frame.columns if c in fields]
    frame = frame.rename(columns={c: f"{c}_" for c in clashing})  # e.g. a label's "limit"
    front = pd.DataFrame(
        {name: [value] * len(frame) for name, value in fields.items()}, index=frame.index
    )
    for name in ("seeds", "limit"):
        front[name] = front[name].astype("Int64")
    return pd.concat([front, frame], axis=1)


def _model_names(run: RunFolder) -> dict[str, str]:
    """Canonical JSON of a backend description -> the model's name in the results."""
    return {
        json.dumps(desc, sort_keys=True, separators=(",", ":"), ensure_ascii=False): name
        for name, desc in run.signature.model.items()
        if isinstance(desc, dict)
    }


def responses_table(run: RunFolder) -> pd.DataFrame:
    """Every stored request of the run, ok or failed (empty for a folder without a store)."""
    path = run.path / STORE_NAME
    rows: list[dict[str, Any]] = []
    if path.is_file():
        from biasbench.runner.store import ResponseStore

        names = _model_names(run)
        with ResponseStore(path, readonly=True) as store:
            for r in store.iter_records():
                model = names.get(_canonical(r.model))
                if model is None:  # a description not in the results: its id, as runs name it
                    model = str(json.loads(r.model).get("model", r.model))
                rows.append(
                    {
                        "model": model,
                        "item_id": r.item_id,
                        "seed": r.seed,
                        "status": r.status,
                        "prompt": r.prompt_text,
                        "output": r.output,
                        "error": r.error,
                        "finish_reason": r.info.get("finish_reason"),
                        "attempts": r.attempts,
                        "latency_s": r.latency_s,
                        "started_at": r.started_at,
                        "finished_at": r.finished_at,
                        "key": r.key,
                    }
                )
    frame = pd.DataFrame(rows, columns=list(RESPONSE_COLUMNS))
    frame["seed"] = frame["seed"].astype("Int64")
    return frame


def _canonical(model_json: str) -> str:
    try:
        return json.dumps(
            json.loads(model_json), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
    except ValueError:
        return model_json


def labels_table(run: RunFolder) -> pd.DataFrame:
    """``labels.jsonl`` as a DataFrame (empty when the folder has no labels)."""
    labels = run.labels
    if labels is None:
        return pd.DataFrame(columns=["model", "item_id", "seed"])
    frame = labels.copy()
    if "seed" in frame.columns:
        frame["seed"] = pd.array(
            [None if s is None or pd.isna(s) else int(s) for s in frame["seed"]], dtype="Int64"
        )
    return frame


def scores_table(run: RunFolder) -> pd.DataFrame:
    """The run's statistics as tidy rows, as its benchmark lays them out."""
    from biasbench.registry import report_class
    from biasbench.registry.interface import tidy_scores

    cls = report_class(run.benchmark)
    if cls is None:
        return tidy_scores(run.results)
    return cls.score_rows(run.results, run.labels)


@dataclass
class RunTables:
    """The tidy tables of one run folder, each row with the run's signature."""

    responses: pd.DataFrame
    labels: pd.DataFrame
    scores: pd.DataFrame

    def as_dict(self) -> dict[str, pd.DataFrame]:
        return {name: getattr(self, name) for name in TABLES}


def run_tables(run: RunFolder | Path | str) -> RunTables:
    """The three tidy tables of one run or score folder (its derived files verified first)."""
    folder = run if isinstance(run, RunFolder) else load_run(run)
    return RunTables(
        *(
            _with_signature(folder, table)
            for table in (responses_table(folder), labels_table(folder), scores_table(folder))
        )
    )


def _flat(frame: pd.DataFrame) -> pd.DataFrame:
    """Lists and dicts as JSON text; object columns mixing types (an int and a string) as
    text, so that Parquet and Arrow take every column."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype != object:
            continue
        values = out[column]
        nested = values.map(lambda v: isinstance(v, (list, dict, tuple)))
        if nested.any():
            out[column] = values.map(
                lambda v: (
                    json.dumps(v, ensure_ascii=False, default=str)
                    if isinstance(v, (list, dict, tuple))
                    else v
                )
            )
            values = out[column]
        kinds = {type(v) for v in values if v is not None and not _missing(v)}
        if len(kinds) > 1 and not kinds <= {int, float}:
            out[column] = values.map(lambda v: None if v is None or _missing(v) else str(v))
    return out


def _missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def combined_tables(runs: Sequence[Path | str]) -> dict[str, pd.DataFrame]:
    """Each table of every run, concatenated in the order given (a repeated folder is an
    input error)."""
    if not runs:
        raise BiasbenchError("no run folders given")
    resolved = [Path(r).resolve() for r in runs]
    if len(set(resolved)) != len(resolved):
        raise BiasbenchError("a run folder is given twice")
    per_run = [run_tables(r).as_dict() for r in runs]
    combined = {}
    for name in TABLES:
        frames = [tables[name] for tables in per_run]
        non_empty = [f for f in frames if not f.empty]
        combined[name] = _flat(pd.concat(non_empty or frames[:1], ignore_index=True))
    return combined


def export_runs(runs: Sequence[Path | str], fmt: str, out: Path) -> list[Path]:
    """Write the tidy tables of ``runs`` into ``out``: ``responses``, ``labels`` and ``scores``
    as ``.parquet``/``.csv``/``.jsonl`` files, or (``hf``) one ``datasets`` folder with a split
    per table, loadable with ``datasets.load_from_disk(out)``. Returns what was written. The
    files are written into a staging folder beside ``out`` and moved into place once all are
    complete (:func:`biasbench.fsutil.staged_folder`): a full disk leaves nothing partial."""
    if fmt not in FORMATS:
        raise BiasbenchError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    out = Path(out)
    refusal = output_target_refusal(out, "export")
    if refusal:
        raise BiasbenchError(refusal)
    if fmt == "hf" and out.exists() and any(out.iterdir()):
        raise BiasbenchError(
            f"{out}: not empty; a datasets folder is written into a new or empty folder"
        )
    tables = combined_tables(runs)
    with staged_folder(out, "export") as staging:
        written = _export_into(tables, fmt, staging)
    return [out / path.relative_to(staging) for path in written]


def _export_into(tables: dict[str, pd.DataFrame], fmt: str, out: Path) -> list[Path]:
    """Write ``tables`` in ``fmt`` into the (staging) folder ``out``."""
    if fmt == "hf":
        _save_hf(tables, out)
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in tables.items():
        path = out / f"{name}.{fmt}"
        if fmt == "parquet":
            try:
                frame.to_parquet(path, index=False)
            except ImportError:
                raise BiasbenchError(
                    "--format parquet needs pyarrow: pip install pyarrow"
                ) from None
        elif fmt == "csv":
            write_csv(frame, path)  # formula cells neutralised, CR/LF quoted
        else:
            frame.to_json(path, orient="records", lines=True, force_ascii=False)
        written.append(path)
    return written


def _fingerprint(frame: pd.DataFrame) -> str:
    """A content hash of a table (what ``datasets`` calls a fingerprint)."""
    digest = hashlib.sha256("\x00".join(map(str, frame.columns)).encode("utf-8"))
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()[:16]


def _save_hf(tables: dict[str, pd.DataFrame], out: Path) -> None:
    """One ``datasets`` folder, a split per table (``datasets.load_from_disk(out)``)."""
    try:
        import datasets
        from datasets.table import InMemoryTable
    except ImportError:
        raise BiasbenchError(
            "--format hf needs the datasets package: pip install datasets"
        ) from None
    # The fingerprint is given, not computed: datasets computes it by pickling the Arrow
    # table, which fails with some pyarrow releases (MonthDayNano); a content hash is what it
    # stands for anyway.
    splits = {
        name: datasets.Dataset(
            InMemoryTable.from_pandas(frame, preserve_index=False), fingerprint=_fingerprint(frame)
        )
        for name, frame in tables.items()
    }
    enabled = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # no bar per split in the command's output
    try:
        datasets.DatasetDict(splits).save_to_disk(str(out))
    finally:
        if enabled:
            datasets.enable_progress_bars()
