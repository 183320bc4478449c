"""BharatBBQ's published English items (``sahoonihar/BharatBBQ``), pinned, read from its CSV
(:func:`biasbench.engines.bbq_family.items.published.read_bharatbbq_csv`).

The GitHub repository publishes the English items only (``BharatBBQ_Dataset/Examples/
<Category>_examples.csv``, one file per category, 13 categories); the other languages are on the
Hugging Face hub, which biasbench does not download. Where a category's file is looked for, in
order: ``--data DIR`` (a copy of ``BharatBBQ_Dataset/Examples`` or a checkout holding it),
``$BIASBENCH_BHARATBBQ_DATA``, the cache, a verified download.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from biasbench.engines.bbq_family.items.published import ReadResult, read_bharatbbq_csv
from biasbench.engines.bbq_family.items.source import (
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)

REPOSITORY: Final = "sahoonihar/BharatBBQ"
COMMIT: Final = "d4d193b28ab063bb72cf474565b63402af9ecfcd"
SUBDIR: Final = "BharatBBQ_Dataset/Examples"
ENV_DATA: Final = "BIASBENCH_BHARATBBQ_DATA"
SOURCE: Final = PinnedRepository(REPOSITORY, COMMIT, "BIASBENCH_BHARATBBQ_BASE_URL", "bharatbbq")

FILES: Final[Mapping[str, str]] = {
    "Age_examples.csv": "71fbb3e65a3170b076b7dd7b8b0692a93665953a19721e6e6b5895f9f71dcf48",
    "AgexGender_examples.csv": "04de981ae9ce3b23f16da97c26b39962a7074eeb71faaf3b818995549b605f00",
    "Caste_examples.csv": "7295f92aa811829599ab3a31c0a711dc65aaae268dbf0c2f26e45afef8a07c00",
    "Disability_status_examples.csv": "d6cb90a3fcca7d66dcefaead7dabb5297aa6c39b260b99d1b0dcf850edc0aa71",
    "Gender_identity_examples.csv": "f1f3cc0e1d1c0e3c658a24cf125f69ad941b5db078e32bfeea80b3824ee30faa",
    "GenderxReligion_examples.csv": "4e6ba680611caa2dc30084c1b0d87f4cd7947d65d351a91307bbe030632410cf",
    "Nationality_examples.csv": "8149341a3de43594f8a3d3645586269b620d2e734ea4b584ac1538d634df9770",
    "Physical_appearance_examples.csv": "c8d8667b51c0052ff5f08588d7751262eaadf86ef5a09fa7212647bd4c2d7a84",
    "Region_examples.csv": "e6eb3d482d676056dbae2c9d21c36b17591bed2167454717bdc86ad8576ed0f8",
    "RegionxGender_examples.csv": "a8b1ecfd55f63175a985bb76c50c0d18f70ab5fe9af8e9d18e4378dd704756d9",
    "Religion_examples.csv": "72a372b64db1384a0566bd57e8d0e357ed2eed8aca8c8994ac9a64b24b59daf8",
    "SES_examples.csv": "3d3e810aab5d6b1bd194bf1bf6fda1d97071e4742e4c27f119b7676e5c353f76",
    "Sexual_orientation_examples.csv": "169aceac3b70dffd69971824c0ef9455fb85e144785e71c8a39626fc6e2d13fa",
}
"""sha256 of each category file at :data:`COMMIT`."""
CATEGORIES: Final = tuple(name.removesuffix("_examples.csv") for name in FILES)
PUBLISHED_COUNTS: Final[Mapping[str, int]] = {
    "Age": 6656,
    "AgexGender": 2880,
    "Caste": 3864,
    "Disability_status": 5296,
    "Gender_identity": 6536,
    "GenderxReligion": 1504,
    "Nationality": 4128,
    "Physical_appearance": 6232,
    "Region": 3144,
    "RegionxGender": 1944,
    "Religion": 4800,
    "SES": 6160,
    "Sexual_orientation": 904,
}
"""Rows per category file at :data:`COMMIT` (counted when pinned; every row reads as an item)."""


def file_of(category: str) -> str:
    return f"{category}_examples.csv"


def resolve_data(categories: Sequence[str], data: Path | None = None) -> Path:
    """A folder holding the chosen categories' files (module docstring)."""
    files = {file_of(c): FILES[file_of(c)] for c in categories}
    spec = PinnedFolder(SOURCE, SUBDIR, files, "BharatBBQ", env=ENV_DATA)
    return resolve_pinned_folder(spec, data)


def load_items(folder: Path, categories: Sequence[str]) -> ReadResult:
    """The chosen categories' items, in English, rows that do not fit skipped with reasons."""
    result = ReadResult()
    for category in categories:
        result.extend(
            read_bharatbbq_csv(
                folder / file_of(category),
                language="en",
                source=f"{REPOSITORY}/{SUBDIR}/{file_of(category)}",
            )
        )
    return result
