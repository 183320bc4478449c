"""``basqbbq``: BasqBBQ's eight Basque categories, read as BBQ JSONL row by row.

The repository publishes the data without evaluation code or prompt; biasbench asks in Basque
with BBQ's layout (options lettered A/B/C, cue ``Erantzuna:``): docs/benchmarks/basqbbq.md.
"""

from __future__ import annotations

from typing import ClassVar

from biasbench.benchmarks.basqbbq.declaration import DECLARATION
from biasbench.benchmarks.basqbbq.source import (
    CATEGORIES,
    COMMIT,
    REPOSITORY,
    load_items,
    resolve_data,
)
from biasbench.engines.bbq_family.family import choose_categories
from biasbench.engines.bbq_family.published_dataset import PublishedBBQBenchmark
from biasbench.registry.interface import Options


class BasqBBQBenchmark(PublishedBBQBenchmark, declaration=DECLARATION):
    """BasqBBQ, Basque, greedy, one seed."""

    package: ClassVar[str] = "biasbench.benchmarks.basqbbq"
    answer_cues: ClassVar[dict[str, str]] = {"eu": "\nErantzuna:"}

    def __init__(self, options: Options) -> None:
        data, categories, strict = options.data, options.categories, options.strict
        chosen = choose_categories(categories, CATEGORIES, "BasqBBQ")
        folder = resolve_data(chosen, data)
        self.init_published(
            load_items(folder, chosen),
            ("eu",),
            strict=strict,
            source=f"BasqBBQ items of {REPOSITORY}@{COMMIT[:12]} ({folder})",
            data_source={
                "items": "published",
                "repository": REPOSITORY,
                "commit": COMMIT,
                "categories": list(chosen),
            },
        )
