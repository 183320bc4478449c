"""How the BBQ engine shows its numbers: one module for the file writers (tables/) and the
HTML report, so the two never word a table differently, and the summary's text of a score."""

from __future__ import annotations

from typing import Any

import pandas as pd

from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults, interval_text
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
    for score, title in (
        ("s_amb", "s_AMB"),
        ("s_dis", "s_DIS"),
        ("acc_ambig", "acc ambig"),
        ("acc_disambig", "acc disambig"),
    ):
        table[title] = frame[f"{score}_mean"]
        table[f"{title} 95% CI ({ITEMS_SEEDS})"] = [
            interval_text(lo, hi, status, k, mean) + (f" k={int(k)}" if str(status) == "ok" else "")
            for lo, hi, status, k, mean in zip(
                frame[f"{score}_ci_low"],
                frame[f"{score}_ci_high"],
                frame[f"{score}_ci_status"],
                frame[f"{score}_n_items"].fillna(0),
                frame[f"{score}_mean"],
                strict=True,
            )
        ]
        table[f"{title} 95% CI (seeds)"] = [
            interval_text(lo, hi, status, n, mean)
            for lo, hi, status, n, mean in zip(
                frame[f"{score}_seeds_ci_low"],
                frame[f"{score}_seeds_ci_high"],
                frame[f"{score}_seeds_ci_status"],
                frame[f"{score}_n_seeds"],
                frame[f"{score}_mean"],
                strict=True,
            )
        ]
        table[f"{title} seeds"] = frame[f"{score}_n_seeds"].astype("Int64")
    table["seeds run"] = frame["seeds_run"].astype("Int64")
    table["unparsed %"] = frame["unparsed_pct"]
    if "few_items" in frame.columns:  # a context resting on fewer than MIN_ITEMS items
        table["items"] = [text if isinstance(text, str) else "" for text in frame["few_items"]]
    if "unreliable" in frame.columns and frame["unreliable"].astype(bool).any():
        # scores that unparsed answers skew (scoring/reliability.py)
        table["unreliable"] = [
            text if isinstance(text, str) else "" for text in frame["unreliable"]
        ]
    return table


def category_table(scored: BBQResults) -> pd.DataFrame:
    """Per model and category: each score's mean, 95% interval and the seeds it rests on (the
    same table, in the same words, as the report's)."""
    return category_display(scored.by_category)


def score_text(stat: dict[str, Any], sign: str = "+") -> str:
    """A score as the summary shows it: mean, its default interval named by what it covers
    (items+seeds, with the items it rests on), then the interval across seeds for these items
    and the seeds; bias scores carry their sign."""
    if stat["mean"] is None:
        return "undefined (0 seeds)"
    named = stat.get("interval", "seeds")
    if named == "seeds":  # a slice without per-item counts
        return f"{stat['mean']:{sign}.3f} {_seeds_text(stat, sign)}"
    k = stat.get("n_items") or 0
    default = interval_text(
        stat["ci_low"], stat["ci_high"], stat["ci_status"], k, stat["mean"], sign=sign
    )
    if stat["ci_status"] == "ok":
        default += f" {named} k={k}"
    return f"{stat['mean']:{sign}.3f} {default}; seeds {_seeds_text(stat, sign)}"


def _seeds_text(stat: dict[str, Any], sign: str) -> str:
    """The interval across seeds: "[lo, hi] n=5", "all 3 seeds = 1.000", "n=1 (too few)"."""
    status = stat.get("seeds_ci_status", stat.get("ci_status"))
    low = stat.get("seeds_ci_low", stat.get("ci_low"))
    high = stat.get("seeds_ci_high", stat.get("ci_high"))
    n = stat["n_seeds"]
    if status == "degenerate":
        return interval_text(low, high, status, n, stat["mean"], sign=sign)
    if status == "too_few_seeds":
        return f"n={n} (too few for an interval)"
    return f"{interval_text(low, high, status, n, stat['mean'], sign=sign)} n={n}"
