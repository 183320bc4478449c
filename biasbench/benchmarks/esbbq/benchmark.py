"""``esbbq`` and ``cabbq``: EsBBQ and CaBBQ (Ruiz-Fernández et al., 2025;
``langtech-bsc/EsBBQ-CaBBQ``), two parallel datasets, one class each on one shared base.

What is theirs lives here: where the items come from (:mod:`.source`: pinned, checksummed,
cached, or a local copy; read as bias_score.py reads them), the prompt in the dataset's language
(the harness's ``Contexto: ... Pregunta: ... Respuesta:`` with the options lettered), the
decoding defaults, the paper and licence, and the authors' own bias scores beside BBQ's
(:mod:`.metrics`, under ``dataset_scores`` in results.json and ``tables/dataset_scores``).
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar, Final

import pandas as pd

from biasbench.benchmarks.esbbq.declaration import CABBQ, ESBBQ
from biasbench.benchmarks.esbbq.metrics import scores_of
from biasbench.benchmarks.esbbq.source import (
    COMMIT,
    REPOSITORY,
    LoadReport,
    load_items,
    pinned_folder,
)
from biasbench.engines.bbq_family.family import (
    PromptedBBQBenchmark,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.source import resolve_pinned_folder
from biasbench.engines.bbq_family.judging.languages import rules_for
from biasbench.engines.bbq_family.prompting.prompt_files import PromptTemplate, load_prompt_file
from biasbench.engines.bbq_family.prompting.variants import engine_variants
from biasbench.errors import BiasbenchError
from biasbench.models.base import Prompt
from biasbench.registry.interface import Options

DECODING_WHY = (
    "the authors score each option's log-likelihood (one deterministic run per model), so "
    "biasbench decodes greedily (temperature 0) under one seed unless --temperature/--seeds "
    "say otherwise"
)


LANGUAGES: Final = ("es", "ca")
DATASETS: Final = {"es": "EsBBQ", "ca": "CaBBQ"}
PARALLEL_DATASET: Final = "esbbq-cabbq"
"""The dataset a ``--parallel`` run's items name (namespaces ``esbbq-cabbq/es`` and
``esbbq-cabbq/ca``): one dataset in two languages, so the engine compares them by item."""


class SpanishBBQBenchmark(PromptedBBQBenchmark):
    """EsBBQ or CaBBQ: their 10 categories, a prompt in their language, greedy, one seed;
    with ``parallel``, the other dataset's items too, for the cross-language comparison."""

    language: ClassVar[str]
    dataset: ClassVar[str]
    """The dataset's own name (EsBBQ, CaBBQ)."""
    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    prompt_files = {code: f"data/prompt_{code}.txt" for code in LANGUAGES}

    def __init__(self, options: Options) -> None:
        data, prompt, parallel = options.data, options.prompt, options.parallel
        if parallel and prompt is not None:
            raise BiasbenchError(
                "--prompt names one language's prompt; with --parallel each "
                "language is asked with its packaged prompt"
            )
        codes = (
            (self.language, *(c for c in LANGUAGES if c != self.language))
            if parallel
            else (self.language,)
        )
        loaded, folders = [], []
        for code in codes:
            folder = resolve_pinned_folder(pinned_folder(code), data)
            items, report = load_items(folder, code)
            if code == self.language:
                self.load_report = report
            if parallel:  # one dataset in two languages: the engine pairs them by item
                items = [
                    i.model_copy(update={"namespace": f"{PARALLEL_DATASET}/{code}"}) for i in items
                ]
            loaded.extend(items)
            folders.append(str(folder))
        self.use_prompt(prompt or self.packaged_prompt(self.language))
        self.prompts = {
            code: load_prompt_file(prompt or self.packaged_prompt(code)) for code in codes
        }
        self.parallel = parallel
        names = " and ".join(DATASETS[c] for c in codes)
        source = f"{names} items of {REPOSITORY}@{COMMIT[:12]} ({', '.join(folders)})"
        data_source: dict[str, Any] = {
            "items": "published",
            "repository": REPOSITORY,
            "commit": COMMIT,
            "language": self.language,
        }
        if parallel:
            data_source["languages"] = list(codes)
        super().__init__(loaded, source=source, data_source=data_source)

    # -- the prompt in each item's language (one language unless --parallel) -----------------
    @property
    def prompt_hash(self) -> str:
        if not self.parallel:
            return super().prompt_hash
        joined = "".join(f"{c}:{t.sha256}" for c, t in sorted(self.prompts.items()))
        return hashlib.sha256(joined.encode()).hexdigest()[:12]

    def prompt(self, item: BBQItem) -> Prompt:
        if not self.parallel:
            return super().prompt(item)
        return self._prompt_from(self.prompts[item.language or self.language], item)

    def variant_prompt(self, item: BBQItem, variant: str) -> Prompt:
        if not self.parallel:
            return super().variant_prompt(item, variant)
        template = self.prompts[item.language or self.language]
        return self._prompt_from(engine_variants(template)[variant], item)

    def _prompt_from(self, template: PromptTemplate, item: BBQItem) -> Prompt:
        if not self.parallel:
            return super()._prompt_from(template, item)
        text = template.render(item)
        cue = rules_for(item.language or self.language).answer_cue  # Respuesta: / Resposta:
        return Prompt(messages=(("user", text),), completion=f"{text}{cue}", item_id=item.uid)

    def own_responses(self, responses: pd.DataFrame) -> pd.DataFrame:
        """With --parallel, the other dataset's items are BBQ-scored and compared, but the
        authors' scores stay this dataset's (the other's come from its own run)."""
        if not self.parallel:
            return responses
        own = {
            uid
            for uid, item in self.by_uid.items()
            if (item.language or self.language) == self.language
        }
        return responses[responses["uid"].isin(own)]


class EsBBQBenchmark(SpanishBBQBenchmark, declaration=ESBBQ):
    """EsBBQ: the Spanish BBQ for the social context of Spain."""

    dataset: ClassVar[str] = "EsBBQ"
    language: ClassVar[str] = "es"
    dataset_scores = scores_of(dataset)


class CaBBQBenchmark(SpanishBBQBenchmark, declaration=CABBQ):
    """CaBBQ: the Catalan BBQ, parallel to EsBBQ."""

    dataset: ClassVar[str] = "CaBBQ"
    language: ClassVar[str] = "ca"
    dataset_scores = scores_of(dataset)


__all__ = ["CaBBQBenchmark", "EsBBQBenchmark", "LoadReport", "SpanishBBQBenchmark"]
