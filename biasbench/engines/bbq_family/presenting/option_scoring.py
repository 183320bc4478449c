"""The option-scoring comparison as one of the engine's analyses: results.json
``option_scoring`` and its summary line (scoring:
:mod:`biasbench.engines.bbq_family.scoring.option_scoring`). No report part."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.scoring.option_scoring import (
    option_score_comparison,
    option_scored_models,
)

if TYPE_CHECKING:
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark


class OptionScoring(Analysis):
    """Runs answered by option scores: the scores under the other choice (sum, per_char)."""

    key: ClassVar[str] = "option_scoring"
    summary_after_notes: ClassVar[bool] = True
    report_order: ClassVar[int] = 0

    def applies(self, run: Evaluation) -> bool:
        return bool(option_scored_models(run.signatures)) and "info" in run.responses.columns

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        bench = run.benchmark
        comparison = option_score_comparison(
            bench.items,
            bench.var2,
            run.responses,
            run.signatures,
            bench.target_overrides(bench.target_match),
        )
        return {} if comparison is None else {self.key: comparison}

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return [
            f"option scores: answers chosen by {entry['headline']} (the numbers above); "
            f"by {entry['alternative']} the choice differs on "
            f"{entry['n_choices_differ']} of {entry['n_responses']} responses "
            "(results.json: option_scoring)"
        ]
