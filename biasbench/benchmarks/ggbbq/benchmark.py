"""``ggbbq``: GG-BBQ's two German subsets, read from their own schema.

The repository publishes no evaluation code or prompt; biasbench asks in German with BBQ's
layout (options lettered A/B/C, cue ``Antwort:``): docs/benchmarks/ggbbq.md. The lint flags
that every published item has the unknown option third (``keine Antwort``): a model that never
picks C looks unbiased in ambiguous contexts; ``--vary order`` asks every item in other orders.
"""

from __future__ import annotations

from typing import ClassVar

from biasbench.benchmarks.ggbbq.declaration import DECLARATION
from biasbench.benchmarks.ggbbq.source import (
    COMMIT,
    REPOSITORY,
    SUBSETS,
    load_items,
    resolve_data,
)
from biasbench.engines.bbq_family.family import choose_categories
from biasbench.engines.bbq_family.published_dataset import PublishedBBQBenchmark
from biasbench.registry.interface import Options


class GGBBQBenchmark(PublishedBBQBenchmark, declaration=DECLARATION):
    """GG-BBQ, German, greedy, one seed."""

    package: ClassVar[str] = "biasbench.benchmarks.ggbbq"
    answer_cues: ClassVar[dict[str, str]] = {"de": "\nAntwort:"}

    def __init__(self, options: Options) -> None:
        data, subsets, strict = options.data, options.subsets, options.strict
        chosen = choose_categories(subsets, tuple(SUBSETS), "GG-BBQ subset")
        folder = resolve_data(chosen, data)
        self.init_published(
            load_items(folder, chosen),
            ("de",),
            strict=strict,
            source=f"GG-BBQ {'+'.join(chosen)} of {REPOSITORY}@{COMMIT[:12]} ({folder})",
            data_source={
                "items": "published",
                "repository": REPOSITORY,
                "commit": COMMIT,
                "subsets": list(chosen),
            },
        )
