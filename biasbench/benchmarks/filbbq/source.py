"""FilBBQ's inputs: obtaining the authors' templates and prompt, generating the item files.

FilBBQ's templates, vocabularies and prompt are the authors' text (GitHub repository
``gamboalance/filbbq``), so the project never ships them: :func:`resolve_templates` finds a
local copy or downloads them at a pinned commit, checks every file against a pinned sha256 and
caches them. :func:`generate_filbbq` turns them into the two category files with the BBQ engine,
and :func:`load_prompt_template` reads the evaluation prompt from ``prompt.txt`` without running
it.

Where the files are looked for, in order:

1. an explicit folder (``--templates DIR``);
2. the folder named by ``BIASBENCH_FILBBQ_TEMPLATES``;
3. the cache, ``<cache root>/filbbq/<commit>/templates`` where the cache root is
   ``BIASBENCH_CACHE`` or ``~/.cache/biasbench``;
4. a download from ``<base URL>/gamboalance/filbbq/<commit>/templates/<file>`` (base URL:
   GitHub's raw content host, overridable with ``BIASBENCH_FILBBQ_BASE_URL``), written to the
   cache atomically.

A local folder whose files differ from the pinned checksums is used with a warning (users may
edit their own templates) unless ``strict=True``.
"""

from __future__ import annotations

import ast
import hashlib
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.benchmarks.bbq.generate import (
    GenerationReport,
    GenerationResult,
    generate_items,
    write_generated,
)
from biasbench.benchmarks.bbq.items import BBQItem, load_bbq_jsonl
from biasbench.benchmarks.bbq.source import (  # noqa: F401  (re-exported)
    DEFAULT_BASE_URL,
    DOWNLOAD_TIMEOUT_S,
    ENV_CACHE,
    PinnedRepository,
    cache_root,
    check_folder,
    sha256_of,
)
from biasbench.errors import BiasbenchError, InputError

logger = logging.getLogger(__name__)

FILBBQ_REPOSITORY = "gamboalance/filbbq"
FILBBQ_COMMIT = "c951d3c7097b8936c4d0c3d87aec8e7f27b24db9"

ENV_TEMPLATES = "BIASBENCH_FILBBQ_TEMPLATES"
ENV_BASE_URL = "BIASBENCH_FILBBQ_BASE_URL"
ENV_DATA = "BIASBENCH_FILBBQ_DATA"

#: sha256 of each file under ``templates/`` at :data:`FILBBQ_COMMIT`.
TEMPLATE_SHA256: Mapping[str, str] = {
    "gender_identity.csv": "2622931130911dfcd2f7314410ae85eb8fe3bc84114d85f3a627bcb474a787ef",
    "sexual_orientation.csv": "f3497d63def47b626b17af9cd6ce177573d4670a89b93a55ab408de2e41a5ef9",
    "vocabulary_labels.csv": "2b23af5665fd2dd3574e8ae12e247067341e2cff754b3a22ad03e70645c3f59d",
    "vocabulary_proper_names.csv":
        "87dcfdbeff4bf64b9878bde771225aa3b41b54e5ca8d44f4f88ecbcfb7ccb1df",
    "prompt.txt": "29aab02b3d6437a900f42cb3acee743c94e898e4307b4db8b499c8c99120ba02",
}
#: sha256 of the published item files under ``data/`` (only the sexual-orientation file is
#: published in the repository).
PUBLISHED_DATA_SHA256: Mapping[str, str] = {
    "FilBBQ_Sexual_orientation.jsonl":
        "7f283767cca7d0fef4c2846e85e3ee6c221f8432ef8aea469c72419200fd4be2",
}

#: Category name -> template file. The names are the release's (the CSVs' own ``Category``
#: column says ``GenderIdentity`` / ``SexualOrientation`` and is not used).
FILBBQ_CATEGORIES: Mapping[str, str] = {
    "Gender_identity": "gender_identity.csv",
    "Sexual_orientation": "sexual_orientation.csv",
}
LABELS_FILE = "vocabulary_labels.csv"
NAMES_FILE = "vocabulary_proper_names.csv"
PROMPT_FILE = "prompt.txt"

