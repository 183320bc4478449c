"""What the CLI reads of pbbq without loading it (light)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from biasbench.benchmarks.base import OptionSpec, Paper
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration

HUB_DATASET: Final = "abijari/PBBQ"
ENV_DATA: Final = "BIASBENCH_PBBQ_DATA"

DECLARATION = bbq_declaration(
    name="pbbq",
    benchmark=".benchmark:PBBQBenchmark",
    docs_page="docs/benchmarks/pbbq.md",
    languages=("fa",),
    paper=Paper(
        "PBBQ: A Persian Bias Benchmark Dataset Curated with Human-AI Collaboration for "
        "Large Language Models",
        "Farsi et al., 2025 (arXiv:2510.19616)",
        "https://arxiv.org/abs/2510.19616",
    ),
    licence="CC BY 4.0 (the dataset card of abijari/PBBQ)",
    terms="research use only, not to generate harmful content, reinforce stereotypes or target groups (the card)",
    items_summary=(
        "over 37,000 Persian questions, 16 categories (the paper); read from a local "
        "copy only, reader UNTESTED against the real files"
    ),
    options=(
        OptionSpec(
            "data",
            Path,
            None,
            f"folder of PBBQ's files fetched from the Hugging Face hub ({HUB_DATASET}); "
            f"default: ${ENV_DATA}",
        ),
        STRICT_OPTION,
    ),
)
