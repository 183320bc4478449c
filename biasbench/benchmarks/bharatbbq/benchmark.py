"""``bharatbbq``: BharatBBQ's English items (``sahoonihar/BharatBBQ``), read from its CSV, asked
with the authors' zero-shot English prompt (zero-shot.md: numbered options ``Option 1..3``,
ending ``The correct answer is:``).

The authors' answer convention is the option's number; the built-in English pack reads letters
and option texts, and ``data/pack_en.toml`` (``numbered = true``), which every run brings
(``dataset_packs``), adds ``Option 2`` / ``2`` (docs/benchmarks/bharatbbq.md). Their scorer (Metrics/main.py) is not reproduced: the engine's BBQ scores
are computed, and the doc page shows where main.py departs from BBQ's definitions.
"""

from __future__ import annotations

from typing import ClassVar

from biasbench.benchmarks.bharatbbq.declaration import DECLARATION
from biasbench.benchmarks.bharatbbq.source import (
    CATEGORIES,
    COMMIT,
    REPOSITORY,
    SUBDIR,
    load_items,
    resolve_data,
)
from biasbench.engines.bbq_family.family import choose_categories
from biasbench.engines.bbq_family.published_dataset import PublishedBBQBenchmark
from biasbench.registry.interface import Options


class BharatBBQBenchmark(PublishedBBQBenchmark, declaration=DECLARATION):
    """BharatBBQ (English), greedy, one seed."""

    package: ClassVar[str] = "biasbench.benchmarks.bharatbbq"
    dataset_packs: ClassVar[tuple[str, ...]] = ("pack_en.toml",)

    def __init__(self, options: Options) -> None:
        data, categories, strict = options.data, options.categories, options.strict
        chosen = choose_categories(categories, CATEGORIES, "BharatBBQ")
        folder = resolve_data(chosen, data)
        self.init_published(
            load_items(folder, chosen),
            ("en",),
            strict=strict,
            source=f"BharatBBQ English items of {REPOSITORY}@{COMMIT[:12]} ({folder})",
            data_source={
                "items": "published",
                "repository": REPOSITORY,
                "commit": COMMIT,
                "folder": SUBDIR,
                "categories": list(chosen),
            },
        )
