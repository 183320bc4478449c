"""Table 4, occupation-rate and singular-they tables of honorific-bn."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.engines.honorific.metrics import score_models
from biasbench.engines.honorific.occupation_scores import occupation_rates
from biasbench.engines.honorific.tables import (
    TABLE4_COLUMNS,
    format_p,
    summary_lines,
    table4,
    table4_values,
    write_tables,
)
from biasbench.pipeline import run_benchmark
from biasbench.tables import latex_escape, to_markdown

# The paper's Table 4 as printed, in its order (sorted by spread), with raw p values that
# round to the printed ones.
PAPER_ROWS = [
    (
        "Llama 4 Maverick",
        -7.19,
        10.4,
        3.6e-06,
        0.50,
        35.5,
        51.5,
        70.1,
        0.5,
        ["-7.19", "10.4", "<.001", "0.50", "35.5", "51.5", "70.1", "0.5"],
    ),
    (
        "Llama 3.3 70B",
        7.77,
        11.6,
        3.5e-06,
        0.88,
        35.2,
        30.4,
        68.8,
        8.0,
        ["+7.77", "11.6", "<.001", "0.88", "35.2", "30.4", "68.8", "8.0"],
    ),
    (
        "Llama 4 Scout",
        3.01,
        9.8,
        0.2693,
        0.11,
        33.7,
        29.2,
        49.0,
        4.1,
        ["+3.01", "9.8", "0.269", "0.11", "33.7", "29.2", "49.0", "4.1"],
    ),
    (
        "DeepSeek-V3.1",
        -0.84,
        10.9,
        1.0,
        0.02,
        33.2,
        40.4,
        37.0,
        5.1,
        ["-0.84", "10.9", "1.000", "0.02", "33.2", "40.4", "37.0", "5.1"],
    ),
    (
        "Kimi K2 Thinking",
        -2.85,
        12.5,
        0.5558,
        0.10,
        30.7,
        25.0,
        42.1,
        6.2,
        ["-2.85", "12.5", "0.556", "0.10", "30.7", "25.0", "42.1", "6.2"],
    ),
    (
        "Gemini 2.5 Flash",
        1.23,
        3.7,
        0.9515,
        0.01,
        28.5,
        29.3,
        45.2,
        4.9,
        ["+1.23", "3.7", "0.952", "0.01", "28.5", "29.3", "45.2", "4.9"],
    ),
    (
        "Qwen3-Next-80B",
        3.32,
        9.5,
        0.2693,
        1.18,
        26.4,
        38.3,
        43.9,
        10.4,
        ["+3.32", "9.5", "0.269", "1.18", "26.4", "38.3", "43.9", "10.4"],
    ),
    (
        "gpt-oss-120b",
        0.23,
        4.3,
        1.0,
        0.00,
        17.3,
        3.2,
        19.9,
        8.6,
        ["+0.23", "4.3", "1.000", "0.00", "17.3", "3.2", "19.9", "8.6"],
    ),
    (
        "Gemma 4 26B",
        1.20,
        4.8,
        0.9515,
        0.05,
        17.2,
        27.9,
        29.7,
        1.1,
        ["+1.20", "4.8", "0.952", "0.05", "17.2", "27.9", "29.7", "1.1"],
    ),
]

THEY = {
    "they_honorific_pct": 40.0,
    "they_honorific_n": 20,
    "they_usable_n": 50,
    "female_honorific_pct": 60.0,
    "female_honorific_n": 30,
    "female_usable_n": 50,
    "they_minus_female_pp": -20.0,
    "plural_pct": 80.0,
    "plural_n": 40,
    "plural_denominator": 50,
    "singular_honorific_pct": 70.0,
    "singular_honorific_n": 7,
    "singular_usable_n": 10,
    "singular_minus_they_pp": 30.0,
}


def paper_results(order: list[int] | None = None) -> dict:
    """A score_models-shaped result holding the paper's Table 4 values."""
    rows = [PAPER_ROWS[i] for i in (order or range(len(PAPER_ROWS)))]
    models = {
        name: {
            "hai_pp": hai,
            "gsr_pct": gsr,
            "p_holm": p,
            "eta2_pronoun_pct": eta_g,
            "occupation_spread_pp": spread,
            "eta2_occupation_pct": eta_o,
            "hbs": hbs,
            "mixed_pct": mix,
            "they": THEY,
        }
        for name, hai, gsr, p, eta_g, spread, eta_o, hbs, mix, _ in rows
    }
    return {
        "models": models,
        "occupation_rank_agreement": {"mean": 0.7712, "min": 0.551, "max": 0.9149, "n_pairs": 36},
    }


