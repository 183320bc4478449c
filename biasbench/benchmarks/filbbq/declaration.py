"""What the CLI reads of filbbq without loading it (light: no pandas, scipy or model code)."""

from __future__ import annotations

from pathlib import Path

from biasbench.engines.bbq_family.declaration import STRICT_OPTION, bbq_declaration
from biasbench.registry.interface import OptionSpec, Paper

DECLARATION = bbq_declaration(
    name="filbbq",
    benchmark=".benchmark:FilBBQBenchmark",
    languages=("fil",),
    paper=Paper(
        "Robust Bias Evaluation with FilBBQ: A Filipino Bias Benchmark for Question-Answering "
        "Language Models",
        "Gamboa, Feng, Lee, arXiv 2602.14466",
        "https://arxiv.org/abs/2602.14466",
    ),
    items_summary="10,576 (Gender_identity 7,952 regenerated; Sexual_orientation 2,624 published)",
    licence="none stated (gamboalance/filbbq@c951d3c)",
    docs_page="docs/benchmarks/filbbq.md",
    options=(
        OptionSpec(
            "items",
            str,
            None,
            "BBQ-format jsonl file(s), comma-separated, instead of "
            "items generated from the templates.",
        ),
        STRICT_OPTION,
        OptionSpec("templates", Path, None, "local copy of FilBBQ's templates/ folder."),
        OptionSpec("data_seed", int, 0, "seed of item generation."),
        OptionSpec(
            "prompt",
            Path,
            None,
            "a prompt file in the format of FilBBQ's prompt.txt "
            "(e.g. an English prompt for original BBQ items).",
        ),
        OptionSpec(
            "published_data",
            Path,
            None,
            "local copy of FilBBQ's data/ folder (the published sexual-orientation items).",
        ),
        OptionSpec(
            "regenerate_items",
            bool,
            False,
            "generate every category from the templates, not the published items.",
        ),
    ),
    data_options=(
        OptionSpec("out", Path, None, "Output folder for the generated jsonl files."),
        OptionSpec(
            "templates",
            Path,
            None,
            "Local copy of FilBBQ's templates/ folder, "
            "remembered in the cache when it matches the pinned checksums (default: "
            "$BIASBENCH_FILBBQ_TEMPLATES, the cache, or a pinned download).",
        ),
        OptionSpec("seed", int, 0, "Seed of every random draw."),
        OptionSpec(
            "subcategory_filter",
            bool,
            True,
            "Apply the templates' Subcategory "
            "restriction (the paper's 7,952 gender items); --no-subcategory-filter "
            "ignores it (8,088).",
        ),
    ),
    data_help="Generate FilBBQ items from the authors' templates (reproducible for a seed).",
)
