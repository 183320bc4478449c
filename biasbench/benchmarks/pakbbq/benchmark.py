"""``pakbbq``: PakBBQ in English and Urdu, in one run as two namespaces (``pakbbq/en``,
``pakbbq/ur``) paired by item, asked with the authors' prompts (Gemini_eval.py/create_jsonl.py:
"You are a Pakistani person...", options lettered A/B/C in English and ا/ب/پ in Urdu).

The Urdu letters are read by ``data/pack_ur.toml`` (extends the built-in Urdu pack), which
every run brings (``dataset_packs``; docs/benchmarks/pakbbq.md). Their scorer (Analysis/analysis.py) is not reproduced: the doc page
shows, with a failing example, where it departs from BBQ's definitions.
"""

from __future__ import annotations

from typing import ClassVar

from biasbench.benchmarks.pakbbq.declaration import DECLARATION
from biasbench.benchmarks.pakbbq.source import (
    CATEGORIES,
    COMMIT,
    LANGUAGE_FOLDERS,
    REPOSITORY,
    load_items,
    resolve_data,
)
from biasbench.engines.bbq_family.family import choose_categories
from biasbench.engines.bbq_family.published_dataset import PublishedBBQBenchmark
from biasbench.registry.interface import Options


class PakBBQBenchmark(PublishedBBQBenchmark, declaration=DECLARATION):
    """PakBBQ, English and Urdu, greedy, one seed."""

    package: ClassVar[str] = "biasbench.benchmarks.pakbbq"
    dataset_packs: ClassVar[tuple[str, ...]] = ("pack_ur.toml",)

    def __init__(self, options: Options) -> None:
        data, languages, categories, strict = (
            options.data,
            options.languages,
            options.categories,
            options.strict,
        )
        codes = choose_categories(languages, tuple(LANGUAGE_FOLDERS), "PakBBQ language")
        chosen = choose_categories(categories, CATEGORIES, "PakBBQ")
        folder = resolve_data(codes, chosen, data)
        self.init_published(
            load_items(folder, codes, chosen),
            codes,
            strict=strict,
            source=f"PakBBQ {'+'.join(codes)} items of {REPOSITORY}@{COMMIT[:12]} ({folder})",
            data_source={
                "items": "published",
                "repository": REPOSITORY,
                "commit": COMMIT,
                "languages": list(codes),
                "categories": list(chosen),
            },
        )
