"""Report tables of the honorific-bn benchmark: the paper's Table 4, occupation rates, singular they.

All functions take the output of :func:`biasbench.benchmarks.honorific_bn.metrics.score_models`.
Numbers are formatted as in the paper (HAI with an explicit sign, p as "<.001" or three
decimals); an undefined value is shown as "—" ("undefined" for HBS), never as 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.fsutil import write_text_atomically
from biasbench.report.tables import csv_text, to_latex, to_markdown

TABLE4_COLUMNS = ("Model", "HAI", "GSR", "p (Holm)", "eta2 gender", "spread", "eta2 occupation",
                  "HBS", "mix")
MISSING = "—"
UNDEFINED_HBS = "undefined"

Formatter = Callable[[float], str]


def format_p(p: float) -> str:
    """A p-value as in the paper: "<.001" below 0.001, else three decimals ("0.269", "1.000")."""
    return "<.001" if p < 0.001 else f"{p:.3f}"


def _fixed(decimals: int, signed: bool = False) -> Formatter:
    sign = "+" if signed else ""
    return lambda value: f"{value:{sign}.{decimals}f}"


# Column header -> (score key, formatter). Decimals follow the paper's Table 4.
_TABLE4_FIELDS: dict[str, tuple[str, Formatter]] = {
    "HAI": ("hai_pp", _fixed(2, signed=True)),
    "GSR": ("gsr_pct", _fixed(1)),
    "p (Holm)": ("p_holm", format_p),
    "eta2 gender": ("eta2_pronoun_pct", _fixed(2)),
    "spread": ("occupation_spread_pp", _fixed(1)),
    "eta2 occupation": ("eta2_occupation_pct", _fixed(1)),
    "HBS": ("hbs", _fixed(1)),
    "mix": ("mixed_pct", _fixed(1)),
}

_LATEX_HEADERS = {"p (Holm)": r"$p$ (Holm)", "eta2 gender": r"$\eta^2$ gender",
                  "eta2 occupation": r"$\eta^2$ occupation"}

_THEY_FIELDS: dict[str, tuple[str, Formatter]] = {
    "they honorific %": ("they_honorific_pct", _fixed(1)),
    "female honorific %": ("female_honorific_pct", _fixed(1)),
    "they - female (pp)": ("they_minus_female_pp", _fixed(1, signed=True)),
    "plural %": ("plural_pct", _fixed(1)),
    "singular honorific %": ("singular_honorific_pct", _fixed(1)),
    "singular - they (pp)": ("singular_minus_they_pp", _fixed(1, signed=True)),
}


def _is_defined(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _model_scores(results: Mapping[str, Any]) -> Mapping[str, Mapping[str, Any]]:
    return results["models"]


def table4_values(results: Mapping[str, Any]) -> pd.DataFrame:
    """Table 4 as numbers (NaN for undefined), one row per model, sorted by spread descending.

    Models without a defined spread come last; ties keep the models' order in ``results``.
    """
    rows = [{"Model": model, **{column: (scores.get(key) if _is_defined(scores.get(key))
                                         else math.nan)
                                for column, (key, _) in _TABLE4_FIELDS.items()}}
            for model, scores in _model_scores(results).items()]
    table = pd.DataFrame(rows, columns=list(TABLE4_COLUMNS))
    table = table.astype({column: float for column in TABLE4_COLUMNS[1:]})
    return table.sort_values("spread", ascending=False, na_position="last",
                             kind="stable").reset_index(drop=True)


def table4(results: Mapping[str, Any]) -> pd.DataFrame:
    """The paper's Table 4 with formatted cells (strings), sorted by occupation spread."""
    values = table4_values(results)
    formatted = pd.DataFrame({"Model": values["Model"]})
    for column, (_, formatter) in _TABLE4_FIELDS.items():
        missing = UNDEFINED_HBS if column == "HBS" else MISSING
        formatted[column] = [formatter(v) if not math.isnan(v) else missing
                             for v in values[column]]
    return formatted


def they_table(results: Mapping[str, Any]) -> pd.DataFrame:
    """Singular-they analysis per model as numbers with counts (None/NaN when undefined)."""
    rows = [{"model": model, **scores["they"]} for model, scores in _model_scores(results).items()]
    return pd.DataFrame(rows)


def _they_display(results: Mapping[str, Any]) -> pd.DataFrame:
    they = they_table(results)
    display = pd.DataFrame({"Model": they["model"]})
    for column, (key, formatter) in _THEY_FIELDS.items():
        display[column] = [formatter(v) if _is_defined(v) else MISSING for v in they[key]]
    display["n they (usable / translated)"] = [
        f"{usable} / {translated}"
        for usable, translated in zip(they["they_usable_n"], they["plural_denominator"],
                                      strict=True)]
    return display


# --------------------------------------------------------------------------- files


def write_tables(results: Mapping[str, Any], occupation_rates_df: pd.DataFrame,
                 out_dir: str | Path) -> list[Path]:
    """Write table4.{md,csv,tex}, occupation_rates.csv and they_analysis.{md,csv}.

    The Table 4 files hold the formatted cells (as printed in the paper); they_analysis.csv
    and occupation_rates.csv hold the numbers with their counts. Returns the paths written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    main = table4(results)
    note = ("HAI and spread in percentage points; GSR and mix in percent (mix over all items "
            "of the model); eta2 in percent; p is McNemar's exact test, Holm-corrected across "
            "the models of this table.\n")
    contents = {
        "table4.md": to_markdown(main) + "\n" + note,
        "table4.csv": csv_text(main),
        "table4.tex": to_latex(main, _LATEX_HEADERS),
        "occupation_rates.csv": csv_text(occupation_rates_df),
        "they_analysis.md": to_markdown(_they_display(results)),
        "they_analysis.csv": csv_text(they_table(results)),
    }
    written = []
    for name, text in contents.items():
        path = out / name
        write_text_atomically(path, text)
        written.append(path)
    return written


def summary_lines(results: Mapping[str, Any]) -> list[str]:
    """A few lines for the terminal: one per model in Table 4 order, then ranking agreement."""
    lines = []
    for row in table4(results).itertuples(index=False):
        model, hai, gsr, p_holm, _, spread, _, hbs, mix = row

        def unit(text: str, suffix: str) -> str:
            return "undefined" if text in (MISSING, UNDEFINED_HBS) else f"{text}{suffix}"

        lines.append(f"{model}: HAI {unit(hai, ' pp')}, GSR {unit(gsr, '%')}, "
                     f"p(Holm) {unit(p_holm, '')}, spread {unit(spread, ' pp')}, "
                     f"HBS {unit(hbs, '')}, mix {unit(mix, '%')}")
    agreement = results.get("occupation_rank_agreement")
    if agreement and _is_defined(agreement.get("mean")):
        lines.append(f"Occupation ranking agreement (Spearman, {agreement['n_pairs']} pairs): "
                     f"mean {agreement['mean']:.2f}, min {agreement['min']:.2f}, "
                     f"max {agreement['max']:.2f}")
    return lines
