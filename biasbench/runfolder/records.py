"""The records a run folder keeps about itself, typed: the manifest of a run or score folder
and each line of ``history.jsonl``.

Written as JSON with a ``schema_version``; read back into the same models. Every field a
previous biasbench did not write is optional, and keys a model does not name are kept as they
are (``extra="allow"``), so a folder written by an older or newer version still reads.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
"""The version of the manifest and history layout this biasbench writes."""

RunStatus = Literal["running", "complete", "incomplete", "interrupted"]
ScoreStatus = Literal["scoring", "scored"]


class _Record(BaseModel):
    # Unknown keys survive a read and a rewrite; a record is written with only the keys set.
    model_config = ConfigDict(extra="allow")

    def to_json(self) -> dict[str, Any]:
        """The record as written: only the keys that were set, in JSON types."""
        return self.model_dump(mode="json", exclude_unset=True)


class RunManifest(_Record):
    """``manifest.json`` of a run folder: what the run is, its state and, once scoring
    finished, the record of its derived files
    (:func:`biasbench.runfolder.derived.verify_derived`)."""

    schema_version: int = SCHEMA_VERSION
    """The layout's version."""
    biasbench: str | None = None
    """The version of biasbench that wrote it."""
    kind: Literal["run"] = "run"
    """A run folder's manifest (a score folder's says ``score``)."""
    benchmark: str | None = None
    """The benchmark's registered name."""
    model_spec: str | None = None
    """The model spec given (None when the caller passed a backend object)."""
    model: dict[str, Any] | None = None
    """The backend's description (kind, model id, prompt mode...)."""
    signature: dict[str, Any] | None = None
    """The run's signature, as :class:`biasbench.signature.Signature` dumps it."""
    signature_short: str | None = None
    """Its short form."""
    identity: dict[str, Any] | None = None
    """The configuration the folder is bound to (another one is refused)."""
    limit: int | None = None
    """``--limit``, if the run is partial."""
    seeds: list[int] | None = None
    """The effective seeds, as the signature's (empty: unseeded)."""
    executor: dict[str, Any] | None = None
    """Where requests went: ``local`` with its concurrency, or ``ray`` with address, workers."""
    n_requests: int | None = None
    """Requests of the run."""
    n_unique_requests: int | None = None
    """Distinct requests (a prompt asked twice under one seed counts once)."""
    status: RunStatus | None = None
    """``running`` until it ends; then ``complete``, ``incomplete`` (some requests failed) or
    ``interrupted``."""
    pid: int | None = None
    """The process that wrote it."""
    started_at: float | None = None
    """When this invocation started (Unix time)."""
    first_started_at: float | None = None
    """When the folder's first invocation started."""
    finished_at: float | None = None
    """When scoring finished."""
    stopped_at: float | None = None
    """When an interrupted run stopped."""
    error: str | None = None
    """Why an interrupted run stopped (a signal is named)."""
    counts: dict[str, Any] | None = None
    """requests, cached, completed, failed, elapsed_s and output_health of the invocation."""
    derived: dict[str, Any] | None = None
    """Each derived file's bytes, lines and sha256, the store's ``ok`` count and digest, and
    the responses scored: readers refuse a folder whose files do not match."""


class ScoreManifest(_Record):
    """``manifest.json`` of a score folder (``biasbench score``)."""

    schema_version: int = SCHEMA_VERSION
    """The layout's version."""
    biasbench: str | None = None
    """The version of biasbench that wrote it."""
    kind: Literal["score"] = "score"
    """A score folder's manifest."""
    benchmark: str | None = None
    """The benchmark's registered name."""
    started_at: float | None = None
    """When scoring started (Unix time)."""
    status: ScoreStatus | None = None
    """``scoring`` while the files move in (readers refuse them), then ``scored``."""
    finished_at: float | None = None
    """When the files were in place."""
    derived: dict[str, Any] | None = None
    """Each derived file's bytes, lines and sha256."""


class InvocationOptions(_Record):
    """The options of one ``biasbench run``, as the history records them (never a
    credential)."""

    benchmark: str | None = None
    """The benchmark's registered name."""
    model_spec: str | None = None
    """The model spec (None for a backend object)."""
    limit: int | None = None
    """``--limit``."""
    seeds: list[int] | None = None
    """The seeds asked for (None: the benchmark's own)."""
    decoding: dict[str, Any] | None = None
    """The decoding parameters sent."""
    concurrency: int | None = None
    """``--concurrency``."""
    executor: dict[str, Any] | None = None
    """Where requests went (as the manifest's)."""
    benchmark_options: dict[str, Any] | None = None
    """The benchmark's own options that were set."""
    model_options: dict[str, Any] | None = None
    """The backend's options: the base URL without credentials, ``-M`` values whose key names
    a key, token, secret or password hidden."""


class HistoryEntry(_Record):
    """One line of ``history.jsonl``: one invocation that got the folder's lock."""

    kind: Literal["run"] = "run"
    """What was invoked."""
    biasbench: str | None = None
    """The version of biasbench that ran."""
    started_at: float | None = None
    """When the invocation started (Unix time)."""
    pid: int | None = None
    """Its process."""
    signature_short: str | None = None
    """The run's short signature."""
    options: InvocationOptions | None = None
    """What it was asked."""
    finished_at: float | None = None
    """When it ended (finished or stopped)."""
    elapsed_s: float | None = None
    """The whole invocation's seconds."""
    requests_elapsed_s: float | None = None
    """Seconds spent sending requests."""
    counts: dict[str, Any] | None = None
    """requests, cached, completed, failed (and empty, calls when it finished)."""
    status: RunStatus | None = None
    """``complete``, ``incomplete`` or ``interrupted``."""
    error: str | None = None
    """Why an interrupted invocation stopped."""
    source: str | None = None
    """Where a line not written by its invocation came from (rebuilt from an old manifest)."""


def read_manifest(path: Path) -> RunManifest | ScoreManifest:
    """The manifest at ``path``, typed by its ``kind`` (a manifest without one is a run's, as
    the first biasbench wrote them). Raises ``OSError``, ``ValueError`` (not JSON) or
    pydantic's ``ValidationError`` (a field of the wrong type)."""
    found = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(found, dict):
        raise ValueError(f"{path}: not a JSON object")
    if found.get("kind") == "score":
        return ScoreManifest.model_validate(found)
    return RunManifest.model_validate(found)


def history_entries(
    lines: list[dict[str, Any]], where: Path | str = "history.jsonl"
) -> list[HistoryEntry]:
    """The typed entries of history lines (:func:`biasbench.runfolder.history.read_history`); a
    line whose fields have wrong types is skipped with a warning, as a damaged line is."""
    found = []
    for number, line in enumerate(lines, start=1):
        try:
            found.append(HistoryEntry.model_validate(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            log.warning(
                "%s: entry %d: field %r: %s; the entry is skipped",
                where,
                number,
                ".".join(str(p) for p in first["loc"]),
                first["msg"],
            )
    return found
