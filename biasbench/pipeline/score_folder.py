"""``biasbench score``'s folder: outputs produced elsewhere, scored and published into a score
folder, locked, atomic and recorded in a manifest like a run's."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from biasbench.jsonutil import write_json
from biasbench.runfolder import MANIFEST_NAME, STORE_NAME, RunFolderError
from biasbench.runfolder.derived import clean_leftovers, publish, staging_dir
from biasbench.runfolder.lock import run_lock
from biasbench.runfolder.records import SCHEMA_VERSION, ScoreManifest
from biasbench.runfolder.targets import folder_kind
from biasbench.version import __version__

T = TypeVar("T")


def score_into(out: Path, benchmark: str, produce: Callable[[Path], T]) -> T:
    """Run ``produce(folder)`` (scoring outputs produced elsewhere) and publish what it writes
    into ``out`` as a score folder: locked, atomic, recorded in a manifest like a run's.

    ``out`` must be new, empty (leftovers of a killed writer aside), or a score folder of
    biasbench: the files of a folder that is not biasbench's are never replaced, and a run
    folder is never overwritten by a score. A manifest with status ``scoring`` is written before
    any derived file moves in, so a kill at any point leaves a folder that the same command
    scores again and that nobody reads as scored; the finished manifest is written last.
    """
    out = Path(out)
    created = folder_kind(out) == "new"
    _check_score_target(out)  # before the lock too, so a refused folder gets no lock file
    out.mkdir(parents=True, exist_ok=True)
    try:
        with run_lock(out):
            _check_score_target(out)
            clean_leftovers(out)
            previous = out / MANIFEST_NAME
            started = time.time()
            staging = staging_dir(out)
            try:
                result = produce(staging)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            record = ScoreManifest(
                schema_version=SCHEMA_VERSION,
                biasbench=__version__,
                kind="score",
                benchmark=benchmark,
                started_at=started,
                status="scoring",
            )
            # From here until the last write the folder is "scoring": its files are not
            # vouched for, so readers refuse them, and a rerun replaces them.
            write_json(record.to_json(), previous)
            files = publish(staging, out)
            record.status, record.finished_at = "scored", time.time()
            record.derived = {"files": files}
            write_json(record.to_json(), previous)
    except BaseException:
        if created:  # a failed first score leaves nothing behind
            shutil.rmtree(out, ignore_errors=True)
        raise
    return result


def _check_score_target(out: Path) -> None:
    kind = folder_kind(out)
    if kind == "run":
        raise RunFolderError(
            f"{out} is a run folder (it holds {STORE_NAME} or a run's "
            f"{MANIFEST_NAME}); score into another folder"
        )
    if kind == "file":
        raise RunFolderError(f"{out}: a file, not a folder; score into a new or empty folder")
    if kind == "other":
        if (out / MANIFEST_NAME).exists():
            raise RunFolderError(
                f"{out}: holds a manifest that is not a score folder's; score into another folder"
            )
        raise RunFolderError(
            f"{out}: not empty and not a biasbench score folder; score into a new or empty folder"
        )
