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

from biasbench.benchmarks.bbq.by_language import ALL, scopes
from biasbench.benchmarks.bbq.items import BBQItem
from biasbench.benchmarks.bbq.robust import CONFIDENCE, BBQResults, interval_text
from biasbench.benchmarks.bbq.scores import is_scoped, scores_from_counts
from biasbench.benchmarks.mbbq.source import CONTROL, LANGUAGES, MAIN, split_namespace
from biasbench.stats import BIAS_BOUNDS, bounded_t_intervals

ACCURACIES: Final = (("acc_ambig", "ambiguous"), ("acc_disambig", "disambiguated"))
NOTE: Final = ("difference = accuracy on MBBQ minus accuracy on its control set (same "
               "language, all categories); negative: the model answers worse when the "
               "contexts name social groups than when they name people")


def paired_differences(scored: BBQResults, items: Sequence[BBQItem],
                       confidence: float = CONFIDENCE) -> dict[tuple[str, str, str], Any]:
    """(model, language, accuracy) -> main minus control accuracy paired by seed, over all
    categories: mean, sd, bounded t-interval across the seeds where both are defined."""
    if not is_scoped(items):
        return {}
    scope = scopes(items).set_index("scoped")
    counts = scored.counts.copy()
    counts["namespace"] = counts["category"].map(scope["namespace"])
    per_seed = scores_from_counts(counts, ["model", "seed", "namespace"])
    parsed = per_seed["namespace"].map(split_namespace)
    per_seed = per_seed[parsed.notna()].assign(
        set=[p[0] for p in parsed.dropna()], language=[p[1] for p in parsed.dropna()])
    out: dict[tuple[str, str, str], Any] = {}
    for score, _ in ACCURACIES:
        wide = per_seed.pivot_table(index=["model", "language", "seed"], columns="set",
                                    values=score, aggfunc="first")
        if MAIN not in wide or CONTROL not in wide:
            continue
        diff = (wide[MAIN] - wide[CONTROL]).dropna().groupby(level=["model", "language"])
        mean, sd, n = diff.mean(), diff.std(ddof=1), diff.count()
        low, high, status = bounded_t_intervals(mean, sd, n, BIAS_BOUNDS, confidence)
        for i, (model, language) in enumerate(mean.index):
            out[(str(model), str(language), score)] = {
                "mean": float(mean.iloc[i]),
                "sd": None if pd.isna(sd.iloc[i]) else float(sd.iloc[i]),
                "ci_low": None if np.isnan(low[i]) else float(low[i]),
                "ci_high": None if np.isnan(high[i]) else float(high[i]),
                "n_seeds": int(n.iloc[i]), "ci_status": str(status[i])}
    return out


def control_comparison(by_language: dict[str, Any],
                       paired: dict[tuple[str, str, str], Any] | None = None) -> dict[str, Any]:
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
                difference = (None if main["mean"] is None or control["mean"] is None
                              else main["mean"] - control["mean"])
                row[score] = {"main": main, "control": control, "difference": difference,
                              "difference_across_seeds": paired.get((model, language, score))}
            out.setdefault(model, {})[language] = row
    if out:
        out = {"note": NOTE, "models": out}
    return out


def control_table(comparison: dict[str, Any]) -> pd.DataFrame:
    """One row per model, language and context condition."""
    rows = []
    for model, languages in (comparison.get("models") or {}).items():
        for language, row in languages.items():
            for score, context in ACCURACIES:
                cell = row[score]
                rows.append({
                    "model": model, "language": language, "context": context,
                    "acc main": cell["main"]["mean"], "acc main ci_low": cell["main"]["ci_low"],
                    "acc main ci_high": cell["main"]["ci_high"],
                    "acc control": cell["control"]["mean"],
                    "acc control ci_low": cell["control"]["ci_low"],
                    "acc control ci_high": cell["control"]["ci_high"],
                    "main - control": cell["difference"],
                    "main - control 95% CI": _interval(cell.get("difference_across_seeds")),
                    "seeds": cell["main"]["n_seeds"]})
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
                parts.append(f"{context} {_num(cell['main']['mean'])} vs control "
                             f"{_num(cell['control']['mean'])} "
                             f"({_num(cell['difference'], '+')})")
            lines.append(f"{model} / {language}: accuracy on MBBQ vs control: "
                         + "; ".join(parts))
    if lines:
        lines.append(f"control comparison: {comparison['note']} (tables/control_comparison)")
    return lines


def _interval(stat: dict[str, Any] | None) -> str:
    """The paired difference's interval across seeds, worded as every interval."""
    if not stat:
        return "—"
    return interval_text(stat["ci_low"], stat["ci_high"], stat["ci_status"], stat["n_seeds"],
                         stat["mean"], sign="+")


def _num(value: float | None, sign: str = "") -> str:
    return "undefined" if value is None else f"{value:{sign}.3f}"
