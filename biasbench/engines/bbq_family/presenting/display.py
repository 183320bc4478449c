"""How the BBQ engine shows its numbers: one module for the file writers (tables/) and the
HTML report, so the two never word a table differently."""

from __future__ import annotations

import pandas as pd

from biasbench.engines.bbq_family.scoring.multi_seed import interval_text
from biasbench.stats import ITEMS_SEEDS

PARTIAL_NOTE = "not comparable to a full run or to the paper's numbers"
"""What the summary and the report say about a partial (``--limit``) run."""


def category_display(frame: pd.DataFrame) -> pd.DataFrame:
    """The per-category table: each score's mean across seeds, its default 95% interval (over
    items and seeds, "95% CI (items+seeds)", with the items it rests on), the interval across
    seeds for these items ("95% CI (seeds)") and the seeds the score is defined in.

    ``frame`` has, per model and category, ``{score}_mean``, ``_ci_low``, ``_ci_high``,
    ``_ci_status``, ``_n_items``, ``_seeds_ci_low``, ``_seeds_ci_high``, ``_seeds_ci_status``
    and ``_n_seeds`` of each score, ``seeds_run`` and ``unparsed_pct``: the engine's
    ``by_category`` (the run's files) or the same read back from results (the report).
    """
    table = pd.DataFrame({"model": frame["model"], "category": frame["category"]})
    for score, title in (("s_amb", "s_AMB"), ("s_dis", "s_DIS"), ("acc_ambig", "acc ambig"),
                         ("acc_disambig", "acc disambig")):
        table[title] = frame[f"{score}_mean"]
        table[f"{title} 95% CI ({ITEMS_SEEDS})"] = [
            interval_text(lo, hi, status, k, mean) + (
                f" k={int(k)}" if str(status) == "ok" else "")
            for lo, hi, status, k, mean in zip(
                frame[f"{score}_ci_low"], frame[f"{score}_ci_high"],
                frame[f"{score}_ci_status"], frame[f"{score}_n_items"].fillna(0),
                frame[f"{score}_mean"], strict=True)]
        table[f"{title} 95% CI (seeds)"] = [
            interval_text(lo, hi, status, n, mean) for lo, hi, status, n, mean in zip(
                frame[f"{score}_seeds_ci_low"], frame[f"{score}_seeds_ci_high"],
                frame[f"{score}_seeds_ci_status"], frame[f"{score}_n_seeds"],
                frame[f"{score}_mean"], strict=True)]
        table[f"{title} seeds"] = frame[f"{score}_n_seeds"].astype("Int64")
    table["seeds run"] = frame["seeds_run"].astype("Int64")
    table["unparsed %"] = frame["unparsed_pct"]
    if "few_items" in frame.columns:  # a context resting on fewer than MIN_ITEMS items
        table["items"] = [text if isinstance(text, str) else "" for text in frame["few_items"]]
    return table
