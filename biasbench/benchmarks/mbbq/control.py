"""MBBQ's control-set comparison: task ability apart from bias, per language.

The control set (mbbq.py ``--control``; README "parallel control dataset to measure task
performance ... independently of bias") has MBBQ's contexts and questions with the group words
replaced by first names, so no answer is stereotyped: its accuracy is what the model can do
with the question-answering task in that language. Put beside the accuracy on MBBQ proper, the
gap shows how much of the main set's errors come with the group words (bias) rather than with
the task. Per model and language, over all categories: the accuracy on each set in ambiguous
and disambiguated contexts (mean across seeds with its interval) and main minus control.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import pandas as pd

from biasbench.benchmarks.mbbq.source import CONTROL, LANGUAGES, MAIN, split_namespace
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.bias_scores import exclusion_reason, is_scoped
from biasbench.engines.bbq_family.scoring.by_language import ALL
from biasbench.engines.bbq_family.scoring.multi_seed import CONFIDENCE, BBQResults, interval_text
from biasbench.stats.intervals import (
    BIAS_BOUNDS,
    MIN_SEEDS_FOR_INTERVAL,
    ReasonWords,
    bounded_t_intervals,
    status_reason,
)

ACCURACIES: Final = (("acc_ambig", "ambiguous"), ("acc_disambig", "disambiguated"))
NOTE: Final = (
    "difference = accuracy on MBBQ minus accuracy on its control set (same "
    "language, all categories); negative: the model answers worse when the "
    "contexts name social groups than when they name people"
)


PAIRING: Final = (
    "paired by item: each control item is its MBBQ item with names (same category, example id "
    "and context), so the difference is taken per item (accuracy over its seeds on MBBQ minus "
    "on the control set) and the 95% Student-t interval is across those item differences, "
    "cut to [-1, 1]; it covers the gap over items like these, not only over these items' seeds"
)
"""How the control gap's interval is computed, in words (results.json: control_comparison)."""


def item_accuracy_differences(scored: BBQResults, items: Sequence[BBQItem]) -> pd.DataFrame:
    """Per model, language, context condition and paired item: the item's accuracy over its
    seeds on MBBQ (``main``), on the control set (``control``) and their difference ``d``.

    A control item is paired with the MBBQ item of the same language, category, example id,
    template and context condition; an item without a partner, without a single target
    (excluded from every score) or without a parsed answer in one of the sets is left out.
    """
    keyed = []
    for item in items:
        parsed = split_namespace(item.namespace)
        if parsed is None or exclusion_reason(item) is not None:
            continue
        keyed.append(
            {
                "uid": item.uid,
                "set": parsed[0],
                "language": parsed[1],
                "category": item.category,
                "example_id": item.example_id,
                "question_index": item.question_index,
                "context": item.context_condition,
                "label": item.label,
            }
        )
    columns = ["model", "language", "context", "category", "example_id", "main", "control", "d"]
    if not keyed:
        return pd.DataFrame(columns=columns)
    table = pd.DataFrame(keyed).set_index("uid")
    answers = scored.responses[["model", "uid", "pred_index"]].join(table, on="uid", how="inner")
    pred = pd.to_numeric(answers["pred_index"]).fillna(-1)
    answers = answers[pred >= 0].assign(
        correct=(pred[pred >= 0] == answers.loc[pred >= 0, "label"])
    )
    keys = ["model", "language", "context", "category", "example_id", "question_index"]
    per_item = answers.groupby([*keys, "set"], sort=True)["correct"].mean().unstack("set")
    if MAIN not in per_item or CONTROL not in per_item:
        return pd.DataFrame(columns=columns)
    paired = per_item[[MAIN, CONTROL]].dropna().rename(columns={MAIN: "main", CONTROL: "control"})
    paired["d"] = paired["main"] - paired["control"]
    return paired.reset_index()[columns]


def paired_differences(
    scored: BBQResults, items: Sequence[BBQItem], confidence: float = CONFIDENCE
) -> dict[tuple[str, str, str], Any]:
    """(model, language, accuracy) -> main minus control accuracy paired by item (see
    :data:`PAIRING`): mean of the item differences, their sd, the bounded t-interval across
    items, ``n_items`` (the paired items it rests on), the seeds run and ``ci_status`` /
    ``ci_reason``. Before round 3 the pairing was by seed number, which ignores that the same
    items are answered in both sets (46-74% coverage at 50 seeds in simulation)."""
    if not is_scoped(items):
        return {}
    diffs = item_accuracy_differences(scored, items)
    seeds = scored.responses.groupby("model")["seed"].nunique()
    out: dict[tuple[str, str, str], Any] = {}
    for score, _ in ACCURACIES:
        context = "ambig" if score == "acc_ambig" else "disambig"
        grouped = diffs[diffs["context"] == context].groupby(["model", "language"])["d"]
        mean, sd, n = grouped.mean(), grouped.std(ddof=1), grouped.count()
        low, high, status = bounded_t_intervals(mean, sd, n, BIAS_BOUNDS, confidence)
        for i, (model, language) in enumerate(mean.index):
            out[(str(model), str(language), score)] = {
                "mean": float(mean.iloc[i]),
                "sd": None if pd.isna(sd.iloc[i]) else float(sd.iloc[i]),
                "ci_low": None if np.isnan(low[i]) else float(low[i]),
                "ci_high": None if np.isnan(high[i]) else float(high[i]),
                "n_items": int(n.iloc[i]),
                "n_seeds": int(seeds.get(model, 0)),
                "ci_status": str(status[i]),
                "ci_reason": _item_reason(str(status[i]), int(n.iloc[i])),
                "pairing": "item",
            }
    return out


