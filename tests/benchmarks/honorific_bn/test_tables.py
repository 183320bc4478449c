"""Table 4, occupation-rate and singular-they tables of honorific-bn."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pandas as pd
import pytest

from biasbench.benchmarks.honorific_bn.metrics import occupation_rates, score_models
from biasbench.benchmarks.honorific_bn.tables import (
    TABLE4_COLUMNS,
    format_p,
    summary_lines,
    table4,
    table4_values,
    write_tables,
)
from biasbench.report.tables import latex_escape, to_markdown

# The paper's Table 4 as printed, in its order (sorted by spread), with raw p values that
# round to the printed ones.
PAPER_ROWS = [
    ("Llama 4 Maverick", -7.19, 10.4, 3.6e-06, 0.50, 35.5, 51.5, 70.1, 0.5,
     ["-7.19", "10.4", "<.001", "0.50", "35.5", "51.5", "70.1", "0.5"]),
    ("Llama 3.3 70B", 7.77, 11.6, 3.5e-06, 0.88, 35.2, 30.4, 68.8, 8.0,
     ["+7.77", "11.6", "<.001", "0.88", "35.2", "30.4", "68.8", "8.0"]),
    ("Llama 4 Scout", 3.01, 9.8, 0.2693, 0.11, 33.7, 29.2, 49.0, 4.1,
     ["+3.01", "9.8", "0.269", "0.11", "33.7", "29.2", "49.0", "4.1"]),
    ("DeepSeek-V3.1", -0.84, 10.9, 1.0, 0.02, 33.2, 40.4, 37.0, 5.1,
     ["-0.84", "10.9", "1.000", "0.02", "33.2", "40.4", "37.0", "5.1"]),
    ("Kimi K2 Thinking", -2.85, 12.5, 0.5558, 0.10, 30.7, 25.0, 42.1, 6.2,
     ["-2.85", "12.5", "0.556", "0.10", "30.7", "25.0", "42.1", "6.2"]),
    ("Gemini 2.5 Flash", 1.23, 3.7, 0.9515, 0.01, 28.5, 29.3, 45.2, 4.9,
     ["+1.23", "3.7", "0.952", "0.01", "28.5", "29.3", "45.2", "4.9"]),
    ("Qwen3-Next-80B", 3.32, 9.5, 0.2693, 1.18, 26.4, 38.3, 43.9, 10.4,
     ["+3.32", "9.5", "0.269", "1.18", "26.4", "38.3", "43.9", "10.4"]),
    ("gpt-oss-120b", 0.23, 4.3, 1.0, 0.00, 17.3, 3.2, 19.9, 8.6,
     ["+0.23", "4.3", "1.000", "0.00", "17.3", "3.2", "19.9", "8.6"]),
    ("Gemma 4 26B", 1.20, 4.8, 0.9515, 0.05, 17.2, 27.9, 29.7, 1.1,
     ["+1.20", "4.8", "0.952", "0.05", "17.2", "27.9", "29.7", "1.1"]),
]

THEY = {"they_honorific_pct": 40.0, "they_honorific_n": 20, "they_usable_n": 50,
        "female_honorific_pct": 60.0, "female_honorific_n": 30, "female_usable_n": 50,
        "they_minus_female_pp": -20.0, "plural_pct": 80.0, "plural_n": 40,
        "plural_denominator": 50, "singular_honorific_pct": 70.0, "singular_honorific_n": 7,
        "singular_usable_n": 10, "singular_minus_they_pp": 30.0}


def paper_results(order: list[int] | None = None) -> dict:
    """A score_models-shaped result holding the paper's Table 4 values."""
    rows = [PAPER_ROWS[i] for i in (order or range(len(PAPER_ROWS)))]
    models = {name: {"hai_pp": hai, "gsr_pct": gsr, "p_holm": p, "eta2_pronoun_pct": eta_g,
                     "occupation_spread_pp": spread, "eta2_occupation_pct": eta_o, "hbs": hbs,
                     "mixed_pct": mix, "they": THEY}
              for name, hai, gsr, p, eta_g, spread, eta_o, hbs, mix, _ in rows}
    return {"models": models,
            "occupation_rank_agreement": {"mean": 0.7712, "min": 0.551, "max": 0.9149,
                                          "n_pairs": 36}}