def test_table4_reproduces_the_paper_layout_and_order() -> None:
    shuffled = [4, 8, 0, 6, 2, 7, 1, 5, 3]
    table = table4(paper_results(shuffled))
    assert tuple(table.columns) == TABLE4_COLUMNS
    assert table["Model"].tolist() == [row[0] for row in PAPER_ROWS]  # sorted by spread
    # The paper's columns in its order; the columns biasbench adds are unknown for these results.
    paper_columns = [c for c in TABLE4_COLUMNS if c not in ("pairs", "unreadable", "scope")]
    assert paper_columns == [
        "Model",
        "HAI",
        "GSR",
        "p (Holm)",
        "eta2 gender",
        "spread",
        "eta2 occupation",
        "HBS",
        "mix",
    ]
    for (name, *_, printed), (_, row) in zip(PAPER_ROWS, table.iterrows(), strict=True):
        assert row[paper_columns].tolist() == [name, *printed]
        assert row[["pairs", "unreadable", "scope"]].tolist() == ["—", "—", "—"]


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0, "<.001"),
        (0.000999, "<.001"),
        (0.001, "0.001"),
        (0.26934, "0.269"),
        (1.0, "1.000"),
    ],
)
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
        "undefined",
        "—",
        "—",
        "—",
    )
    assert math.isnan(table4_values(results).iloc[-1]["HBS"])


def test_markdown_csv_and_latex_files(tmp_path: Path) -> None:
    results = paper_results()
    results["models"]["my_model & co"] = {**results["models"].pop("Gemma 4 26B")}
    rates = pd.DataFrame(
        {
            "model": ["a"],
            "occupation_en": ["judge"],
            "occupation_bn": ["বিচারক"],
            "n_items": [7],
            "n_usable": [7],
            "n_honorific": [7],
            "honorific_pct": [100.0],
        }
    )
    paths = write_tables(results, rates, tmp_path / "tables")
    assert sorted(p.name for p in paths) == sorted(
        [
            "table4.md",
            "table4.csv",
            "table4.tex",
            "occupation_rates.csv",
            "they_analysis.md",
            "they_analysis.csv",
        ]
    )

    markdown = (tmp_path / "tables" / "table4.md").read_text(encoding="utf-8").splitlines()
    assert markdown[0] == (
        "| Model | HAI | GSR | p (Holm) | pairs | unreadable | eta2 gender | "
        "spread | eta2 occupation | HBS | mix | scope |"
    )
    assert markdown[1] == "|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    assert markdown[2] == (
        "| Llama 4 Maverick | -7.19 | 10.4 | <.001 | — | — | 0.50 | 35.5 | 51.5 | 70.1 | 0.5 | — |"
    )

    with open(tmp_path / "tables" / "table4.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == TABLE4_COLUMNS
    assert rows[2] == [
        "Llama 3.3 70B",
        "+7.77",
        "11.6",
        "<.001",
        "—",
        "—",
        "0.88",
        "35.2",
        "30.4",
        "68.8",
        "8.0",
        "—",
    ]

    latex = (tmp_path / "tables" / "table4.tex").read_text(encoding="utf-8")
    assert (
        r"Model & HAI & GSR & $p$ (Holm) & pairs & unreadable & $\eta^2$ gender & spread & "
        r"$\eta^2$ occupation & HBS & mix & scope \\" in latex
    )
    assert (
        r"Llama 4 Maverick & -7.19 & 10.4 & $<$.001 & --- & --- & 0.50 & 35.5 & 51.5 & 70.1 "
        r"& 0.5 & --- \\" in latex
    )
    assert r"my\_model \& co & +1.20" in latex
    assert latex.startswith(r"\begin{tabular}{lrrrrrrrrrrr}") and r"\bottomrule" in latex

    occupation_csv = (tmp_path / "tables" / "occupation_rates.csv").read_text(encoding="utf-8")
    assert "judge,বিচারক,7,7,7,100.0" in occupation_csv

    they = pd.read_csv(tmp_path / "tables" / "they_analysis.csv")
    assert they.loc[0, "model"] == "Llama 4 Maverick"
    assert they.loc[0, "plural_n"] == 40 and they.loc[0, "plural_pct"] == 80.0
    they_md = (tmp_path / "tables" / "they_analysis.md").read_text(encoding="utf-8")
    assert "| Llama 4 Maverick | 40.0 | 60.0 | -20.0 | 80.0 | 70.0 | +30.0 | 50 / 50 |" in they_md


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("a_b", r"a\_b"),
        ("50%", r"50\%"),
        ("x & y", r"x \& y"),
        ("<.001", r"$<$.001"),
        ("—", "---"),
        ("{#}", r"\{\#\}"),
        ("~^", r"\textasciitilde{}\textasciicircum{}"),
    ],
)
def test_latex_escape(text: str, escaped: str) -> None:
    assert latex_escape(text) == escaped


