"""What the CLI reads of bbq (the original English BBQ) without loading it (light: no pandas,
scipy or model code)."""

from __future__ import annotations

from pathlib import Path

from biasbench.benchmarks.bbq.original import (
    BBQ_COMMIT,
    BBQ_REPOSITORY,
    CATEGORIES,
    PUBLISHED_COUNTS,
)
from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration, prompt_option
from biasbench.registry.interface import OptionSpec, Paper

DECLARATION = bbq_declaration(
    name="bbq",
    benchmark=".benchmark:OriginalBBQBenchmark",
    languages=("en",),
    paper=Paper(
        "BBQ: A Hand-Built Bias Benchmark for Question Answering",
        "Parrish et al., Findings of ACL 2022",
        "https://aclanthology.org/2022.findings-acl.165",
    ),
    items_summary=(
        f"{sum(PUBLISHED_COUNTS.values()):,} ({len(CATEGORIES)} categories, the "
        f"authors' published items at {BBQ_REPOSITORY}@{BBQ_COMMIT[:7]})"
    ),
    licence="CC BY 4.0 (nyu-mll/BBQ)",
    docs_page="docs/benchmarks/bbq.md",
    options=(
        OptionSpec(
            "items",
            str,
            None,
            "BBQ-format jsonl file(s), comma-separated, instead of "
            "the published items; NAMESPACE=FILE (mbbq/es=Age_es.jsonl) for files of "
            "several languages.",
        ),
        STRICT_OPTION,
        OptionSpec(
            "data",
            Path,
            None,
            "local copy of BBQ's data/ folder (the 11 published "
            "item files; default: $BIASBENCH_BBQ_DATA, the cache, or a pinned download).",
        ),
        OptionSpec(
            "templates",
            Path,
            None,
            "local copy of BBQ's templates/ folder (scoring the "
            "intersectional items reads their Known_stereotyped_var2 there).",
        ),
        prompt_option("the packaged English prompt"),
    ),
    data_options=(
        OptionSpec(
            "templates",
            Path,
            None,
            "Local copy of BBQ's templates/ folder (default: "
            "$BIASBENCH_BBQ_TEMPLATES, the cache, or a pinned download).",
        ),
        OptionSpec("seed", int, 0, "Seed of every random draw."),
        OptionSpec("categories", str, None, "Comma-separated categories (default: all 11)."),
    ),
    data_help=(
        "Generate BBQ items from the authors' template CSVs (the published count in "
        "every category; reproducible for a seed)."
    ),
)
