"""A first score and a rescoring killed at every rename they make: the
same command always recovers, leaves no leftovers, and nothing is listed as scored before its
manifest vouches for it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from biasbench.runfolder.reading import load_run
from biasbench.testing.kills import kill_point_series, leftovers, run_cli_in_child

ROWS = [
    {"item_id": f"judge|T1|{g}", "model": m, "output": "তিনি আসবেন।"}
    for g in ("male", "female")
    for m in ("m1", "m2")
]


@pytest.fixture()
def responses(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("scenario", ["first score", "rescoring"])
def test_every_kill_point_recovers(tmp_path: Path, responses: Path, scenario: str) -> None:
    args = ["score", "honorific-bn", "--responses", str(responses), "--out"]
    done = tmp_path / "done"
    assert run_cli_in_child([*args, str(done)]) == 0
    reference = load_run(done).results["models"]
    out = tmp_path / "out"

    def prepare() -> None:
        shutil.rmtree(out, ignore_errors=True)
        if scenario == "rescoring":
            shutil.copytree(done, out)

    outcomes = kill_point_series(
        scenario, [*args, str(out)], out, prepare, reference, work=tmp_path
    )
    assert len(outcomes) >= 5, outcomes  # labels, results, tables (two renames), manifests
    for o in outcomes:
        assert not o.listed_finished_unverified, o
        assert (o.rerun_exit, o.leftovers_after_rerun, o.same_results) == (0, [], True), o


def test_atomic_write_leftovers_are_removed_by_the_next_writer(
    tmp_path: Path, responses: Path
) -> None:
    out = tmp_path / "out"
    args = ["score", "honorific-bn", "--responses", str(responses), "--out", str(out)]
    assert run_cli_in_child(args) == 0
    (out / ".manifest.json.abc123.tmp").write_text("{", encoding="utf-8")
    (out / ".staging-999999").mkdir()
    assert leftovers(out) == [".manifest.json.abc123.tmp", ".staging-999999"]
    assert run_cli_in_child(args) == 0
    assert leftovers(out) == []
