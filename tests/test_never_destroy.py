"""Never destroy what a user has (round 2, items 1, 2, 4, 6 and 10): a run writes only into a
new, empty or its own run folder; export and report never write into a run or score folder;
history appends are whole lines; derived files are checked against the stored answers; runs
reads only regular files."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from biasbench.errors import BiasbenchError
from biasbench.export import export_runs
from biasbench.pipeline import run_benchmark
from biasbench.report.html import build_report
from biasbench.runfolder import HISTORY_NAME, RunFolderError
from biasbench.runfolder.catalog import describe_folder
from biasbench.runfolder.history import append_history, read_history
from biasbench.runfolder.reading import load_run
from biasbench.runfolder.targets import run_target_refusal

MOCK = {"model": "mock:hashed-register", "limit": 4, "progress": False}


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("small") / "run"
    run_benchmark("honorific-bn", out=run_dir, **MOCK)
    return run_dir


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _user_folder(tmp_path: Path) -> Path:
    mine = tmp_path / "mine"
    (mine / "figures").mkdir(parents=True)
    (mine / "figures" / "plot.png").write_bytes(b"png")
    (mine / "tables").mkdir()
    (mine / "tables" / "t.csv").write_text("a\n1\n")
    (mine / "labels.jsonl").write_text('{"mine": 1}\n')
    (mine / "results.json").write_text('{"mine": 1}')
    return mine


def test_a_run_never_writes_into_someone_elses_folder(tmp_path: Path) -> None:
    mine = _user_folder(tmp_path)
    before = _tree(mine)
    with pytest.raises(RunFolderError, match="not empty and not a biasbench run folder"):
        run_benchmark("honorific-bn", out=mine, **MOCK)
    assert _tree(mine) == before  # not even a lock file


def test_a_run_into_the_current_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = _user_folder(tmp_path)
    before = _tree(mine)
    monkeypatch.chdir(mine)
    for out in ("", "."):
        with pytest.raises(RunFolderError, match=r"--out the current folder \(\.\): not empty"):
            run_benchmark("honorific-bn", out=Path(out), **MOCK)
    import biasbench

    with pytest.raises(BiasbenchError, match="not empty and not a biasbench run folder"):
        biasbench.run("honorific-bn", "mock:hashed-register", out="", limit=4, progress=False)
    assert _tree(mine) == before


def test_a_run_into_a_score_folder_is_refused(tmp_path: Path) -> None:
    score = tmp_path / "score"
    score.mkdir()
    (score / "manifest.json").write_text(json.dumps({"kind": "score", "status": "scored"}))
    (score / "results.json").write_text("{}")
    before = _tree(score)
    assert run_target_refusal(score).startswith(f"--out {score} is a score folder")
    with pytest.raises(RunFolderError, match="is a score folder"):
        run_benchmark("honorific-bn", out=score, **MOCK)
    assert _tree(score) == before


@pytest.mark.parametrize("leftover", [".lock", ".staging-123", ".manifest.json.x.tmp"])
def test_a_run_into_an_empty_folder_or_leftovers_is_fine(tmp_path: Path, leftover: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / leftover).mkdir() if leftover.startswith(".staging") else (out / leftover).touch()
    run_benchmark("honorific-bn", out=out, **MOCK)
    load_run(out)
    assert not (out / ".staging-123").exists() and not (out / ".manifest.json.x.tmp").exists()


@pytest.mark.parametrize("inside", ["", "tables", "figures"])
def test_export_and_report_never_write_into_a_run_folder(
    small_run: Path, tmp_path: Path, inside: str
) -> None:
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    before = _tree(run)
    target = run / inside if inside else run
    for fmt in ("jsonl", "csv"):
        with pytest.raises(BiasbenchError, match="export never writes into a run or score folder"):
            export_runs([run], fmt, target)
    with pytest.raises(BiasbenchError, match="report never writes into a run or score folder"):
        build_report([run], target)
    assert _tree(run) == before
    load_run(run)  # still whole


def test_history_appends_whole_lines_and_skips_a_damaged_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    append_history(tmp_path, {"n": 1})
    line = json.dumps({"n": "টেক্সট"}, ensure_ascii=False).encode()
    with (tmp_path / HISTORY_NAME).open("ab") as handle:
        handle.write(line[: len(line) - 5])  # cut inside a UTF-8 character, no newline
    append_history(tmp_path, {"n": 3})
    assert read_history(tmp_path) == [{"n": 1}, {"n": 3}]
    assert "a damaged line" in caplog.text


def test_a_short_history_write_leaves_no_partial_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    append_history(tmp_path, {"n": 1})
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, data[:7]))
    with pytest.raises(OSError, match="short write"):
        append_history(tmp_path, {"n": 2})
    monkeypatch.undo()
    assert (tmp_path / HISTORY_NAME).read_bytes() == b'{"n": 1}\n'


def test_a_run_with_a_damaged_history_still_runs(small_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    with (run / HISTORY_NAME).open("ab") as handle:
        handle.write('{"x": "ট'.encode()[:-1])
    again = run_benchmark("honorific-bn", out=run, **MOCK)
    assert again.stats.calls == 0
    assert describe_folder(run).status == "complete"
    assert describe_folder(run).invocations == 2


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("delete", "responses.sqlite: missing"),
        ("directory", "responses.sqlite: a folder, not a file"),
        ("edit", "an answer was edited"),
    ],
)
def test_derived_files_are_checked_against_the_stored_answers(
    small_run: Path, tmp_path: Path, damage: str, message: str
) -> None:
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    store = run / "responses.sqlite"
    if damage == "edit":
        with sqlite3.connect(store) as db:
            db.execute(
                "UPDATE responses SET output = 'edited' WHERE rowid = "
                "(SELECT MIN(rowid) FROM responses WHERE status = 'ok')"
            )
    else:
        store.unlink()
        for extra in ("-wal", "-shm"):
            Path(f"{store}{extra}").unlink(missing_ok=True)
        if damage == "directory":
            store.mkdir()
    with pytest.raises(RunFolderError, match=message):
        load_run(run)
    with pytest.raises(RunFolderError, match=message):
        export_runs([run], "jsonl", tmp_path / "exp")
    with pytest.raises(RunFolderError, match=message):
        build_report([run], tmp_path / "rep")
    assert describe_folder(run).status == "torn"


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_runs_reads_only_regular_files(small_run: Path, tmp_path: Path, kind: str) -> None:
    run = tmp_path / "runs" / "run"
    shutil.copytree(small_run, run)
    for name in ("manifest.json", "results.json"):
        (run / name).unlink()
        if kind == "fifo":
            os.mkfifo(run / name)
        else:
            os.symlink("/dev/zero", run / name)
    found: list[object] = []
    worker = threading.Thread(target=lambda: found.append(describe_folder(run)), daemon=True)
    worker.start()
    worker.join(30)
    assert found, "describe_folder hung"
    assert found[0].status == "torn"  # type: ignore[attr-defined]
