"""What the CLI reads of pakbbq without loading it (light: no pandas, scipy or model code)."""

from __future__ import annotations

from biasbench.benchmarks.base import OptionSpec, Paper
from biasbench.benchmarks.pakbbq.source import CATEGORIES, COMMIT, ENV_DATA, REPOSITORY
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration, data_option

DECLARATION = bbq_declaration(
    name="pakbbq",
    benchmark=".benchmark:PakBBQBenchmark",
    docs_page="docs/benchmarks/pakbbq.md",
    languages=("en", "ur"),
    paper=Paper(
        "PakBBQ: A Culturally Adapted Bias Benchmark for QA",
        "Hashmat et al., EMNLP 2025 (arXiv:2508.10186)",
        "https://arxiv.org/abs/2508.10186",
    ),
    licence="not stated: the repository carries no licence file (all rights reserved by default)",
    terms="cite the paper",
    items_summary=(
        f"English and Urdu, the same items in each ({len(CATEGORIES)} categories; "
        f"11,796 per language outside SES, {REPOSITORY}@{COMMIT[:7]})"
    ),
    options=(
        data_option("PakBBQ's PakBBQ/ folder (PakBBQ_ENG/ and PakBBQ_UR/)", ENV_DATA),
        OptionSpec(
            "languages",
            str,
            "en,ur",
            "en, ur or en,ur (both in one run, paired by item for the cross-language comparison)",
        ),
        OptionSpec(
            "categories",
            str,
            None,
            "comma-separated categories (default: all: " + ", ".join(CATEGORIES) + ")",
        ),
        STRICT_OPTION,
    ),
)
