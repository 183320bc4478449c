"""Refusals apart, as one of the engine's analyses: results.json ``refusals``, tables/refusals (.csv/.md/.tex), the summary lines
and the report's part (scoring: :mod:`biasbench.engines.bbq_family.scoring.refusals`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

import pandas as pd

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.scoring.refusals import (
    ALL_CATEGORIES,
    HEADLINE_POLICY,
    POLICIES,
    POLICY_TEXT,
    SAME,
    SCORES,
    frame_from_results,
    refusal_results,
    refusal_scores,
    with_grid_methods,
)
from biasbench.tables import write_table

if TYPE_CHECKING:
    from biasbench.display import Outputs
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.runfolder.grouping import RunGroup

TABLE_NAME: Final = "refusals"
SCORE_NAMES: Final = {"s_amb": "s_AMB", "s_dis": "s_DIS"}
NOTE: Final = (
    "Every answer is an option, a refusal (the parser's outcome 'refusal', in the item's "
    "language or English) or unparsed. refused %: refusals as % of all responses (also per "
    "context condition); unparsed %: the other answers that matched no option. Each score is "
    "the mean across seeds under each policy for the refusals: "
    + "; ".join(f"{p}: {t}" for p, t in POLICY_TEXT.items())
    + ". range: [min, max] over the three policies ('=' where they agree)."
)


def _signed(value: Any) -> str:
    return "undefined" if value is None or pd.isna(value) else f"{float(value):+.3f}"


def range_text(low: Any, high: Any, differs: Any) -> str:
    """ "[+0.100, +0.500]", or "= +0.167" where every policy gives the same score."""
    if low is None or pd.isna(low):
        return "undefined"
    if not differs:
        return f"= {_signed(low)}"
    if float(high) - float(low) <= SAME:  # equal where defined, undefined under another policy
        return f"{_signed(low)} where defined"
    return f"[{_signed(low)}, {_signed(high)}]"


def _score_text(name: str, entry: dict[str, Any]) -> str:
    headline = _signed(entry.get(HEADLINE_POLICY))
    if not entry.get("differs"):
        return f"{name} {headline} under every policy"
    others = ", ".join(f"{p} {_signed(entry.get(p))}" for p in POLICIES if p != HEADLINE_POLICY)
    return (
        f"{name} {headline} {HEADLINE_POLICY} (headline), range "
        f"{range_text(entry.get('low'), entry.get('high'), True)} over policies ({others})"
    )


def summary_lines(block: dict[str, Any]) -> list[str]:
    """One line per model that refused at least once (over all its categories)."""
    lines = []
    for model, categories in (block.get("models") or {}).items():
        entry = categories.get(ALL_CATEGORIES) or {}
        if not entry.get("n_refused"):
            continue
        contexts = ", ".join(
            f"{name} {entry[key]:.1f}%"
            for key, name in (
                ("refused_pct_ambig", "ambiguous"),
                ("refused_pct_disambig", "disambiguated"),
            )
            if entry.get(key) is not None
        )
        lines.append(
            f"{model}: refused {entry['refused_pct']:.1f}% ({contexts}; other unparsed "
            f"{entry['unparsed_pct']:.1f}%): "
            + "; ".join(_score_text(SCORE_NAMES[s], entry.get(s) or {}) for s in SCORES)
            + f" (results.json: refusals, tables/{TABLE_NAME}.csv)"
        )
    return lines


def refusal_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows as the report shows them: rates, the headline score and its range."""
    table = pd.DataFrame({"model": frame["model"], "category": frame["category"]})
    if "language" in frame and frame["language"].fillna("").astype(bool).any():
        table["language"] = frame["language"].fillna("")
    table["refused %"] = frame["refused_pct"]
    table["refused % ambig"] = frame["refused_pct_ambig"]
    table["refused % disambig"] = frame["refused_pct_disambig"]
    table["unparsed %"] = frame["unparsed_pct"]
    for score, name in SCORE_NAMES.items():
        for policy in POLICIES:
            table[f"{name} {policy}"] = frame[f"{score}_{policy}"]
        values = frame[[f"{score}_{p}" for p in POLICIES]].astype(float)
        # folders written before a policy's undefined score counted as differing say so too
        differs = frame[f"{score}_differs"].astype(bool) | (
            values.isna().any(axis=1) & values.notna().any(axis=1)
        )
        table[f"{name} range"] = [
            range_text(lo, hi, d)
            for lo, hi, d in zip(
                frame[f"{score}_low"], frame[f"{score}_high"], differs, strict=True
            )
        ]
    return table


def report_part(group: RunGroup, output: Outputs) -> None:
    """The report's "Refusals apart" table (runs without a ``refusals`` block add nothing)."""
    frame = group.results_frame("refusals", frame_from_results)
    if frame is None:
        return
    refused = frame.loc[frame["category"] == ALL_CATEGORIES, "n_refused"].sum()
    note = NOTE if refused else f"No response was a refusal. {NOTE}"
    output.table(
        refusal_table(frame),
        TABLE_NAME,
        "Refusals apart",
        note=note,
        decimals={"refused %": 1, "refused % ambig": 1, "refused % disambig": 1, "unparsed %": 1},
    )


class Refusals(Analysis):
    """Refusal and unparsed rates, s_AMB / s_DIS under three policies for the refusals: every
    run."""

    key: ClassVar[str] = "refusals"
    report_order: ClassVar[int] = 70

    def applies(self, run: Evaluation) -> bool:
        return True

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        """results.json's ``refusals``; tables/ gets ``refusals.csv`` (with .md and .tex). A
        grid run's parser outcomes are its cells' (the scores themselves come from
        ``scored``)."""
        responses = with_grid_methods(run.scored.responses, run.responses) if run.is_grid else None
        frame = refusal_scores(run.scored, run.benchmark.items, run.benchmark.var2, responses)
        entry = refusal_results(frame)
        write_table(frame, run.tables / TABLE_NAME)
        return {self.key: entry}

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        return summary_lines(entry)

    def report_part(self, group: RunGroup, output: Outputs) -> None:
        report_part(group, output)
