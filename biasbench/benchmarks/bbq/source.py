"""Pinned, checksummed, cached files of a public GitHub repository (the authors' text of a BBQ
benchmark: templates, vocabularies, published items), shared by every BBQ-format benchmark.

A :class:`PinnedRepository` names the repository and commit; each file has a pinned digest. A
folder is used when every file is present and matches; otherwise the files are downloaded from
``<base URL>/<repository>/<commit>/<path>`` (GitHub's raw content host by default), each checked
before anything is written, and moved into the cache folder at once. The cache root is
``BIASBENCH_CACHE`` or ``~/.cache/biasbench``.

Digests are sha256 hex strings; ``git-blob-sha1:<hex>`` pins a file by its git blob id instead
(the id git itself checks), for files whose bytes were not at hand when the pin was written.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from biasbench.errors import BiasbenchError

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
DOWNLOAD_TIMEOUT_S = 20.0
ENV_CACHE = "BIASBENCH_CACHE"
GIT_BLOB_PREFIX = "git-blob-sha1:"


def cache_root(cache_dir: Path | None = None) -> Path:
    """The biasbench cache root: ``cache_dir``, else ``BIASBENCH_CACHE``, else ~/.cache/biasbench."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get(ENV_CACHE)
    return Path(env) if env else Path.home() / ".cache" / "biasbench"


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def digest_of(data: bytes, pinned: str) -> str:
    """``data``'s digest written the way ``pinned`` is (sha256 hex or ``git-blob-sha1:<hex>``)."""
    if pinned.startswith(GIT_BLOB_PREFIX):
        header = f"blob {len(data)}\0".encode()
        return GIT_BLOB_PREFIX + hashlib.sha1(header + data, usedforsecurity=False).hexdigest()
    return hashlib.sha256(data).hexdigest()


def check_folder(folder: Path, expected: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """Compare a folder with pinned digests: (missing files, files whose digest differs)."""
    missing = [name for name in expected if not (folder / name).is_file()]
    mismatched = [name for name in expected if name not in missing
                  and digest_of((folder / name).read_bytes(), expected[name]) != expected[name]]
    return missing, mismatched


class DownloadFailed(Exception):
    """A network failure, turned into a 'where to get the files' error by the caller."""


@dataclass(frozen=True)
class PinnedRepository:
    """A GitHub repository at one commit, and the environment variable overriding its host."""

    repository: str
    commit: str
    env_base_url: str
    cache_name: str
    """Folder under the cache root: ``<cache root>/<cache_name>/<commit>/<subdir>``."""

    def cache_dir(self, subdir: str, cache_dir: Path | None = None) -> Path:
        return cache_root(cache_dir) / self.cache_name / self.commit / subdir

    def raw_file_url(self, repo_path: str, base_url: str | None = None) -> str:
        """URL of one repository file at the pinned commit (spaces and such quoted)."""
        base = (base_url or os.environ.get(self.env_base_url) or DEFAULT_BASE_URL).rstrip("/")
        return f"{base}/{self.repository}/{self.commit}/{urllib.parse.quote(repo_path)}"

    def download(self, repo_path: str, pinned: str, base_url: str | None,
                 timeout: float) -> bytes:
        url = self.raw_file_url(repo_path, base_url)
        # A fresh opener per call reads the proxy settings of the environment as it is now.
        opener = urllib.request.build_opener()
        try:
            with opener.open(url, timeout=timeout) as response:
                data: bytes = response.read()
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise DownloadFailed(f"could not download {url} ({reason})") from None
        digest = digest_of(data, pinned)
        if digest != pinned:
            kind = "" if pinned.startswith(GIT_BLOB_PREFIX) else "sha256 "
            raise BiasbenchError(f"downloaded {url} has {kind}{digest}, expected {pinned}; "
                                 "the file was not saved")
        return data

    def check_local(self, folder: Path, subdir: str, expected: Mapping[str, str], *,
                    label: str, what: str, origin: str, strict: bool) -> Path:
        """``folder`` (named by the user: ``origin``) when it holds every expected file. A
        missing file is an error; a changed one an error when ``strict`` and otherwise a
        warning (users may edit their own copy; results then differ from the paper's)."""
        if not folder.is_dir():
            raise BiasbenchError(f"{label} {what} folder {folder} (from {origin}) does not exist")
        missing, mismatched = check_folder(folder, expected)
        if missing:
            raise BiasbenchError(
                f"{label} {what} folder {folder} (from {origin}) lacks {', '.join(missing)}; "
                f"expected the files of {subdir}/ in {self.repository} at commit {self.commit}")
        if mismatched:
            kind = ("checksum" if any(p.startswith(GIT_BLOB_PREFIX) for p in expected.values())
                    else "sha256")
            message = (f"{label} {what} in {folder} differ from {self.repository}@"
                       f"{self.commit[:12]} ({kind} mismatch: {', '.join(mismatched)}); results "
                       "will not be comparable with the paper's")
            if strict:
                raise BiasbenchError(message)
            logger.warning("%s", message)
        return folder

    def fetch_into(self, folder: Path, subdir: str, expected: Mapping[str, str], *,
                   base_url: str | None, timeout: float) -> Path:
        """Download every file, verify it, then move the complete folder into place at once."""
        payloads = {name: self.download(f"{subdir}/{name}", pinned, base_url, timeout)
                    for name, pinned in expected.items()}
        return self._install(folder, payloads, expected)

    def remember(self, folder: Path, subdir: str, expected: Mapping[str, str],
                 cache_dir: Path | None = None) -> Path | None:
        """Copy a local ``folder`` whose files all match their pins into the cache, where later
        commands look without being told (unless the cache holds them already). Returns the
        cache folder, or None when ``folder`` differs from the pins: an edited copy is never
        remembered as the authors' files."""
        folder = Path(folder)
        if check_folder(folder, expected) != ([], []):
            return None
        target = self.cache_dir(subdir, cache_dir)
        if target.is_dir() and (target.resolve() == folder.resolve()
                                or check_folder(target, expected) == ([], [])):
            return target
        return self._install(target, {name: (folder / name).read_bytes() for name in expected},
                             expected)

    @staticmethod
    def _install(folder: Path, payloads: Mapping[str, bytes], expected: Mapping[str, str]) -> Path:
        """Write checked files into a staging folder, then move it into place at once."""
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
        try:
            for name, data in payloads.items():
                (staging / name).write_bytes(data)
            if folder.exists():
                shutil.rmtree(folder)  # an incomplete or corrupted cache entry of ours
            try:
                os.replace(staging, folder)
            except OSError:
                # Another process filled the cache meanwhile; keep theirs if it is sound.
                if check_folder(folder, expected) != ([], []):
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return folder

    def resolve_cached(self, folder: Path, subdir: str, expected: Mapping[str, str], *,
                       what: str, instructions: Callable[[Path, str, list[str]], str],
                       download: bool, base_url: str | None, timeout: float) -> Path:
        """``folder`` when it holds every pinned file, else a verified download into it."""
        missing, mismatched = (check_folder(folder, expected) if folder.is_dir()
                               else (list(expected), []))
        if not missing and not mismatched:
            return folder
        if not download:
            raise BiasbenchError(f"{what} not found (no usable copy in the cache {folder}; "
                                 f"download disabled): "
                                 f"{instructions(folder, subdir, list(expected))}")
        try:
            return self.fetch_into(folder, subdir, expected, base_url=base_url, timeout=timeout)
        except DownloadFailed as exc:
            raise BiasbenchError(f"{what} not available locally and {exc}: "
                                 f"{instructions(folder, subdir, list(expected))}") from None
