"""The SQLite response store: round trip, upsert rules, WAL durability, metadata."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from biasbench.errors import BiasbenchError
from biasbench.runner.store import SCHEMA_VERSION, ResponseRecord, ResponseStore


def record(
    key: str,
    status: str = "ok",
    output: str | None = "out",
    attempts: int = 1,
    error: str | None = None,
) -> ResponseRecord:
    return ResponseRecord(
        key=key,
        item_id=f"item-{key}",
        model='{"kind":"openai","mode":"chat","model":"m"}',
        seed=7,
        prompt_text="<user>শিক্ষক আসবেন",
        params={"temperature": 0.0, "stop": []},
        output=output if status == "ok" else None,
        error=error,
        status=status,  # type: ignore[arg-type]
        attempts=attempts,
        latency_s=0.25,
        started_at=100.0,
        finished_at=100.5,
        info={"usage": {"total_tokens": 3}},
    )


@pytest.fixture
def store(tmp_path: Path):
    with ResponseStore(tmp_path / "responses.sqlite") as opened:
        yield opened


def test_round_trip_keeps_every_field(store: ResponseStore) -> None:
    original = record("a")
    unseeded = replace(record("b"), seed=None, info={})
    store.put_many([original, unseeded])
    assert list(store.iter_records()) == [original, unseeded]
    assert store.get("a") == original
    assert store.get("missing") is None


@pytest.mark.parametrize(
    ("first", "second", "expected_status", "expected_output", "expected_attempts"),
    [
        # a failed row is replaced by a later answer
        (("failed", None, 6, "HTTP 503"), ("ok", "answer", 2, None), "ok", "answer", 2),
        # a newer failure replaces an older one (fresher error, attempts of the newer run)
        (("failed", None, 6, "HTTP 503"), ("failed", None, 3, "HTTP 500"), "failed", None, 3),
        # an answer is final: neither a failure nor another answer overwrites it
        (("ok", "first", 1, None), ("failed", None, 6, "HTTP 503"), "ok", "first", 1),
        (("ok", "first", 1, None), ("ok", "second", 1, None), "ok", "first", 1),
    ],
)
def test_upsert_rules(
    store: ResponseStore,
    first: tuple,
    second: tuple,
    expected_status: str,
    expected_output: str | None,
    expected_attempts: int,
) -> None:
    for status, output, attempts, error in (first, second):
        store.put_many([record("k", status, output, attempts, error)])
    stored = store.get("k")
    assert stored is not None
    assert (stored.status, stored.output, stored.attempts) == (
        expected_status,
        expected_output,
        expected_attempts,
    )
    assert store.counts() == {
        "ok": int(expected_status == "ok"),
        "failed": int(expected_status == "failed"),
    }


def test_completed_keys_and_counts(store: ResponseStore) -> None:
    assert store.counts() == {"ok": 0, "failed": 0}
    store.put_many([record("a"), record("b", "failed", error="x"), record("c")])
    assert store.completed_keys() == {"a", "c"}
    assert store.counts() == {"ok": 2, "failed": 1}
    assert [r.key for r in store.iter_records("failed")] == ["b"]


def test_batch_is_atomic(store: ResponseStore) -> None:
    store.put_many([record("a")])
    bad = replace(record("c"), status="bogus")  # type: ignore[arg-type]  # violates CHECK
    with pytest.raises(sqlite3.IntegrityError):
        store.put_many([record("b"), bad])
    assert store.completed_keys() == {"a"}  # "b" rolled back with the bad row
    store.put_many([record("b")])  # the store is usable after the failed batch
    assert store.completed_keys() == {"a", "b"}


def test_wal_mode_and_synchronous_normal(store: ResponseStore) -> None:
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


@pytest.mark.parametrize(
    "value", [{"signature": {"seeds": [1, 2]}, "name": "শিক্ষক"}, [1, 2.5], "text", 3, None]
)
def test_meta_round_trip(store: ResponseStore, value: object) -> None:
    store.set_meta("manifest", {"old": True})
    store.set_meta("manifest", value)
    assert store.get_meta("manifest") == value
    assert store.get_meta("absent", default="fallback") == "fallback"
    assert store.get_meta("schema_version") == SCHEMA_VERSION


def test_other_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    with ResponseStore(path) as store:
        store.set_meta("schema_version", SCHEMA_VERSION + 1)
    with pytest.raises(BiasbenchError, match=f"schema version {SCHEMA_VERSION + 1}"):
        ResponseStore(path)


def test_to_frame(store: ResponseStore) -> None:
    store.put_many([record("a"), record("b", "failed", error="HTTP 500")])
    frame = store.to_frame()
    assert list(frame["key"]) == ["a", "b"]
    assert list(frame["status"]) == ["ok", "failed"]
    assert frame.loc[0, "params"] == {"temperature": 0.0, "stop": []}
    assert frame.loc[1, "error"] == "HTTP 500"


def test_empty_store_frame_has_columns(store: ResponseStore) -> None:
    frame = store.to_frame()
    assert len(frame) == 0
    assert "prompt_text" in frame.columns


CRASH_WRITER = textwrap.dedent("""
    import os, signal, sys
    from tests.runner.test_store import record
    from biasbench.runner.store import ResponseStore
    store = ResponseStore(sys.argv[1])
    store.put_many([record(f"k{i}") for i in range(50)])
    store.put_many([record(f"k{i}") for i in range(50, 80)])
    os.kill(os.getpid(), signal.SIGKILL)  # no close(), no checkpoint
""")


def test_reopen_after_kill_keeps_committed_batches(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", CRASH_WRITER, str(path)], cwd=root, timeout=30)
    assert done.returncode == -9
    assert Path(f"{path}-wal").exists()  # the answers live in the WAL, not yet checkpointed
    with ResponseStore(path) as reopened:
        assert reopened.counts() == {"ok": 80, "failed": 0}
        assert reopened.completed_keys() == {f"k{i}" for i in range(80)}
