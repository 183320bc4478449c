"""What the CLI reads of bharatbbq without loading it (light: no pandas, scipy or model code)."""

from __future__ import annotations

from biasbench.benchmarks.base import OptionSpec, Paper
from biasbench.benchmarks.bharatbbq.source import (
    CATEGORIES,
    COMMIT,
    ENV_DATA,
    PUBLISHED_COUNTS,
    REPOSITORY,
)
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration, data_option

DECLARATION = bbq_declaration(
    name="bharatbbq",
    benchmark=".benchmark:BharatBBQBenchmark",
    docs_page="docs/benchmarks/bharatbbq.md",
    languages=("en",),
    paper=Paper(
        "BharatBBQ: A Multilingual Bias Benchmark for Question Answering in the Indian Context",
        "TACL 2025 (arXiv:2508.07090)",
        "https://arxiv.org/abs/2508.07090",
    ),
    licence="not stated: sahoonihar/BharatBBQ carries no licence file (all rights reserved by default)",
    terms="cite the TACL 2025 paper; the other languages are on the Hugging Face hub (aditya20t/BharatBBQ), not read here",
    items_summary=(
        f"{sum(PUBLISHED_COUNTS.values()):,} English items ({len(CATEGORIES)} "
        f"categories, {REPOSITORY}@{COMMIT[:7]})"
    ),
    options=(
        data_option("BharatBBQ's BharatBBQ_Dataset/Examples/ folder", ENV_DATA),
        OptionSpec(
            "categories",
            str,
            None,
            "comma-separated categories (default: all 13: " + ", ".join(CATEGORIES) + ")",
        ),
        STRICT_OPTION,
    ),
)
