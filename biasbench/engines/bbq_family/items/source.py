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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from biasbench.errors import BiasbenchError

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
DOWNLOAD_TIMEOUT_S = 20.0
ENV_CACHE = "BIASBENCH_CACHE"
GIT_BLOB_PREFIX = "git-blob-sha1:"
MAX_NAMED = 16
"""Files a message names one by one; more are counted."""


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
    mismatched = [
        name
        for name in expected
        if name not in missing
        and digest_of((folder / name).read_bytes(), expected[name]) != expected[name]
    ]
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

    def download(self, repo_path: str, pinned: str, base_url: str | None, timeout: float) -> bytes:
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
            raise BiasbenchError(
                f"downloaded {url} has {kind}{digest}, expected {pinned}; the file was not saved"
            )
        return data

    def check_local(
        self,
        folder: Path,
        subdir: str,
        expected: Mapping[str, str],
        *,
        label: str,
        what: str,
        origin: str,
        strict: bool,
        hint: str = "",
    ) -> Path:
        """``folder`` (named by the user: ``origin``) when it holds every expected file. A
        missing file is an error; a changed one an error when ``strict`` and otherwise a
        warning (users may edit their own copy; results then differ from the paper's)."""
        if not folder.is_dir():
            raise BiasbenchError(f"{label} {what} folder {folder} (from {origin}) does not exist")
        missing, mismatched = check_folder(folder, expected)
        if missing:
            raise BiasbenchError(
                f"{label} {what} folder {folder} (from {origin}) lacks "
                f"{', '.join(missing[:MAX_NAMED])}"
                + (f" and {len(missing) - MAX_NAMED} more" if len(missing) > MAX_NAMED else "")
                + f"; expected the files of {subdir}/ in {self.repository} at commit "
                f"{self.commit}" + (f" ({hint})" if hint else "")
            )
        if mismatched:
            kind = (
                "checksum"
                if any(p.startswith(GIT_BLOB_PREFIX) for p in expected.values())
                else "sha256"
            )
            message = (
                f"{label} {what} in {folder} differ from {self.repository}@"
                f"{self.commit[:12]} ({kind} mismatch: {', '.join(mismatched)}); results "
                "will not be comparable with the paper's"
            )
            if strict:
                raise BiasbenchError(message)
            logger.warning("%s", message)
        return folder

    def fetch_into(
        self,
        folder: Path,
        subdir: str,
        expected: Mapping[str, str],
        *,
        base_url: str | None,
        timeout: float,
    ) -> Path:
        """Download every file, verify it, then move the complete folder into place at once."""
        payloads = {
            name: self.download(f"{subdir}/{name}", pinned, base_url, timeout)
            for name, pinned in expected.items()
        }
        return self._install(folder, payloads, expected)

    def remember(
        self, folder: Path, subdir: str, expected: Mapping[str, str], cache_dir: Path | None = None
    ) -> Path | None:
        """Copy a local ``folder`` whose files all match their pins into the cache, where later
        commands look without being told (unless the cache holds them already). Returns the
        cache folder, or None when ``folder`` differs from the pins: an edited copy is never
        remembered as the authors' files."""
        folder = Path(folder)
        if check_folder(folder, expected) != ([], []):
            return None
        target = self.cache_dir(subdir, cache_dir)
        if target.is_dir() and (
            target.resolve() == folder.resolve() or check_folder(target, expected) == ([], [])
        ):
            return target
        return self._install(
            target, {name: (folder / name).read_bytes() for name in expected}, expected
        )

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

    def resolve_cached(
        self,
        folder: Path,
        subdir: str,
        expected: Mapping[str, str],
        *,
        what: str,
        instructions: Callable[[Path, str, list[str]], str],
        download: bool,
        base_url: str | None,
        timeout: float,
    ) -> Path:
        """``folder`` when it holds every pinned file, else a verified download into it."""
        missing, mismatched = (
            check_folder(folder, expected) if folder.is_dir() else (list(expected), [])
        )
        if not missing and not mismatched:
            return folder
        if not download:
            raise BiasbenchError(
                f"{what} not found (no usable copy in the cache {folder}; "
                f"download disabled): "
                f"{instructions(folder, subdir, list(expected))}"
            )
        try:
            return self.fetch_into(folder, subdir, expected, base_url=base_url, timeout=timeout)
        except DownloadFailed as exc:
            raise BiasbenchError(
                f"{what} not available locally and {exc}: "
                f"{instructions(folder, subdir, list(expected))}"
            ) from None


# --------------------------------------------------------------------------------------------
# One pinned folder of a benchmark, resolved the same way for every benchmark
# --------------------------------------------------------------------------------------------


def local_copy(explicit: Path | None, env: str, flag: str) -> tuple[Path, str] | None:
    """The local copy the user named, with where the name came from: ``explicit`` (given as
    ``flag``), else the folder in ``$env``; None when neither names one."""
    if explicit is not None:
        return Path(explicit), flag
    value = os.environ.get(env) if env else None
    return (Path(value), env) if value else None


