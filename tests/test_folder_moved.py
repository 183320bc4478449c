"""A run folder moved while the run writes: its store (an open file) goes with it, so the run
must not write its derived files at the old path (one run torn into two halves). It stops with
one line naming where the folder went; nothing is published at either path; the moved folder's
store holds every answer and a rerun there asks nothing again."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark
from biasbench.runfolder import STORE_NAME, RunFolderError

LIMIT = 12


class MovingBackend(MockBackend):
    """Answers as the mock does; on call ``at`` it moves the run folder (or, with ``replace``,
    moves it and makes an empty folder at the old path)."""

    def __init__(self, old: Path, new: Path, at: int, replace: bool = False) -> None:
        super().__init__("hashed-register")
        self.old, self.new, self.at, self.replace = old, new, at, replace

    async def generate(self, prompt, params, seed):  # type: ignore[no-untyped-def]
        if self.calls + 1 == self.at:
            os.rename(self.old, self.new)
            if self.replace:
                self.old.mkdir()
        return await super().generate(prompt, params, seed)


def _stored(folder: Path) -> int:
    with sqlite3.connect(f"file:{folder / STORE_NAME}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM responses WHERE status = 'ok'").fetchone()[0])


@pytest.mark.parametrize(("at", "replace"), [(1, False), (6, False), (LIMIT, False), (6, True)])
def test_a_folder_moved_mid_run_is_refused_never_torn(
    tmp_path: Path, at: int, replace: bool
) -> None:
    old, new = tmp_path / "run", tmp_path / "moved"
    with pytest.raises(RunFolderError) as caught:
        run_benchmark(
            "honorific-bn",
            out=old,
            limit=LIMIT,
            progress=False,
            concurrency=1,
            backend=MovingBackend(old, new, at, replace),
        )
    message = str(caught.value)
    assert f"was moved while the run wrote (it is now at {new})" in message
    assert "\n" not in message
    # nothing at the old path (or only the empty folder put there), no derived file in either
    assert (sorted(p.name for p in old.iterdir()) if old.exists() else []) == []
    assert not (new / "results.json").exists() and not (new / "tables").exists()
    assert not list(new.glob(".staging*"))
    assert _stored(new) == LIMIT  # every answer, in the moved folder's store
    again = run_benchmark(
        "honorific-bn", out=new, limit=LIMIT, progress=False, backend=MockBackend("hashed-register")
    )
    assert (again.stats.cached, again.stats.completed) == (LIMIT, 0)
    assert (new / "results.json").is_file()
