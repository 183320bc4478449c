"""Report tables of the honorific-bn benchmark: the paper's Table 4, occupation rates, singular they.

All functions take the output of :func:`biasbench.engines.honorific.metrics.score_models`.
Numbers are formatted as in the paper (HAI with an explicit sign, p as "<.001" or three
decimals); an undefined value is shown as "—" ("undefined" for HBS), never as 0.

Beside the paper's columns, Table 4 and the terminal summary show what each row rests on (issue
7): the usable matched pairs out of those the benchmark defines, the unreadable share, and
whether the run is partial; :func:`caveats` says in words when the numbers cannot bear a reading
(a partial run, too few pairs to detect a 5 pp HAI, more than 20% unreadable outputs, occupations
resting on few usable items).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.engines.honorific.reference import within_null_text
from biasbench.fsutil import write_text_atomically
from biasbench.tables import csv_text, to_latex, to_markdown

TABLE4_COLUMNS = (
    "Model",
    "HAI",
    "GSR",
    "p (Holm)",
    "pairs",
    "unreadable",
    "eta2 gender",
    "spread",
    "eta2 occupation",
    "HBS",
    "mix",
    "scope",
)
"""The paper's Table 4 columns with, beside HAI/GSR/p, the usable pairs ("N/possible") and the
unreadable share, and last the scope ("full" or "partial: ...")."""
_TEXT_COLUMNS = ("Model", "scope")
MISSING = "—"
UNDEFINED_HBS = "undefined"
UNREADABLE_WARNING_PCT = 20.0
"""Above this share of unreadable outputs the summary says the numbers rest on what is left."""
PARTIAL_NOTE = "not comparable to the paper's numbers"

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
    "pairs": ("n_pairs", _fixed(0)),
    "unreadable": ("unreadable_pct", _fixed(1)),
    "eta2 gender": ("eta2_pronoun_pct", _fixed(2)),
    "spread": ("occupation_spread_pp", _fixed(1)),
    "eta2 occupation": ("eta2_occupation_pct", _fixed(1)),
    "HBS": ("hbs", _fixed(1)),
    "mix": ("mixed_pct", _fixed(1)),
}

_LATEX_HEADERS = {
    "p (Holm)": r"$p$ (Holm)",
    "eta2 gender": r"$\eta^2$ gender",
    "eta2 occupation": r"$\eta^2$ occupation",
}

THEY_HEADERS: dict[str, str] = {
    "they_honorific_pct": "they honorific %",
    "female_honorific_pct": "she honorific %",
    "they_minus_female_pp": "they - she (pp)",
    "plural_pct": "plural %",
    "singular_honorific_pct": "singular they honorific %",
    "singular_minus_they_pp": "singular - all they (pp)",
}
"""Score key -> header of the singular-they table: one wording for the files and the HTML."""
_THEY_FORMATS: dict[str, Formatter] = {
    "they_honorific_pct": _fixed(1),
    "female_honorific_pct": _fixed(1),
    "they_minus_female_pp": _fixed(1, signed=True),
    "plural_pct": _fixed(1),
    "singular_honorific_pct": _fixed(1),
    "singular_minus_they_pp": _fixed(1, signed=True),
}


def _is_defined(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _model_scores(results: Mapping[str, Any]) -> Mapping[str, Mapping[str, Any]]:
    return results["models"]


def table4_values(results: Mapping[str, Any]) -> pd.DataFrame:
    """Table 4 as numbers (NaN for undefined), one row per model, sorted by spread descending.

    ``pairs`` is the number of usable pairs; ``scope`` is text ("full", "partial: ..." or "—"
    when the results do not say). Models without a defined spread come last; ties keep the
    models' order in ``results``.
    """
    rows = [
        {
            "Model": model,
            **{
                column: (scores.get(key) if _is_defined(scores.get(key)) else math.nan)
                for column, (key, _) in _TABLE4_FIELDS.items()
            },
            "scope": scope_text(scores),
        }
        for model, scores in _model_scores(results).items()
    ]
    table = pd.DataFrame(rows, columns=list(TABLE4_COLUMNS))
    table = table.astype(
        {column: float for column in TABLE4_COLUMNS if column not in _TEXT_COLUMNS}
    )
    return table.sort_values(
        "spread", ascending=False, na_position="last", kind="stable"
    ).reset_index(drop=True)


def scope_text(scores: Mapping[str, Any]) -> str:
    """ "full", "partial: <why>" or "—" when the scores carry no coverage."""
    coverage = scores.get("coverage")
    if not coverage:
        return MISSING
    return f"partial: {coverage['reason']}" if coverage.get("partial") else "full"


def pairs_text(scores: Mapping[str, Any]) -> str:
    """Usable pairs out of the pairs the benchmark defines ("75/504"), or what is known."""
    n_pairs = scores.get("n_pairs")
    if n_pairs is None:
        return MISSING
    possible = (scores.get("coverage") or {}).get("n_pairs_possible")
    return f"{n_pairs}/{possible}" if possible else str(n_pairs)


def table4(results: Mapping[str, Any]) -> pd.DataFrame:
    """The paper's Table 4 with formatted cells (strings), sorted by occupation spread."""
    values = table4_values(results)
    formatted = pd.DataFrame({"Model": values["Model"]})
    models = _model_scores(results)
    for column, (_, formatter) in _TABLE4_FIELDS.items():
        missing = UNDEFINED_HBS if column == "HBS" else MISSING
        formatted[column] = [formatter(v) if not math.isnan(v) else missing for v in values[column]]
    formatted["pairs"] = [pairs_text(models[m]) for m in values["Model"]]
    formatted["scope"] = values["scope"]
    return formatted[list(TABLE4_COLUMNS)]


