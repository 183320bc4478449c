"""What the CLI reads of ggbbq without loading it (light)."""

from __future__ import annotations

from biasbench.benchmarks.base import OptionSpec, Paper
from biasbench.benchmarks.ggbbq.source import (
    COMMIT,
    ENV_DATA,
    PUBLISHED_COUNTS,
    REPOSITORY,
    SUBSETS,
)
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration, data_option

DECLARATION = bbq_declaration(
    name="ggbbq",
    benchmark=".benchmark:GGBBQBenchmark",
    docs_page="docs/benchmarks/ggbbq.md",
    languages=("de",),
    paper=Paper(
        "GG-BBQ: German Gender Bias Benchmark for Question Answering",
        "Satheesh et al., GeBNLP 2025",
        "https://aclanthology.org/2025.gebnlp-1.14/",
    ),
    licence="CC BY 4.0 (shalakasatheesh/GG-BBQ LICENSE)",
    terms="attribution",
    items_summary=(
        f"{sum(PUBLISHED_COUNTS.values()):,} German items (Subset-I "
        f"{PUBLISHED_COUNTS['subset-1']:,}, Subset-II {PUBLISHED_COUNTS['subset-2']:,}"
        f"; {REPOSITORY}@{COMMIT[:7]})"
    ),
    options=(
        data_option("GG-BBQ's data/ folder (subset-1/, subset-2/)", ENV_DATA),
        OptionSpec(
            "subsets",
            str,
            "subset-1,subset-2",
            "subset-1, subset-2 or both: " + ", ".join(f"{k} = {v[0]}" for k, v in SUBSETS.items()),
        ),
        STRICT_OPTION,
    ),
)