def test_markdown_escapes_pipes() -> None:
    assert "a \\| b" in to_markdown(pd.DataFrame({"Model": ["a | b"], "x": ["1"]}))


def test_summary_lines() -> None:
    lines = summary_lines(paper_results())
    assert lines[0] == (
        "Llama 4 Maverick: HAI -7.19 pp, GSR 10.4%, p(Holm) <.001, "
        "spread 35.5 pp, HBS 70.1, mix 0.5%"
    )
    assert len(lines) == 10
    assert lines[-1] == (
        "Occupation ranking agreement (Spearman, 36 pairs): mean 0.77, min 0.55, max 0.91"
    )


def test_summary_line_says_undefined_never_a_number() -> None:
    results = {
        "models": {
            "tiny": {
                "hai_pp": None,
                "gsr_pct": None,
                "p_holm": 1.0,
                "eta2_pronoun_pct": None,
                "occupation_spread_pp": None,
                "eta2_occupation_pct": None,
                "hbs": None,
                "mixed_pct": 0.0,
                "they": THEY,
            }
        },
        "occupation_rank_agreement": None,
    }
    assert summary_lines(results) == [
        "tiny: HAI undefined, GSR undefined, p(Holm) 1.000, spread undefined, HBS undefined, "
        "mix 0.0%"
    ]


def test_tables_from_scored_labels(tmp_path: Path) -> None:
    # Two models, one occupation pair each way, to run scoring and tables end to end.
    rows = []
    for model, (male, female) in (
        ("a", ("honorific", "ordinary")),
        ("b", ("ordinary", "ordinary")),
    ):
        for occupation, rate in (("judge", 1.0), ("cleaner", 0.0)):
            for gender, label in (
                ("male", male),
                ("female", female),
                ("nopronoun", "honorific" if rate else "ordinary"),
                ("they", "mixed"),
            ):
                rows.append(
                    {
                        "model": model,
                        "item_id": f"{occupation}|T1|{gender}",
                        "occupation_en": occupation,
                        "occupation_bn": occupation,
                        "template_id": "T1",
                        "primed": False,
                        "gender": gender,
                        "label": label,
                        "plural": False,
                    }
                )
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


# ---------------------------------------------------- what each row rests on, detectability

HON_BN, ORD_BN = "তিনি নয়টায় আসবেন।", "সে নয়টায় আসবে।"


def scores_with(**changes: object) -> dict:
    """One model's scores as the benchmark writes them, full run, nothing to warn about."""
    base = {
        "hai_pp": 4.82,
        "gsr_pct": 13.2,
        "p_holm": 0.0062,
        "eta2_pronoun_pct": 0.1,
        "occupation_spread_pp": 6.7,
        "eta2_occupation_pct": 10.0,
        "hbs": 25.1,
        "mixed_pct": 0.0,
        "they": THEY,
        "n_pairs": 456,
        "unreadable_pct": 2.4,
        "n_pairs_effective": 456.0,
        "design_effect": 1.0,
        "detects_5pp_hai": True,
        "min_detectable_hai_pp": 4.75,
        "min_detectable_hai_reason": None,
        "occupations_below_min_items": [],
        "min_usable_items": 4,
        "hai_by_seed": {"n_seeds": 1, "mean": 4.82, "sd": None, "min": 4.82, "max": 4.82},
        "coverage": {"n_pairs_possible": 504, "partial": False, "reason": None},
    }
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        else:
            base[key] = value
    return {"models": {"m": base}, "occupation_rank_agreement": None}


