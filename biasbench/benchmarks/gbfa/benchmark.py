"""``gbfa``: GBFA's Persian BBQ (and, with ``--languages fa,en``, its English source rows).

The repository publishes no prompt; biasbench asks in Persian with BBQ's layout (options
lettered A/B/C, cue ``پاسخ:``) and in English with BBQ's own prompt: docs/benchmarks/gbfa.md.
"""

from __future__ import annotations

from typing import ClassVar

from biasbench.benchmarks.gbfa.declaration import DECLARATION
from biasbench.benchmarks.gbfa.source import (
    COMMIT,
    FILE,
    LANGUAGES,
    REPOSITORY,
    load_items,
    resolve_data,
)
from biasbench.engines.bbq_family.family import choose_categories
from biasbench.engines.bbq_family.published_dataset import PublishedBBQBenchmark
from biasbench.registry.interface import Options


class GBFABenchmark(PublishedBBQBenchmark, declaration=DECLARATION):
    """GBFA's Persian BBQ, greedy, one seed."""

    package: ClassVar[str] = "biasbench.benchmarks.gbfa"
    answer_cues: ClassVar[dict[str, str]] = {"fa": "\nپاسخ:", "en": "\nAnswer:"}

    def __init__(self, options: Options) -> None:
        data, languages, strict = options.data, options.languages, options.strict
        codes = choose_categories(languages, LANGUAGES, "GBFA language")
        folder = resolve_data(data)
        self.init_published(
            load_items(folder, codes),
            codes,
            strict=strict,
            source=f"{FILE} of {REPOSITORY}@{COMMIT[:12]} ({folder})",
            data_source={
                "items": "published",
                "repository": REPOSITORY,
                "commit": COMMIT,
                "file": FILE,
                "languages": list(codes),
            },
        )
