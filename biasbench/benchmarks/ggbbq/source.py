"""GG-BBQ's published items (``shalakasatheesh/GG-BBQ``), pinned, read from its own JSONL schema
(:func:`biasbench.engines.bbq_family.items.published.read_ggbbq_jsonl`).

Both subsets, each a category of its own: Subset-I (group terms, ``Der Mann`` / ``Die Frau``)
is ``Gender_identity``, Subset-II (proper names) is ``Gender_identity_names``. Each subset is two
files (ambiguous and disambiguated contexts) whose ``index`` restarts at 0; items are numbered
on across the two files (ambiguous first). Subset-II is the extended version in the repository,
larger than the one the paper reports (README).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from biasbench.engines.bbq_family.items.published import ReadResult, read_ggbbq_jsonl
from biasbench.engines.bbq_family.items.source import (
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)

REPOSITORY: Final = "shalakasatheesh/GG-BBQ"
COMMIT: Final = "24e5b326fa6c7dc3e9776a5b7bb1883a3951c47d"
SUBDIR: Final = "data"
ENV_DATA: Final = "BIASBENCH_GGBBQ_DATA"
SOURCE: Final = PinnedRepository(REPOSITORY, COMMIT, "BIASBENCH_GGBBQ_BASE_URL", "ggbbq")
SUBSETS: Final[Mapping[str, tuple[str, tuple[str, str]]]] = {
    "subset-1": (
        "Gender_identity",
        ("subset-1/bbq_de_amb_test.jsonl", "subset-1/bbq_de_disamb_test.jsonl"),
    ),
    "subset-2": (
        "Gender_identity_names",
        (
            "subset-2/bbq_de_proper_names_amb_test.jsonl",
            "subset-2/bbq_de_proper_names_disamb_test.jsonl",
        ),
    ),
}
"""Subset -> (its category here, its two files: ambiguous, disambiguated)."""
FILES: Final[Mapping[str, str]] = {
    "subset-1/bbq_de_amb_test.jsonl": "89e70d1af994430151bb3d4b76c6e6320500c0a40686c13b1d89716a72bf8ab8",
    "subset-1/bbq_de_disamb_test.jsonl": "ff417a2e3e781ced547d7c07d2ddfda8f08fea746867a16dc770fca67b8bd16a",
    "subset-2/bbq_de_proper_names_amb_test.jsonl": "98ef2cfb61cbbb47fd91c700f6c157a08c5b413e5ca37727f5d76197d0de998c",
    "subset-2/bbq_de_proper_names_disamb_test.jsonl": "28ecbdddf63a3dd90b198f172ed69b4b4f504dd7a0c270672fc52bdeffbceed2",
}
PUBLISHED_COUNTS: Final = {"subset-1": 968, "subset-2": 10900}


def resolve_data(subsets: Sequence[str], data: Path | None = None) -> Path:
    files = {name: FILES[name] for s in subsets for name in SUBSETS[s][1]}
    return resolve_pinned_folder(PinnedFolder(SOURCE, SUBDIR, files, "GG-BBQ", env=ENV_DATA), data)


def load_items(folder: Path, subsets: Sequence[str]) -> ReadResult:
    result = ReadResult()
    for subset in subsets:
        category, files = SUBSETS[subset]
        number = 0
        for name in files:
            read = read_ggbbq_jsonl(
                folder / name,
                category=category,
                first_id=number,
                source=f"{REPOSITORY}/{SUBDIR}/{name}",
            )
            number += len(read.items) + len(read.skipped)
            result.extend(read)
    return result