@dataclass(frozen=True)
class PinnedFolder:
    """One folder of a benchmark's pinned source (its published items, its templates): where it
    lies in the repository, its files with their pinned digests, and how a user names a local
    copy. Every message about it reads ``{label} {what} ...`` ("KoBBQ data folder ...")."""

    source: PinnedRepository
    subdir: str
    """The folder in the repository (``data``, ``templates``, ``data_es``)."""
    files: Mapping[str, str]
    """Path under :attr:`subdir` (may hold ``/``) -> pinned digest."""
    label: str
    """The dataset's name (``KoBBQ``)."""
    what: str = "data"
    flag: str = "--data"
    """The option naming a local copy."""
    env: str = ""
    """The environment variable naming a local copy ("" for none)."""
    alternatives: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """File -> (another file that a local copy may hold instead, its digest): e.g. EsBBQ's
    ``.full.csv`` beside each ``.full.jsonl``. Downloads fetch the files themselves."""
    hint: str = ""
    """Added to the error of a local copy that lacks files."""

    def present(self, folder: Path) -> dict[str, str]:
        """The files to check in ``folder``: each file, or its alternative where only that is
        there."""
        out: dict[str, str] = {}
        for name, pinned in self.files.items():
            other = self.alternatives.get(name)
            if other and not (folder / name).is_file() and (folder / other[0]).is_file():
                out[other[0]] = other[1]
            else:
                out[name] = pinned
        return out

    def instructions(
        self, folder: Path, subdir: str, names: list[str], base_url: str | None
    ) -> str:
        """What to fetch from where, and where to put it, when no copy is found."""
        paths = ", ".join(f"{subdir}/{name}" for name in names[:MAX_NAMED])
        if len(names) > MAX_NAMED:  # MBBQ: up to 48 files
            paths += f" and {len(names) - MAX_NAMED} more files of {subdir}/"
        example = self.source.raw_file_url(f"{subdir}/{names[0]}", base_url)
        env = f" (or set {self.env}=DIR)" if self.env else ""
        return (
            f"download {paths} from the GitHub repository {self.source.repository} at commit "
            f"{self.source.commit} (e.g. {example}) and put them in {folder}, or pass "
            f"{self.flag} DIR{env} naming a copy of {self.source.repository}'s "
            f"{self.subdir}/ folder"
        )


def resolve_pinned_folder(
    spec: PinnedFolder,
    explicit: Path | None = None,
    *,
    beside: Path | None = None,
    cache_dir: Path | None = None,
    download: bool = True,
    strict: bool = False,
    base_url: str | None = None,
    timeout: float = DOWNLOAD_TIMEOUT_S,
) -> Path:
    """A folder holding every file of ``spec``, looked for in this order:

    1. the local copy named by ``explicit`` (``spec.flag``), else by ``$spec.env``: used as it
       is, or its ``spec.subdir`` when it is a checkout holding that folder. A missing file is
       one error line naming the folder, where its name came from, the files and the pinned
       commit; a file differing from its pin is one warning (results not comparable with the
       paper's), or an error when ``strict``;
    2. ``beside`` (e.g. ``data/`` next to a local templates folder, the repository's layout),
       only when every file matches its pin;
    3. the cache, ``<cache root>/<cache name>/<commit>/<subdir>``;
    4. a verified download into the cache. Files in subfolders (``age/ambiguous/x.json``) are
       cached folder by folder, so a run over some categories never evicts the others.
    """
    local = local_copy(explicit, spec.env, spec.flag)
    if local is not None:
        folder, origin = local
        lacks = any(not (folder / name).is_file() for name in spec.present(folder))
        if lacks and (folder / spec.subdir).is_dir():
            folder = folder / spec.subdir  # a checkout of the repository (or its parent folder)
        return spec.source.check_local(
            folder,
            spec.subdir,
            spec.present(folder),
            label=spec.label,
            what=spec.what,
            origin=origin,
            strict=strict,
            hint=spec.hint,
        )
    if beside is not None and beside.is_dir() and check_folder(beside, spec.files) == ([], []):
        return beside
    root = spec.source.cache_dir(spec.subdir, cache_dir)
    groups: dict[str, dict[str, str]] = {}
    for name, pinned in spec.files.items():
        parent, _, base = name.rpartition("/")
        groups.setdefault(parent, {})[base] = pinned
    for parent, expected in groups.items():
        subdir = f"{spec.subdir}/{parent}" if parent else spec.subdir
        spec.source.resolve_cached(
            root / parent if parent else root,
            subdir,
            expected,
            what=f"{spec.label} {spec.what}" + (f" ({parent})" if parent else ""),
            instructions=lambda f, d, n: spec.instructions(f, d, n, base_url),
            download=download,
            base_url=base_url,
            timeout=timeout,
        )
    return root


def packaged_file(package: str, name: str) -> Path:
    """A file shipped in a benchmark's package (``data/prompt_zh.txt``)."""
    return Path(str(resources.files(package) / name))


def choose_categories(text: str | None, known: Sequence[str], dataset: str) -> tuple[str, ...]:
    """``--categories a,b``: the categories named (all of ``known`` when none is); an unknown
    name is one error line listing the known ones."""
    if not text:
        return tuple(known)
    chosen = tuple(c.strip() for c in text.split(",") if c.strip())
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise BiasbenchError(
            f"unknown {dataset} categories {', '.join(unknown)} (known: {', '.join(known)})"
        )
    return chosen
