"""What the CLI reads of jbbq without loading it (light: no pandas, scipy or model code), and
the facts of the dataset it states."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from biasbench.engines.bbq_family.declaration import bbq_declaration, prompt_option
from biasbench.registry.interface import OptionSpec, Paper

REPOSITORY: Final = "ynklab/JBBQ_data"
ENV_DATA: Final = "BIASBENCH_JBBQ_DATA"
LANGUAGE: Final = "ja"
PUBLISHED_COUNTS: Final = {
    "Age": 28176,
    "Disability_status": 8064,
    "Gender_identity": 3912,
    "Physical_appearance": 7536,
    "Sexual_orientation": 3168,
}
"""The README's counts (50,856 in all). Its English text calls them "question pairs (negative
and non-negative questions)", its Japanese text 問題数 (number of questions); biasbench compares
them with the number of items (rows) read and warns where they differ."""
LICENCE: Final = f"none stated ({REPOSITORY})"
TERMS: Final = (
    "request-only (a form); redistribution prohibited (its README); not shipped or downloaded"
)

DECLARATION = bbq_declaration(
    name="jbbq",
    benchmark=".benchmark:JBBQBenchmark",
    languages=(LANGUAGE,),
    paper=Paper(
        "JBBQ: Japanese Bias Benchmark for Analyzing Social Biases in Large Language Models",
        "Yanaka et al., GeBNLP 2025",
        "https://arxiv.org/abs/2406.02050",
    ),
    licence=LICENCE,
    terms=TERMS,
    docs_page="docs/benchmarks/jbbq.md",
    items_summary=(
        f"{sum(PUBLISHED_COUNTS.values()):,} per the README "
        f"({len(PUBLISHED_COUNTS)} categories; a local copy: --data DIR or "
        f"${ENV_DATA})"
    ),
    options=(
        OptionSpec(
            "data",
            Path,
            None,
            "the folder of JBBQ's .jsonl files as the authors sent "
            f"them (default: ${ENV_DATA}; JBBQ is not downloadable: see its README).",
        ),
        prompt_option("the packaged Japanese prompt"),
    ),
)