def test_table4_reproduces_the_paper_layout_and_order() -> None:
    shuffled = [4, 8, 0, 6, 2, 7, 1, 5, 3]
    table = table4(paper_results(shuffled))
    assert tuple(table.columns) == TABLE4_COLUMNS
    assert table["Model"].tolist() == [row[0] for row in PAPER_ROWS]  # sorted by spread
    for (name, *_, printed), (_, row) in zip(PAPER_ROWS, table.iterrows(), strict=True):
        assert row.tolist() == [name, *printed]


@pytest.mark.parametrize(("p", "text"), [
    (0.0, "<.001"), (0.000999, "<.001"), (0.001, "0.001"), (0.26934, "0.269"), (1.0, "1.000"),
])
def test_format_p(p: float, text: str) -> None:
    assert format_p(p) == text


def test_undefined_values_are_never_shown_as_zero() -> None:
    results = paper_results()
    gemma = results["models"]["Gemma 4 26B"]
    gemma.update(hbs=None, hai_pp=None, occupation_spread_pp=None, eta2_pronoun_pct=math.nan)
    table = table4(results)
    last = table.iloc[-1]  # an undefined spread sorts last
    assert last["Model"] == "Gemma 4 26B"
    assert (last["HBS"], last["HAI"], last["spread"], last["eta2 gender"]) == (
        "undefined", "—", "—", "—")
    assert math.isnan(table4_values(results).iloc[-1]["HBS"])