#: The "unknown" phrasings observed in FilBBQ's published sexual-orientation file, drawn
#: uniformly. The last entry really is two phrasings fused by a missing separator in the
#: authors' list; it is kept as one option (8 in all), as published.
FILBBQ_UNKNOWN_POOL: tuple[str, ...] = (
    "Di matukoy", "Hindi matukoy", "Hindi alam", "Di alam", "Hindi masagot", "Di masagot",
    "Hindi kayang sagutin", "Kulang sa impormasyonDi kayang sagutin",
)


# --------------------------------------------------------------------------------------------
# Locating, checking and downloading the templates
# --------------------------------------------------------------------------------------------

#: FilBBQ's repository at the pinned commit (download host: ``BIASBENCH_FILBBQ_BASE_URL``).
FILBBQ_SOURCE = PinnedRepository(FILBBQ_REPOSITORY, FILBBQ_COMMIT, ENV_BASE_URL, "filbbq")


def templates_cache_dir(cache_dir: Path | None = None) -> Path:
    """Where downloaded templates live: ``<cache root>/filbbq/<commit>/templates``."""
    return FILBBQ_SOURCE.cache_dir("templates", cache_dir)


def raw_file_url(repo_path: str, base_url: str | None = None) -> str:
    """URL of one repository file at the pinned commit, e.g. ``templates/prompt.txt``."""
    return FILBBQ_SOURCE.raw_file_url(repo_path, base_url)


def _instructions(folder: Path, subdir: str, files: Sequence[str], base_url: str | None) -> str:
    paths = ", ".join(f"{subdir}/{name}" for name in files)
    return (f"download {paths} from the GitHub repository {FILBBQ_REPOSITORY} at commit "
            f"{FILBBQ_COMMIT} (e.g. {raw_file_url(f'{subdir}/{files[0]}', base_url)}) and put them "
            f"in {folder}, or pass --templates DIR (or set {ENV_TEMPLATES}=DIR) naming a folder "
            "that holds them")


def _check_local(folder: Path, origin: str, strict: bool, *, what: str = "templates",
                 expected: Mapping[str, str] = TEMPLATE_SHA256, subdir: str = "templates") -> Path:
    return FILBBQ_SOURCE.check_local(folder, subdir, expected, label="FilBBQ", what=what,
                                     origin=origin, strict=strict)


def _resolve_cached(folder: Path, subdir: str, expected: Mapping[str, str], *, what: str,
                    download: bool, base_url: str | None, timeout: float) -> Path:
    return FILBBQ_SOURCE.resolve_cached(
        folder, subdir, expected, what=what,
        instructions=lambda f, d, names: _instructions(f, d, names, base_url),
        download=download, base_url=base_url, timeout=timeout)


def resolve_templates(templates_dir: Path | None = None, *, cache_dir: Path | None = None,
                      download: bool = True, strict: bool = False, base_url: str | None = None,
                      timeout: float = DOWNLOAD_TIMEOUT_S) -> Path:
    """A folder holding FilBBQ's five template files (see the module docstring for the order).

    ``cache_dir`` overrides the cache root (default ``BIASBENCH_CACHE`` or ~/.cache/biasbench);
    ``base_url`` overrides the download host (default ``BIASBENCH_FILBBQ_BASE_URL`` or GitHub's
    raw content host). Raises :class:`BiasbenchError` saying which files to fetch from where,
    and where to put them, when no copy can be found or downloaded.
    """
    if templates_dir is not None:
        return _check_local(Path(templates_dir), "--templates", strict)
    env = os.environ.get(ENV_TEMPLATES)
    if env:
        return _check_local(Path(env), ENV_TEMPLATES, strict)
    return _resolve_cached(templates_cache_dir(cache_dir), "templates", TEMPLATE_SHA256,
                           what="FilBBQ templates", download=download, base_url=base_url,
                           timeout=timeout)


