"""What biasbench's writers may write into: a folder's kind (new, empty, a run or score folder,
someone else's), and the one-line refusal of a target that is not theirs to write."""

from __future__ import annotations

import json
from pathlib import Path

from biasbench.runfolder import DERIVED_NAMES, MANIFEST_NAME, STORE_NAME, is_leftover

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
        return (
            f"--out {where} is a score folder (biasbench score); a run writes only into a "
            "new or empty folder or its own run folder: pass another --out"
        )
    return (
        f"--out {where}: not empty and not a biasbench run folder; a run writes only into "
        "a new or empty folder or its own run folder, and never replaces files it did not "
        "write: pass another --out"
    )


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
            return (
                f"--out {_shown(out)} is a biasbench {kind} folder; {what} never writes "
                "into a run or score folder: pass another --out"
            )
        top = resolved.relative_to(folder).parts[0]
        if top in DERIVED_NAMES or top.startswith("."):
            return (
                f"--out {_shown(out)} is inside {folder / top}, a derived folder of a "
                f"biasbench {kind} folder; {what} never writes into a run or score "
                "folder: pass another --out"
            )
    return None
