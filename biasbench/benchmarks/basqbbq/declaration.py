"""What the CLI reads of basqbbq without loading it (light)."""

from __future__ import annotations

from biasbench.benchmarks.base import OptionSpec, Paper
from biasbench.benchmarks.basqbbq.source import CATEGORIES, COMMIT, ENV_DATA, REPOSITORY
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration, data_option

DECLARATION = bbq_declaration(
    name="basqbbq",
    benchmark=".benchmark:BasqBBQBenchmark",
    docs_page="docs/benchmarks/basqbbq.md",
    languages=("eu",),
    paper=Paper(
        "BasqBBQ: A QA Benchmark for Assessing Social Biases in LLMs for Basque, a "
        "Low-Resource Language",
        "Zulaika and Saralegi, COLING 2025",
        "https://github.com/orai-nlp/BasqBBQ",
    ),
    licence="CC BY-NC-SA 4.0 (Orai NLP Teknologiak, orai-nlp/BasqBBQ README)",
    terms="non-commercial use, share alike, attribution",
    items_summary=f"Basque items in {len(CATEGORIES)} categories ({REPOSITORY}@{COMMIT[:7]})",
    options=(
        data_option("BasqBBQ's data/BasqBBQ/ folder", ENV_DATA),
        OptionSpec(
            "categories",
            str,
            None,
            "comma-separated categories (default: all: " + ", ".join(CATEGORIES) + ")",
        ),
        STRICT_OPTION,
    ),
)
