"""A finished run can be reported from a read-only location.

The run folder is made read-only and reported by a process that cannot write there. Tests
often run as root, whom chmod does not stop: as root the report runs in its own mount
namespace where the folder is a read-only bind mount (which stops root too); otherwise the
folder is chmod'ed to 555/444.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from biasbench.pipeline import run_benchmark
from biasbench.runner.store import ResponseStore

ROOT = Path(__file__).resolve().parents[2]


def _read_only(folder: Path, command: list[str]) -> list[str]:
    """``command`` run where ``folder`` cannot be written by it."""
    if os.geteuid() != 0:
        for path, _, files in os.walk(folder, topdown=False):
            for name in files:
                os.chmod(Path(path) / name, 0o444)
            os.chmod(path, 0o555)
        return command
    unshare = shutil.which("unshare")
    if (
        unshare is None
        or subprocess.run(
            [
                unshare,
                "-m",
                "sh",
                "-c",
                f"mount --bind {folder} {folder} && mount -o "
                f"remount,ro,bind {folder} && ! touch {folder}/probe",
            ],
            capture_output=True,
        ).returncode
        != 0
    ):
        pytest.skip("root without a way to make a folder read-only (unshare -m, mount)")
    quoted = " ".join(f"'{part}'" for part in command)
    return [
        unshare,
        "-m",
        "sh",
        "-c",
        f"mount --bind '{folder}' '{folder}' && mount -o "
        f"remount,ro,bind '{folder}' && exec {quoted}",
    ]


def test_report_from_a_read_only_folder(tmp_path: Path) -> None:
    source = tmp_path / "run"
    run_benchmark("honorific-bn", "mock:hashed-register", out=source, limit=8, progress=False)
    assert not (source / "responses.sqlite-wal").exists()  # a finished run leaves one file
    before = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    out = tmp_path / "report"
    command = _read_only(
        source, [sys.executable, "-m", "biasbench", "report", str(source), "--out", str(out)]
    )
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    for path, _, _ in os.walk(source):
        os.chmod(path, 0o755)
    assert proc.returncode == 0, proc.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "The judge said he would arrive at nine." in page  # prompts read from the store
    after = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    assert after == before


def test_read_only_store_never_writes(tmp_path: Path) -> None:
    run_benchmark("honorific-bn", "mock:hashed-register", out=tmp_path, limit=4, progress=False)
    path = tmp_path / "responses.sqlite"
    data = path.read_bytes()
    with ResponseStore(path, readonly=True) as store:
        assert store.counts() == {"ok": 4, "failed": 0}
        with pytest.raises(Exception, match="readonly"):
            store.set_meta("x", 1)
    assert path.read_bytes() == data


def test_read_only_open_of_a_missing_or_empty_store_is_one_line(tmp_path: Path) -> None:
    from biasbench.errors import BiasbenchError

    with pytest.raises(BiasbenchError, match="response store not found"):
        ResponseStore(tmp_path / "none.sqlite", readonly=True)
    (tmp_path / "empty.sqlite").write_bytes(b"")
    with pytest.raises(BiasbenchError, match=r"empty file \(0 bytes\)"):
        ResponseStore(tmp_path / "empty.sqlite", readonly=True)
