"""The run folders under a directory, with their state (``biasbench runs [DIR]``).

A folder's status says whether its numbers can be used:

- ``complete``: every request answered and the derived files match the manifest;
- ``incomplete``: scored, but some requests failed (a rerun retries them);
- ``running``: a process holds the folder's writer lock now;
- ``failed``: the last invocation stopped (interrupted, killed, an error) before scoring;
- ``torn``: derived files that do not match the manifest (edited, or a kill mid-write);
- ``scored``: a ``biasbench score`` folder.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.errors import BiasbenchError
from biasbench.fsutil import read_regular
from biasbench.runfolder import LOCK_NAME, MANIFEST_NAME, RESULTS_NAME, STORE_NAME
from biasbench.runfolder.derived import verify_derived
from biasbench.runfolder.history import read_history

_MARKERS = (MANIFEST_NAME, RESULTS_NAME, STORE_NAME)


@dataclass
class RunEntry:
    """One row of ``biasbench runs``."""

    folder: str
    benchmark: str
    model: str
    status: str
    requests: int | None
    """Distinct requests of the last invocation."""
    answered: int | None
    """Answers in the store (or responses scored, for a score folder)."""
    failed: int | None
    """Requests recorded as failed in the store."""
    invocations: int
    signature: str
    detail: str = ""
    """Why a folder is failed or torn, in one line."""
    scope: str = ""
    """"full", or "partial: --limit N" when the signature records a limit (a partial run)."""


def _locked(run_dir: Path) -> bool:
    """Whether a writer holds the folder's lock now (tested without creating the lock file)."""
    try:
        fd = os.open(run_dir / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK)
    finally:
        os.close(fd)  # also drops the shared lock, if it was taken
    return False


READ_MAX_BYTES = 64 << 20
"""The most bytes of a manifest or results file ``runs`` reads (a larger one counts as torn)."""


def _read(path: Path) -> dict[str, Any] | None:
    """A JSON object from a regular file of at most :data:`READ_MAX_BYTES` (a FIFO, a device or
    a huge file is never read: it would hang the listing or exhaust memory)."""
    if not path.exists():
        return None
    try:
        found = json.loads(read_regular(path, READ_MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # unreadable: the status says torn
        return None
    return found if isinstance(found, dict) else None


def describe_folder(run_dir: Path, root: Path | None = None) -> RunEntry:
    """The state of one run or score folder, read without writing anything."""
    manifest = _read(run_dir / MANIFEST_NAME)
    results = _read(run_dir / RESULTS_NAME)
    signature = (results or {}).get("signature") or (manifest or {}).get("signature") or {}
    if not isinstance(signature, dict):
        signature = {}
    short = signature.get("short") or (manifest or {}).get("signature_short") or ""
    benchmark = str((manifest or {}).get("benchmark") or signature.get("benchmark") or "?")
    models = (results or {}).get("models") or {}
    described = (manifest or {}).get("model")
    model = (
        (described.get("model") if isinstance(described, dict) else None)
        or ", ".join(map(str, models))
        or "?"
    )
    counts = (manifest or {}).get("counts") or {}
    requests = (manifest or {}).get("n_unique_requests", counts.get("requests"))
    answered = failed = None
    if (run_dir / STORE_NAME).is_file():
        from biasbench.runner.store import ResponseStore

        try:
            with ResponseStore(run_dir / STORE_NAME, readonly=True) as store:
                stored = store.counts()
            answered, failed = stored["ok"], stored["failed"]
        except Exception:  # an unreadable store: the status says torn below
            pass
    status, detail = _status(run_dir, manifest, results)
    if answered is None and status == "scored":
        answered = ((manifest or {}).get("derived") or {}).get("responses_scored")
    shown = run_dir.relative_to(root) if root is not None and run_dir != root else run_dir
    return RunEntry(
        folder=str(shown),
        benchmark=benchmark,
        model=str(model),
        status=status,
        requests=requests,
        answered=answered,
        failed=failed,
        invocations=len(read_history(run_dir)),
        signature=short,
        detail=detail,
        scope=f"partial: --limit {limit}" if (limit := signature.get("limit")) else "full",
    )


def _status(
    run_dir: Path, manifest: dict[str, Any] | None, results: dict[str, Any] | None
) -> tuple[str, str]:
    if _locked(run_dir):
        return "running", ""
    if manifest is None:
        if (run_dir / STORE_NAME).is_file():
            return "torn", f"no {MANIFEST_NAME} beside the store"
        return ("scored", "") if results is not None else ("torn", f"no {RESULTS_NAME}")
    state = str(manifest.get("status", "?"))
    if state in ("running", "interrupted", "scoring"):
        # "running" without a lock holder: the process died without saying why (SIGKILL).
        return "failed", str(manifest.get("error") or "the process stopped without a word")
    try:
        verify_derived(run_dir, manifest)
    except BiasbenchError as exc:
        return "torn", " ".join(str(exc).split())
    if results is None:
        return "torn", f"no {RESULTS_NAME}"
    return state, ""


def find_run_folders(root: Path) -> list[Path]:
    """Run and score folders at or under ``root`` (not inside one another), sorted by path."""
    root = Path(root)
    if not root.is_dir():
        raise BiasbenchError(f"{root}: no such folder")
    found = []
    for folder, dirs, files in os.walk(root):
        if any(name in files for name in _MARKERS):
            found.append(Path(folder))
            dirs.clear()  # tables/, figures/ of a run folder are not runs
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    return sorted(found)


def list_runs(root: Path | str = "runs") -> pd.DataFrame:
    """One row per run folder under ``root`` (columns of :class:`RunEntry`)."""
    root = Path(root)
    entries = []
    for folder in find_run_folders(root):
        try:
            entry = describe_folder(folder, root)
        except Exception as exc:  # one damaged folder must not hide the others
            shown = folder.relative_to(root) if folder != root else folder
            entry = RunEntry(
                str(shown),
                "?",
                "?",
                "torn",
                None,
                None,
                None,
                0,
                "",
                f"unreadable: {' '.join(str(exc).split()) or type(exc).__name__}",
            )
        entries.append(asdict(entry))
    frame = pd.DataFrame(entries, columns=list(RunEntry.__dataclass_fields__))
    for column in ("requests", "answered", "failed"):
        frame[column] = frame[column].astype("Int64")
    return frame


def format_table(table: pd.DataFrame) -> str:
    """The listing as aligned text: numbers right-aligned, text left-aligned, ``-`` for none."""
    columns = [c for c in table.columns if c != "detail"]
    cells = [[("-" if pd.isna(v) else str(v)) for v in table[c]] for c in columns]
    numeric = [pd.api.types.is_numeric_dtype(table[c]) for c in columns]
    widths = [max([len(c), *map(len, col)]) for c, col in zip(columns, cells, strict=True)]

    def line(values: list[str]) -> str:
        return "  ".join(
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ).rstrip()

    rows = [line(columns)] + [line([col[i] for col in cells]) for i in range(len(table))]
    return "\n".join(rows)
