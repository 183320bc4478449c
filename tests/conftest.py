"""Shared fixtures: where the published reference data lives, and a skip when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.running import CliRun, run_biasbench

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = Path(os.environ.get("BIASBENCH_SHARED", PROJECT_ROOT.parent / "shared"))
REFERENCE_DIR = SHARED_DIR / "reference"


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """``../shared/reference``; tests using it skip (not fail) on a fresh clone without it."""
    if not REFERENCE_DIR.is_dir():
        pytest.skip(
            f"reference data not found at {REFERENCE_DIR} (set BIASBENCH_SHARED or place "
            "the shared/ folder beside the project root)"
        )
    return REFERENCE_DIR


@pytest.fixture(scope="session")
def biasbench_cli() -> CliRun:
    """Run ``biasbench ARGS`` in a fresh interpreter (:func:`tests.running.run_biasbench`)."""
    return run_biasbench
