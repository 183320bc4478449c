"""``cbbq``: CBBQ, a Chinese Bias Benchmark Dataset (Huang & Xiong, LREC-COLING 2024;
``YFHuangxxxx/CBBQ``, CC BY-SA 4.0).

What is CBBQ's own lives here: its item files, pinned and read as its evaluation scripts read
them (:mod:`biasbench.benchmarks.cbbq.source`), its Chinese prompt (``data/prompt_zh.txt``, the
evaluation scripts' own, ending in ``。答案：``), and its bias score (S_amb, S_disamb, S_total:
:mod:`biasbench.benchmarks.cbbq.scores`) beside BBQ's s_AMB / s_DIS from the same engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from biasbench.benchmarks.cbbq.declaration import DECLARATION, PROMPT_VARIANTS
from biasbench.benchmarks.cbbq.scores import CBBQ_SCORES
from biasbench.benchmarks.cbbq.source import (
    CBBQ_COMMIT,
    CBBQ_REPOSITORY,
    apply_target_rule,
    load_cbbq,
    parse_categories,
    resolve_cbbq_data,
    target_rule_check,
)
from biasbench.engines.bbq_family.family import PromptedBBQBenchmark
from biasbench.models.base import GenerationParams
from biasbench.registry.interface import Options
from biasbench.signature import Signature

ANSWER_CUE: Final = "。答案："
"""An override of Chinese's ``answer_cue`` in the language table (``答案：``): the scripts'
prompt runs into it after a full stop, and chat and base models get the same text."""
DECODING_WHY: Final = (
    "CBBQ's scripts sample (GPT-3.5 at temperature 0.5, others 0.35-0.7) once per item; "
    "biasbench decodes greedily (temperature 0) under one seed so a run is reproducible, unless "
    "--temperature/--seeds say otherwise"
)


# PROMPT_VARIANTS (declaration.py): the authors' two prompt wordings.


class CBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """CBBQ's 14 categories in Chinese, greedy, one seed; the scripts' positional targets."""

    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    answer_cue = ANSWER_CUE
    dataset_scores = CBBQ_SCORES
    prompt_files = PROMPT_VARIANTS

    def __init__(self, options: Options) -> None:
        data, categories, target_rule = options.data, options.categories, options.target_rule
        prompt_variant, s_amb_denominator = options.prompt_variant, options.s_amb_denominator
        # The choices of these options were checked once, against the declaration.
        self.s_amb_denominator = s_amb_denominator
        chosen = parse_categories(categories)
        folder = resolve_cbbq_data(data, chosen)
        loaded = load_cbbq(folder, chosen)
        self.target_rule = target_rule
        self.rule_check = target_rule_check(loaded)  # on the scripts' rule, before any flip
        loaded = apply_target_rule(loaded, target_rule)
        self.use_prompt(self.packaged_prompt(prompt_variant))
        super().__init__(
            loaded,
            source=f"data/ of {CBBQ_REPOSITORY}@{CBBQ_COMMIT[:12]}",
            data_source={
                "items": "published",
                "repository": CBBQ_REPOSITORY,
                "commit": CBBQ_COMMIT,
                "categories": list(chosen),
                "target_rule": target_rule,
                "s_amb_denominator": s_amb_denominator,
            },
        )

    def signature(
        self,
        model: dict[str, Any],
        params: GenerationParams | None,
        seeds: Sequence[int] | None,
        limit: int | None = None,
    ) -> Signature:
        """The engine's signature; the authors' S_amb denominator also marks the judge, so its
        results show it in the short form and are not merged with the default's."""
        signature = super().signature(model, params, seeds, limit)
        if self.s_amb_denominator == "parsed":
            return signature
        return signature.model_copy(
            update={"judge_version": f"{signature.judge_version}+s_amb:{self.s_amb_denominator}"}
        )