def test_markdown_csv_and_latex_files(tmp_path: Path) -> None:
    results = paper_results()
    results["models"]["my_model & co"] = {**results["models"].pop("Gemma 4 26B")}
    rates = pd.DataFrame({"model": ["a"], "occupation_en": ["judge"],
                          "occupation_bn": ["বিচারক"], "n_items": [7], "n_usable": [7],
                          "n_honorific": [7], "honorific_pct": [100.0]})
    paths = write_tables(results, rates, tmp_path / "tables")
    assert sorted(p.name for p in paths) == sorted([
        "table4.md", "table4.csv", "table4.tex", "occupation_rates.csv", "they_analysis.md",
        "they_analysis.csv"])

    markdown = (tmp_path / "tables" / "table4.md").read_text(encoding="utf-8").splitlines()
    assert markdown[0] == ("| Model | HAI | GSR | p (Holm) | eta2 gender | spread | "
                           "eta2 occupation | HBS | mix |")
    assert markdown[1] == "|:---|---:|---:|---:|---:|---:|---:|---:|---:|"
    assert markdown[2] == "| Llama 4 Maverick | -7.19 | 10.4 | <.001 | 0.50 | 35.5 | 51.5 | 70.1 | 0.5 |"

    with open(tmp_path / "tables" / "table4.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == TABLE4_COLUMNS
    assert rows[2] == ["Llama 3.3 70B", "+7.77", "11.6", "<.001", "0.88", "35.2", "30.4",
                       "68.8", "8.0"]

    latex = (tmp_path / "tables" / "table4.tex").read_text(encoding="utf-8")
    assert r"Model & HAI & GSR & $p$ (Holm) & $\eta^2$ gender & spread & $\eta^2$ occupation" \
           r" & HBS & mix \\" in latex
    assert r"Llama 4 Maverick & -7.19 & 10.4 & $<$.001 & 0.50 & 35.5 & 51.5 & 70.1 & 0.5 \\" \
           in latex
    assert r"my\_model \& co & +1.20" in latex
    assert latex.startswith(r"\begin{tabular}{lrrrrrrrr}") and r"\bottomrule" in latex

    occupation_csv = (tmp_path / "tables" / "occupation_rates.csv").read_text(encoding="utf-8")
    assert "judge,বিচারক,7,7,7,100.0" in occupation_csv

    they = pd.read_csv(tmp_path / "tables" / "they_analysis.csv")
    assert they.loc[0, "model"] == "Llama 4 Maverick"
    assert they.loc[0, "plural_n"] == 40 and they.loc[0, "plural_pct"] == 80.0
    they_md = (tmp_path / "tables" / "they_analysis.md").read_text(encoding="utf-8")
    assert "| Llama 4 Maverick | 40.0 | 60.0 | -20.0 | 80.0 | 70.0 | +30.0 | 50 / 50 |" in they_md


@pytest.mark.parametrize(("text", "escaped"), [
    ("a_b", r"a\_b"), ("50%", r"50\%"), ("x & y", r"x \& y"), ("<.001", r"$<$.001"),
    ("—", "---"), ("{#}", r"\{\#\}"), ("~^", r"\textasciitilde{}\textasciicircum{}"),
])
def test_latex_escape(text: str, escaped: str) -> None:
    assert latex_escape(text) == escaped


def test_markdown_escapes_pipes() -> None:
    assert "a \\| b" in to_markdown(pd.DataFrame({"Model": ["a | b"], "x": ["1"]}))


def test_summary_lines() -> None:
    lines = summary_lines(paper_results())
    assert lines[0] == ("Llama 4 Maverick: HAI -7.19 pp, GSR 10.4%, p(Holm) <.001, "
                        "spread 35.5 pp, HBS 70.1, mix 0.5%")
    assert len(lines) == 10
    assert lines[-1] == ("Occupation ranking agreement (Spearman, 36 pairs): "
                         "mean 0.77, min 0.55, max 0.91")


def test_summary_line_says_undefined_never_a_number() -> None:
    results = {"models": {"tiny": {"hai_pp": None, "gsr_pct": None, "p_holm": 1.0,
                                   "eta2_pronoun_pct": None, "occupation_spread_pp": None,
                                   "eta2_occupation_pct": None, "hbs": None, "mixed_pct": 0.0,
                                   "they": THEY}},
               "occupation_rank_agreement": None}
    assert summary_lines(results) == [
        "tiny: HAI undefined, GSR undefined, p(Holm) 1.000, spread undefined, HBS undefined, "
        "mix 0.0%"]


def test_tables_from_scored_labels(tmp_path: Path) -> None:
    # Two models, one occupation pair each way, to run scoring and tables end to end.
    rows = []
    for model, (male, female) in (("a", ("honorific", "ordinary")),
                                  ("b", ("ordinary", "ordinary"))):
        for occupation, rate in (("judge", 1.0), ("cleaner", 0.0)):
            for gender, label in (("male", male), ("female", female),
                                  ("nopronoun", "honorific" if rate else "ordinary"),
                                  ("they", "mixed")):
                rows.append({"model": model, "item_id": f"{occupation}|T1|{gender}",
                             "occupation_en": occupation, "occupation_bn": occupation,
                             "template_id": "T1", "primed": False, "gender": gender,
                             "label": label, "plural": False})
    labels = pd.DataFrame(rows)
    results = score_models(labels)
    table = table4(results)
    # a: b = 2, c = 0 -> HAI +100; b: no discordant pair -> HBS undefined
    assert table.set_index("Model").loc["a", "HAI"] == "+100.00"
    assert table.set_index("Model").loc["b", "HBS"] == "undefined"
    assert table.set_index("Model").loc["b", "spread"] == "50.0"
    write_tables(results, occupation_rates(labels), tmp_path)
    they = pd.read_csv(io.StringIO((tmp_path / "they_analysis.csv").read_text(encoding="utf-8")))
    assert they["they_usable_n"].tolist() == [0, 0]
    assert they["they_honorific_pct"].isna().all()
