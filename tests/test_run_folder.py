"""What a run folder guarantees: one configuration, derived files that match the store, and
default folder names that never merge two models."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from biasbench.models.base import ModelBackend
from biasbench.pipeline import default_run_dir, folder_name, run_benchmark
from biasbench.runfolder import RunFolderError
from biasbench.runfolder.derived import verify_derived
from biasbench.runfolder.reading import load_run
from biasbench.runner.store import ResponseStore
from tests.running import CliRun


class _Named(ModelBackend):
    kind = "openai"
    mode = "chat"

    def __init__(self, model_id: str) -> None:
        self._id = model_id

    @property
    def model_id(self) -> str:
        return self._id

    async def generate(self, prompt, params, seed):  # type: ignore[no-untyped-def]
        raise NotImplementedError


@pytest.mark.parametrize(
    ("model_id", "expected"),
    [
        # The embedded default keeps the name the README shows: the @ part is a weights digest.
        ("gemma-3-270m-q4_k_m@253173120-2b3a1c9f0e7d", "gemma-3-270m-q4_k_m"),
        ("Qwen2.5-0.5B-Instruct@a8b602d9dafd", "Qwen2.5-0.5B-Instruct"),
        ("gpt-4o-mini", "gpt-4o-mini"),
        # Lossy slugs get 8 hex digits of the full id.
        ("gpt-4o-mini@2024-07-18", "gpt-4o-mini-"),
        ("meta-llama/Llama-3.3-70B-Instruct", "meta-llama_Llama-3.3-70B-Instruct-"),
        ("replay:m", "replay_m-"),
        ("../../etc", "etc-"),
        ("", "model-"),
    ],
)
def test_folder_names(model_id: str, expected: str) -> None:
    name = folder_name(_Named(model_id))
    if expected.endswith("-"):
        assert name.startswith(expected) and len(name) == len(expected) + 8, name
    else:
        assert name == expected
    assert "/" not in name and not name.startswith(".")


def test_model_names_that_differ_never_share_a_default_folder() -> None:
    ids = ["x", "x@y", "x@z", "x#y", "x/y", "x_y", "X", "x y", "x_y@1"]
    folders = {default_run_dir("honorific-bn", _Named(i)) for i in ids}
    assert len(folders) == len(ids)
    # A --limit or --seeds run has its own default folder.
    full = default_run_dir("filbbq", _Named("m"))
    assert default_run_dir("filbbq", _Named("m"), limit=30) != full
    assert default_run_dir("filbbq", _Named("m"), seeds=[0, 1]) != full


@pytest.mark.parametrize(
    ("first", "second", "differs"),
    [
        ({"model": "mock:hashed-register"}, {"model": "mock:honorific"}, "model (model)"),
        ({"limit": 4}, {"limit": 8}, "items, --limit"),
        ({"limit": 4}, {"limit": 4, "seeds": [0, 1]}, "seeds"),
        ({"limit": 4}, {"limit": 4, "temperature": 0.7}, "decoding (temperature)"),
        ({"limit": 4}, {"limit": 4, "max_tokens": 12}, "decoding (max_tokens)"),
    ],
)
def test_a_folder_holds_one_configuration(
    tmp_path: Path, first: dict, second: dict, differs: str
) -> None:
    base = {"model": "mock:hashed-register", "limit": 4, "progress": False}
    run_benchmark("honorific-bn", out=tmp_path, **{**base, **first})
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(RunFolderError) as caught:
        run_benchmark("honorific-bn", out=tmp_path, **{**base, **second})
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"run folder {tmp_path} holds honorific-bn answers of mock:")
    assert f"differs in {differs}" in message, message
    # Nothing was asked or changed: the first run's files are all still valid.
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    verify_derived(tmp_path, json.loads((tmp_path / "manifest.json").read_text()))
    with ResponseStore(tmp_path / "responses.sqlite") as store:
        assert store.counts() == {"ok": 4, "failed": 0}


def test_the_same_command_still_resumes(tmp_path: Path) -> None:
    run_benchmark("honorific-bn", "mock:hashed-register", out=tmp_path, limit=4, progress=False)
    again = run_benchmark(
        "honorific-bn", "mock:hashed-register", out=tmp_path, limit=4, progress=False
    )
    assert (again.stats.cached, again.stats.completed) == (4, 0)


def test_cli_refusal_is_one_line(biasbench_cli: CliRun, tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    assert (
        biasbench_cli(
            "run",
            "honorific-bn",
            "--model",
            "mock:hashed-register",
            "--out",
            out,
            "--limit",
            "4",
            "--no-progress",
        ).returncode
        == 0
    )
    proc = biasbench_cli(
        "run",
        "honorific-bn",
        "--model",
        "mock:honorific",
        "--out",
        out,
        "--limit",
        "4",
        "--no-progress",
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(
        f"error: run folder {out} holds honorific-bn answers of "
        "mock:mock-hashed-register (chat), --limit 4"
    )


# --------------------------------------------------------------------------- derived files


@pytest.fixture(scope="module")
def full_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """All 2,016 items answered by a scripted model (about two seconds)."""
    run_dir = tmp_path_factory.mktemp("full") / "run"
    run_benchmark("honorific-bn", "mock:hashed-register", out=run_dir, progress=False)
    return run_dir


def _copy(run_dir: Path, tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "copy"
    shutil.copytree(run_dir, target)
    return target


def test_manifest_records_every_derived_file(full_run: Path) -> None:
    manifest = json.loads((full_run / "manifest.json").read_text())
    files = manifest["derived"]["files"]
    assert files["labels.jsonl"]["lines"] == 2016
    assert {"results.json", "tables/table4.csv", "tables/occupation_rates.csv"} <= set(files)
    assert manifest["derived"]["store_ok"] == 2016
    assert not [p for p in full_run.iterdir() if p.name.startswith((".staging", ".retired"))]


def test_report_refuses_a_torn_labels_file(
    biasbench_cli: CliRun, full_run: Path, tmp_path: Path
) -> None:
    run_dir = _copy(full_run, tmp_path)
    labels = run_dir / "labels.jsonl"
    lines = labels.read_text(encoding="utf-8").splitlines(keepends=True)
    labels.write_text("".join(lines[:265]), encoding="utf-8")  # all valid JSON, 265 of 2,016
    out = tmp_path / "report"
    proc = biasbench_cli("report", str(run_dir), "--out", str(out))
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr == (
        f"error: {labels}: does not match the manifest (265 lines, 2,016 "
        "recorded); it was torn or edited and is not used; rerun the same "
        "`biasbench run` command to rebuild them from the store (stored "
        "answers are not requested again)\n"
    )
    assert not (out / "report.html").exists()
    for command in (
        [
            "annotate",
            "export",
            str(run_dir),
            "--out",
            str(tmp_path / "s.csv"),
            "--key",
            str(tmp_path / "k.csv"),
        ],
    ):
        proc = biasbench_cli(*command)
        assert proc.returncode == 2 and "does not match the manifest" in proc.stderr
    # Rerunning the command rebuilds every derived file from the store, calling no model.
    again = run_benchmark("honorific-bn", "mock:hashed-register", out=run_dir, progress=False)
    assert (again.stats.cached, again.stats.completed) == (2016, 0)
    assert labels.read_bytes() == (full_run / "labels.jsonl").read_bytes()
    assert biasbench_cli("report", str(run_dir), "--out", str(out)).returncode == 0


@pytest.mark.parametrize(
    "damage", ["edit-results", "delete-table", "store-grew", "no-manifest", "running"]
)
def test_report_refuses_files_that_do_not_match(
    full_run: Path, tmp_path: Path, damage: str
) -> None:
    run_dir = _copy(full_run, tmp_path)
    manifest_path = run_dir / "manifest.json"
    if damage == "edit-results":
        results = json.loads((run_dir / "results.json").read_text())
        results["models"]["mock-hashed-register"]["hai_pp"] = 99.0
        (run_dir / "results.json").write_text(json.dumps(results))
        expected = "results.json: does not match the manifest"
    elif damage == "delete-table":
        (run_dir / "tables" / "table4.csv").unlink()
        expected = "table4.csv: missing, though the manifest lists it"
    elif damage == "store-grew":
        with ResponseStore(run_dir / "responses.sqlite") as store:
            record = next(store.iter_records())
            record.key = "0" * 64
            store.put_many([record])
        expected = "the store holds 2,017 answers but the derived files were computed from 2,016"
    elif damage == "no-manifest":
        manifest_path.unlink()
        expected = "no manifest.json beside the store"
    else:
        manifest = json.loads(manifest_path.read_text())
        manifest["status"] = "interrupted"
        del manifest["derived"]
        manifest_path.write_text(json.dumps(manifest))
        expected = "not recorded as finished (status interrupted)"
    with pytest.raises(RunFolderError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        load_run(run_dir)


def test_a_kill_at_any_step_of_publishing_never_yields_mixed_files(
    full_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rescoring is stopped at every rename it makes: the folder is then either refused by
    readers, or (stopped before any rename) still the complete old run."""
    import biasbench.runfolder.derived as runfolder  # publish: the renames to stop

    reference = load_run(full_run).results["models"]
    real_replace, real_rename = os.replace, os.rename
    step = 0
    while True:
        run_dir = tmp_path / f"k{step}"
        import shutil

        shutil.copytree(full_run, run_dir)
        calls = 0

        def stop_at(*args: object, _real: object = None, _step: int = step) -> None:
            nonlocal calls
            calls += 1
            if calls > _step:
                raise KeyboardInterrupt
            return _real(*args)  # type: ignore[operator]

        class _Os:  # the os module as runfolder sees it, with renames that can be stopped
            def __getattr__(self, name: str) -> object:
                return getattr(os, name)

            replace = staticmethod(lambda *a: stop_at(*a, _real=real_replace))
            rename = staticmethod(lambda *a: stop_at(*a, _real=real_rename))

        monkeypatch.setattr(runfolder, "os", _Os())
        try:
            run_benchmark("honorific-bn", "mock:hashed-register", out=run_dir, progress=False)
            finished = True
        except KeyboardInterrupt:
            finished = False
        monkeypatch.undo()
        if finished:
            assert load_run(run_dir).results["models"] == reference
            break
        manifest = json.loads((run_dir / "manifest.json").read_text())
        assert manifest["status"] == "interrupted"
        assert manifest["error"] == "interrupted by Ctrl-C (SIGINT)"
        with pytest.raises(RunFolderError):
            load_run(run_dir)
        step += 1
    assert step >= 4  # labels, results, tables (two renames): every one was interrupted


def test_score_folders_are_published_whole_and_never_clobber_other_files(
    biasbench_cli: CliRun, tmp_path: Path
) -> None:
    responses = tmp_path / "r.jsonl"
    responses.write_text(
        json.dumps(
            {"item_id": "judge|T1|male", "model": "m", "output": "তিনি আসবেন।"}, ensure_ascii=False
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "scored"
    for _ in range(2):  # scoring again into its own folder is fine
        proc = biasbench_cli(
            "score", "honorific-bn", "--responses", str(responses), "--out", str(out)
        )
        assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["kind"], manifest["status"]) == ("score", "scored")
    assert manifest["derived"]["files"]["labels.jsonl"]["lines"] == 1
    load_run(out)  # verified
    (out / "labels.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(RunFolderError, match="does not match the manifest"):
        load_run(out)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    proc = biasbench_cli("score", "honorific-bn", "--responses", str(responses), "--out", str(mine))
    assert proc.returncode == 2
    assert proc.stderr == (
        f"error: {mine}: not empty and not a biasbench score folder; score "
        "into a new or empty folder\n"
    )
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