def remember_templates(templates_dir: Path, *, cache_dir: Path | None = None) -> list[Path]:
    """Copy a local copy of FilBBQ's templates (and the published ``data/`` beside it, as the
    repository lays them out) into the cache, where :func:`resolve_templates` and
    :func:`resolve_published_data` look when no folder is named; only files that match the
    pinned checksums are remembered. Returns the cache folders that now hold them."""
    remembered = [FILBBQ_SOURCE.remember(Path(templates_dir), "templates", TEMPLATE_SHA256,
                                         cache_dir)]
    beside = Path(templates_dir).parent / "data"
    if beside.is_dir():
        remembered.append(FILBBQ_SOURCE.remember(beside, "data", PUBLISHED_DATA_SHA256,
                                                 cache_dir))
    return [folder for folder in remembered if folder is not None]


def resolve_published_data(data_dir: Path | None = None, *,
                           templates_dir: Path | None = None, cache_dir: Path | None = None,
                           download: bool = True, strict: bool = False,
                           base_url: str | None = None,
                           timeout: float = DOWNLOAD_TIMEOUT_S) -> Path:
    """A folder holding FilBBQ's published item file(s) (``data/`` at the pinned commit);
    evaluating them directly is the most faithful reproduction of the paper.

    Looked for, in order: ``data_dir`` (``--published-data``), ``BIASBENCH_FILBBQ_DATA``, the
    ``data/`` folder beside a local templates folder (the repository's own layout; used only
    when its checksums match), the cache ``<cache root>/filbbq/<commit>/data``, and a pinned,
    checksummed download into the cache. An explicit folder whose file differs from the pinned
    checksum is used with a warning, or refused when ``strict``.
    """
    if data_dir is not None:
        return _check_local_data(Path(data_dir), "--published-data", strict)
    env = os.environ.get(ENV_DATA)
    if env:
        return _check_local_data(Path(env), ENV_DATA, strict)
    if templates_dir is not None:
        beside = Path(templates_dir).parent / "data"
        if beside.is_dir() and check_folder(beside, PUBLISHED_DATA_SHA256) == ([], []):
            return beside
    folder = FILBBQ_SOURCE.cache_dir("data", cache_dir)
    try:
        return _resolve_cached(folder, "data", PUBLISHED_DATA_SHA256,
                               what="FilBBQ published data", download=download,
                               base_url=base_url, timeout=timeout)
    except BiasbenchError as exc:
        raise BiasbenchError(f"{exc}; or pass --regenerate-items to generate every category "
                             "from the templates instead (not the published items)") from None


def _check_local_data(folder: Path, origin: str, strict: bool) -> Path:
    return _check_local(folder, origin, strict, what="published data",
                        expected=PUBLISHED_DATA_SHA256, subdir="data")


#: Categories whose items the authors published, and the file (under ``data/``).
PUBLISHED_CATEGORY_FILES: Mapping[str, str] = {
    "Sexual_orientation": "FilBBQ_Sexual_orientation.jsonl",
}


@dataclass
class FilBBQItems:
    """FilBBQ's items as run, and where each category's items came from."""

    items: list[BBQItem]
    sources: dict[str, dict[str, Any]]
    """Category -> ``{"items": "published", "file", "sha256", "repository", "commit"}`` or
    ``{"items": "regenerated", "seed"}``: what a result's signature records."""


