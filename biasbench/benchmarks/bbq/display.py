"""How the BBQ engine shows its numbers: one module for the file writers (tables/) and the
HTML report, so the two never word a table differently."""

from __future__ import annotations

import pandas as pd

from biasbench.benchmarks.bbq.robust import interval_text

PARTIAL_NOTE = "not comparable to a full run or to the paper's numbers"
"""What the summary and the report say about a partial (``--limit``) run."""


def category_display(frame: pd.DataFrame) -> pd.DataFrame:
    """The per-category table: each score's mean across seeds, its 95% interval and the
    number of seeds the score is defined in (what the mean rests on).

    ``frame`` has, per model and category, ``{score}_mean``, ``_ci_low``, ``_ci_high``,
    ``_ci_status`` and ``_n_seeds`` of each score, ``seeds_run`` and ``unparsed_pct``: the
    engine's ``by_category`` (the run's files) or the same read back from results (the report).
    """
    table = pd.DataFrame({"model": frame["model"], "category": frame["category"]})
    for score, title in (("s_amb", "s_AMB"), ("s_dis", "s_DIS"), ("acc_ambig", "acc ambig"),
                         ("acc_disambig", "acc disambig")):
        table[title] = frame[f"{score}_mean"]
        table[f"{title} 95% CI"] = [
            interval_text(lo, hi, status, n, mean) for lo, hi, status, n, mean in zip(
                frame[f"{score}_ci_low"], frame[f"{score}_ci_high"],
                frame[f"{score}_ci_status"], frame[f"{score}_n_seeds"], frame[f"{score}_mean"],
                strict=True)]
        table[f"{title} seeds"] = frame[f"{score}_n_seeds"].astype("Int64")
        if f"{score}_items_ci_status" in frame.columns:  # the interval over items (round 3)
            table[f"{title} 95% CI (items)"] = [
                f"[{lo:.3f}, {hi:.3f}] k={int(k)}" if str(st) in ("ok", "clipped") else "—"
                for lo, hi, st, k in zip(frame[f"{score}_items_ci_low"],
                                         frame[f"{score}_items_ci_high"],
                                         frame[f"{score}_items_ci_status"],
                                         frame[f"{score}_n_items"].fillna(0), strict=True)]
    table["seeds run"] = frame["seeds_run"].astype("Int64")
    table["unparsed %"] = frame["unparsed_pct"]
    if "few_items" in frame.columns:  # a context resting on fewer than MIN_ITEMS items
        table["items"] = [text if isinstance(text, str) else "" for text in frame["few_items"]]
    return table
