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

from pathlib import Path
from typing import Any, Final

import pandas as pd

from biasbench.benchmarks.bbq.languages import ALL
from biasbench.benchmarks.mbbq.source import CONTROL, LANGUAGES, MAIN, split_namespace

ACCURACIES: Final = (("acc_ambig", "ambiguous"), ("acc_disambig", "disambiguated"))
NOTE: Final = ("difference = accuracy on MBBQ minus accuracy on its control set (same "
               "language, all categories); negative: the model answers worse when the "
               "contexts name social groups than when they name people")


def control_comparison(by_language: dict[str, Any]) -> dict[str, Any]:
    """model -> language -> per context condition: main and control accuracy (mean, interval,
    seeds) and their difference; languages with only one of the two sets are left out."""
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
                row[score] = {"main": main, "control": control, "difference": difference}
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


def _num(value: float | None, sign: str = "") -> str:
    return "undefined" if value is None else f"{value:{sign}.3f}"
