"""BasqBBQ's published items (``orai-nlp/BasqBBQ``), pinned, read as BBQ JSONL row by row
(:func:`biasbench.engines.bbq_family.items.published.read_bbq_jsonl`).

One file per category (``data/BasqBBQ/<Category>.jsonl``; the ``_ambig``/``_disambig`` files
are the same items split by context and are not read). ``Nazionalitate.jsonl`` carries a
literal ``NaN`` as the group label of one answer in 184 of its rows: those rows are skipped with
their reason (the data lint lists every one; ``--strict`` refuses them), the other 1,752 read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from biasbench.engines.bbq_family.items.published import ReadResult, read_bbq_jsonl
from biasbench.engines.bbq_family.items.source import (
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)

REPOSITORY: Final = "orai-nlp/BasqBBQ"
COMMIT: Final = "0553cce303bbf8ba0a40c3e33fa12d811c2ea2f0"
SUBDIR: Final = "data/BasqBBQ"
ENV_DATA: Final = "BIASBENCH_BASQBBQ_DATA"
SOURCE: Final = PinnedRepository(REPOSITORY, COMMIT, "BIASBENCH_BASQBBQ_BASE_URL", "basqbbq")
FILES: Final[Mapping[str, str]] = {
    "Adin.jsonl": "e315077ede1b95ea41d61f00bf1ca50eef27bfe7aa56ecf9aea61ac793e2c003",
    "Arraza_etnizitate.jsonl": "git-blob-sha1:12b01959462fcc19a0dbc5ac5e89911313165ab7",
    "Ezgaitasun_egoera.jsonl": "da35f173f28ff2e9a2ee3d2a88802a369ff462b61b809b8395038c7d8c9f48e3",
    "Genero_identitate.jsonl": "git-blob-sha1:7d0e8ed1a7f9d9cef07b0cf63ddc3c063dca49e8",
    "Itxura_fisikoa.jsonl": "0da6c60ed76429b2b144cdb3a0d77617cadbc5c5f3d5f8b5f89920be17499a33",
    "MSE.jsonl": "git-blob-sha1:166af0fba681a038524ab9e9fa052099df8ceeef",
    "Nazionalitate.jsonl": "c251282af32dfa63f122c80dcdd1005aa61c5ca109d0d2413b92881fb2de6474",
    "Orientazio_sexual.jsonl": "9101a8538e91ebc2d051391040089f3b5d8b1fa96c83ed5b57a7ae148541cda2",
}
"""sha256 at :data:`COMMIT` (git blob ids for the three files too large for the snapshot they
were pinned from)."""
CATEGORIES: Final = tuple(name.removesuffix(".jsonl") for name in FILES)


def resolve_data(categories: Sequence[str], data: Path | None = None) -> Path:
    files = {f"{c}.jsonl": FILES[f"{c}.jsonl"] for c in categories}
    return resolve_pinned_folder(PinnedFolder(SOURCE, SUBDIR, files, "BasqBBQ", env=ENV_DATA), data)


def load_items(folder: Path, categories: Sequence[str]) -> ReadResult:
    result = ReadResult()
    for category in categories:
        result.extend(read_bbq_jsonl(folder / f"{category}.jsonl", language="eu"))
    return result
