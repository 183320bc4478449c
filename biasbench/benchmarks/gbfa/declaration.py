"""What the CLI reads of gbfa without loading it (light)."""

from __future__ import annotations

from biasbench.benchmarks.base import OptionSpec, Paper
from biasbench.benchmarks.gbfa.source import COMMIT, ENV_DATA, PUBLISHED_COUNT, REPOSITORY
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration, data_option

DECLARATION = bbq_declaration(
    name="gbfa",
    benchmark=".benchmark:GBFABenchmark",
    docs_page="docs/benchmarks/gbfa.md",
    languages=("fa", "en"),
    paper=Paper(
        "Measuring Gender Bias in Language Models in Farsi",
        "Saffari et al., GeBNLP 2025",
        "https://aclanthology.org/2025.gebnlp-1.21/",
    ),
    licence="not stated: hamidds/GBFA carries no licence file (all rights reserved by default)",
    terms="cite the paper; derived from BBQ (CC BY 4.0)",
    items_summary=(
        f"{PUBLISHED_COUNT} Persian items (BBQ Gender_identity, with their English "
        f"source; {REPOSITORY}@{COMMIT[:7]})"
    ),
    options=(
        data_option("GBFA's repository folder (holding BBQ-Fa.csv)", ENV_DATA),
        OptionSpec(
            "languages",
            str,
            "fa",
            "fa, en or fa,en (the Persian items and the English "
            "rows they were translated from, paired by item)",
        ),
        STRICT_OPTION,
    ),
)
