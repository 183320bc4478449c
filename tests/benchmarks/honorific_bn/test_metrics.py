"""Scores of honorific-bn on label sets whose statistics are known by hand, and on the paper."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biasbench.engines.honorific.metrics import (
    PairCounts,
    hbs_gender_component,
    honorific_bias_score,
    pair_counts,
    score_model,
    score_models,
)
from biasbench.engines.honorific.occupation_scores import occupation_rates
from biasbench.engines.honorific.tables import format_p
from biasbench.errors import InputError
from biasbench.stats import (
    mcnemar_exact,
    mcnemar_exact_power,
    mcnemar_required_pairs,
    min_detectable_difference,
)

FRAMES = ("T1", "T2", "T3", "T4", "T5", "P1", "P2")
CONDITIONS = ("male", "female", "nopronoun", "they")
HON, ORD, MIX, UNR = "honorific", "ordinary", "mixed", "unreadable"

# The paper's Table 4 (model, HAI, GSR, p Holm, spread, HBS) with a reconstruction of the pair
# counts (N, b, c): integers that reproduce HAI and GSR to the printed digits. The solution is
# unique for Llama 3.3, Kimi and Qwen; for the others the Holm column and HBS single it out
# (e.g. Maverick 8/44 of 501, not 7/38 of 431, which gives HBS 69.9). N, b, c are ours.
PAPER_TABLE4 = [
    ("Llama 4 Maverick", -7.19, 10.4, "<.001", 35.5, 70.1, (501, 8, 44)),
    ("Llama 3.3 70B", +7.77, 11.6, "<.001", 35.2, 68.8, (476, 46, 9)),
    ("Llama 4 Scout", +3.01, 9.8, "0.269", 33.7, 49.0, (498, 32, 17)),
    ("DeepSeek-V3.1", -0.84, 10.9, "1.000", 33.2, 37.0, (477, 24, 28)),
    ("Kimi K2 Thinking", -2.85, 12.5, "0.556", 30.7, 42.1, (456, 22, 35)),
    ("Gemini 2.5 Flash", +1.23, 3.7, "0.952", 28.5, 45.2, (487, 12, 6)),
    ("Qwen3-Next-80B", +3.32, 9.5, "0.269", 26.4, 43.9, (422, 27, 13)),
    ("gpt-oss-120b", +0.23, 4.3, "1.000", 17.3, 19.9, (440, 10, 9)),
    ("Gemma 4 26B", +1.20, 4.8, "0.952", 17.2, 29.7, (500, 15, 9)),
]


def label_rows(
    model: str,
    occupations: list[str],
    label_of: Callable[[int, int, str], str],
    plural_of: Callable[[int, int], bool] = lambda o, f: False,
    conditions: tuple[str, ...] = CONDITIONS,
) -> list[dict]:
    """One labels row per (occupation, frame, condition), labelled by ``label_of(o, f, cond)``."""
    rows = []
    for o, occupation in enumerate(occupations):
        for f, frame in enumerate(FRAMES):
            for condition in conditions:
                rows.append(
                    {
                        "model": model,
                        "item_id": f"{occupation}|{frame}|{condition}",
                        "occupation_en": occupation,
                        "occupation_bn": f"bn-{occupation}",
                        "template_id": frame,
                        "primed": frame.startswith("P"),
                        "gender": condition,
                        "label": label_of(o, f, condition),
                        "plural": condition == "they" and plural_of(o, f),
                    }
                )
    return rows


def labels(
    model: str, occupations: list[str], label_of: Callable[[int, int, str], str], **kwargs
) -> pd.DataFrame:
    return pd.DataFrame(label_rows(model, occupations, label_of, **kwargs))


OCCUPATIONS_72 = [f"occ{i:02d}" for i in range(72)]


def design_72(o: int, f: int, condition: str) -> str:
    """72 occupations x 7 frames with b = 10, c = 4, N = 502 and known occupation rates.

    Pairs: occupations 0-35 honorific, 36-71 ordinary for both genders, except the woman is
    ordinary in T1 of occupations 0-9 (b = 10) and honorific in T1 of 36-39 (c = 4); the man is
    mixed in T2 of occupation 40 and the woman unreadable in T2 of 41 (two unusable pairs).
    No pronoun: occupation o is honorific in its first o % 8 frames, so rates are h/7 for
    h = 0..7, nine occupations each; P2 is mixed when h = 0 and unreadable when h = 7, which
    leaves those rates at 0 and 100 only if such items are excluded.
    """
    if condition == "nopronoun":
        h = o % 8
        if f == 6 and h in (0, 7):
            return MIX if h == 0 else UNR
        return HON if f < h else ORD
    if condition == "they":
        return ORD
    base = HON if o < 36 else ORD
    if condition == "female" and f == 0 and (o < 10 or 36 <= o < 40):
        return ORD if o < 10 else HON
    if (condition, o, f) in (("male", 40, 1), ("female", 41, 1)):
        return MIX if condition == "male" else UNR
    return base


def binary_eta2(groups: list[tuple[int, int]]) -> float:
    """eta^2 of 0/1 data from (honorific count k, item count n) per group, in percent.

    For 0/1 data SS_total = K - K^2/N and SS_between = sum k^2/n - K^2/N.
    """
    big_k, big_n = sum(k for k, _ in groups), sum(n for _, n in groups)
    between = sum(k * k / n for k, n in groups) - big_k**2 / big_n
    return 100 * between / (big_k - big_k**2 / big_n)


SPREAD_72 = 100 * math.sqrt(5.25) / 7  # population SD of {0, 1, ..., 7} / 7 is sqrt(5.25) / 7


@pytest.fixture(scope="module")
def scores_72() -> dict:
    return score_model(labels("m", OCCUPATIONS_72, design_72))


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("b", 10),
        ("c", 4),
        ("n_pairs", 502),
        ("hai_pp", 100 * 6 / 502),
        ("gsr_pct", 100 * 14 / 502),
        ("p_exact", 2 * 1471 / 2**14),  # 2 * P(X <= 4 | n = 14)
        ("occupation_spread_pp", SPREAD_72),
        ("hbs_gender_component", 100 * 6 / 14),
        ("hbs", 0.5 * (100 * 6 / 14 + 2 * SPREAD_72)),
        ("mixed_n", 10),  # one male item + nine no-pronoun P2 items
        ("mixed_denominator", 2016),
        ("mixed_pct", 100 * 10 / 2016),
        ("unreadable_pct", 100 * 10 / 2016),
        # male: 252 honorific of 503 usable; female: 252 - 10 + 4 = 246 of 503
        ("eta2_pronoun_pct", binary_eta2([(252, 503), (246, 503)])),
        # per occupation (k, n): 0-9 (13, 14); 10-35 (14, 14); 36-39 (1, 14); 40, 41 (0, 13);
        # 42-71 (0, 14)
        (
            "eta2_occupation_pct",
            binary_eta2(
                [(13, 14)] * 10 + [(14, 14)] * 26 + [(1, 14)] * 4 + [(0, 13)] * 2 + [(0, 14)] * 30
            ),
        ),
    ],
)
def test_scores_of_the_72_occupation_design(scores_72: dict, key: str, expected: float) -> None:
    assert scores_72[key] == pytest.approx(expected, rel=1e-12)


def test_score_model_has_exactly_the_documented_keys(scores_72: dict) -> None:
    assert set(scores_72) == {
        "hai_pp",
        "gsr_pct",
        "b",
        "c",
        "n_pairs",
        "p_exact",
        "eta2_pronoun_pct",
        "eta2_occupation_pct",
        "occupation_spread_pp",
        "hbs",
        "hbs_gender_component",
        "mixed_pct",
        "mixed_n",
        "mixed_denominator",
        "mixed_spelling_only",
        "unreadable_pct",
        "min_detectable_hai_pp",
        "they",
        "primed",
        "occupation_spread_loo",
        # clustered inference over seeds, detectability, what the numbers rest on
        "p_test",
        "n_pairs_effective",
        "design_effect",
        "detects_5pp_hai",
        "hai_by_seed",
        "unreadable_n",
        "min_detectable_hai_reason",
        "occupations_below_min_items",
        "min_usable_items",
        # round 3: how the detectable HAI is computed (exact power of the exact test)
        "min_detectable_hai_method",
        # round 3: interval over items and permutation null of spread, HBS and eta-squared
        "no_effect_reference",
    }


def test_min_detectable_hai_reaches_the_stated_power_of_the_exact_test(scores_72: dict) -> None:
    # Round 3: the detectable HAI is where the exact McNemar test's exact power is 80%; at
    # Connor's normal-formula value (2.08 pp here) it was 78%.
    d = scores_72["min_detectable_hai_pp"] / 100
    assert mcnemar_exact_power(502, 14 / 502, d) == pytest.approx(0.8, abs=1e-7)
    assert mcnemar_exact_power(502, 14 / 502, d - 1e-6) < 0.8
    connor = min_detectable_difference(502, 14 / 502).as_float()
    assert mcnemar_exact_power(502, 14 / 502, connor) == pytest.approx(0.7802, abs=1e-4)
    assert mcnemar_required_pairs(connor, 14 / 502) == pytest.approx(502, rel=1e-9)


def reference_spread(rates: list[float]) -> float:
    return float(np.std(rates))


def test_leave_one_out_of_the_72_occupation_design(scores_72: dict) -> None:
    loo = scores_72["occupation_spread_loo"]
    # Leaving out one occupation of rate h/7: extremes (h = 0 or 7) give the smallest spread.
    multiset = [h / 7 * 100 for h in range(8) for _ in range(9)]
    without = {h: reference_spread(multiset[: 9 * h] + multiset[9 * h + 1 :]) for h in range(8)}
    assert loo["leave_out_occupation"] == {
        "min": pytest.approx(without[0]),
        "max": pytest.approx(without[3]),
        "n": 72,
    }
    # Leaving out frame j, computed plainly from the design.
    expected_by_frame = {}
    for j, frame in enumerate(FRAMES):
        rates = []
        for o in range(72):
            kept = [design_72(o, f, "nopronoun") for f in range(7) if f != j]
            usable = [label for label in kept if label in (HON, ORD)]
            rates.append(100 * usable.count(HON) / len(usable))
        expected_by_frame[frame] = reference_spread(rates)
    assert loo["leave_out_frame"]["values"] == pytest.approx(expected_by_frame)
    assert list(loo["leave_out_frame"]["values"]) == list(FRAMES)
    everything = list(expected_by_frame.values()) + list(without.values())
    assert (loo["min"], loo["max"]) == (
        pytest.approx(min(everything)),
        pytest.approx(max(everything)),
    )


def test_leave_one_out_hand_values() -> None:
    # No pronoun: A always honorific, B never, C honorific in T1-T3 (rates 100, 0, 300/7).
    def label_of(o: int, f: int, condition: str) -> str:
        return HON if o == 0 or (o == 2 and f < 3) else ORD

    scores = score_model(labels("m", ["A", "B", "C"], label_of, conditions=("nopronoun",)))
    assert scores["occupation_spread_pp"] == pytest.approx(np.std([100, 0, 300 / 7]))
    loo = scores["occupation_spread_loo"]
    assert loo["leave_out_occupation"]["min"] == pytest.approx(150 / 7)  # SD of {0, 300/7}
    assert loo["leave_out_occupation"]["max"] == pytest.approx(50.0)  # SD of {100, 0}
    values = loo["leave_out_frame"]["values"]
    for frame in ("T1", "T2", "T3"):  # C becomes 2/6
        assert values[frame] == pytest.approx(np.std([100, 0, 100 / 3]))
    for frame in ("T4", "T5", "P1", "P2"):  # C becomes 3/6
        assert values[frame] == pytest.approx(np.std([100, 0, 50]))
    assert loo["min"] == pytest.approx(150 / 7) and loo["max"] == pytest.approx(50.0)


def test_occupation_without_usable_items_is_left_out_of_the_spread() -> None:
    def label_of(o: int, f: int, condition: str) -> str:
        return [HON, ORD, HON if f < 3 else ORD, MIX][o]

    df = labels("m", ["A", "B", "C", "D"], label_of, conditions=("nopronoun",))
    assert score_model(df)["occupation_spread_pp"] == pytest.approx(np.std([100, 0, 300 / 7]))
    rates = occupation_rates(df).set_index("occupation_en")
    assert rates.loc["D", "n_items"] == 7 and rates.loc["D", "n_usable"] == 0
    assert math.isnan(rates.loc["D", "honorific_pct"])


def test_occupation_rates_exclude_mixed_and_unreadable() -> None:
    df = labels("m", OCCUPATIONS_72, design_72)
    rates = occupation_rates(df)
    assert list(rates.columns) == [
        "model",
        "occupation_en",
        "occupation_target",
        "n_items",
        "n_usable",
        "n_honorific",
        "n_usable_items",
        "honorific_pct",
        "few_items",
    ]
    assert list(rates["occupation_en"]) == OCCUPATIONS_72
    by_occupation = rates.set_index("occupation_en")
    # P2 mixed / unreadable: 6 usable items of 7, not few
    assert by_occupation.loc["occ00"].tolist()[1:] == ["bn-occ00", 7, 6, 0, 6, 0.0, False]
    assert by_occupation.loc["occ07"].tolist()[1:] == ["bn-occ07", 7, 6, 6, 6, 100.0, False]
    assert by_occupation.loc["occ03", "honorific_pct"] == pytest.approx(300 / 7)


def test_pair_counts_with_concordant_pairs() -> None:
    # One occupation: T1 (HON, ORD), T2 (ORD, HON), T3 (HON, HON), T4 (ORD, ORD), T5 (HON, mixed), P1 (UNR, ORD),
    # P2 (HON, HON).
    pattern = {
        "male": [HON, ORD, HON, ORD, HON, UNR, HON],
        "female": [ORD, HON, HON, ORD, MIX, ORD, HON],
    }
    df = labels("m", ["A"], lambda o, f, c: pattern[c][f], conditions=("male", "female"))
    assert pair_counts(df) == PairCounts(b=1, c=1, n_pairs=5, both_honorific=2, both_ordinary=1)


@pytest.mark.parametrize(
    ("b", "c", "spread", "gender", "hbs"),
    [
        (0, 0, 30.0, None, None),  # no pair changes register: undefined, never 0
        (10, 0, 20.0, 100.0, 70.0),  # 0.5 * (100 + 2 * 20)
        (3, 3, 10.0, 0.0, 10.0),
        (8, 44, 35.5, 100 * 36 / 52, 0.5 * (100 * 36 / 52 + 71.0)),
        (5, 2, None, 100 * 3 / 7, None),  # spread undefined
    ],
)
def test_hbs(b: int, c: int, spread: float | None, gender: float | None, hbs: float | None) -> None:
    assert hbs_gender_component(b, c) == (None if gender is None else pytest.approx(gender))
    assert honorific_bias_score(b, c, spread) == (None if hbs is None else pytest.approx(hbs))


def test_undefined_scores_are_none_not_zero() -> None:
    # All pairs concordant: b = c = 0.
    scores = score_model(labels("m", ["A", "B"], lambda o, f, c: HON if o == 0 else ORD))
    assert (scores["b"], scores["c"], scores["n_pairs"]) == (0, 0, 14)
    assert scores["hai_pp"] == 0.0 and scores["gsr_pct"] == 0.0
    assert scores["hbs"] is None and scores["hbs_gender_component"] is None
    assert scores["min_detectable_hai_pp"] is None
    assert scores["p_exact"] == 1.0
    assert scores["eta2_pronoun_pct"] == 0.0 and scores["eta2_occupation_pct"] == 100.0


# --------------------------------------------------------------------------- they and primed

# Two occupations. They: A = T1-T5 plural ordinary, P1 singular honorific, P2 singular
# ordinary; B = T1 unreadable, T2 plural mixed, T3-T5 singular honorific, P1 plural honorific,
# P2 plural ordinary. Female: A all honorific; B all ordinary but T1 mixed.
THEY = {0: [ORD, ORD, ORD, ORD, ORD, HON, ORD], 1: [UNR, MIX, HON, HON, HON, HON, ORD]}
THEY_PLURAL = {0: [True] * 5 + [False, False], 1: [False, True, False, False, False, True, True]}
FEMALE = {0: [HON] * 7, 1: [MIX] + [ORD] * 6}


@pytest.fixture(scope="module")
def they_scores() -> dict:
    df = labels(
        "m",
        ["A", "B"],
        lambda o, f, c: (THEY if c == "they" else FEMALE)[o][f],
        plural_of=lambda o, f: THEY_PLURAL[o][f],
        conditions=("female", "they"),
    )
    return score_model(df)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("they_usable_n", 12),
        ("they_honorific_n", 5),
        ("they_honorific_pct", 500 / 12),
        ("female_usable_n", 13),
        ("female_honorific_n", 7),
        ("female_honorific_pct", 700 / 13),
        ("they_minus_female_pp", 500 / 12 - 700 / 13),
        ("plural_denominator", 13),
        ("plural_n", 8),
        ("plural_pct", 800 / 13),
        ("singular_usable_n", 5),
        ("singular_honorific_n", 4),
        ("singular_honorific_pct", 80.0),
        ("singular_minus_they_pp", 80 - 500 / 12),
    ],
)
def test_they_analysis(they_scores: dict, key: str, expected: float) -> None:
    assert they_scores["they"][key] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        # primed (P1, P2): they A HON ORD, B HON ORD; female A HON HON, B ORD ORD -> 4 of 8
        ("primed_usable_n", 8),
        ("primed_honorific_n", 4),
        ("primed_honorific_pct", 50.0),
        # unprimed: they A 5 ORD, B 3 HON (T1 unreadable, T2 mixed); female A 5 HON, B 4 ORD (T1 mixed)
        ("unprimed_usable_n", 17),
        ("unprimed_honorific_n", 8),
        ("unprimed_honorific_pct", 800 / 17),
        ("primed_minus_unprimed_pp", 50 - 800 / 17),
    ],
)
def test_primed_analysis(they_scores: dict, key: str, expected: float) -> None:
    assert they_scores["primed"][key] == pytest.approx(expected)


# --------------------------------------------------------------------------- several models


def paper_pairs(model: str, n_pairs: int, b: int, c: int) -> pd.DataFrame:
    """504 he/she pairs realising (N, b, c): the rest concordant, 504 - N with a mixed man."""
    kinds = (
        [(HON, ORD)] * b
        + [(ORD, HON)] * c
        + [(HON, HON)] * (n_pairs - b - c)
        + [(MIX, ORD)] * (504 - n_pairs)
    )
    return labels(
        model,
        OCCUPATIONS_72,
        lambda o, f, cond: kinds[7 * o + f][cond == "female"],
        conditions=("male", "female"),
    )


@pytest.fixture(scope="module")
def paper_scores() -> dict:
    frames = [paper_pairs(name, *counts) for name, *_, counts in PAPER_TABLE4]
    return score_models(pd.concat(frames, ignore_index=True))


@pytest.mark.parametrize(("name", "hai", "gsr", "p_holm", "spread", "hbs", "counts"), PAPER_TABLE4)
def test_paper_table4_gender_columns(
    paper_scores: dict,
    name: str,
    hai: float,
    gsr: float,
    p_holm: str,
    spread: float,
    hbs: float,
    counts: tuple[int, int, int],
) -> None:
    scores = paper_scores["models"][name]
    assert (scores["n_pairs"], scores["b"], scores["c"]) == counts
    assert round(scores["hai_pp"], 2) == hai
    assert round(scores["gsr_pct"], 1) == gsr
    assert scores["p_exact"] == pytest.approx(mcnemar_exact(counts[1], counts[2]))
    assert format_p(scores["p_holm"]) == p_holm  # Holm across the nine models
    # The paper's HBS from our b, c and its own spread, to its rounding.
    assert honorific_bias_score(counts[1], counts[2], spread) == pytest.approx(hbs, abs=0.15)
    # "The observed gaps fall below the nominal detectable thresholds" for the models without
    # a significant difference; the two significant ones lie above theirs.
    significant = p_holm == "<.001"
    assert (abs(scores["hai_pp"]) > scores["min_detectable_hai_pp"]) == significant


def test_paper_table4_hbs_is_internally_consistent() -> None:
    for _, hai, gsr, _, spread, hbs, _ in PAPER_TABLE4:
        assert 0.5 * (100 * abs(hai) / gsr + 2 * spread) == pytest.approx(hbs, abs=0.15)


def test_score_models_structure(paper_scores: dict) -> None:
    assert list(paper_scores["models"]) == [row[0] for row in PAPER_TABLE4]
    # Only he/she pairs in this set: no no-pronoun rates, so no ranking agreement either.
    agreement = paper_scores["occupation_rank_agreement"]
    assert agreement["n_pairs"] == 0 and agreement["mean"] is None


def test_occupation_rank_agreement() -> None:
    ranks = {"m1": [0, 1, 2, 3], "m2": [0, 1, 2, 3], "m3": [3, 2, 1, 0]}
    frames = [
        labels(
            model,
            ["A", "B", "C", "D"],
            lambda o, f, c, order=order: HON if f < 2 * order[o] else ORD,
            conditions=("nopronoun",),
        )
        for model, order in ranks.items()
    ]
    agreement = score_models(pd.concat(frames))["occupation_rank_agreement"]
    assert agreement["n_pairs"] == 3
    assert agreement["mean"] == pytest.approx(-1 / 3)
    assert (agreement["min"], agreement["max"]) == (pytest.approx(-1.0), pytest.approx(1.0))
    assert agreement["matrix"]["m1"]["m3"] == pytest.approx(-1.0)
    assert agreement["matrix"]["m2"]["m2"] == pytest.approx(1.0)


def test_single_model_has_no_rank_agreement_and_unadjusted_p() -> None:
    result = score_models(labels("only", OCCUPATIONS_72, design_72))
    assert result["occupation_rank_agreement"] is None
    only = result["models"]["only"]
    assert only["p_holm"] == only["p_exact"]


# --------------------------------------------------------------------------- input handling


def test_seeds_are_matched_within_seed() -> None:
    rows = []
    for seed, (male, female) in enumerate([(HON, ORD), (ORD, HON), (HON, ORD)]):
        for gender, label in (("male", male), ("female", female)):
            rows.append(
                {
                    "model": "m",
                    "item_id": f"A|T1|{gender}",
                    "occupation_en": "A",
                    "occupation_bn": "a",
                    "template_id": "T1",
                    "primed": False,
                    "gender": gender,
                    "label": label,
                    "plural": False,
                    "seed": seed,
                }
            )
    scores = score_model(pd.DataFrame(rows))
    assert (scores["b"], scores["c"], scores["n_pairs"]) == (2, 1, 3)


def test_booleans_from_csv_strings_are_accepted() -> None:
    df = labels(
        "m",
        ["A", "B"],
        lambda o, f, c: (THEY if c == "they" else FEMALE)[o][f],
        plural_of=lambda o, f: THEY_PLURAL[o][f],
        conditions=("female", "they"),
    )
    as_strings = df.astype({"primed": str, "plural": str})
    assert score_model(as_strings)["they"] == score_model(df)["they"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda df: df.drop(columns="plural"), "plural"),
        (lambda df: df.assign(label=df["label"].replace(HON, "respectful")), "label"),
        (lambda df: df.assign(gender=df["gender"].replace("male", "man")), "gender"),
        (lambda df: pd.concat([df, df.iloc[:1]]), "item_id"),
        (lambda df: df.assign(primed="maybe"), "primed"),
    ],
)
def test_bad_input_names_the_field(
    change: Callable[[pd.DataFrame], pd.DataFrame], field: str
) -> None:
    df = labels("m", ["A"], lambda o, f, c: HON)
    with pytest.raises(InputError) as error:
        score_models(change(df))
    assert error.value.field == field


def test_score_model_refuses_several_models() -> None:
    df = pd.concat(
        [labels("a", ["A"], lambda o, f, c: HON), labels("b", ["A"], lambda o, f, c: HON)]
    )
    with pytest.raises(InputError, match="score_models"):
        score_model(df)


def test_a_model_without_usable_pairs_has_no_test_and_stays_out_of_holm() -> None:
    # Model "a": 5 pairs he-honorific/she-ordinary; model "b": every output unreadable.
    rows = []
    for model, male, female in (("a", "honorific", "ordinary"), ("b", "unreadable", "unreadable")):
        for i in range(5):
            for gender, label in (("male", male), ("female", female)):
                rows.append(
                    {
                        "model": model,
                        "item_id": f"occ{i}|T1|{gender}",
                        "occupation_en": f"occ{i}",
                        "occupation_bn": "ক",
                        "template_id": "T1",
                        "primed": False,
                        "gender": gender,
                        "label": label,
                        "plural": False,
                    }
                )
    scored = score_models(pd.DataFrame(rows))["models"]
    assert scored["b"]["n_pairs"] == 0
    assert scored["b"]["p_exact"] is None and scored["b"]["p_holm"] is None
    # "a" alone in the family: Holm leaves its p unchanged (2 * 0.5**5).
    assert scored["a"]["p_exact"] == scored["a"]["p_holm"] == 2 * 0.5**5


# ---------------------------------------------------------- clustered inference over seeds


def issue_pairs(seeds: list[int] | None) -> pd.DataFrame:
    """The worked example, N = 456, b = 41, c = 19, repeated unchanged under each seed."""
    one = paper_pairs("m", 456, 41, 19)
    if seeds is None:
        return one
    return pd.concat([one.assign(seed=seed) for seed in seeds], ignore_index=True)


@pytest.mark.parametrize("seeds", [None, [0], [0, 1], [3, 4, 5], list(range(10))])
def test_identical_seeds_change_neither_p_nor_detectable_hai(seeds: list[int] | None) -> None:
    # Without clustering, two identical seeds gave p 7.3e-5 and a detectable HAI of 3.36 pp (pairs
    # of one item under two seeds counted as independent); one seed gives 0.0062 and 4.75 pp.
    scores = score_model(issue_pairs(seeds))
    n_seeds = len(seeds) if seeds else 1
    assert (scores["b"], scores["c"], scores["n_pairs"]) == (
        41 * n_seeds,
        19 * n_seeds,
        456 * n_seeds,
    )
    assert scores["hai_pp"] == pytest.approx(100 * 22 / 456)
    assert scores["p_exact"] == mcnemar_exact(41, 19) == pytest.approx(0.0062176026593)
    assert scores["min_detectable_hai_pp"] == pytest.approx(4.88471967094627, rel=1e-9)
    assert scores["n_pairs_effective"] == pytest.approx(456)
    assert scores["design_effect"] == pytest.approx(n_seeds)
    assert scores["p_test"] == (
        "McNemar exact"
        if n_seeds == 1
        else "item-level sign-flip, exact (seeds of an item flipped together)"
    )
    spread = scores["hai_by_seed"]
    assert spread["n_seeds"] == n_seeds and spread["n_seeds_without_pairs"] == 0
    assert spread["mean"] == spread["min"] == spread["max"] == pytest.approx(100 * 22 / 456)
    assert spread["sd"] == (None if n_seeds == 1 else pytest.approx(0.0))
    assert [row["seed"] for row in spread["seeds"]] == (seeds or [None])


def test_holm_uses_the_clustered_p() -> None:
    both = pd.concat([issue_pairs([0, 1]), issue_pairs(None).assign(model="other", seed=0)])
    scored = score_models(both)["models"]
    assert scored["m"]["p_exact"] == scored["other"]["p_exact"] == mcnemar_exact(41, 19)
    assert scored["m"]["p_holm"] == pytest.approx(2 * mcnemar_exact(41, 19))


def test_hai_per_seed_and_its_spread() -> None:
    # Three seeds of one occupation's seven frames: seed 0 has b = 3, seed 1 b = 1 c = 1,
    # seed 2 c = 2 and one unusable pair; the rest concordant.
    patterns = {
        0: [(HON, ORD)] * 3 + [(HON, HON)] * 4,
        1: [(HON, ORD), (ORD, HON)] + [(ORD, ORD)] * 5,
        2: [(ORD, HON)] * 2 + [(MIX, HON)] + [(HON, HON)] * 4,
    }
    frames = [
        labels(
            "m",
            ["A"],
            lambda o, f, c, p=pattern: p[f][c == "female"],
            conditions=("male", "female"),
        ).assign(seed=seed)
        for seed, pattern in patterns.items()
    ]
    scores = score_model(pd.concat(frames, ignore_index=True))
    per_seed = [100 * 3 / 7, 0.0, -100 * 2 / 6]
    spread = scores["hai_by_seed"]
    assert [row["hai_pp"] for row in spread["seeds"]] == pytest.approx(per_seed)
    assert [row["n_pairs"] for row in spread["seeds"]] == [7, 7, 6]
    assert spread["mean"] == pytest.approx(np.mean(per_seed))
    assert spread["sd"] == pytest.approx(np.std(per_seed, ddof=1))
    assert (spread["min"], spread["max"]) == (
        pytest.approx(min(per_seed)),
        pytest.approx(max(per_seed)),
    )
    # Pooled: b = 4, c = 3 of 20; per item T1: d = 1 + 1 - 1, T2: 1 - 1 - 1, T3: 1 (seed 2
    # unusable): T = 1, odd, so every sign vector reaches |T*| >= 1.
    assert (scores["b"], scores["c"], scores["n_pairs"]) == (4, 3, 20)
    assert scores["p_exact"] == 1.0


def test_a_seed_without_usable_pairs_is_counted_apart() -> None:
    good = issue_pairs([0])
    bad = good.assign(seed=1, label=UNR)
    spread = score_model(pd.concat([good, bad], ignore_index=True))["hai_by_seed"]
    assert (spread["n_seeds"], spread["n_seeds_without_pairs"]) == (1, 1)
    assert spread["sd"] is None and spread["seeds"][1]["hai_pp"] is None


# ----------------------------------------------------------------- minimum detectable HAI


@pytest.mark.parametrize(
    ("n_pairs", "b", "c", "detectable", "reason"),
    [
        (456, 41, 19, 4.88471967094627, None),  # Connor: 4.747
        (10, 3, 0, None, "not detectable: 10 pairs with 30.0% discordant"),  # was 43.0 pp
        (30, 3, 0, None, "not detectable: 30 pairs with 10.0% discordant"),  # was 15.5 pp
        (40, 0, 0, None, "not detectable: no discordant pair"),
        (8, 8, 0, 94.49849449447, None),  # |HAI| <= 100 allowed
    ],
)
def test_min_detectable_hai_is_a_possible_hai_or_none_with_a_reason(
    n_pairs: int, b: int, c: int, detectable: float | None, reason: str | None
) -> None:
    scores = score_model(paper_pairs("m", n_pairs, b, c))
    if detectable is None:
        assert scores["min_detectable_hai_pp"] is None
        assert scores["min_detectable_hai_reason"].startswith(reason)
    else:
        assert scores["min_detectable_hai_pp"] == pytest.approx(detectable, rel=1e-9)
        assert scores["min_detectable_hai_pp"] <= scores["gsr_pct"]
        assert scores["min_detectable_hai_reason"] is None


def test_no_usable_pairs_has_no_detectable_hai() -> None:
    scores = score_model(paper_pairs("m", 0, 0, 0))
    assert scores["min_detectable_hai_pp"] is None
    assert scores["min_detectable_hai_reason"] == "not detectable: no usable pairs"
    assert scores["detects_5pp_hai"] is False


# ---------------------------------------------------------- does the run detect 5 pp HAI


@pytest.mark.parametrize(
    ("n_pairs", "b", "c", "detects"),
    [
        (456, 41, 19, True),  # detectable 4.88 pp (exact power)
        (476, 46, 9, True),  # Llama 3.3 70B: 4.35 pp
        (200, 20, 10, False),  # detectable 7.9 pp; 37% exact power at 5 pp
        (75, 30, 3, False),  # the reported embedded model: 75 pairs; 155 needed even at best
        (504, 2, 1, True),  # 0.6% discordant: judged at 5% (a 5 pp HAI needs it): 155 pairs
        (156, 0, 0, False),  # exact power 79.7% at 5 pp (Connor's formula said 155 was enough)
        (157, 0, 0, True),  # 80.2%
    ],
)
def test_detects_5pp_hai(n_pairs: int, b: int, c: int, detects: bool) -> None:
    assert score_model(paper_pairs("m", n_pairs, b, c))["detects_5pp_hai"] is detects


def test_occupations_resting_on_few_items_are_listed() -> None:
    # Occupation o has its first o no-pronoun frames unreadable: 7 - o usable items.
    df = labels(
        "m",
        ["A", "B", "C", "D", "E", "F"],
        lambda o, f, c: UNR if c == "nopronoun" and f < o else HON,
    )
    scores = score_model(df)
    assert scores["min_usable_items"] == 4
    assert scores["occupations_below_min_items"] == ["E", "F"]  # 3 and 2 usable items; D has 4
    rates = occupation_rates(df).set_index("occupation_en")
    assert rates["n_usable_items"].tolist() == [7, 6, 5, 4, 3, 2]
    assert rates["few_items"].tolist() == [False] * 4 + [True] * 2


def test_usable_items_count_frames_not_seeds() -> None:
    # Ten seeds of an occupation with three usable frames: 30 usable outputs, still 3 items.
    one = labels("m", ["A"], lambda o, f, c: HON if f < 3 else MIX, conditions=("nopronoun",))
    df = pd.concat([one.assign(seed=seed) for seed in range(10)], ignore_index=True)
    rates = occupation_rates(df)
    assert rates.loc[0, "n_usable"] == 30 and rates.loc[0, "n_usable_items"] == 3
    assert score_model(df)["occupations_below_min_items"] == ["A"]


@pytest.mark.parametrize("seeds", [0, 2])
def test_identical_seeds_end_to_end(tmp_path: Path, seeds: int) -> None:
    # `biasbench score` on the worked responses (b = 41, c = 19, N = 456), once and repeated
    # under two identical seeds: unclustered, the second gave p 7.3e-5 and 3.36 pp.
    from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
    from tests.benchmarks.honorific_bn.pair_responses import pair_responses, write

    path = tmp_path / "responses.jsonl"
    write(path, pair_responses(456, 41, 19, seeds))
    bench = HonorificBenchmark()
    frame = bench.read_responses(path)
    sig = bench.signature({"kind": "external", "model": "m"}, None, None)
    scores = bench.evaluate(frame, tmp_path / "out", {"m": sig})["models"]["m"]
    assert scores["n_pairs"] == 456 * max(seeds, 1)
    assert scores["p_exact"] == pytest.approx(0.0062176026593, rel=1e-10)
    assert scores["min_detectable_hai_pp"] == pytest.approx(4.88471967094627, rel=1e-9)
    assert scores["coverage"]["n_pairs_possible"] == 504 * max(seeds, 1)
    assert scores["coverage"]["partial"] is False
