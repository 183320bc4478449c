"""Where tests find the authors' BBQ repository files (nyu-mll/BBQ): a folder named by
``BIASBENCH_BBQ_REPO`` (a checkout: data/, templates/, results/), else the local bare mirror
at MIRROR read with ``git show``. Tests skip cleanly when neither holds the file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

MIRROR = Path("/work/.mirror/nyu-mll+BBQ/repo")
ENV_REPO = "BIASBENCH_BBQ_REPO"


def original_file(repo_path: str, tmp_dir: Path) -> Path:
    """A local copy of one repository file, or a pytest skip saying why there is none."""
    env = os.environ.get(ENV_REPO)
    if env:
        path = Path(env) / repo_path
        if path.is_file():
            return path
        pytest.skip(f"{repo_path} not in ${ENV_REPO}={env}")
    if not MIRROR.is_dir():
        pytest.skip(f"no copy of nyu-mll/BBQ (set {ENV_REPO} to a checkout)")
    out = tmp_dir / repo_path
    if out.is_file():
        return out
    done = subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:{repo_path}"],
                          capture_output=True, check=False)
    if done.returncode != 0 or not done.stdout:
        pytest.skip(f"{repo_path} is absent from the mirror {MIRROR}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(done.stdout)
    return out
