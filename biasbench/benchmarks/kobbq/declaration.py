"""What the CLI reads of kobbq without loading it (light: no pandas, scipy or model code)."""

from __future__ import annotations

from biasbench.benchmarks.kobbq.source import (
    ENV_DATA,
    KOBBQ_COMMIT,
    KOBBQ_REPOSITORY,
    PERMUTATIONS,
    PUBLISHED_COUNTS,
    TEST_FILE,
)
from biasbench.engines.bbq_family.declaration import bbq_declaration, data_option
from biasbench.registry.interface import OptionSpec, Paper

_SAMPLES = sum(PUBLISHED_COUNTS.values())

DECLARATION = bbq_declaration(
    name="kobbq",
    benchmark=".benchmark:KoBBQBenchmark",
    languages=("ko",),
    output_language="ko",
    paper=Paper(
        "KoBBQ: Korean Bias Benchmark for Question Answering",
        "Jin et al., TACL 2024",
        "https://doi.org/10.1162/tacl_a_00661",
    ),
    licence="MIT (naver-ai/KoBBQ)",
    terms=(
        "not as training data to generate and publish biased language targeting groups (its README)"
    ),
    docs_page="docs/benchmarks/kobbq.md",
    items_summary=(
        f"{_SAMPLES * PERMUTATIONS:,} ({_SAMPLES:,} test samples x {PERMUTATIONS} "
        f"choice orders, {len(PUBLISHED_COUNTS)} categories, "
        f"{KOBBQ_REPOSITORY}@{KOBBQ_COMMIT[:7]})"
    ),
    options=(
        data_option(f"KoBBQ's data/ folder (holding {TEST_FILE})", ENV_DATA),
        OptionSpec(
            "prompt_id",
            int,
            1,
            "KoBBQ's evaluation prompt 1-5 (0_evaluation_prompts"
            ".tsv), with its own wording of the unknown option.",
        ),
        OptionSpec(
            "permute",
            bool,
            True,
            "ask every sample in its 3 circulant choice orders, "
            "as the authors' 1_preprocess.py does (--no-permute: the file's order only).",
        ),
    ),
)
