"""The response store: one SQLite file holding every request a run made and what came back.

It is the source of truth of a run. Every later stage (judging, metrics, reports) reads it, and a
rerun reads it to skip what is already answered. SQLite in WAL mode with ``synchronous=NORMAL``
makes each committed batch survive a killed process (SIGKILL loses at most the batch not yet
written), while keeping commits cheap enough for thousands of responses per second.

Rows are keyed by the request key (see :func:`biasbench.runner.keys.request_key`), so a
response can never be stored twice. An ``ok`` row is final; a ``failed`` row is replaced when a
later run gets an answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from biasbench.errors import BiasbenchError

if TYPE_CHECKING:  # pandas is heavy; import it only when a frame is asked for
    import pandas

SCHEMA_VERSION = 1
"""Bumped whenever the table layout changes; a store of another version is refused."""

Status = Literal["ok", "failed"]

_COLUMNS = (
    "key",
    "item_id",
    "model",
    "seed",
    "prompt_text",
    "params",
    "output",
    "error",
    "status",
    "attempts",
    "latency_s",
    "started_at",
    "finished_at",
    "info",
)

_CREATE = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS responses (
    key         TEXT PRIMARY KEY,
    item_id     TEXT NOT NULL,
    model       TEXT NOT NULL,
    seed        INTEGER,
    prompt_text TEXT NOT NULL,
    params      TEXT NOT NULL,
    output      TEXT,
    error       TEXT,
    status      TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    attempts    INTEGER NOT NULL,
    latency_s   REAL NOT NULL,
    started_at  REAL NOT NULL,
    finished_at REAL NOT NULL,
    info        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_status ON responses (status);
"""

# An ok row is final: only a row that is not ok yet may be overwritten (failed -> ok, or a
# failed row by a newer failure with a fresher error message).
_UPSERT = (
    f"INSERT INTO responses ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))}) "
    "ON CONFLICT (key) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[1:])
    + " WHERE responses.status <> 'ok'"
)


# Sorted keys for params and metadata (stable text); backend extras are stored as they come.
_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _dumps(value: Any) -> str:
    return _CANONICAL.encode(value)


@dataclass
class ResponseRecord:
    """One request and its outcome, as stored."""

    key: str
    """Request key: sha256 of everything that changes the answer (model, prompt, params, seed)."""
    item_id: str
    """The benchmark item this request belongs to."""
    model: str
    """Canonical JSON of the backend's ``describe()`` (kind, model, mode; never secrets)."""
    seed: int | None
    """Sampling seed sent with the request, or None."""
    prompt_text: str
    """The exact text sent to the model (chat messages rendered role-tagged)."""
    params: dict[str, Any]
    """Decoding parameters (``GenerationParams.to_dict()``)."""
    output: str | None
    """Raw model output; None when the request failed."""
    error: str | None
    """The last error message when the request failed; None when it succeeded."""
    status: Status
    """``ok`` or ``failed``."""
    attempts: int
    """How many times the request was sent in the run that wrote this row."""
    latency_s: float
    """Duration of the last attempt, in seconds."""
    started_at: float
    """Unix time the first attempt started."""
    finished_at: float
    """Unix time the last attempt finished."""
    info: dict[str, Any] = field(default_factory=dict)
    """Backend extras (token usage, finish reason, system fingerprint) or error details."""


def _readonly_uri(path: Path) -> str:
    """An SQLite URI that opens ``path`` read-only; immutable when its folder is read-only."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    folder = path.resolve().parent
    writable = os.access(folder, os.W_OK) and not _read_only_mount(folder)
    return uri if writable else uri + "&immutable=1"


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _record(row: Sequence[Any]) -> ResponseRecord:
    values = dict(zip(_COLUMNS, row, strict=True))
    values["params"] = json.loads(values["params"])
    values["info"] = json.loads(values["info"])
    return ResponseRecord(**values)


RESERVE_BYTES = 1 << 20
"""Disk held beside a store while a run writes it: room for some 500 answers, more
than a run has received and not yet stored when the disk fills."""


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk is full (SQLite's SQLITE_FULL, or ENOSPC/EDQUOT)."""
    import errno

    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return isinstance(exc, sqlite3.Error) and (
        getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL"
        or "database or disk is full" in str(exc)
    )


