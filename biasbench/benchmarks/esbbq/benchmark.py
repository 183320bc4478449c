"""``esbbq`` and ``cabbq``: EsBBQ and CaBBQ (Ruiz-Fernández et al., 2025;
``langtech-bsc/EsBBQ-CaBBQ``), two parallel datasets, one class each on one shared base.

What is theirs lives here: where the items come from (:mod:`.source`: pinned, checksummed,
cached, or a local copy; read as bias_score.py reads them), the prompt in the dataset's language
(the harness's ``Contexto: ... Pregunta: ... Respuesta:`` with the options lettered), the
decoding defaults, the paper and licence, and the authors' own bias scores beside BBQ's
(:mod:`.metrics`, under ``dataset_scores`` in results.json and ``tables/dataset_scores``).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.esbbq.declaration import CABBQ, ESBBQ
from biasbench.benchmarks.esbbq.metrics import scores_of
from biasbench.benchmarks.esbbq.source import (
    COMMIT,
    REPOSITORY,
    LoadReport,
    load_items,
    resolve_data,
)
from biasbench.engines.bbq_family.family import (
    PromptedBBQBenchmark,
    packaged_file,
)

DECODING_WHY = (
    "the authors score each option's log-likelihood (one deterministic run per model), so "
    "biasbench decodes greedily (temperature 0) under one seed unless --temperature/--seeds "
    "say otherwise")


def prompt_path(language: str) -> Path:
    return packaged_file("biasbench.benchmarks.esbbq", f"data/prompt_{language}.txt")


class SpanishBBQBenchmark(PromptedBBQBenchmark):
    """EsBBQ or CaBBQ: their 10 categories, a prompt in their language, greedy, one seed."""

    language: ClassVar[str]
    dataset: ClassVar[str]
    """The dataset's own name (EsBBQ, CaBBQ)."""
    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY

    def __init__(self, data: Path | None = None, prompt: Path | None = None) -> None:
        folder = resolve_data(self.language, data)
        loaded, self.load_report = load_items(folder, self.language)
        self.use_prompt(prompt or prompt_path(self.language))
        source = f"{self.dataset} items of {REPOSITORY}@{COMMIT[:12]} ({folder})"
        super().__init__(loaded, source=source,
                         data_source={"items": "published", "repository": REPOSITORY,
                                      "commit": COMMIT, "language": self.language})


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
