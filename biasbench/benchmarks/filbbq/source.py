"""FilBBQ's inputs: obtaining the authors' templates and prompt, generating the item files.

FilBBQ's templates, vocabularies and prompt are the authors' text (GitHub repository
``gamboalance/filbbq``), so the project never ships them: :data:`FILBBQ_TEMPLATES`, resolved by
the engine's :func:`resolve_pinned_folder`, finds a local copy or downloads them at a pinned
commit, checks every file against a pinned sha256 and caches them. :func:`generate_filbbq` turns
them into the two category files with the BBQ engine, and :func:`load_prompt_template` reads the
evaluation prompt from ``prompt.txt`` without running it.

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

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family.items.generate import GenerationResult, generate_items
from biasbench.engines.bbq_family.items.item_files import GenerationReport, write_generated
from biasbench.engines.bbq_family.items.items import BBQItem, load_bbq_jsonl
from biasbench.engines.bbq_family.items.source import (  # noqa: F401  (re-exported)
    DEFAULT_BASE_URL,
    DOWNLOAD_TIMEOUT_S,
    ENV_CACHE,
    PinnedFolder,
    PinnedRepository,
    cache_root,
    check_folder,
    resolve_pinned_folder,
    sha256_of,
)
from biasbench.engines.bbq_family.prompting.prompt_files import (  # noqa: F401  (re-exported)
    PROMPT_FIELDS,
    PromptField,
    PromptTemplate,
    load_prompt_file,
    parse_prompt_template,
)
from biasbench.errors import BiasbenchError

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
    "vocabulary_proper_names.csv": "87dcfdbeff4bf64b9878bde771225aa3b41b54e5ca8d44f4f88ecbcfb7ccb1df",
    "prompt.txt": "29aab02b3d6437a900f42cb3acee743c94e898e4307b4db8b499c8c99120ba02",
}
#: sha256 of the published item files under ``data/`` (only the sexual-orientation file is
#: published in the repository).
PUBLISHED_DATA_SHA256: Mapping[str, str] = {
    "FilBBQ_Sexual_orientation.jsonl": "7f283767cca7d0fef4c2846e85e3ee6c221f8432ef8aea469c72419200fd4be2",
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
    "Di matukoy",
    "Hindi matukoy",
    "Hindi alam",
    "Di alam",
    "Hindi masagot",
    "Di masagot",
    "Hindi kayang sagutin",
    "Kulang sa impormasyonDi kayang sagutin",
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


#: Where FilBBQ's templates and published items are looked for (:func:`resolve_pinned_folder`).
FILBBQ_TEMPLATES = PinnedFolder(
    FILBBQ_SOURCE, "templates", TEMPLATE_SHA256, "FilBBQ", "templates", "--templates", ENV_TEMPLATES
)
FILBBQ_DATA = PinnedFolder(
    FILBBQ_SOURCE,
    "data",
    PUBLISHED_DATA_SHA256,
    "FilBBQ",
    "published data",
    "--published-data",
    ENV_DATA,
)


def remember_templates(templates_dir: Path, *, cache_dir: Path | None = None) -> list[Path]:
    """Copy a local copy of FilBBQ's templates (and the published ``data/`` beside it, as the
    repository lays them out) into the cache, where :func:`resolve_pinned_folder` and
    :func:`resolve_published_data` look when no folder is named; only files that match the
    pinned checksums are remembered. Returns the cache folders that now hold them."""
    remembered = [
        FILBBQ_SOURCE.remember(Path(templates_dir), "templates", TEMPLATE_SHA256, cache_dir)
    ]
    beside = Path(templates_dir).parent / "data"
    if beside.is_dir():
        remembered.append(FILBBQ_SOURCE.remember(beside, "data", PUBLISHED_DATA_SHA256, cache_dir))
    return [folder for folder in remembered if folder is not None]


def resolve_published_data(
    data_dir: Path | None = None,
    *,
    templates_dir: Path | None = None,
    cache_dir: Path | None = None,
    download: bool = True,
    strict: bool = False,
    base_url: str | None = None,
    timeout: float = DOWNLOAD_TIMEOUT_S,
) -> Path:
    """A folder holding FilBBQ's published item file(s) (``data/`` at the pinned commit);
    evaluating them directly is the most faithful reproduction of the paper.

    Looked for, in order: ``data_dir`` (``--published-data``), ``BIASBENCH_FILBBQ_DATA``, the
    ``data/`` folder beside a local templates folder (the repository's own layout; used only
    when its checksums match), the cache ``<cache root>/filbbq/<commit>/data``, and a pinned,
    checksummed download into the cache. An explicit folder whose file differs from the pinned
    checksum is used with a warning, or refused when ``strict``.
    """
    beside = Path(templates_dir).parent / "data" if templates_dir is not None else None
    try:
        return resolve_pinned_folder(
            FILBBQ_DATA,
            data_dir,
            beside=beside,
            cache_dir=cache_dir,
            download=download,
            strict=strict,
            base_url=base_url,
            timeout=timeout,
        )
    except BiasbenchError as exc:
        if data_dir is not None or os.environ.get(ENV_DATA):
            raise  # a folder the user named: the error says what it lacks
        raise BiasbenchError(
            f"{exc}; or pass --regenerate-items to generate every category "
            "from the templates instead (not the published items)"
        ) from None


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


def filbbq_items(
    templates_dir: Path,
    data_seed: int,
    *,
    published_dir: Path | None = None,
    regenerate: bool = False,
) -> FilBBQItems:
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
            sources[category] = {
                "items": "published",
                "repository": FILBBQ_REPOSITORY,
                "commit": FILBBQ_COMMIT,
                "file": f"data/{published[category]}",
                "sha256": sha256_of(path),
            }
        else:
            items.extend(BBQItem.model_validate(d) for d in generated[category].items)
            sources[category] = {
                "items": "regenerated",
                "seed": data_seed,
                "templates": f"{FILBBQ_REPOSITORY}@{FILBBQ_COMMIT[:12]}",
            }
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


def generate_filbbq_items(
    templates_dir: Path,
    seed: int,
    *,
    apply_subcategory_filter: bool = True,
    unknown_pool: Sequence[str] = FILBBQ_UNKNOWN_POOL,
    categories: Sequence[str] | None = None,
) -> dict[str, GenerationResult]:
    """Generate FilBBQ's categories (all, or ``categories``) in memory (category -> result);
    each category file is drawn from its own ``random.Random(seed)``, so one category can be
    regenerated alone."""
    templates_dir = Path(templates_dir)
    wanted = (
        FILBBQ_CATEGORIES if categories is None else {c: FILBBQ_CATEGORIES[c] for c in categories}
    )
    return {
        category: generate_items(
            templates_dir / template_file,
            category,
            templates_dir / LABELS_FILE,
            templates_dir / NAMES_FILE,
            seed=seed,
            unknown_pool=unknown_pool,
            style="filbbq",
            apply_subcategory_filter=apply_subcategory_filter,
        )
        for category, template_file in wanted.items()
    }


def generate_filbbq(
    templates_dir: Path,
    out_dir: Path,
    seed: int,
    *,
    apply_subcategory_filter: bool = True,
    unknown_pool: Sequence[str] = FILBBQ_UNKNOWN_POOL,
) -> FilBBQGenerationReport:
    """Write ``FilBBQ_Gender_identity.jsonl`` and ``FilBBQ_Sexual_orientation.jsonl``.

    Faithful by default: the 17 gender templates whose Subcategory (adult/child) no vocabulary
    row carries yield no items, giving the paper's 7,952 gender items (2,624 sexual
    orientation); each is named in a warning (in the returned report; counted in one logged line).
    ``apply_subcategory_filter=False`` ignores the Subcategory restriction, so those templates
    yield 8 items each (8,088 gender items). Everything is generated and serialized in memory
    first; the files are then written atomically, so an error leaves no partial output.
    """
    results = generate_filbbq_items(
        templates_dir,
        seed,
        apply_subcategory_filter=apply_subcategory_filter,
        unknown_pool=unknown_pool,
    )
    files = {category: Path(out_dir) / output_file_name(category) for category in results}
    return FilBBQGenerationReport(
        seed=seed,
        apply_subcategory_filter=apply_subcategory_filter,
        **write_generated(results, files, "filbbq"),
    )


# --------------------------------------------------------------------------------------------
# The prompt
# --------------------------------------------------------------------------------------------


def load_prompt_template(templates_dir: Path) -> PromptTemplate:
    """Read FilBBQ's ``prompt.txt``: the instruction, then context + " " + question, then the
    three options lettered A/B/C, with every literal taken from the file."""
    return load_prompt_file(Path(templates_dir) / PROMPT_FILE)
