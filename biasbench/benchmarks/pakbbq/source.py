"""PakBBQ's published items (``Hashmat02/PakBBQ-Bias-Benchmarking-QA-Dataset``), pinned, read
as BBQ JSONL (:func:`biasbench.engines.bbq_family.items.published.read_bbq_jsonl`).

Layout: ``PakBBQ/PakBBQ_ENG/<Category>.jsonl`` and ``PakBBQ/PakBBQ_UR/<Category>.jsonl``, the
same items in English and Urdu: the ``id`` field is one running number over all categories and
is the same for an item in both languages, so it is the item's ``example_id`` here (BBQ's
``example_id`` restarts in every category file) and the two languages are paired by it
(namespaces ``pakbbq/en``, ``pakbbq/ur``: the cross-language comparison).

The Language_formality category (file ``ENG-linguistic(language_formality_biases).jsonl``)
names its stereotyped groups in words (``ghair rasmi bolnay walay``, "informal speakers") that
no answer_info label equals (``informal_speaker``...), so BBQ's rule finds no target in any of
its 88 items; :data:`FORMALITY_GROUPS` maps each to its label, template by template (decided by
biasbench from each template's context and answers; a native Urdu speaker should check
template 2, "sahal tarz bolnay walay" -> ``impolite_user``). The published groups are kept in
``additional_metadata["published_stereotyped_groups"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.published import ReadResult, read_bbq_jsonl
from biasbench.engines.bbq_family.items.source import (
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)

REPOSITORY: Final = "Hashmat02/PakBBQ-Bias-Benchmarking-QA-Dataset"
COMMIT: Final = "29d878d5e69a0b55d2fe38e8a37158edd16fd8e2"
SUBDIR: Final = "PakBBQ"
ENV_DATA: Final = "BIASBENCH_PAKBBQ_DATA"
SOURCE: Final = PinnedRepository(REPOSITORY, COMMIT, "BIASBENCH_PAKBBQ_BASE_URL", "pakbbq")
LANGUAGE_FOLDERS: Final = {"en": "PakBBQ_ENG", "ur": "PakBBQ_UR"}
FORMALITY_FILE: Final = "ENG-linguistic(language_formality_biases)"
FORMALITY: Final = "Language_formality"
CATEGORY_FILES: Final[Mapping[str, str]] = {
    "Age": "Age",
    "Disability_status": "Disability_status",
    "Gender_identity": "Gender_identity",
    FORMALITY: FORMALITY_FILE,
    "Physical_appearance": "Physical_appearance",
    "Regional": "Regional",
    "Religion": "Religion",
    "SES": "SES",
}
CATEGORIES: Final = tuple(CATEGORY_FILES)

FILES: Final[Mapping[str, str]] = {
    "PakBBQ_ENG/Age.jsonl": "35e9e9f32588fa18694cdd8daa98dfdd38d0f44d598c67e6d539da6bb5264a3e",
    "PakBBQ_ENG/Disability_status.jsonl": "6e2bd55617e592598c441e5ed762151132dd3449917dce4d7df401ef30366c68",
    f"PakBBQ_ENG/{FORMALITY_FILE}.jsonl": "a124e98f2bb8f34b396294eae36b367906f97e238b7430cc665ee5dd4e3c9e33",
    "PakBBQ_ENG/Gender_identity.jsonl": "37909d058af514411446a92f9743d754433c0588e75a5c02a15a5cf46f401ba8",
    "PakBBQ_ENG/Physical_appearance.jsonl": "72ce53b74286c1ae3bd0ea38cc3957576b115df480a81997bee29ec6cc01a7d9",
    "PakBBQ_ENG/Regional.jsonl": "3473c0800156608c13386503b7d5543abbe34cc720e948c15266c257c2564f43",
    "PakBBQ_ENG/Religion.jsonl": "5eda9d34b5c51e203f336cbae7467fb12e2feb0af928965873b615ec759750f2",
    "PakBBQ_ENG/SES.jsonl": "git-blob-sha1:93b7ecc9dd0bfaed0d44c41e45d9c27d585fefbe",
    "PakBBQ_UR/Age.jsonl": "e66e3a5c890c445ea024ba0e03a6379d7c6311a6f617a1ba02364e2a8a3bd33b",
    "PakBBQ_UR/Disability_status.jsonl": "ea3f47f1c4b59a69ac515a20b5ddd3cbe1611537bd1d260133cf1fc4f31d05af",
    f"PakBBQ_UR/{FORMALITY_FILE}.jsonl": "1945db4cf7ea1d0d8409cc99316c1aa9483157031093e538c29ffee3cfd4d6d2",
    "PakBBQ_UR/Gender_identity.jsonl": "git-blob-sha1:e43b5ad7c6f4572a6cc6b931aa8e65949abf8ab9",
    "PakBBQ_UR/Physical_appearance.jsonl": "dab709ea653910fe6911d5f43f56686bb0e5a6dd6cf10e3e397b9ef20ac2b676",
    "PakBBQ_UR/Regional.jsonl": "2f779ae1e824e57e22e971dca1ecc1445178079e8db710e3a2a5d62735bbd967",
    "PakBBQ_UR/Religion.jsonl": "1a8bc218dc21567bad3f7caa3071864041d3961543a0c7eb5fc7231ffeca3daf",
    "PakBBQ_UR/SES.jsonl": "git-blob-sha1:023fb1dd99b6c7a89de110cc88c7c2b298a6da63",
}
"""sha256 of each file at :data:`COMMIT` (git blob ids for the SES and Urdu Gender_identity
files, which were too large for the snapshot they were pinned from)."""

FORMALITY_GROUPS: Final[Mapping[tuple[str, str], str]] = {
    ("1", "ghair rasmi bolnay walay"): "informal_speaker",
    ("2", "sahal tarz bolnay walay"): "impolite_user",
    ("3", "ghair rasmi bolnay walay"): "informal_voker",
    ("4", "moannas sifat walay"): "feminine_adjectives",
    ("5", "ghair rasmi bolnay walay"): "informal_greeter",
    ("6", "informal speakers"): "interviewer_informal",
    ("7", "slang users"): "customer_informal",
    ("8", "formal posters"): "social_formal",
    ("9", "informal respondents"): "student_informal",
    ("10", "informal siblings"): "sibling_informal",
    ("11", "male-centric speakers"): "proverb_male",
}
"""(template, published stereotyped group) -> the answer_info label it names (module
docstring)."""


def file_of(language: str, category: str) -> str:
    return f"{LANGUAGE_FOLDERS[language]}/{CATEGORY_FILES[category]}.jsonl"


def resolve_data(
    languages: Sequence[str], categories: Sequence[str], data: Path | None = None
) -> Path:
    """A folder (a copy of the repository's ``PakBBQ/``) holding the chosen files."""
    files = {file_of(lang, c): FILES[file_of(lang, c)] for lang in languages for c in categories}
    spec = PinnedFolder(SOURCE, SUBDIR, files, "PakBBQ", env=ENV_DATA)
    return resolve_pinned_folder(spec, data)


def mapped_formality(item: BBQItem) -> BBQItem:
    """A Language_formality item with its stereotyped group as its answer_info label."""
    published = item.stereotyped_groups
    labels = [
        FORMALITY_GROUPS[(item.question_index, g)]
        for g in published
        if (item.question_index, g) in FORMALITY_GROUPS
    ]
    if not labels:
        return item
    metadata: dict[str, Any] = {
        **item.additional_metadata,
        "stereotyped_groups": labels,
        "published_stereotyped_groups": published,
    }
    return item.model_copy(update={"additional_metadata": metadata})


def load_items(folder: Path, languages: Sequence[str], categories: Sequence[str]) -> ReadResult:
    """The chosen languages' and categories' items; ``example_id`` is PakBBQ's ``id``."""
    result = ReadResult()
    for language in languages:
        for category in categories:
            read = read_bbq_jsonl(
                folder / file_of(language, category),
                namespace=f"pakbbq/{language}",
                language=language,
                category_map={FORMALITY_FILE: FORMALITY},
                id_field="id",
            )
            if category == FORMALITY:
                read.items = [mapped_formality(item) for item in read.items]
            result.extend(read)
    return result
