"""Running ``biasbench`` as a user does, for the tests: the ``biasbench_cli`` fixture
(tests/conftest.py) hands out :func:`run_biasbench`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from biasbench.runspec import RunSpec

CliRun = Callable[..., subprocess.CompletedProcess[str]]
"""The type of :func:`run_biasbench` (and of the ``biasbench_cli`` fixture)."""


def run_biasbench(
    *args: str | Path | int,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """``biasbench ARGS`` in a fresh interpreter, its output captured as text; ``env`` (default:
    this process's) is the whole environment. Help is as wide as a 300-column terminal, so no
    long option name is cut."""
    environment = {**(os.environ if env is None else env), "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=environment,
        timeout=timeout,
    )


def spec_of(monkeypatch: Any, *args: str) -> RunSpec:
    """The :class:`~biasbench.runspec.RunSpec` that ``biasbench run ARGS`` hands to the
    pipeline (parsed in this process; nothing is run)."""
    from typer.testing import CliRunner

    import biasbench.pipeline
    from biasbench.cli import app

    seen: list[RunSpec] = []

    def fake_run(spec: RunSpec, backend: object = None) -> object:
        seen.append(spec)
        raise SystemExit(0)

    monkeypatch.setattr(biasbench.pipeline, "run", fake_run)
    result = CliRunner().invoke(app, ["run", *args])
    assert result.exit_code == 0, result.output
    (spec,) = seen
    return spec
