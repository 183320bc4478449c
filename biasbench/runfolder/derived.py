"""Derived files (labels.jsonl, results.json, tables/, figures/): written into a staging
folder, moved into place, recorded in the manifest and checked by every reader (see
:mod:`biasbench.runfolder`)."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from biasbench.runfolder import (
    DERIVED_NAMES,
    LOCK_NAME,
    MANIFEST_NAME,
    RESULTS_NAME,
    RETIRED_PREFIX,
    STAGING_PREFIX,
    STORE_NAME,
    RunFolderError,
    is_leftover,
)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _count_lines(path: Path) -> int:
    count = 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            count += block.count(b"\n")
    return count


def describe_files(root: Path) -> dict[str, dict[str, Any]]:
    """relative path -> {bytes, sha256[, lines]} of every file under ``root`` (a staging
    folder: everything in it is derived)."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        entry: dict[str, Any] = {"bytes": path.stat().st_size, "sha256": sha256_file(path)}
        if path.suffix == ".jsonl":
            entry["lines"] = _count_lines(path)
        found[path.relative_to(root).as_posix()] = entry
    return found


def staging_dir(run_dir: Path) -> Path:
    """A fresh, empty staging folder inside ``run_dir`` (same file system: renames are atomic)."""
    path = Path(run_dir) / f"{STAGING_PREFIX}{os.getpid()}"
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def clean_leftovers(run_dir: Path) -> None:
    """Remove staging and retired folders and atomic-write temporaries a killed writer left
    behind (call under the lock); the lock itself stays."""
    for path in Path(run_dir).glob(".*"):
        if path.name != LOCK_NAME and is_leftover(path.name):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def publish(staging: Path, run_dir: Path) -> dict[str, dict[str, Any]]:
    """Move the derived files written in ``staging`` into ``run_dir``; return their description.

    Files are moved with ``os.replace`` and folders swapped by two renames, so each path is
    always either the old or the new version; derived files the new scoring did not produce
    (a stale table) are removed. A kill half-way leaves a mix that :func:`verify_derived`
    rejects, because the manifest is rewritten only after this returns.
    """
    files = describe_files(staging)
    names = sorted({p.name for p in staging.iterdir()} | set(DERIVED_NAMES))
    for name in names:
        new, old = staging / name, run_dir / name
        if new.is_dir():
            if old.is_dir():
                retired = run_dir / f"{RETIRED_PREFIX}{name}-{os.getpid()}"
                os.rename(old, retired)
                os.rename(new, old)
                shutil.rmtree(retired, ignore_errors=True)
            else:
                if old.exists():
                    old.unlink()
                os.rename(new, old)
        elif new.is_file():
            if old.is_dir():
                shutil.rmtree(old)
            os.replace(new, old)
        elif old.is_dir():
            shutil.rmtree(old)
        elif old.exists():
            old.unlink()
    shutil.rmtree(staging, ignore_errors=True)
    return files


def verify_derived(run_dir: Path, manifest: dict[str, Any] | None) -> None:
    """Raise :class:`RunFolderError` (one line) unless the derived files are the ones recorded.

    A folder with neither manifest nor store (a score folder of an older biasbench) has nothing
    to check against and passes; anything else must carry the record written after scoring.
    """
    run_dir = Path(run_dir)
    remedy = (
        "rerun the same `biasbench run` command to rebuild them from the store "
        "(stored answers are not requested again)"
    )
    if manifest is None:
        if (run_dir / STORE_NAME).exists():
            raise RunFolderError(
                f"{run_dir}: no {MANIFEST_NAME} beside the store, so its "
                f"derived files cannot be checked; {remedy}"
            )
        return
    derived = manifest.get("derived")
    if not isinstance(derived, dict) or not isinstance(derived.get("files"), dict):
        status = manifest.get("status", "?")
        raise RunFolderError(
            f"{run_dir}: the run's derived files are not recorded as finished "
            f"(status {status}): they may be partial or stale; {remedy}"
        )
    _check_derived_record(run_dir, derived)
    for name, expected in derived["files"].items():
        path = run_dir / name
        if not path.is_file():
            raise RunFolderError(f"{path}: missing, though the manifest lists it; {remedy}")
        size = path.stat().st_size
        if size != expected.get("bytes") or sha256_file(path) != expected.get("sha256"):
            detail = f"{size:,} bytes, {expected.get('bytes', 0):,} recorded"
            if "lines" in expected:
                detail = f"{_count_lines(path):,} lines, {expected['lines']:,} recorded"
            raise RunFolderError(
                f"{path}: does not match the manifest ({detail}); it was "
                f"torn or edited and is not used; {remedy}"
            )
    stored = derived.get("store_ok")
    store_path = run_dir / STORE_NAME
    if stored is None and manifest.get("kind") != "run":
        return  # a score folder: its labels carry the outputs, there is no store
    if not store_path.is_file():
        what = (
            "a folder, not a file"
            if store_path.is_dir()
            else ("missing" if not store_path.exists() else "not a regular file")
        )
        raise RunFolderError(
            f"{store_path}: {what}, though the manifest records the answers "
            "its derived files were computed from; the run's answers are "
            "gone and nothing is published from it"
        )
    from biasbench.runner.store import ResponseStore

    with ResponseStore(store_path, readonly=True) as store:
        now = store.counts()["ok"]
        if stored is not None and now != stored:
            raise RunFolderError(
                f"{run_dir}: the store holds {now:,} answers but the derived "
                f"files were computed from {stored:,}; {remedy}"
            )
        recorded = derived.get("store_sha256")
        if recorded is not None and store.answers_digest() != recorded:
            raise RunFolderError(
                f"{run_dir}: the stored answers differ from those the derived "
                f"files were computed from (an answer was edited); {remedy}"
            )


class _DerivedFile(BaseModel):
    """One derived file as the manifest records it."""

    model_config = ConfigDict(strict=True, extra="allow")
    bytes: int
    sha256: str
    lines: int | None = None


class _DerivedRecord(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")
    files: dict[str, _DerivedFile]
    store_ok: int | None = None
    store_sha256: str | None = None
    responses_scored: int | None = None


def _check_derived_record(run_dir: Path, derived: dict[str, Any]) -> None:
    """Refuse, naming the field, a manifest whose record of derived files has wrong types."""
    try:
        _DerivedRecord.model_validate(derived)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise RunFolderError(
            f"{Path(run_dir) / MANIFEST_NAME}: field 'derived.{where}': "
            f"{first['msg']}; the manifest is damaged, so the derived files "
            "cannot be checked; rerun the same command to rebuild them"
        ) from None
    for name in derived["files"]:
        parts = Path(name).parts
        if Path(name).is_absolute() or ".." in parts or not parts:
            raise RunFolderError(
                f"{Path(run_dir) / MANIFEST_NAME}: field 'derived.files': "
                f"{name!r} is not a path inside the folder; the manifest is "
                "damaged"
            )


def write_results(results: dict[str, Any], folder: Path) -> Path:
    """Write ``results`` as the folder's results.json: the one writer of that file (the
    pipeline after a run, ``biasbench score`` after a score); benchmarks only return them."""
    from biasbench.jsonutil import write_json

    path = Path(folder) / RESULTS_NAME
    write_json(results, path)
    return path