def caveats(scores: Mapping[str, Any]) -> list[str]:
    """What a reader must know before reading one model's numbers, in words (may be empty)."""
    notes = []
    coverage = scores.get("coverage") or {}
    if coverage.get("partial"):
        notes.append(f"partial run ({coverage['reason']}): {PARTIAL_NOTE}")
    n_pairs = scores.get("n_pairs")
    if n_pairs is not None and scores.get("detects_5pp_hai") is False:
        effective = scores.get("n_pairs_effective")
        rests = f"{n_pairs} usable pairs"
        if effective is not None and (scores.get("design_effect") or 1.0) > 1.0:
            rests += f" ({effective:.0f} effective, counting each item once)"
        detectable = scores.get("min_detectable_hai_pp")
        why = (
            f"the smallest detectable |HAI| is {detectable:.1f} pp"
            if detectable is not None
            else scores.get("min_detectable_hai_reason") or "no HAI is detectable"
        )
        notes.append(f"too few pairs to detect a 5 pp HAI: {rests}; {why}")
    unreadable = scores.get("unreadable_pct")
    if _is_defined(unreadable) and unreadable > UNREADABLE_WARNING_PCT:
        notes.append(
            f"{unreadable:.1f}% of outputs are unreadable (more than "
            f"{UNREADABLE_WARNING_PCT:.0f}%): every number rests on the rest only"
        )
    below = scores.get("occupations_below_min_items") or []
    if below:
        shown = ", ".join(below[:5]) + (f" and {len(below) - 5} more" if len(below) > 5 else "")
        notes.append(
            f"{len(below)} occupation(s) rest on fewer than "
            f"{scores.get('min_usable_items', '?')} usable no-pronoun items ({shown}): "
            "their rates, and the spread, are imprecise"
        )
    within = within_null_text(scores.get("no_effect_reference") or {})
    if within:
        notes.append(within)
    return notes


def they_table(results: Mapping[str, Any]) -> pd.DataFrame:
    """Singular-they analysis per model as numbers with counts (None/NaN when undefined)."""
    rows = [{"model": model, **scores["they"]} for model, scores in _model_scores(results).items()]
    return pd.DataFrame(rows)


def _they_display(results: Mapping[str, Any]) -> pd.DataFrame:
    they = they_table(results)
    display = pd.DataFrame({"Model": they["model"]})
    for key, column in THEY_HEADERS.items():
        formatter = _THEY_FORMATS[key]
        display[column] = [formatter(v) if _is_defined(v) else MISSING for v in they[key]]
    display["n they (usable / translated)"] = [
        f"{usable} / {translated}"
        for usable, translated in zip(
            they["they_usable_n"], they["plural_denominator"], strict=True
        )
    ]
    return display