PAIRED_WORDS: Final = ReasonWords(
    lambda n: f"every one of the {n} paired items has the same difference: no spread across items",
    lambda n: f"{n} paired item(s)",
    "no paired item",
)
"""What the item-paired difference's interval rests on."""


def _item_reason(status: str, n_items: int) -> str | None:
    """Why the item-paired difference has no interval, in words."""
    return status_reason(status, n_items, PAIRED_WORDS, MIN_SEEDS_FOR_INTERVAL)


def control_comparison(
    by_language: dict[str, Any], paired: dict[tuple[str, str, str], Any] | None = None
) -> dict[str, Any]:
    """model -> language -> per context condition: main and control accuracy (mean, interval,
    seeds), the difference of the means and, from ``paired`` (:func:`paired_differences`),
    the per-seed differences across seeds; languages with only one set are left out."""
    paired = paired or {}
    out: dict[str, Any] = {}
    for model, spaces in by_language.items():
        sets: dict[str, dict[str, Any]] = {}
        for name, space in spaces.items():
            parsed = split_namespace(name)
            entry = space["categories"].get(ALL)
            if parsed is not None and entry is not None:
                subset, language = parsed
                sets.setdefault(language, {})[subset] = entry
        for language in [code for code in LANGUAGES if code in sets]:
            pair = sets[language]
            if MAIN not in pair or CONTROL not in pair:
                continue
            row: dict[str, Any] = {}
            for score, _ in ACCURACIES:
                main, control = pair[MAIN][score], pair[CONTROL][score]
                difference = (
                    None
                    if main["mean"] is None or control["mean"] is None
                    else main["mean"] - control["mean"]
                )
                row[score] = {
                    "main": main,
                    "control": control,
                    "difference": difference,
                    "difference_by_item": paired.get((model, language, score)),
                }
            out.setdefault(model, {})[language] = row
    if out:
        out = {"note": NOTE, "interval_method": PAIRING, "models": out}
    return out


def control_table(comparison: dict[str, Any]) -> pd.DataFrame:
    """One row per model, language and context condition."""
    rows = []
    for model, languages in (comparison.get("models") or {}).items():
        for language, row in languages.items():
            for score, context in ACCURACIES:
                cell = row[score]
                rows.append(
                    {
                        "model": model,
                        "language": language,
                        "context": context,
                        "acc main": cell["main"]["mean"],
                        "acc main ci_low": cell["main"]["ci_low"],
                        "acc main ci_high": cell["main"]["ci_high"],
                        "acc control": cell["control"]["mean"],
                        "acc control ci_low": cell["control"]["ci_low"],
                        "acc control ci_high": cell["control"]["ci_high"],
                        "main - control": cell["difference"],
                        "main - control paired by item": (cell.get("difference_by_item") or {}).get(
                            "mean"
                        ),
                        "main - control 95% CI (items)": _interval(cell.get("difference_by_item")),
                        "paired items": (cell.get("difference_by_item") or {}).get("n_items"),
                        "seeds": cell["main"]["n_seeds"],
                    }
                )
    return pd.DataFrame(rows)


def write_control(comparison: dict[str, Any], tables: Path) -> None:
    """tables/control_comparison.{csv,md,tex}."""
    from biasbench.tables import write_table

    write_table(control_table(comparison), tables / "control_comparison")


def control_lines(comparison: dict[str, Any]) -> list[str]:
    """Summary lines: per model and language, accuracy on MBBQ vs its control set."""
    lines = []
    for model, languages in (comparison.get("models") or {}).items():
        for language, row in languages.items():
            parts = []
            for score, context in ACCURACIES:
                cell = row[score]
                by_item = cell.get("difference_by_item")
                gap = (
                    f"paired by item {_num(by_item['mean'], '+')} {_interval(by_item)}, "
                    f"{by_item['n_items']} items"
                    if by_item
                    else _num(cell["difference"], "+")
                )
                parts.append(
                    f"{context} {_num(cell['main']['mean'])} vs control "
                    f"{_num(cell['control']['mean'])} ({gap})"
                )
            lines.append(f"{model} / {language}: accuracy on MBBQ vs control: " + "; ".join(parts))
    if lines:
        lines.append(f"control comparison: {comparison['note']} (tables/control_comparison)")
    return lines


def _interval(stat: dict[str, Any] | None) -> str:
    """The item-paired difference's interval across items, worded as every interval."""
    if not stat:
        return "—"
    status, n = stat["ci_status"], stat.get("n_items", stat.get("n_seeds"))
    if status == "degenerate":
        return f"all {n} items = {stat['mean']:+.3f}"
    if status == "too_few_seeds":
        return f"— ({n} items: too few)"
    return interval_text(stat["ci_low"], stat["ci_high"], status, n, stat["mean"], sign="+")


def _num(value: float | None, sign: str = "") -> str:
    return "undefined" if value is None else f"{value:{sign}.3f}"
