"""``export`` and ``report`` into a disk that fills, at several fill levels: what each leaves.

Builds one honorific-bn mock run (40 items), measures what each command writes on an ordinary
disk, then mounts a 300 KiB tmpfs, fills it to leave 0, 1/4, 1/2 and 3/4 of that size free, and
runs the command into it. For each: the exit code, stderr's lines (one is the goal), whether the
line names the target path, and what is left on the tmpfs besides the filler (nothing is the
goal: no target, no staging folder). Needs root (mount); prints a Markdown table.

    PYTHONPATH=$PWD python measurements/outputs_disk_full.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def cli(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=600,
    )


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    from biasbench.models.mock import MockBackend
    from biasbench.pipeline import run_benchmark

    if os.geteuid() != 0:
        sys.exit("needs root to mount a tmpfs")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        run = base / "run"
        run_benchmark(
            "honorific-bn",
            out=run,
            limit=40,
            progress=False,
            backend=MockBackend("hashed-register"),
        )
        commands = {
            "export csv": ["export", run, "--format", "csv"],
            "export parquet": ["export", run, "--format", "parquet"],
            "report": ["report", run],
        }
        print(
            "| command | bytes written whole | free before | exit | stderr lines | names the "
            "path | left on the disk |"
        )
        print("|:---|---:|---:|---:|---:|:---|:---|")
        for label, args in commands.items():
            whole = base / f"whole-{label.replace(' ', '-')}"
            assert cli(*args, "--out", whole).returncode == 0
            written = size(whole)
            for fraction in (0.0, 0.25, 0.5, 0.75):
                disk = base / "disk"
                disk.mkdir()
                mounted = subprocess.run(
                    ["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(disk)],
                    capture_output=True,
                    text=True,
                )
                if mounted.returncode != 0:
                    sys.exit(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
                try:
                    stat = os.statvfs(disk)
                    free = stat.f_bavail * stat.f_frsize
                    leave = int(written * fraction)
                    (disk / "filler").write_bytes(b"\0" * max(free - leave, 0))
                    stat = os.statvfs(disk)
                    free_now = stat.f_bavail * stat.f_frsize
                    out = disk / "out"
                    done = cli(*args, "--out", out)
                    lines = done.stderr.strip().splitlines()
                    left = sorted(p.name for p in disk.iterdir() if p.name != "filler")
                    print(
                        f"| {label} | {written:,} | {free_now:,} | {done.returncode} | "
                        f"{len(lines)} | {'yes' if str(out) in done.stderr else 'no'} | "
                        f"{', '.join(left) or 'nothing'} |",
                        flush=True,
                    )
                finally:
                    subprocess.run(["umount", "-l", str(disk)], capture_output=True)
                    disk.rmdir()


if __name__ == "__main__":
    main()