def filbbq_items(templates_dir: Path, data_seed: int, *, published_dir: Path | None = None,
                 regenerate: bool = False) -> FilBBQItems:
    """The authors' published items where they exist (sexual orientation), regenerated items
    (with ``data_seed``) elsewhere (gender identity); ``regenerate=True`` regenerates both.

    Published and regenerated sets hold the same items up to answer order and unknown wording,
    but answer order differs on almost every item, which moves per-template scores through
    position bias: the published file is the evaluation set as the authors released it.
    """
    published = {} if regenerate else dict(PUBLISHED_CATEGORY_FILES)
    to_generate = [c for c in FILBBQ_CATEGORIES if c not in published]
    generated = generate_filbbq_items(templates_dir, data_seed, categories=to_generate)
    items: list[BBQItem] = []
    sources: dict[str, dict[str, Any]] = {}
    for category in FILBBQ_CATEGORIES:
        if category in published:
            if published_dir is None:
                published_dir = resolve_published_data(templates_dir=templates_dir)
            path = Path(published_dir) / published[category]
            items.extend(load_bbq_jsonl(path))
            sources[category] = {"items": "published", "repository": FILBBQ_REPOSITORY,
                                 "commit": FILBBQ_COMMIT, "file": f"data/{published[category]}",
                                 "sha256": sha256_of(path)}
        else:
            items.extend(BBQItem.model_validate(d) for d in generated[category].items)
            sources[category] = {"items": "regenerated", "seed": data_seed,
                                 "templates": f"{FILBBQ_REPOSITORY}@{FILBBQ_COMMIT[:12]}"}
    return FilBBQItems(items, sources)


# --------------------------------------------------------------------------------------------
# Generating the two category files
# --------------------------------------------------------------------------------------------

@dataclass
class FilBBQGenerationReport(GenerationReport):
    """What :func:`generate_filbbq` wrote."""

    apply_subcategory_filter: bool = True

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {**super().to_dict(), "apply_subcategory_filter": self.apply_subcategory_filter}


def output_file_name(category: str) -> str:
    """The release's file name for a category, e.g. ``FilBBQ_Gender_identity.jsonl``."""
    return f"FilBBQ_{category}.jsonl"


def generate_filbbq_items(templates_dir: Path, seed: int, *,
                          apply_subcategory_filter: bool = True,
                          unknown_pool: Sequence[str] = FILBBQ_UNKNOWN_POOL,
                          categories: Sequence[str] | None = None,
                          ) -> dict[str, GenerationResult]:
    """Generate FilBBQ's categories (all, or ``categories``) in memory (category -> result);
    each category file is drawn from its own ``random.Random(seed)``, so one category can be
    regenerated alone."""
    templates_dir = Path(templates_dir)
    wanted = FILBBQ_CATEGORIES if categories is None else {
        c: FILBBQ_CATEGORIES[c] for c in categories}
    return {
        category: generate_items(templates_dir / template_file, category,
                                 templates_dir / LABELS_FILE, templates_dir / NAMES_FILE,
                                 seed=seed, unknown_pool=unknown_pool, style="filbbq",
                                 apply_subcategory_filter=apply_subcategory_filter)
        for category, template_file in wanted.items()
    }


def generate_filbbq(templates_dir: Path, out_dir: Path, seed: int, *,
                    apply_subcategory_filter: bool = True,
                    unknown_pool: Sequence[str] = FILBBQ_UNKNOWN_POOL) -> FilBBQGenerationReport:
    """Write ``FilBBQ_Gender_identity.jsonl`` and ``FilBBQ_Sexual_orientation.jsonl``.

    Faithful by default: the 17 gender templates whose Subcategory (adult/child) no vocabulary
    row carries yield no items, giving the paper's 7,952 gender items (2,624 sexual
    orientation); each is named in a warning (in the returned report; counted in one logged line).
    ``apply_subcategory_filter=False`` ignores the Subcategory restriction, so those templates
    yield 8 items each (8,088 gender items). Everything is generated and serialized in memory
    first; the files are then written atomically, so an error leaves no partial output.
    """
    results = generate_filbbq_items(templates_dir, seed,
                                    apply_subcategory_filter=apply_subcategory_filter,
                                    unknown_pool=unknown_pool)
    files = {category: Path(out_dir) / output_file_name(category) for category in results}
    return FilBBQGenerationReport(seed=seed, apply_subcategory_filter=apply_subcategory_filter,
                                  **write_generated(results, files, "filbbq"))


# --------------------------------------------------------------------------------------------
# The prompt
# --------------------------------------------------------------------------------------------

#: Item fields a prompt may reference (``row["context"]`` ...).
PROMPT_FIELDS: frozenset[str] = frozenset({"context", "question", "ans0", "ans1", "ans2"})


