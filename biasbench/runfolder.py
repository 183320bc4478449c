"""What a run folder guarantees: one writer at a time, one configuration, and derived files
that match the store they were computed from.

- **One writer.** :func:`run_lock` takes an exclusive ``flock`` on ``RUN_DIR/.lock`` for the
  whole run. The kernel drops it when the process ends, however it ends (SIGKILL included), so a
  stale lock never blocks anyone. A second writer fails at once with one line naming the folder
  and the process holding it, or waits for it (``--wait``).
- **One configuration.** The store records the folder's identity (benchmark, item set, prompt,
  model description, decoding, seeds, ``--limit``) on first use; a run of anything else into
  the folder is refused with one line that names what the folder holds.
- **Derived files are never torn or trusted blindly.** Scoring writes every derived file
  (labels.jsonl, results.json, tables/, figures/) into a staging folder inside the run folder,
  then moves them into place (``os.replace``: each file is either the old one or the new one).
  The manifest, written last, records each derived file's size, line count and sha256 and the
  number of stored answers they were computed from. Readers (:func:`verify_derived`) check them
  and refuse, with one line, a folder whose files do not match: they never compute from a short
  or stale file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import logging
import os
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from biasbench.errors import BiasbenchError

log = logging.getLogger(__name__)

LOCK_NAME = ".lock"
STAGING_PREFIX = ".staging-"
RETIRED_PREFIX = ".retired-"
# The run-folder layout, defined here only (the pipeline, the benchmarks and the report read it).
MANIFEST_NAME = "manifest.json"
"""Signature, command options, counts, status and the record of every derived file."""
STORE_NAME = "responses.sqlite"
"""Every request and response: the source of truth of a run (resumable)."""
LABELS_NAME = "labels.jsonl"
"""One judged response per line, with its evidence."""
RESULTS_NAME = "results.json"
"""Scores with their statistics and the signature (written once, by the pipeline or score)."""
TABLES_DIR = "tables"
"""Markdown, CSV and LaTeX tables."""
FIGURES_DIR = "figures"
HISTORY_NAME = "history.jsonl"
"""One line per invocation that wrote to the folder (options, counts, timing, package version):
appended, never rewritten, and not a derived file (scoring never replaces it)."""
DERIVED_NAMES = (LABELS_NAME, RESULTS_NAME, TABLES_DIR, FIGURES_DIR)
"""Everything scoring writes into a run folder (files and folders), all rebuilt from the store."""
IDENTITY_FIELDS = ("benchmark", "data_sha256", "prompt_hash", "model", "decoding", "seeds",
                   "limit")
"""What a run folder is bound to: another value of any of these needs another folder."""


class RunFolderError(BiasbenchError):
    """A run folder that cannot be used as asked (busy, another configuration, torn files)."""


# --------------------------------------------------------------------------- one writer


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return "another process"
    pid, host = info.get("pid"), info.get("host")
    where = f" on {host}" if host and host != socket.gethostname() else ""
    return f"process {pid}{where}" if pid else "another process"


@contextlib.contextmanager
def run_lock(run_dir: Path, *, wait: bool = False) -> Iterator[None]:
    """Hold the run folder's writer lock for the duration of the ``with`` block.

    Raises :class:`RunFolderError` naming the folder and the holder's pid when another process
    holds it (unless ``wait``, which blocks until it is free). ``flock`` locks belong to the open
    file: the kernel releases them when the process dies, so there is nothing stale to clean up.
    """
    path = Path(run_dir) / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            holder = _holder(path)
            if not wait:
                raise RunFolderError(
                    f"run folder {run_dir} is in use by {holder} (one writer at a time); wait "
                    "for it to finish, or pass --wait to queue behind it") from None
            log.warning("run folder %s is in use by %s; waiting for it", run_dir, holder)
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                  "since": time.time()}).encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


# --------------------------------------------------------------------------- one configuration


def identity(signature: dict[str, Any], limit: int | None) -> dict[str, Any]:
    """The configuration a run folder is bound to (see :data:`IDENTITY_FIELDS`)."""
    found = {name: signature.get(name) for name in IDENTITY_FIELDS if name != "limit"}
    found["limit"] = limit
    # Through JSON, so that a stored identity compares equal to a fresh one (tuples, floats).
    return json.loads(json.dumps(found, sort_keys=True))


def describe_identity(found: dict[str, Any]) -> str:
    """E.g. ``honorific-bn answers of openai:m (chat), --limit 30, temperature 0.0``."""
    model = found.get("model") or {}
    name = model.get("model", "?") if isinstance(model, dict) else str(model)
    kind = model.get("kind") if isinstance(model, dict) else None
    text = f"{found.get('benchmark')} answers of {kind + ':' if kind else ''}{name}"
    if isinstance(model, dict) and model.get("mode"):
        text += f" ({model['mode']})"
    text += f", --limit {found['limit']}" if found.get("limit") else ", all items"
    seeds = found.get("seeds")
    if seeds:
        text += f", {len(seeds)} seed(s)"
    decoding = found.get("decoding") or {}
    if isinstance(decoding, dict) and "temperature" in decoding:
        text += f", temperature {decoding['temperature']}"
    return text


def identity_conflict(held: dict[str, Any], wanted: dict[str, Any], run_dir: Path) -> str | None:
    """The one-line refusal when ``wanted`` is not the configuration ``held`` by the folder."""
    differing = [name for name in IDENTITY_FIELDS if held.get(name) != wanted.get(name)]
    if not differing:
        return None
    words = {"data_sha256": "items", "prompt_hash": "prompt", "decoding": "decoding",
             "seeds": "seeds", "limit": "--limit", "model": "model", "benchmark": "benchmark"}
    named = []
    for name in differing:
        first, other = held.get(name), wanted.get(name)
        if isinstance(first, dict) and isinstance(other, dict):  # say which part differs
            keys = sorted(k for k in set(first) | set(other) if first.get(k) != other.get(k))
            named.append(f"{words[name]} ({', '.join(keys)})")
        else:
            named.append(words[name])
    return (f"run folder {run_dir} holds {describe_identity(held)}; this run differs in "
            f"{', '.join(named)}: {describe_identity(wanted)}. A run folder holds one "
            "configuration: pass another --out")


# --------------------------------------------------------------------------- derived files


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


def is_leftover(name: str) -> bool:
    """Whether a file name is one biasbench's own writers leave behind: the lock, a staging or
    retired folder, or the temporary file of an atomic write (``.NAME.XXXX.tmp``)."""
    return (name == LOCK_NAME or name.startswith((STAGING_PREFIX, RETIRED_PREFIX))
            or (name.startswith(".") and name.endswith(".tmp")))


def clean_leftovers(run_dir: Path) -> None:
    """Remove staging and retired folders and atomic-write temporaries a killed writer left
    behind (call under the lock); the lock itself stays."""
    for path in Path(run_dir).glob(".*"):
        if path.name != LOCK_NAME and is_leftover(path.name):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


FolderKind = str
"""``new`` (absent), ``empty`` (nothing but leftovers), ``run``, ``score``, ``file`` (not a
folder) or ``other`` (a folder with someone else's files)."""


def folder_kind(path: Path) -> FolderKind:
    """What ``path`` is, as a target of biasbench's writers (reads nothing but names and the
    manifest's ``kind``)."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return "new"
    if not path.is_dir():
        return "file"
    if (path / STORE_NAME).exists():
        return "run"
    manifest = path / MANIFEST_NAME
    if manifest.exists():
        kind = manifest_kind(manifest)
        return kind if kind in ("run", "score") else "other"
    try:
        names = [p.name for p in path.iterdir()]
    except OSError:
        return "other"
    return "empty" if all(is_leftover(n) for n in names) else "other"


def manifest_kind(path: Path) -> str | None:
    """The ``kind`` a manifest records (``run``/``score``), None when it cannot be read."""
    from biasbench.fsutil import read_regular

    try:
        found = json.loads(read_regular(path, 1 << 24))
    except (OSError, ValueError, RecursionError):
        return None
    kind = found.get("kind") if isinstance(found, dict) else None
    return kind if isinstance(kind, str) else None


def _shown(path: Path) -> str:
    text = str(path)
    return "the current folder (.)" if text in ("", ".") else text


def run_target_refusal(out: Path) -> str | None:
    """Why a run may not write into ``out``, or None: a run writes only into a new or empty
    folder or a run folder (whose store then checks that it is this run's)."""
    kind = folder_kind(out)
    if kind in ("new", "empty", "run"):
        return None
    where = _shown(Path(out))
    if kind == "file":
        return f"--out {where}: a file, not a folder; a run writes into a new or empty folder"
    if kind == "score":
        return (f"--out {where} is a score folder (biasbench score); a run writes only into a "
                "new or empty folder or its own run folder: pass another --out")
    return (f"--out {where}: not empty and not a biasbench run folder; a run writes only into "
            "a new or empty folder or its own run folder, and never replaces files it did not "
            "write: pass another --out")


def output_target_refusal(out: Path, what: str) -> str | None:
    """Why ``what`` (export, report) may not write into ``out``: it is a run or score folder, or
    lies inside one's derived folders (tables/, figures/) or hidden files, which only scoring
    writes. A folder of its own inside a run folder (``RUN/report``) is left to the user."""
    out = Path(out)
    try:
        resolved = out.resolve()
    except (OSError, RuntimeError):
        resolved = out.absolute()
    for folder in (resolved, *resolved.parents):
        kind = folder_kind(folder)
        if kind not in ("run", "score"):
            continue
        if folder == resolved:
            return (f"--out {_shown(out)} is a biasbench {kind} folder; {what} never writes "
                    "into a run or score folder: pass another --out")
        top = resolved.relative_to(folder).parts[0]
        if top in DERIVED_NAMES or top.startswith("."):
            return (f"--out {_shown(out)} is inside {folder / top}, a derived folder of a "
                    f"biasbench {kind} folder; {what} never writes into a run or score "
                    "folder: pass another --out")
    return None


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
    remedy = ("rerun the same `biasbench run` command to rebuild them from the store "
              "(stored answers are not requested again)")
    if manifest is None:
        if (run_dir / STORE_NAME).exists():
            raise RunFolderError(f"{run_dir}: no {MANIFEST_NAME} beside the store, so its "
                                 f"derived files cannot be checked; {remedy}")
        return
    derived = manifest.get("derived")
    if not isinstance(derived, dict) or not isinstance(derived.get("files"), dict):
        status = manifest.get("status", "?")
        raise RunFolderError(f"{run_dir}: the run's derived files are not recorded as finished "
                             f"(status {status}): they may be partial or stale; {remedy}")
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
            raise RunFolderError(f"{path}: does not match the manifest ({detail}); it was "
                                 f"torn or edited and is not used; {remedy}")
    stored = derived.get("store_ok")
    store_path = run_dir / STORE_NAME
    if stored is None and manifest.get("kind") != "run":
        return  # a score folder: its labels carry the outputs, there is no store
    if not store_path.is_file():
        what = "a folder, not a file" if store_path.is_dir() else (
            "missing" if not store_path.exists() else "not a regular file")
        raise RunFolderError(f"{store_path}: {what}, though the manifest records the answers "
                             "its derived files were computed from; the run's answers are "
                             "gone and nothing is published from it")
    from biasbench.runner.store import ResponseStore

    with ResponseStore(store_path, readonly=True) as store:
        now = store.counts()["ok"]
        if stored is not None and now != stored:
            raise RunFolderError(f"{run_dir}: the store holds {now:,} answers but the derived "
                                 f"files were computed from {stored:,}; {remedy}")
        recorded = derived.get("store_sha256")
        if recorded is not None and store.answers_digest() != recorded:
            raise RunFolderError(f"{run_dir}: the stored answers differ from those the derived "
                                 f"files were computed from (an answer was edited); {remedy}")


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
        raise RunFolderError(f"{Path(run_dir) / MANIFEST_NAME}: field 'derived.{where}': "
                             f"{first['msg']}; the manifest is damaged, so the derived files "
                             "cannot be checked; rerun the same command to rebuild them") from None
    for name in derived["files"]:
        parts = Path(name).parts
        if Path(name).is_absolute() or ".." in parts or not parts:
            raise RunFolderError(f"{Path(run_dir) / MANIFEST_NAME}: field 'derived.files': "
                                 f"{name!r} is not a path inside the folder; the manifest is "
                                 "damaged")


def write_results(results: dict[str, Any], folder: Path) -> Path:
    """Write ``results`` as the folder's results.json: the one writer of that file (the
    pipeline after a run, ``biasbench score`` after a score); benchmarks only return them."""
    from biasbench.jsonutil import write_json

    path = Path(folder) / RESULTS_NAME
    write_json(results, path)
    return path


def append_history(run_dir: Path, entry: dict[str, Any]) -> None:
    """Append one invocation's record to ``RUN_DIR/history.jsonl`` (call under the lock).

    A whole line or nothing: the line is written with ``O_APPEND`` and, if the write comes back
    short or fails (a full disk), the file is cut back to its old length. A last line a kill
    left without its newline is closed first, so it never swallows the new one. Values JSON
    cannot hold (paths) are written as text.
    """
    data = (json.dumps(entry, ensure_ascii=False, sort_keys=True, default=str) + "\n").encode(
        "utf-8", "surrogatepass")
    fd = os.open(Path(run_dir) / HISTORY_NAME, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(errno.ENOSPC, f"short write ({written} of {len(data)} bytes)")
        except OSError:
            os.ftruncate(fd, size)
            raise
    finally:
        os.close(fd)


def read_history(run_dir: Path) -> list[dict[str, Any]]:
    """The folder's invocation records, oldest first. A damaged line (cut by a kill, even
    inside a UTF-8 character, or edited) is skipped with a warning: the others still count."""
    from biasbench.fsutil import read_regular

    path = Path(run_dir) / HISTORY_NAME
    if not path.is_file():
        return []
    entries = []
    for number, raw in enumerate(read_regular(path, HISTORY_MAX_BYTES).split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            found = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            log.warning("%s:%d: a damaged line (cut by a kill or edited) is skipped", path,
                        number)
            continue
        if isinstance(found, dict):
            entries.append(found)
    return entries


HISTORY_MAX_BYTES = 256 << 20
"""The most of history.jsonl that is read (a larger one is refused in one line)."""


def store_of(folder: Path) -> Path | None:
    """The response store of the run that ``folder`` belongs to: ``folder/responses.sqlite``,
    or the run folder's when ``folder`` is the staging folder scoring writes into."""
    folder = Path(folder)
    for candidate in (folder, folder.parent if folder.name.startswith(STAGING_PREFIX) else None):
        if candidate is not None and (candidate / STORE_NAME).is_file():
            return candidate / STORE_NAME
    return None