def they_display(results: Mapping[str, Any]) -> pd.DataFrame:
    """The singular-they analysis as numbers with the same headers and its counts (the HTML)."""
    they = they_table(results)
    table = pd.DataFrame({"model": they["model"]})
    for key, column in THEY_HEADERS.items():
        table[column] = they[key].astype(float)
    table["they honorific/usable"] = [
        f"{k}/{n}" for k, n in zip(they["they_honorific_n"], they["they_usable_n"], strict=True)
    ]
    table["plural/translated"] = [
        f"{k}/{n}" for k, n in zip(they["plural_n"], they["plural_denominator"], strict=True)
    ]
    return table


TABLE4_NOTE = (
    "HAI and spread in percentage points; GSR, unreadable and mix in percent (over all items of "
    "the model); eta2 in percent; pairs: usable matched he/she pairs of those the benchmark "
    "defines (times the seeds); p is McNemar's exact test (the exact item-level sign-flip test "
    "with several seeds), Holm-corrected across the models of this table; scope: a partial run "
    f"is {PARTIAL_NOTE}."
)


def table_caveats(results: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(model, caveat) for every model of the table, in Table 4 order."""
    models = _model_scores(results)
    return [
        (model, text)
        for model in table4_values(results)["Model"]
        for text in caveats(models[model])
    ]


# --------------------------------------------------------------------------- files


def write_tables(
    results: Mapping[str, Any], occupation_rates_df: pd.DataFrame, out_dir: str | Path
) -> list[Path]:
    """Write table4.{md,csv,tex}, occupation_rates.csv and they_analysis.{md,csv}.

    The Table 4 files hold the formatted cells (as printed in the paper); they_analysis.csv
    and occupation_rates.csv hold the numbers with their counts. Returns the paths written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    main = table4(results)
    note = (
        TABLE4_NOTE
        + "\n"
        + "".join(f"\n- {model}: {text}" for model, text in table_caveats(results))
        + "\n"
    )
    contents = {
        "table4.md": to_markdown(main) + "\n" + note,
        "table4.csv": csv_text(main),
        "table4.tex": to_latex(main, _LATEX_HEADERS)
        + "".join(f"% {model}: {text}\n" for model, text in table_caveats(results)),
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
    """A few lines for the terminal: one per model in Table 4 order, each followed by its
    caveats ("  ! ..."), then ranking agreement."""
    lines = []
    models = _model_scores(results)
    for row in table4(results).itertuples(index=False):
        model, hai, gsr, p_holm, pairs, unreadable, _, spread, _, hbs, mix, _ = row
        scores = models[model]

        def unit(text: str, suffix: str) -> str:
            return "undefined" if text in (MISSING, UNDEFINED_HBS) else f"{text}{suffix}"

        partial = " [PARTIAL]" if (scores.get("coverage") or {}).get("partial") else ""
        effective = scores.get("n_pairs_effective")
        clustered = (
            f" ({effective:.0f} effective)"
            if effective is not None and (scores.get("design_effect") or 1.0) > 1.0
            else ""
        )
        rests = (
            f" on {pairs.replace('/', ' of ')} pairs{clustered}, {unit(unreadable, '%')} unreadable"
            if pairs != MISSING
            else ""
        )
        per_seed = scores.get("hai_by_seed") or {}
        seeds = (
            f", HAI per seed {per_seed['mean']:+.2f} pp (sd {per_seed['sd']:.2f}, "
            f"{per_seed['min']:+.2f} to {per_seed['max']:+.2f}, {per_seed['n_seeds']} seeds)"
            if per_seed.get("n_seeds", 0) >= 2
            else ""
        )
        lines.append(
            f"{model}{partial}: HAI {unit(hai, ' pp')}, GSR {unit(gsr, '%')}, "
            f"p(Holm) {unit(p_holm, '')}{rests}{seeds}, spread {unit(spread, ' pp')}, "
            f"HBS {unit(hbs, '')}, mix {unit(mix, '%')}"
        )
        lines.extend(f"  ! {text}" for text in caveats(scores))
    agreement = results.get("occupation_rank_agreement")
    if agreement and _is_defined(agreement.get("mean")):
        lines.append(
            f"Occupation ranking agreement (Spearman, {agreement['n_pairs']} pairs): "
            f"mean {agreement['mean']:.2f}, min {agreement['min']:.2f}, "
            f"max {agreement['max']:.2f}"
        )
    return lines
