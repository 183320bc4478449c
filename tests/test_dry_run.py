"""``run --dry-run``: the requests that would be sent and those already stored, the first
rendered prompt and the signature; nothing is sent and no trace is left."""

from __future__ import annotations

from pathlib import Path

from biasbench.models.base import Generation, GenerationParams, Prompt
from biasbench.models.mock import MockBackend
from biasbench.pipeline import dry_run, run_benchmark
from tests.running import CliRun


class Refusing(MockBackend):
    """A mock whose every call fails the test: a dry run must never ask the model."""

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        raise AssertionError("a dry run sent a request")


def test_dry_run_sends_nothing_and_creates_no_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    plan = dry_run("honorific-bn", backend=Refusing("honorific"), out=out, limit=10)
    assert (plan.requests, plan.stored, plan.to_send) == (10, 0, 10)
    assert not out.exists()
    assert (
        plan.first_prompt is not None
        and "The judge said he would arrive at nine." in plan.first_prompt
    )
    assert plan.signature.short().startswith("honorific-bn:1.0|")
    assert "model:mock-honorific" in plan.signature.short()


def _files(folder: Path) -> dict[Path, tuple[int, int]]:
    # SQLite's -wal/-shm companions appear whenever a WAL store is read (as any reader does);
    # they change nothing the store holds.
    return {
        p: (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if not p.name.endswith(("-wal", "-shm"))
    }


def test_dry_run_counts_what_is_stored_and_leaves_the_folder_unchanged(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(
        "honorific-bn", out=out, limit=6, progress=False, backend=MockBackend("honorific")
    )
    before = _files(out)
    plan = dry_run("honorific-bn", backend=Refusing("honorific"), out=out, limit=10)
    assert (plan.requests, plan.stored, plan.to_send) == (10, 6, 4)
    assert plan.refusal is not None and "--limit" in plan.refusal  # another --limit: refused
    same = dry_run("honorific-bn", backend=Refusing("honorific"), out=out, limit=6)
    assert (same.requests, same.stored, same.to_send, same.refusal) == (6, 6, 0, None)
    assert _files(out) == before


def test_cli_dry_run(biasbench_cli: CliRun, tmp_path: Path) -> None:
    done = biasbench_cli(
        "run", "honorific-bn", "-m", "mock:honorific", "--limit", "5", "--dry-run", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "dry run: nothing sent, nothing written"
    assert lines[1] == "run folder: runs/honorific-bn--mock-honorific--limit5 (would be created)"
    assert lines[2] == "requests: 5 (0 already stored, 5 would be sent)"
    assert lines[3].startswith("signature: honorific-bn:1.0|")
    assert lines[4] == "first prompt:"
    assert "The judge said he would arrive at nine." in done.stdout
    assert list(tmp_path.iterdir()) == []  # no runs/ folder, nothing at all


def test_cli_dry_run_into_a_folder_of_another_configuration(
    biasbench_cli: CliRun, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    run_benchmark(
        "honorific-bn", out=out, limit=3, progress=False, backend=MockBackend("honorific")
    )
    done = biasbench_cli(
        "run", "honorific-bn", "-m", "mock:honorific", "--limit", "5", "--dry-run", "--out", out
    )
    assert done.returncode == 2
    assert "requests: 5 (3 already stored, 2 would be sent)" in done.stdout
    assert done.stderr.startswith(f"error: run folder {out} holds honorific-bn answers")
