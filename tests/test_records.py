"""The run folder's records, typed (biasbench/runfolder/records.py): what a previous biasbench
wrote reads back into the models with the same values, and what is written reads back the
same."""

from __future__ import annotations

import ast
import inspect
import json
import logging
from pathlib import Path

import pytest

from biasbench.pipeline import run_benchmark
from biasbench.runfolder import HISTORY_NAME, MANIFEST_NAME, records
from biasbench.runfolder.history import read_history
from biasbench.runfolder.records import (
    HistoryEntry,
    InvocationOptions,
    RunManifest,
    ScoreManifest,
    history_entries,
    read_manifest,
)

DATA = Path(__file__).parent / "data" / "records"
OLD_MANIFEST = DATA / "run_manifest_0.1.0.json"
"""The manifest of a complete run folder written by biasbench 0.1.0 before the records were
typed (``run honorific-bn --model mock:hashed-register --limit 4 --seeds 2``)."""
OLD_HISTORY = DATA / "history_0.1.0.jsonl"


def test_a_manifest_of_the_previous_version_reads_with_its_types_and_values() -> None:
    raw = json.loads(OLD_MANIFEST.read_text(encoding="utf-8"))
    found = read_manifest(OLD_MANIFEST)
    assert isinstance(found, RunManifest)
    assert (found.kind, found.status, found.limit, found.seeds, found.n_requests) == (
        "run",
        "complete",
        4,
        [0, 1],
        8,
    )
    assert isinstance(found.started_at, float) and found.derived is not None
    assert found.to_json() == raw  # nothing lost, nothing added


def test_a_history_line_of_the_previous_version_reads_with_its_types_and_values() -> None:
    raw = json.loads(OLD_HISTORY.read_text(encoding="utf-8"))
    (entry,) = history_entries([raw])
    assert isinstance(entry.options, InvocationOptions)
    assert (entry.status, entry.options.seeds, entry.options.limit) == ("complete", [0, 1], 4)
    assert entry.counts == {
        "cached": 0,
        "calls": 8,
        "completed": 8,
        "empty": 0,
        "failed": 0,
        "requests": 8,
    }
    assert entry.to_json() == raw


@pytest.mark.parametrize(
    ("record", "kind"),
    [
        (
            {"kind": "score", "benchmark": "filbbq", "status": "scored", "started_at": 1.5},
            ScoreManifest,
        ),
        ({"kind": "run", "status": "running", "started_at": 2.0}, RunManifest),
        ({"status": "complete"}, RunManifest),  # the first manifests named no kind
    ],
)
def test_a_manifest_is_typed_by_its_kind(
    tmp_path: Path, record: dict[str, object], kind: type
) -> None:
    path = tmp_path / MANIFEST_NAME
    path.write_text(json.dumps(record), encoding="utf-8")
    found = read_manifest(path)
    assert type(found) is kind
    assert found.to_json() == record


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"kind": "run", "status": "exploded"}, "status"),
        ({"kind": "run", "started_at": "noon"}, "started_at"),
    ],
)
def test_a_history_line_with_a_wrong_type_is_skipped_with_a_warning(
    caplog: pytest.LogCaptureFixture, line: dict[str, object], field: str
) -> None:
    good = {"kind": "run", "status": "complete", "started_at": 1.0}
    with caplog.at_level(logging.WARNING):
        found = history_entries([line, good])
    assert [e.to_json() for e in found] == [good]
    assert f"field '{field}'" in caplog.text


def test_what_a_run_writes_reads_back_the_same(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_benchmark(
        "honorific-bn", "mock:hashed-register", out=run_dir, limit=4, seeds=[0, 1], progress=False
    )
    raw = json.loads((run_dir / MANIFEST_NAME).read_text(encoding="utf-8"))
    found = read_manifest(run_dir / MANIFEST_NAME)
    assert isinstance(found, RunManifest) and found.to_json() == raw
    assert found.seeds == found.signature["seeds"] == [0, 1]  # the effective seeds
    # the same keys, in the same order, as the previous version wrote
    assert list(raw) == list(json.loads(OLD_MANIFEST.read_text(encoding="utf-8")))
    lines = read_history(run_dir)
    assert [e.to_json() for e in history_entries(lines)] == lines
    assert set(lines[0]) == set(json.loads(OLD_HISTORY.read_text(encoding="utf-8")))


def test_the_manifest_holds_the_effective_seeds_when_none_are_given(tmp_path: Path) -> None:
    # honorific-bn runs unseeded by default: the manifest says so, as the signature does.
    run_dir = tmp_path / "run"
    run_benchmark("honorific-bn", "mock:hashed-register", out=run_dir, limit=2, progress=False)
    found = read_manifest(run_dir / MANIFEST_NAME)
    assert found.seeds == (found.signature["seeds"] or [])  # type: ignore[union-attr]
    assert (
        json.loads((run_dir / HISTORY_NAME).read_text().splitlines()[0])["options"]["seeds"] is None
    )  # the history keeps what was asked


@pytest.mark.parametrize("model", [RunManifest, ScoreManifest, InvocationOptions, HistoryEntry])
def test_every_field_has_a_docstring(model: type) -> None:
    tree = ast.parse(inspect.getsource(records))
    body = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == model.__name__
    ).body
    documented = {
        stmt.target.id
        for stmt, after in zip(body, body[1:], strict=False)
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    }
    assert set(model.model_fields) - documented == set()
