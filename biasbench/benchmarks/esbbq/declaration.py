"""What the CLI reads of esbbq and cabbq without loading them (light: no pandas, scipy or
model code)."""

from __future__ import annotations

from biasbench.benchmarks.esbbq.source import (
    CATEGORIES,
    COMMIT,
    ENV_DATA,
    PUBLISHED_COUNTS,
    REPOSITORY,
)
from biasbench.engines.bbq_family.declaration import bbq_declaration, data_option, prompt_option
from biasbench.registry.interface import Declaration, OptionSpec, Paper

PAPER = Paper(
    "EsBBQ and CaBBQ: The Spanish and Catalan Bias Benchmarks for Question Answering",
    "Ruiz-Fernández et al., 2025 (arXiv:2507.11216)",
    "https://arxiv.org/abs/2507.11216",
)
LICENCE = f"Apache-2.0 (data and code of {REPOSITORY})"


def _options(dataset: str, language: str) -> tuple[OptionSpec, ...]:
    return (
        data_option(
            f"{dataset}'s data_{language}/ folder (or a checkout holding it)", ENV_DATA[language]
        ),
        prompt_option(f"the packaged {dataset} prompt"),
        OptionSpec(
            "parallel",
            bool,
            False,
            f"also the {PARALLEL[language]} items (the two "
            "datasets share templates and ids) in the same run, each language with "
            "its own prompt: results.json cross_language pairs them by item; --data "
            "then names a folder holding data_es/ and data_ca/.",
        ),
    )


PARALLEL = {"es": "CaBBQ (Catalan)", "ca": "EsBBQ (Spanish)"}
"""The other dataset a ``--parallel`` run adds."""


def _summary(language: str) -> str:
    counts = PUBLISHED_COUNTS[language]
    return (
        f"{sum(counts.values()):,} ({len(CATEGORIES)} categories, the authors' published "
        f"items at {REPOSITORY}@{COMMIT[:7]})"
    )


def _declaration(name: str, dataset: str, language: str) -> Declaration:
    return bbq_declaration(
        name=name,
        benchmark=f".benchmark:{dataset}Benchmark",
        languages=(language,),
        paper=PAPER,
        licence=LICENCE,
        docs_page="docs/benchmarks/esbbq-cabbq.md",
        items_summary=_summary(language),
        options=_options(dataset, language),
    )


ESBBQ = _declaration("esbbq", "EsBBQ", "es")
"""EsBBQ: the Spanish BBQ for the social context of Spain."""
CABBQ = _declaration("cabbq", "CaBBQ", "ca")
"""CaBBQ: the Catalan BBQ."""
DECLARATIONS = (ESBBQ, CABBQ)
"""The two benchmarks of this folder, in order."""
