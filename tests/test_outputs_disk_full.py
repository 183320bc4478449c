"""``export`` and ``report`` into a disk that fills: the files go to a staging folder beside the
target and move into place only when all are complete; on failure nothing partial is left (no
file at the target, no staging folder) and the error is one line naming the path. Run on a
small tmpfs (root only; skipped where mounting is refused)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark
from tests.running import CliRun
from tests.small_disk import small_disk as mounted


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with mounted(tmp_path, "300k") as mount:
        yield mount


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outputs") / "run"
    run_benchmark(
        "honorific-bn", out=folder, limit=40, progress=False, backend=MockBackend("hashed-register")
    )
    return folder


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` so that about ``leave`` bytes stay free."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "filler").write_bytes(b"\0" * max(free - leave, 0))


# (command, its extra arguments): what is written is measured first on an ordinary disk, then
# the tmpfs is filled to leave half of it free, so the first files fit and a later one does not.
@pytest.mark.parametrize(
    ("command", "extra"),
    [
        ("export", ["--format", "csv"]),
        ("export", ["--format", "jsonl"]),
        ("export", ["--format", "parquet"]),
        ("report", []),
    ],
)
def test_a_full_disk_leaves_nothing_partial_and_names_the_path(
    biasbench_cli: CliRun,
    run: Path,
    small_disk: Path,
    tmp_path: Path,
    command: str,
    extra: list[str],
) -> None:
    whole = tmp_path / "whole"
    assert biasbench_cli(command, run, "--out", whole, *extra).returncode == 0
    _fill(small_disk, _size(whole) // 2)
    out = small_disk / "out"
    done = biasbench_cli(command, run, "--out", out, *extra)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert str(out) in lines[0] and "No space left on device" in lines[0]
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]  # no out, no staging


def test_a_full_disk_keeps_the_previous_complete_export(
    biasbench_cli: CliRun, run: Path, small_disk: Path
) -> None:
    """An export over an earlier one that fails leaves the earlier files whole."""
    out = small_disk / "out"
    assert biasbench_cli("export", run, "--out", out, "--format", "csv").returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    _fill(small_disk, _size(out) // 2)
    done = biasbench_cli("export", run, "--out", out, "--format", "jsonl")
    assert done.returncode != 0 and str(out) in done.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "out"]


def test_a_report_names_no_staging_folder(biasbench_cli: CliRun, run: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert biasbench_cli("report", run, "--out", out).returncode == 0
    assert "incomplete-" not in (out / "report.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
