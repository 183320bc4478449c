"""GBFA's Persian BBQ (``BBQ-Fa.csv`` of ``hamidds/GBFA``), pinned, read from its CSV
(:func:`biasbench.engines.bbq_family.items.published.read_gbfa_csv`).

208 items of BBQ's Gender_identity category (binary gender), each row in English and Persian
side by side, so the two languages are one dataset's parallel halves (namespaces ``gbfa/fa``,
``gbfa/en``: the cross-language comparison). The CSV has no answer_info: the unknown option is
found by its English wording (BBQ's own list), the target is the published 0-indexed
``target`` (the stereotyped group's option; two rows name the unknown option, which the lint
shows and the scores exclude).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from biasbench.engines.bbq_family.items.published import ReadResult, read_gbfa_csv
from biasbench.engines.bbq_family.items.source import (
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)

REPOSITORY: Final = "hamidds/GBFA"
COMMIT: Final = "2cb75d1355c3c9c28bf501576c0d17fc2b702d67"
ENV_DATA: Final = "BIASBENCH_GBFA_DATA"
SOURCE: Final = PinnedRepository(REPOSITORY, COMMIT, "BIASBENCH_GBFA_BASE_URL", "gbfa")
FILE: Final = "BBQ-Fa.csv"
FILES: Final = {FILE: "871cbf0d879c444ed258e0b1af25d6b98a818dc6325b0eaac8fff41436ca485f"}
PUBLISHED_COUNT: Final = 208
LANGUAGES: Final = ("fa", "en")


def resolve_data(data: Path | None = None) -> Path:
    return resolve_pinned_folder(PinnedFolder(SOURCE, "", FILES, "GBFA", env=ENV_DATA), data)


def load_items(folder: Path, languages: Sequence[str]) -> ReadResult:
    result = ReadResult()
    for language in languages:
        result.extend(
            read_gbfa_csv(
                folder / FILE,
                language=language,
                text_language=language.upper(),
                namespace=f"gbfa/{language}" if len(languages) > 1 else "",
                source=f"{REPOSITORY}/{FILE}",
            )
        )
    return result
