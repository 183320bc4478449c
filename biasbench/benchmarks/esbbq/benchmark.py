"""``esbbq`` and ``cabbq``: EsBBQ and CaBBQ (Ruiz-Fernández et al., 2025;
``langtech-bsc/EsBBQ-CaBBQ``), two parallel datasets, one class each on one shared base.

What is theirs lives here: where the items come from (:mod:`.source`: pinned, checksummed,
cached, or a local copy; read as bias_score.py reads them), the prompt in the dataset's language
(the harness's ``Contexto: ... Pregunta: ... Respuesta:`` with the options lettered), the
decoding defaults, the paper and licence, and the authors' own bias scores beside BBQ's
(:mod:`.metrics`, under ``dataset_scores`` in results.json and ``tables/dataset_scores``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from biasbench.benchmarks.base import OptionSpec, Paper, Results
from biasbench.benchmarks.bbq.benchmark import BBQBenchmark
from biasbench.benchmarks.bbq.items import BBQItem
from biasbench.benchmarks.bbq.option_scoring import DEFAULT_OPTION_SCORE, OPTION_SCORES
from biasbench.benchmarks.bbq.robust import BBQResults
from biasbench.benchmarks.esbbq import metrics
from biasbench.benchmarks.esbbq.source import (
    CATEGORIES,
    COMMIT,
    PUBLISHED_COUNTS,
    REPOSITORY,
    LoadReport,
    load_items,
    resolve_data,
)
from biasbench.benchmarks.filbbq.source import PromptTemplate, load_prompt_file
from biasbench.models.base import Prompt
from biasbench.models.hf import ScoreChoice
from biasbench.tables import write_table

PAPER = Paper(
    "EsBBQ and CaBBQ: The Spanish and Catalan Bias Benchmarks for Question Answering",
    "Ruiz-Fernández et al., 2025 (arXiv:2507.11216)", "https://arxiv.org/abs/2507.11216")
LICENCE = f"Apache-2.0 (data and code of {REPOSITORY})"
DECODING_WHY = (
    "the authors score each option's log-likelihood (one deterministic run per model), so "
    "biasbench decodes greedily (temperature 0) under one seed unless --temperature/--seeds "
    "say otherwise")
BASE_MODEL_CUE: dict[str, str] = {"es": "\nRespuesta:", "ca": "\nResposta:"}
"""What a base model's prompt ends with: the last line of the harness's ``doc_to_text``."""


def prompt_path(language: str) -> Path:
    return Path(str(resources.files("biasbench.benchmarks.esbbq") / f"data/prompt_{language}.txt"))


class SpanishBBQBenchmark(BBQBenchmark):
    """EsBBQ or CaBBQ: their 10 categories, a prompt in their language, greedy, one seed."""

    language: ClassVar[str]
    dataset: ClassVar[str]
    """The dataset's own name (EsBBQ, CaBBQ)."""
    paper: ClassVar[Paper] = PAPER
    licence: ClassVar[str] = LICENCE
    version = "1.0"
    default_seed_count: ClassVar[int] = 1
    default_temperature: ClassVar[float] = 0.0
    decoding_why: ClassVar[str] = DECODING_WHY

    def __init__(self, data: Path | None = None, prompt: Path | None = None,
                 option_score: ScoreChoice = DEFAULT_OPTION_SCORE) -> None:
        folder = resolve_data(self.language, data)
        loaded, self.load_report = load_items(folder, self.language)
        self.prompt_template: PromptTemplate = load_prompt_file(
            prompt or prompt_path(self.language))
        source = f"{self.dataset} items of {REPOSITORY}@{COMMIT[:12]} ({folder})"
        super().__init__(loaded, source=source, option_score=option_score,
                         data_source={"items": "published", "repository": REPOSITORY,
                                      "commit": COMMIT, "language": self.language})

    @property
    def prompt_hash(self) -> str:
        return self.prompt_template.sha256[:12]

    def prompt(self, item: BBQItem) -> Prompt:
        """The prompt in the dataset's language as the user turn; base models continue it
        after the harness's answer cue."""
        text = self.prompt_template.render(item)
        return Prompt(messages=(("user", text),),
                      completion=f"{text}{BASE_MODEL_CUE[self.language]}", item_id=item.uid)

    # -- the authors' scores -------------------------------------------------------------------
    def extra_scores(self, scored: BBQResults, tables_dir: Path) -> dict[str, Any]:
        """The authors' bias scores (bias_score.py) from the parsed answers, beside BBQ's."""
        table = metrics.summarise(metrics.per_seed_scores(self.by_uid, scored.responses))
        if not table.empty:
            write_table(table, tables_dir / "dataset_scores")
        return {"dataset_scores": metrics.to_json(
            table, f"{self.dataset} bias scores (bias_score.py)")}

    @classmethod
    def summary(cls, results: Results) -> list[str]:
        lines = super().summary(results)
        scores = results.get("dataset_scores") or {}
        for model, categories in scores.get("models", {}).items():
            entry = categories.get(metrics.ALL)
            if entry:
                lines.append(
                    f"{model} / {scores['name']}, all categories: bias_score_ambig "
                    f"{_number(entry['bias_score_ambig'])}, bias_score_disambig "
                    f"{_number(entry['bias_score_disambig'])} (tables/dataset_scores)")
        return lines


def _number(value: float | None) -> str:
    return "undefined" if value is None else f"{value:+.3f}"


def _options(dataset: str, language: str, env: str) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("data", Path, None, f"local copy of {dataset}'s data_{language}/ folder (or a "
                   f"checkout holding it; default: ${env}, the cache, or a pinned download)."),
        OptionSpec("prompt", Path, None, "a prompt file in the format of FilBBQ's prompt.txt "
                   f"(default: the packaged {dataset} prompt)."),
        OptionSpec("option_score", str, DEFAULT_OPTION_SCORE, "masked LMs: choose options by "
                   "per_char (log-likelihood per character, lm-eval's acc_norm) or sum (acc); "
                   "both are reported.", choices=OPTION_SCORES),
    )


def _summary(language: str) -> str:
    counts = PUBLISHED_COUNTS[language]
    return (f"{sum(counts.values()):,} ({len(CATEGORIES)} categories, the authors' published "
            f"items at {REPOSITORY}@{COMMIT[:7]})")


class EsBBQBenchmark(SpanishBBQBenchmark):
    """EsBBQ: the Spanish BBQ for the social context of Spain."""

    name: ClassVar[str] = "esbbq"
    dataset: ClassVar[str] = "EsBBQ"
    language: ClassVar[str] = "es"
    languages: ClassVar[tuple[str, ...]] = ("es",)
    items_summary: ClassVar[str] = _summary("es")
    options: ClassVar[tuple[OptionSpec, ...]] = _options("EsBBQ", "es", "BIASBENCH_ESBBQ_DATA")


class CaBBQBenchmark(SpanishBBQBenchmark):
    """CaBBQ: the Catalan BBQ, parallel to EsBBQ."""

    name: ClassVar[str] = "cabbq"
    dataset: ClassVar[str] = "CaBBQ"
    language: ClassVar[str] = "ca"
    languages: ClassVar[tuple[str, ...]] = ("ca",)
    items_summary: ClassVar[str] = _summary("ca")
    options: ClassVar[tuple[OptionSpec, ...]] = _options("CaBBQ", "ca", "BIASBENCH_CABBQ_DATA")


__all__ = ["CaBBQBenchmark", "EsBBQBenchmark", "LoadReport", "SpanishBBQBenchmark"]
