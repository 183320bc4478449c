"""Where tests find the authors' BBQ repository files (nyu-mll/BBQ): a folder named by
``BIASBENCH_BBQ_REPO`` (a checkout: data/, templates/, results/), else the local bare mirror
read with ``git show`` (:mod:`tests.published_files`). Tests skip cleanly when neither holds
the file."""

from __future__ import annotations

from pathlib import Path

from tests.published_files import mirror_of, published_file

REPOSITORY = "nyu-mll/BBQ"
MIRROR = mirror_of(REPOSITORY)
ENV_REPO = "BIASBENCH_BBQ_REPO"


def original_file(repo_path: str, tmp_dir: Path) -> Path:
    """A local copy of one repository file, or a pytest skip saying why there is none."""
    return published_file(REPOSITORY, repo_path, tmp_dir, ENV_REPO)
