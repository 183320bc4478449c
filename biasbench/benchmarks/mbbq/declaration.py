"""What the CLI reads of mbbq without loading it (light: no pandas, scipy or model code)."""

from __future__ import annotations

from biasbench.benchmarks.mbbq.prompts import DEFAULT_VARIANT
from biasbench.benchmarks.mbbq.source import (
    CATEGORIES,
    CONTROL,
    ENV_DATA,
    LANGUAGES,
    MAIN,
    MBBQ_COMMIT,
    MBBQ_REPOSITORY,
    NAMESPACE_PREFIX,
    PUBLISHED_COUNTS,
)
from biasbench.engines.bbq_family.declaration import bbq_declaration, data_option
from biasbench.registry.interface import OptionSpec, Paper

SET_CHOICES = ("both", MAIN, CONTROL)
"""``--set``: MBBQ proper, its control set, or both."""

DECLARATION = bbq_declaration(
    name="mbbq",
    benchmark=".benchmark:MBBQBenchmark",
    # Files named NS/LANG=FILE of either set are read by the one reader `score mbbq` uses.
    item_readers={prefix: ".source:load_namespaced_file" for prefix in NAMESPACE_PREFIX.values()},
    languages=LANGUAGES,
    paper=Paper(
        "MBBQ: A Dataset for Cross-Lingual Comparison of Stereotypes in Generative LLMs",
        "Neplenbroek, Bisazza and Fernández, COLM 2024",
        "https://openreview.net/forum?id=X9yV4lFHt4",
    ),
    licence=f"none stated (no licence file in {MBBQ_REPOSITORY}@{MBBQ_COMMIT[:7]})",
    terms="evaluation only, not for training (its README)",
    docs_page="docs/benchmarks/mbbq.md",
    items_summary=(
        f"{sum(PUBLISHED_COUNTS[MAIN].values()):,} per language + "
        f"{sum(PUBLISHED_COUNTS[CONTROL].values()):,} control ({len(CATEGORIES)} "
        f"categories x {len(LANGUAGES)} languages, "
        f"{MBBQ_REPOSITORY}@{MBBQ_COMMIT[:7]})"
    ),
    options=(
        OptionSpec(
            "languages",
            str,
            ",".join(LANGUAGES),
            "comma-separated MBBQ languages "
            f"({', '.join(LANGUAGES)}); all in one run, scored per language.",
        ),
        OptionSpec(
            "set",
            str,
            "both",
            "MBBQ proper (main), its control set (names instead of "
            "group words: task ability apart from bias), or both (the comparison).",
            choices=SET_CHOICES,
        ),
        OptionSpec(
            "prompt_variant",
            int,
            DEFAULT_VARIANT,
            "which of the authors' five "
            "prompts (1-5, answer_detection.py order; they average over all five) is "
            "sent, in each item's language.",
        ),
        OptionSpec("categories", str, None, "comma-separated categories (default: all 6)."),
        data_option("MBBQ's data/ folder", ENV_DATA),
    ),
)