@dataclass(frozen=True)
class PromptField:
    """A reference to an item field inside a prompt template."""

    name: str


@dataclass(frozen=True)
class PromptTemplate:
    """A prompt as a sequence of literal texts and item fields, read from ``prompt.txt``."""

    parts: tuple[str | PromptField, ...]
    source: str
    sha256: str
    """sha256 of the prompt file, for a result's signature."""

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(part.name for part in self.parts if isinstance(part, PromptField))

    def render(self, item: BBQItem | Mapping[str, Any]) -> str:
        """The prompt text for one item (a BBQItem or a mapping with the fields)."""
        pieces = []
        for part in self.parts:
            if isinstance(part, str):
                pieces.append(part)
            elif isinstance(item, Mapping):
                pieces.append(str(item[part.name]))
            else:
                pieces.append(str(getattr(item, part.name)))
        return "".join(pieces)


def _concatenation_terms(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _concatenation_terms(node.left) + _concatenation_terms(node.right)
    return [node]


def parse_prompt_template(text: str, source: str = "<prompt>",
                          sha256: str | None = None) -> PromptTemplate:
    """Parse a prompt written as a Python concatenation of string literals and ``row["field"]``
    look-ups (optionally assigned, ``prompt = (...)``). The file is parsed, never executed: any
    other construct is an error naming the line."""
    try:
        module = ast.parse(text, filename=source, mode="exec")
    except SyntaxError as exc:
        raise InputError(f"not a parsable prompt expression ({exc.msg})", file=source,
                         line=exc.lineno) from None
    statements = module.body
    if len(statements) != 1:
        raise InputError(f"expected one prompt expression, found {len(statements)} statements",
                         file=source, line=statements[1].lineno if len(statements) > 1 else None)
    statement = statements[0]
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        expression = statement.value
    elif isinstance(statement, ast.Expr):
        expression = statement.value
    else:
        raise InputError("expected 'prompt = ( ... )' or a bare expression", file=source,
                         line=statement.lineno)
    parts: list[str | PromptField] = []
    for term in _concatenation_terms(expression):
        if isinstance(term, ast.Constant) and isinstance(term.value, str):
            if parts and isinstance(parts[-1], str):
                parts[-1] += term.value  # adjacent literals merge
            else:
                parts.append(term.value)
        elif (isinstance(term, ast.Subscript) and isinstance(term.value, ast.Name)
              and isinstance(term.slice, ast.Constant) and isinstance(term.slice.value, str)):
            name = term.slice.value
            if name not in PROMPT_FIELDS:
                raise InputError(f"unknown item field {name!r}; allowed: "
                                 f"{', '.join(sorted(PROMPT_FIELDS))}", file=source,
                                 line=term.lineno)
            parts.append(PromptField(name))
        else:
            raise InputError(f"unsupported prompt term {ast.unparse(term)[:60]!r}; only string "
                             "literals and row[\"field\"] joined with '+' are read", file=source,
                             line=term.lineno)
    used = {part.name for part in parts if isinstance(part, PromptField)}
    absent = sorted(PROMPT_FIELDS - used)
    if absent:
        raise InputError(f"the prompt never uses {', '.join(absent)}", file=source,
                         line=statement.lineno)
    digest = sha256 or hashlib.sha256(text.encode("utf-8")).hexdigest()
    return PromptTemplate(tuple(parts), source, digest)


def load_prompt_template(templates_dir: Path) -> PromptTemplate:
    """Read FilBBQ's ``prompt.txt``: the instruction, then context + " " + question, then the
    three options lettered A/B/C, with every literal taken from the file."""
    return load_prompt_file(Path(templates_dir) / PROMPT_FILE)


def load_prompt_file(path: Path) -> PromptTemplate:
    """Read a prompt written in the format of FilBBQ's ``prompt.txt`` (any BBQ benchmark's
    prompt: string literals and ``row["context"]``-style fields joined by ``+``)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", file=str(path)) from None
    return parse_prompt_template(text, str(path), hashlib.sha256(data).hexdigest())
