"""``kobbq``: KoBBQ, the Korean Bias Benchmark for Question Answering (Jin et al., TACL 2024;
``naver-ai/KoBBQ``, MIT licence).

What is KoBBQ's own lives here: its test samples, pinned and read as its evaluation scripts read
them (:mod:`biasbench.benchmarks.kobbq.source`: three choice orders per sample, targets from
``biased_answer``), its five Korean evaluation prompts (``data/prompt_ko_N.txt``, from
evaluation/0_evaluation_prompts.tsv, with their own unknown wordings), greedy decoding as
evaluation/2_model_inference.py runs it, and its metrics (accuracy and diff-bias,
:mod:`biasbench.benchmarks.kobbq.scores`) beside BBQ's s_AMB / s_DIS from the same engine.
"""

from __future__ import annotations

from typing import ClassVar, Final

from biasbench.benchmarks.kobbq.declaration import DECLARATION
from biasbench.benchmarks.kobbq.scores import KOBBQ_SCORES
from biasbench.benchmarks.kobbq.source import (
    KOBBQ_COMMIT,
    KOBBQ_REPOSITORY,
    TEST_FILE,
    kobbq_items,
    resolve_kobbq_data,
)
from biasbench.engines.bbq_family.family import PromptedBBQBenchmark
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.prompting.prompt_files import load_prompt_file
from biasbench.errors import BiasbenchError
from biasbench.models.base import Prompt
from biasbench.registry.interface import Options

PROMPT_UNKNOWN: Final = {
    1: "알 수 없음",
    2: "보기 중 답을 찾을 수 없음",
    3: "주어진 정보만으로는 답을 알 수 없음",
    4: "정답 없음",
    5: "답을 확정할 수 없음",
}
"""Each evaluation prompt's wording of the unknown option (0_evaluation_prompts.tsv ``unknown``):
an override of Korean's ``unknown_text`` in the language table, as the authors word it per
prompt (prompt 1's is the table's)."""
PROMPT_CUE: Final = {1: "\n정답:", 2: "\n정답:", 3: "\n답:", 4: "\n답:", 5: "\n답:"}
"""Each prompt's last line, the answer cue (``answer`` column): an override of Korean's
``answer_cue`` in the language table, set as ``answer_cue`` because the authors send it to chat
models too, so chat and base models get the same text ending in it."""

DECODING_WHY: Final = (
    "KoBBQ's evaluation/2_model_inference.py queries every model greedily, once per prompt, so "
    "biasbench decodes greedily (temperature 0) under one seed unless --temperature/--seeds "
    "say otherwise"
)


class KoBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """KoBBQ's test set (2,280 samples x 3 choice orders) in Korean, greedy, one seed."""

    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    dataset_scores = KOBBQ_SCORES
    prompt_files = {str(i): f"data/prompt_ko_{i}.txt" for i in PROMPT_UNKNOWN}
    """Its five evaluation prompts, by id (``--prompt-id``)."""

    def __init__(self, options: Options) -> None:
        data, prompt_id, permute = options.data, options.prompt_id, options.permute
        if prompt_id not in PROMPT_UNKNOWN:
            raise BiasbenchError(
                f"--prompt-id must be one of 1-5 (KoBBQ's evaluation prompts), not {prompt_id}"
            )
        self.prompt_id = prompt_id
        folder = resolve_kobbq_data(data)
        loaded = kobbq_items(folder / TEST_FILE, PROMPT_UNKNOWN[prompt_id], permute=permute)
        self.use_prompt(self.packaged_prompt(str(prompt_id)))
        self.answer_cue = PROMPT_CUE[prompt_id]
        super().__init__(
            loaded,
            source=f"{TEST_FILE} of {KOBBQ_REPOSITORY}@{KOBBQ_COMMIT[:12]}",
            data_source={
                "items": "published",
                "repository": KOBBQ_REPOSITORY,
                "commit": KOBBQ_COMMIT,
                "file": TEST_FILE,
                "prompt_id": prompt_id,
                "permute": permute,
            },
        )

    # -- the robustness grid: KoBBQ's five prompts, each with its unknown wording -----------
    def prompt_variants(self) -> tuple[str, ...]:
        return tuple(
            str(i) for i in (self.prompt_id, *(p for p in PROMPT_UNKNOWN if p != self.prompt_id))
        )

    def variant_item(self, item: BBQItem, variant: str) -> BBQItem:
        unknown = item.unknown_index
        if int(variant) == self.prompt_id or unknown is None:
            return item
        wording = PROMPT_UNKNOWN[int(variant)]
        info = {
            **item.answer_info,
            f"ans{unknown}": [wording, *item.answer_info[f"ans{unknown}"][1:]],
        }
        return item.model_copy(update={f"ans{unknown}": wording, "answer_info": info})

    def variant_prompt(self, item: BBQItem, variant: str) -> Prompt:
        v = int(variant)
        text = load_prompt_file(self.packaged_prompt(variant)).render(item) + PROMPT_CUE[v]
        return Prompt(
            messages=(("user", text),),
            completion=f"{text}{self.completion_cue()}",
            item_id=item.uid,
        )