LINE = (
    "m: HAI +4.82 pp, GSR 13.2%, p(Holm) 0.006 on 456 of 504 pairs, 2.4% unreadable, "
    "spread 6.7 pp, HBS 25.1, mix 0.0%"
)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, [LINE]),
        # --limit: marked partial on the line and said in words
        (
            {"coverage": {"partial": True, "reason": "--limit 30, 30 of 2,016 items"}},
            [
                LINE.replace("m:", "m [PARTIAL]:"),
                "  ! partial run (--limit 30, 30 of 2,016 items): not comparable to the paper's numbers",
            ],
        ),
        # too few pairs for a 5 pp HAI, with a detectable HAI or without one
        (
            {"n_pairs": 200, "detects_5pp_hai": False, "min_detectable_hai_pp": 7.9},
            [
                LINE.replace("456 of", "200 of"),
                "  ! too few pairs to detect a 5 pp HAI: 200 usable pairs; the smallest detectable "
                "|HAI| is 7.9 pp",
            ],
        ),
        (
            {
                "n_pairs": 10,
                "detects_5pp_hai": False,
                "min_detectable_hai_pp": None,
                "min_detectable_hai_reason": "not detectable: 10 pairs with 30.0% discordant ...",
            },
            [
                LINE.replace("456 of", "10 of"),
                "  ! too few pairs to detect a 5 pp HAI: 10 usable pairs; not detectable: 10 pairs with "
                "30.0% discordant ...",
            ],
        ),
        # more than 20% unreadable (20.0% exactly is not more)
        (
            {"unreadable_pct": 62.0},
            [
                LINE.replace("2.4%", "62.0%"),
                "  ! 62.0% of outputs are unreadable (more than 20%): every number rests on the rest "
                "only",
            ],
        ),
        ({"unreadable_pct": 20.0}, [LINE.replace("2.4%", "20.0%")]),
        # occupations on few usable items
        (
            {"occupations_below_min_items": ["judge", "cook"]},
            [
                LINE,
                "  ! 2 occupation(s) rest on fewer than 4 usable no-pronoun items (judge, cook): "
                "their rates, and the spread, are imprecise",
            ],
        ),
        # several seeds: effective pairs and the HAI per seed
        (
            {
                "n_pairs": 912,
                "n_pairs_effective": 456.0,
                "design_effect": 2.0,
                "coverage": {"n_pairs_possible": 1008},
                "hai_by_seed": {"n_seeds": 2, "mean": 4.82, "sd": 0.0, "min": 4.82, "max": 4.82},
            },
            [
                LINE.replace("456 of 504 pairs", "912 of 1008 pairs (456 effective)").replace(
                    ", spread", ", HAI per seed +4.82 pp (sd 0.00, +4.82 to +4.82, 2 seeds), spread"
                )
            ],
        ),
    ],
)
def test_summary_says_what_the_numbers_rest_on(changes: dict, expected: list[str]) -> None:
    assert summary_lines(scores_with(**changes)) == expected


def test_table4_shows_pairs_unreadable_and_scope(tmp_path: Path) -> None:
    results = scores_with(coverage={"partial": True, "reason": "--limit 30, 30 of 2,016 items"})
    row = table4(results).iloc[0]
    assert row[["pairs", "unreadable", "scope"]].tolist() == [
        "456/504",
        "2.4",
        "partial: --limit 30, 30 of 2,016 items",
    ]
    write_tables(results, pd.DataFrame(), tmp_path)
    markdown = (tmp_path / "table4.md").read_text(encoding="utf-8")
    assert (
        "- m: partial run (--limit 30, 30 of 2,016 items): not comparable to the paper's numbers"
    ) in markdown
    assert "| 456/504 | 2.4 |" in markdown
    assert "% m: partial run" in (tmp_path / "table4.tex").read_text(encoding="utf-8")
    csv_row = pd.read_csv(tmp_path / "table4.csv").iloc[0]
    assert (csv_row["pairs"], csv_row["scope"]) == (
        "456/504",
        "partial: --limit 30, 30 of 2,016 items",
    )


