"""Two analyses every BBQ-format run gets: the reliability of its scores (unparsed answers per
context condition, the scores they skew marked unreliable: scoring/reliability.py) and the two
target rules side by side (biasbench's exact rule and BBQ's substring rule:
scoring/target_rules.py). Their marks inside the per-category lines and the report's
"Read with care" callout are the engine's own (they qualify the scores table itself)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.scoring import reliability, target_rules

if TYPE_CHECKING:
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults


def mark_unreliable(entry: Mapping[str, Any], scored: BBQResults, tables: Path) -> None:
    """The by_category table again, with the unreliable scores named, when any are."""
    from biasbench.engines.bbq_family.presenting.display import category_display
    from biasbench.tables import write_table

    found = {(m, c): ", ".join(e["unreliable"]) for m, c, e in reliability.marked(dict(entry))}
    if found:
        by_category = scored.by_category
        frame = by_category.assign(
            unreliable=[
                found.get((str(m), str(c)), "")
                for m, c in zip(by_category["model"], by_category["category"], strict=True)
            ]
        )
        write_table(category_display(frame), tables / "by_category")


class Reliability(Analysis):
    """No silently skewed score: unparsed answers per context, the scores they skew."""

    key = reliability.KEY
    summary_after_notes = True
    report_order = 90

    def applies(self, run: Evaluation) -> bool:
        return True

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        found: dict[str, Any] = {}
        reliability.add_reliability(found, run.scored, run.benchmark.items, run.tables)
        mark_unreliable(found[self.key], run.scored, run.tables)
        return found

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return reliability.summary_lines(entry)


class TargetRules(Analysis):
    """Where the exact and the substring target rules disagree: the items and both scores."""

    key = target_rules.KEY
    summary_after_notes = True
    report_order = 91

    def applies(self, run: Evaluation) -> bool:
        return True

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        return {self.key: run.benchmark.target_rules_entry(run.results["models"], run.scored)}

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return target_rules.summary_lines(entry)
