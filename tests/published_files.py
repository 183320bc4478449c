"""Where tests find a BBQ-family dataset as its authors published it: a checkout named by an
environment variable, else a local bare mirror of the repository (``/work/.mirror/OWNER+NAME``)
read with ``git show``. Tests that need the full files skip cleanly when neither holds them;
small fixture slices shipped with the tests cover the rest."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

MIRRORS = Path("/work/.mirror")


def mirror_of(repository: str) -> Path:
    """The bare mirror of ``owner/name`` (it may not exist)."""
    return MIRRORS / repository.replace("/", "+") / "repo"


def published_file(repository: str, repo_path: str, tmp_dir: Path, env: str) -> Path:
    """A local copy of one file of ``repository``, or a pytest skip saying why there is none.

    ``env`` names the variable pointing at a checkout of the repository."""
    checkout = os.environ.get(env)
    if checkout:
        path = Path(checkout) / repo_path
        if path.is_file():
            return path
        pytest.skip(f"{repo_path} not in ${env}={checkout}")
    mirror = mirror_of(repository)
    if not mirror.is_dir():
        pytest.skip(f"no copy of {repository} (set {env} to a checkout)")
    out = tmp_dir / repository.replace("/", "+") / repo_path
    if out.is_file():
        return out
    done = subprocess.run(
        ["git", "-C", str(mirror), "show", f"HEAD:{repo_path}"], capture_output=True, check=False
    )
    if done.returncode != 0 or not done.stdout:
        pytest.skip(f"{repo_path} is absent from the mirror {mirror}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(done.stdout)
    return out


def published_folder(repository: str, repo_paths: list[str], tmp_dir: Path, env: str) -> Path:
    """A folder holding ``repo_paths`` of ``repository`` at their repository paths (or a skip)."""
    paths = [published_file(repository, p, tmp_dir, env) for p in repo_paths]
    return Path(str(paths[0])[: -len(repo_paths[0])]) if paths else tmp_dir