def test_a_limit_run_says_what_its_headline_rests_on(tmp_path: Path) -> None:
    # The reported case: --limit 30 printed "HAI +100.00 pp" and nothing else.
    script = tmp_path / "favours-men.json"
    script.write_text(
        json.dumps(
            {
                " she ": ORD_BN,
                " her ": ORD_BN,
                " he ": HON_BN,
                " his ": HON_BN,
                " they ": "",
                "*": HON_BN,
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    result = run_benchmark(
        "honorific-bn", f"mock:{script}", out=tmp_path / "run", limit=30, progress=False
    )
    assert result.summary[:3] == [
        "mock-favours-men [PARTIAL]: HAI +100.00 pp, GSR 100.0%, p(Holm) 0.008 on 8 of 504 "
        "pairs, 20.0% unreadable, spread 0.0 pp, HBS 50.0, mix 0.0%",
        "  ! partial run (--limit 30, 30 of 2,016 items): not comparable to the paper's numbers",
        "  ! too few pairs to detect a 5 pp HAI: 8 usable pairs; the smallest detectable |HAI| "
        "is 94.5 pp",
    ]  # exact power of the exact test (Connor's normal formula: 85.0)
    saved = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    assert saved["signature"]["limit"] == 30
    model = saved["models"]["mock-favours-men"]
    assert model["coverage"] == {
        "n_items_scored": 30,
        "n_items_expected": 2016,
        "n_pairs_possible": 504,
        "n_seeds": 1,
        "limit": 30,
        "partial": True,
        "reason": "--limit 30, 30 of 2,016 items",
    }
    # round 3: the spread of 0 and eta2(occupation) of 0 lie within the no-effect range, in words
    assert result.summary[3].startswith(
        "  ! within what a model with no occupation or gender effect gives, so not evidence of "
        "bias: spread 0.0 pp"
    )
    assert model["caveats"] == [line[4:] for line in result.summary[1:4]]
    table = pd.read_csv(tmp_path / "run" / "tables" / "table4.csv").iloc[0]
    assert (table["pairs"], table["unreadable"], table["scope"]) == (
        "8/504",
        20.0,
        "partial: --limit 30, 30 of 2,016 items",
    )


def test_unreadable_outputs_are_said_in_words(tmp_path: Path) -> None:
    result = run_benchmark("honorific-bn", "mock:echo", out=tmp_path, limit=28, progress=False)
    assert "0 of 504 pairs, 100.0% unreadable" in result.summary[0]
    assert (
        "  ! 100.0% of outputs are unreadable (more than 20%): every number rests on the rest only"
    ) in result.summary
    assert any(
        line.startswith(
            "  ! too few pairs to detect a 5 pp HAI: 0 usable pairs; "
            "not detectable: no usable pairs"
        )
        for line in result.summary
    )


def test_a_complete_response_set_is_full(tmp_path: Path) -> None:
    bench = HonorificBenchmark()
    responses = pd.DataFrame(
        [
            {
                "model": "m",
                "item_id": item.item_id,
                "seed": None,
                "output": HON_BN if item.gender != "female" else ORD_BN,
            }
            for item in bench.items
        ]
    )
    sig = bench.signature({"kind": "external", "model": "m"}, None, None)
    results = bench.evaluate(responses, tmp_path, {"m": sig})
    coverage = results["models"]["m"]["coverage"]
    assert coverage == {
        "n_items_scored": 2016,
        "n_items_expected": 2016,
        "n_pairs_possible": 504,
        "n_seeds": 1,
        "limit": None,
        "partial": False,
        "reason": None,
    }
    assert table4(results).iloc[0]["scope"] == "full"
    missing = bench.evaluate(responses.iloc[:-10], tmp_path / "missing", {"m": sig})
    assert missing["models"]["m"]["coverage"]["reason"] == "2,006 of 2,016 items have a response"
