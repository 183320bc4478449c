"""Cross-language comparison: synthetic parallel items in three languages,
scripted answers with planted language effects; the paired differences recover them, the
tests flag them after Holm and leave the unplanted cells alone, and the control-adjusted
difference removes a task-ability gap while keeping a bias gap."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pandas as pd
import pytest

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.presenting.cross_language import (
    cross_language_part,
    cross_language_table,
    heatmap_figure,
)
from biasbench.engines.bbq_family.scoring.cross_language import (
    ADJUSTED,
    RAW,
    cross_language_frame,
    frame_from_results,
)
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
from biasbench.testing.language_effect import (
    PLANTED_BASE,
    LanguageBehaviour,
    control_planted,
    parallel_items,
    planted_answers,
)

BASE = PLANTED_BASE
CATEGORIES = ("Age", "SES", "Disability")


def _planted(item: BBQItem) -> LanguageBehaviour:
    """es: a stronger disambiguated bias in Age only (s_DIS +0.30); nl: answers unknown less
    often in every category (acc_ambig -0.20, hence s_AMB +0.04)."""
    if item.language == "es" and item.category == "Age":
        return dataclasses.replace(BASE, disambig_bias=0.2)
    if item.language == "nl":
        return dataclasses.replace(BASE, p_unknown_ambig=0.3)
    return BASE


def _planted_difference(language: str, category: str, score: str) -> float:
    """The population difference language - en of the behaviours above."""
    probe = parallel_items("x", [language], [category], 1)[0]
    return _planted(probe).expected()[score] - BASE.expected()[score]


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    items = parallel_items("ds", ["en", "es", "nl"], CATEGORIES, 240)
    scored = score_responses(items, planted_answers(items, _planted, range(4), 11))
    return cross_language_frame(scored, items)


def _row(
    frame: pd.DataFrame,
    b: str,
    category: str,
    score: str,
    a: str = "en",
    kind: str = RAW,
    dataset: str | None = None,
) -> pd.Series:
    rows = frame[
        (frame["language_a"] == a)
        & (frame["language_b"] == b)
        & (frame["category"] == category)
        & (frame["score"] == score)
        & (frame["kind"] == kind)
    ]
    if dataset is not None:
        rows = rows[rows["dataset"] == dataset]
    assert len(rows) == 1
    return rows.iloc[0]


@pytest.mark.parametrize(
    ("language", "category", "score"),
    [
        ("es", "Age", "s_dis"),
        ("nl", "Age", "acc_ambig"),
        ("nl", "SES", "acc_ambig"),
        ("nl", "Disability", "acc_ambig"),
        ("nl", "all", "acc_ambig"),
    ],
)
def test_planted_effects_are_recovered_and_significant(
    frame: pd.DataFrame, language: str, category: str, score: str
) -> None:
    planted = _planted_difference(language, category, score)
    row = _row(frame, language, category, score)
    # within 0.08 of the planted difference (about 2 standard errors at 120 paired items of
    # the context x 4 seeds), inside its interval, and significant after Holm
    assert abs(row["difference"] - planted) < 0.08, (row["difference"], planted)
    assert row["ci_low"] <= planted <= row["ci_high"]
    assert row["significant"] and row["p_holm"] < 0.01


@pytest.mark.parametrize(
    ("language", "category", "score"),
    [
        ("es", "SES", "s_dis"),
        ("es", "Disability", "s_dis"),
        ("es", "Age", "acc_ambig"),
        ("es", "SES", "acc_disambig"),
        ("nl", "Age", "s_dis"),
        ("nl", "SES", "acc_disambig"),
    ],
)
def test_cells_without_a_planted_effect_are_not_flagged(
    frame: pd.DataFrame, language: str, category: str, score: str
) -> None:
    row = _row(frame, language, category, score)
    assert row["ci_low"] <= 0.0 <= row["ci_high"]
    assert not row["significant"]


def test_holm_is_one_family_over_every_row_of_a_model(frame: pd.DataFrame) -> None:
    """Every row the summary can flag is in the family, 'all' rows included: separate families
    per pair and score, with 'all' unadjusted, flagged some row in 46% of null runs."""
    m = len(frame)
    assert (frame["family_size"] == m).all() and m == 3 * (len(CATEGORIES) + 1) * 4
    ordered = frame.sort_values("p_value")
    # Holm's step-down: the smallest p times m, then times m - 1 (monotone), capped at 1
    assert ordered["p_holm"].iloc[0] == pytest.approx(min(1.0, m * ordered["p_value"].iloc[0]))
    assert (frame["p_holm"] >= frame["p_value"]).all()
    overall = _row(frame, "es", "all", "s_dis")
    assert overall["p_holm"] > overall["p_value"]  # 'all' is in the family


def test_a_null_model_flags_no_row() -> None:
    """Three languages answering alike: no row of the 48 is significant (the simulation in
    measurements/round4_numbers.py cross_language measures how often, over many runs)."""
    items = parallel_items("ds", ["en", "es", "nl"], CATEGORIES, 120)
    scored = score_responses(items, planted_answers(items, lambda item: BASE, range(2), 0))
    null = cross_language_frame(scored, items)
    assert len(null) == 48 and not null["significant"].any()
    assert null["p_value"].min() < 0.05  # some row alone would have been "significant"


def test_every_pair_of_languages_and_the_table(frame: pd.DataFrame) -> None:
    pairs = set(zip(frame["language_a"], frame["language_b"], strict=True))
    assert pairs == {("en", "es"), ("en", "nl"), ("es", "nl")}
    assert set(frame["kind"]) == {RAW}  # no control set given
    table = cross_language_table(frame)
    assert {"es - en", "nl - en", "nl - es"} == set(table["comparison"])
    assert len(table) == len(frame) == 3 * (len(CATEGORIES) + 1) * 4


@pytest.fixture(scope="module")
def adjusted() -> pd.DataFrame:
    items = parallel_items("mb", ["en", "es"], ("Age", "SES"), 240) + parallel_items(
        "mb-control", ["en", "es"], ("Age", "SES"), 240
    )
    scored = score_responses(items, planted_answers(items, control_planted, range(4), 5))
    return cross_language_frame(scored, items, {"mb": "mb-control"})


def test_control_adjustment_removes_a_task_gap(adjusted: pd.DataFrame) -> None:
    raw = _row(adjusted, "es", "all", "acc_disambig", dataset="mb")
    assert raw["difference"] == pytest.approx(-0.2, abs=0.05) and raw["significant"]
    fair = _row(adjusted, "es", "all", "acc_disambig", kind=ADJUSTED)
    assert fair["dataset"] == "mb"  # adjusted rows are named by the main dataset
    assert fair["ci_low"] <= 0.0 <= fair["ci_high"] and not fair["significant"]
    assert abs(fair["difference"]) < 0.05


def test_control_adjustment_keeps_a_bias_gap(adjusted: pd.DataFrame) -> None:
    fair = _row(adjusted, "es", "all", "s_dis", kind=ADJUSTED)
    assert fair["difference"] == pytest.approx(0.2, abs=0.07)
    assert fair["ci_low"] <= 0.2 <= fair["ci_high"] and fair["significant"]
    # the control set's own comparison is there too, with no bias gap
    control = _row(adjusted, "es", "all", "s_dis", dataset="mb-control")
    assert not control["significant"]


def test_results_files_and_heat_map(tmp_path: Path, frame: pd.DataFrame) -> None:
    items = parallel_items("ds", ["en", "es"], ("Age",), 40)
    scored = score_responses(items, planted_answers(items, _planted, range(2), 3))
    results = cross_language_part(scored, items, None, tmp_path / "tables", tmp_path / "figures")
    section = json.loads(json.dumps(results["cross_language"]))  # JSON-safe
    assert section["method"].startswith("difference = language b minus language a")
    back = frame_from_results(section)
    assert len(back) == 2 * 4 and set(back["category"]) == {"Age", "all"}
    assert (tmp_path / "tables" / "cross_language.csv").is_file()
    assert list((tmp_path / "figures").glob("cross_language_*.png"))
    fig = heatmap_figure(frame, "m", "ds", RAW)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["es - en", "nl - en"]
    marks = [t.get_text() for t in fig.axes[2].texts]  # acc ambig panel: nl flagged everywhere
    assert sum(m.endswith("*") for m in marks) == len(CATEGORIES) + 1


def test_one_namespace_adds_nothing(tmp_path: Path) -> None:
    items = parallel_items("ds", ["en"], ("Age",), 20)
    scored = score_responses(items, planted_answers(items, _planted, range(2), 3))
    results = cross_language_part(scored, items, None, tmp_path / "tables", tmp_path / "figures")
    assert "cross_language" not in results and not (tmp_path / "tables").exists()


def _shifted(items: list[BBQItem], language: str, first: int) -> list[BBQItem]:
    """``language``'s items from example id ``first`` on shifted by 2 (as CaBBQ's extra
    PhysicalAppearance items shift its ids against EsBBQ's): ids keep their template and
    context, but now ask the other polarity."""
    out = []
    for item in items:
        if item.language == language and item.example_id >= first:
            flipped = "nonneg" if item.question_polarity == "neg" else "neg"
            item = item.model_copy(update={"question_polarity": flipped})
        out.append(item)
    return out


def test_items_that_ask_otherwise_under_one_id_do_not_pair() -> None:
    items = _shifted(parallel_items("ds", ["es", "ca"], ("Age",), 80), "ca", 40)
    scored = score_responses(items, planted_answers(items, lambda _: BASE, range(2), 7))
    frame = cross_language_frame(scored, items)
    # 40 items per context condition in each language; 20 of each condition shifted
    for score in ("s_amb", "s_dis", "acc_ambig", "acc_disambig"):
        assert _row(frame, "ca", "Age", score, a="es")["n_pairs"] == 20
    # the answers' order may differ between languages: the same item still pairs
    swapped = [
        item.model_copy(
            update={
                "ans0": item.ans1,
                "ans1": item.ans0,
                "answer_info": {
                    "ans0": item.answer_info["ans1"],
                    "ans1": item.answer_info["ans0"],
                    "ans2": item.answer_info["ans2"],
                },
                "label": {0: 1, 1: 0}.get(item.label, item.label),
            }
        )
        if item.language == "ca"
        else item
        for item in parallel_items("ds", ["es", "ca"], ("Age",), 80)
    ]
    scored = score_responses(swapped, planted_answers(swapped, lambda _: BASE, range(2), 7))
    assert (
        _row(cross_language_frame(scored, swapped), "ca", "Age", "s_dis", a="es")["n_pairs"] == 40
    )
