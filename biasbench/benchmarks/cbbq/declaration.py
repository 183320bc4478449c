"""What the CLI reads of cbbq without loading it (light: no pandas, scipy or model code)."""

from __future__ import annotations

from typing import Final

from biasbench.benchmarks.cbbq.source import (
    CATEGORIES,
    CBBQ_COMMIT,
    CBBQ_REPOSITORY,
    ENV_DATA,
    S_AMB_DENOMINATORS,
    TARGET_RULES,
)
from biasbench.engines.bbq_family.declaration import bbq_declaration, data_option
from biasbench.registry.interface import OptionSpec, Paper

PROMPT_VARIANTS: Final = {
    "chatglm": "data/prompt_zh.txt",
    "chatgpt-3.5": "data/prompt_zh_chatgpt.txt",
}
"""The authors' two prompt wordings: ChatGLM's (also GLM's and bloom's) neutral one, the default,
and chatgpt-3.5's, which adds a debiasing instruction (MOSS and bloomz add one too)."""

DECLARATION = bbq_declaration(
    name="cbbq",
    benchmark=".benchmark:CBBQBenchmark",
    languages=("zh",),
    output_language="zh",
    paper=Paper(
        "CBBQ: A Chinese Bias Benchmark Dataset Curated with Human-AI Collaboration for Large "
        "Language Models",
        "Huang & Xiong, LREC-COLING 2024",
        "https://aclanthology.org/2024.lrec-main.260",
    ),
    licence="CC BY-SA 4.0 (YFHuangxxxx/CBBQ)",
    docs_page="docs/benchmarks/cbbq.md",
    items_summary=(
        f"about 100K (the README: 106,588; {len(CATEGORIES)} categories x ambiguous "
        f"and disambiguated files, {CBBQ_REPOSITORY}@{CBBQ_COMMIT[:7]})"
    ),
    options=(
        data_option("CBBQ's data/ folder (<category>/{ambiguous,disambiguous}/*.json)", ENV_DATA),
        OptionSpec("categories", str, None, "comma-separated CBBQ categories (default: all 14)."),
        OptionSpec(
            "target_rule",
            str,
            "script",
            "script: the biased answer is option A of a "
            "neg question and B of a non_neg one, as CBBQ's evaluation scripts count it; "
            "labels: reversed in categories whose disambiguated labels name that answer "
            "as correct (docs/benchmarks/cbbq.md).",
            choices=TARGET_RULES,
        ),
        OptionSpec(
            "prompt_variant",
            str,
            "chatglm",
            "chatglm: the authors' neutral prompt "
            "(their ChatGLM, GLM and bloom scripts); chatgpt-3.5: theirs with the "
            "instruction to answer without stereotypes (lowers the bias measured).",
            choices=tuple(PROMPT_VARIANTS),
        ),
        OptionSpec(
            "s_amb_denominator",
            str,
            "parsed",
            "parsed: S_amb divides by the parsed "
            "ambiguous answers (unparsed ones left out and counted); examples: by every "
            "ambiguous example, an unparsed answer counting as not biased, as the "
            "authors' evaluate_amb.py divides. The summary shows both when they differ.",
            choices=S_AMB_DENOMINATORS,
        ),
    ),
)