class ResponseStore:
    """An SQLite file of :class:`ResponseRecord` rows plus run-level metadata."""

    def __init__(self, path: Path | str, *, readonly: bool = False) -> None:
        """Open (or, unless ``readonly``, create) the store at ``path``.

        ``readonly`` opens an existing store without ever writing to it or beside it, so a
        finished run can be read from a read-only copy: SQLite's ``mode=ro``, plus
        ``immutable=1`` when the folder is not writable (WAL readers otherwise need to create
        the ``-shm`` file). A zero-byte file is refused, never silently made a new store.
        """
        self.path = Path(path)
        self.readonly = readonly
        if self.path.is_file() and self.path.stat().st_size == 0:
            raise BiasbenchError(
                f"{self.path}: empty file (0 bytes), not a response store; it is left as it "
                "is: move it away to start a new store"
            )
        if readonly:
            if not self.path.is_file():
                raise BiasbenchError(f"{self.path}: response store not found")
            self._db = sqlite3.connect(
                _readonly_uri(self.path), uri=True, isolation_level=None, check_same_thread=False
            )
        else:
            existed = self.path.is_file()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit mode: transactions are opened explicitly in put_many, one per batch.
            # check_same_thread=False lets a caller hand the store to a writer thread; the
            # store itself is not meant to be used from two threads at once.
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA busy_timeout = 10000")
            if readonly:
                found = self.get_meta("schema_version")
                self._db.execute("SELECT 1 FROM responses LIMIT 1").fetchall()
            else:
                self._db.execute("PRAGMA journal_mode = WAL")
                # NORMAL in WAL mode: a commit survives a killed process; only an OS crash or
                # power loss can drop the last commits, never corrupt the file.
                self._db.execute("PRAGMA synchronous = NORMAL")
                self._db.executescript(_CREATE)
                found = self.get_meta("schema_version")
                if existed:
                    # Before resuming into it: garbage in the middle of the file is found
                    # now, not half-way through a run (one pass over the file).
                    problem = self._db.execute("PRAGMA quick_check(1)").fetchone()[0]
                    if problem != "ok":
                        raise sqlite3.DatabaseError(problem)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise BiasbenchError(
                f"{self.path}: not a readable response store ({exc}); it is left as it is"
            ) from None
        except BaseException:
            self._db.close()
            raise
        if found is None and not readonly:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif found != SCHEMA_VERSION:
            self._db.close()
            raise BiasbenchError(
                f"{self.path}: response store has schema version {found}, this biasbench "
                f"reads version {SCHEMA_VERSION}"
            )

    # -- space held in reserve ---------------------------------------------------------------

    @property
    def reserve_path(self) -> Path:
        return self.path.with_name(self.path.name + ".reserve")

    def hold_reserve(self, nbytes: int = RESERVE_BYTES) -> bool:
        """Take ``nbytes`` of disk beside the store (a file of zeros), so that the answers
        received when the disk fills can still be written once it is released. False when
        there is not even that much room (the run goes on without a reserve)."""
        if self.readonly:
            return False
        try:
            with open(self.reserve_path, "wb") as fh:
                fh.write(bytes(nbytes))
                fh.flush()
                os.fsync(fh.fileno())
            return True
        except OSError:
            self.reserve_path.unlink(missing_ok=True)
            return False

    def release_reserve(self) -> bool:
        """Give the reserve back to the disk; True when there was one."""
        try:
            self.reserve_path.unlink()
            return True
        except FileNotFoundError:
            return False
        except OSError:
            return False

    # -- responses -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Turn SQLite's errors on reading (a damaged file) into one line naming the store."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise BiasbenchError(
                f"{self.path}: not a readable response store ({exc}); it is left as it is"
            ) from None

    def completed_keys(self) -> set[str]:
        """Keys of requests that already have an answer (status ``ok``)."""
        with self._reading():
            rows = self._db.execute("SELECT key FROM responses WHERE status = 'ok'")
            return {key for (key,) in rows}

    def put_many(self, records: Sequence[ResponseRecord]) -> None:
        """Write ``records`` in one transaction (upsert; an existing ok row is never replaced)."""
        if not records:
            return
        # A run's records share one params dict: serialise it once per batch, not per row.
        encode = _ENCODER.encode
        last_params: Any = None
        params_text = ""
        rows = []
        for r in records:
            if r.params is not last_params:
                last_params, params_text = r.params, _dumps(r.params)
            rows.append(
                (
                    r.key,
                    r.item_id,
                    r.model,
                    r.seed,
                    r.prompt_text,
                    params_text,
                    r.output,
                    r.error,
                    r.status,
                    r.attempts,
                    r.latency_s,
                    r.started_at,
                    r.finished_at,
                    encode(r.info) if r.info else "{}",
                )
            )
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(_UPSERT, rows)
            db.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back (a full disk does): the original error is
            # the one to report, and the connection must not be left inside a transaction.
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    def iter_records(self, status: Status | None = None) -> Iterator[ResponseRecord]:
        """All stored records in the order they were first written (optionally one status)."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM responses"
        args: tuple[str, ...] = ()
        if status is not None:
            sql += " WHERE status = ?"
            args = (status,)
        with self._reading():
            for row in self._db.execute(sql + " ORDER BY rowid", args):
                yield _record(row)

    def get(self, key: str) -> ResponseRecord | None:
        """The record stored under ``key``, or None."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM responses WHERE key = ?"
        with self._reading():
            row = self._db.execute(sql, (key,)).fetchone()
        return None if row is None else _record(row)

    def outputs(self) -> dict[str, str]:
        """key -> raw output of every answered request: what scoring needs, read without
        decoding each row's parameters and extras (fast on 500,000-response runs)."""
        with self._reading():
            return dict(self._db.execute("SELECT key, output FROM responses WHERE status = 'ok'"))

    def to_frame(self) -> pandas.DataFrame:
        """Every record as a DataFrame, one row per request, ``params``/``info`` as dicts."""
        import pandas as pd

        records = [r.__dict__ for r in self.iter_records()]
        return pd.DataFrame.from_records(records, columns=list(_COLUMNS))

    def answers(self) -> dict[str, tuple[str, str | None, str]]:
        """key -> (raw output, normalised finish reason or None, the backend's extras as stored:
        JSON text) of every answered request: what scoring needs, without decoding each row's
        parameters and extras (a judge decodes the extras it reads)."""
        sql = (
            "SELECT key, output, CASE WHEN json_valid(info) THEN "
            "json_extract(info, '$.finish_reason') END, info FROM responses "
            "WHERE status = 'ok'"
        )
        with self._reading():
            return {
                key: (output, reason, info) for key, output, reason, info in self._db.execute(sql)
            }

    def answers_digest(self) -> str:
        """sha256 of every answered request's key and output, in key order: what derived files
        were computed from, so an edited answer (same count) is detected."""
        import hashlib

        digest = hashlib.sha256()
        with self._reading():
            for key, output in self._db.execute(
                "SELECT key, output FROM responses WHERE status = 'ok' ORDER BY key"
            ):
                for part in (key, output if output is not None else "\x00null"):
                    data = str(part).encode("utf-8", "surrogatepass")
                    digest.update(len(data).to_bytes(8, "big") + data)
        return digest.hexdigest()

    def configurations(self) -> list[tuple[str, str]]:
        """Distinct (model JSON, params JSON) pairs of the stored rows."""
        with self._reading():
            return list(self._db.execute("SELECT DISTINCT model, params FROM responses"))

    def counts(self) -> dict[str, int]:
        """Number of rows per status: ``{"ok": n, "failed": m}`` (zeros included)."""
        with self._reading():
            found = dict(self._db.execute("SELECT status, COUNT(*) FROM responses GROUP BY status"))
        return {"ok": int(found.get("ok", 0)), "failed": int(found.get("failed", 0))}

    # -- run-level metadata --------------------------------------------------------------------

    def set_meta(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable ``value`` under ``key`` (replacing any earlier value)."""
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, _dumps(value)),
        )

    def get_meta(self, key: str, default: Any = None) -> Any:
        """The value stored under ``key``, or ``default``."""
        with self._reading():
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database (idempotent)."""
        if self._db is not None:
            self._db.close()
            self._db = None  # type: ignore[assignment]

    def __enter__(self) -> ResponseStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ResponseStore({str(self.path)!r})"
