"""biasbench's BBQ scores equal the original R analysis's on the released UnifiedQA predictions
(nyu-mll/BBQ results/UnifiedQA/preds_*.jsonl), category by category; and, always, on a small
fixture whose labels are spelled as in the release (SES "low SES" vs "lowSES", trans_F/trans_M,
man/woman, F-/M- prefixes)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.parser import parse_answer
from biasbench.engines.bbq_family.scoring.bias_scores import (
    EXCLUDED_INTERSECTIONAL,
    NO_INDEX,
    count_statistics,
    exclusion_counts,
    exclusion_summary,
    item_table,
    scores_from_counts,
    target_index,
)
from tests.benchmarks.bbq.original_files import original_file
from tests.benchmarks.bbq.r_reference import UQA_MODELS, r_bias_scores, r_target_loc

FIXTURE = Path(__file__).parent / "fixtures" / "uqa_labels.jsonl"
BASE_CATEGORIES = (
    "Age",
    "Disability_status",
    "Gender_identity",
    "Nationality",
    "Physical_appearance",
    "Race_ethnicity",
    "Religion",
    "SES",
    "Sexual_orientation",
)


def biasbench_scores(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Score the UnifiedQA predictions with biasbench: its parser, its targets, its formulas;
    the slices are the R script's (category, with " (names)" for templates > 25; model)."""
    rows = list(rows)
    items = [BBQItem.model_validate(row) for row in rows]
    predictions = []
    for row, item in zip(rows, items, strict=True):
        for column, model in UQA_MODELS.items():
            if model == "baseline_qonly" and item.context_condition == "disambig":
                continue  # the R script: "every baseline example is ambiguous"
            index = parse_answer(row[column], item).index
            predictions.append(
                {
                    "model": model,
                    "uid": item.uid,
                    "pred_index": NO_INDEX if index is None else index,
                }
            )
    table = item_table(items)
    counts = count_statistics(pd.DataFrame(predictions), table, keys=("model",))
    names = pd.to_numeric(counts["question_index"]) > 25
    counts["category"] = counts["category"] + np.where(names, " (names)", "")
    return scores_from_counts(counts, ["category", "model"])


def assert_parity(rows: list[dict[str, Any]]) -> pd.DataFrame:
    ours = biasbench_scores(rows)
    theirs = r_bias_scores(rows)
    assert len(theirs) > 0
    compared = 0
    for _, r in theirs.iterrows():
        mine = ours[(ours["category"] == r["category"]) & (ours["model"] == r["model"])]
        assert len(mine) == 1, (r["category"], r["model"])
        condition = r["context_condition"]
        score = mine[f"s_{condition[:3] if condition == 'ambig' else 'dis'}"].iloc[0]
        assert 100 * score == pytest.approx(r["acc_bias"], abs=1e-9), (
            r["category"],
            r["model"],
            condition,
        )
        assert mine[f"acc_{condition}"].iloc[0] == pytest.approx(r["accuracy"], abs=1e-12)
        compared += 1
    return theirs.assign(compared=compared)


def read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("category", BASE_CATEGORIES)
def test_r_parity_on_unifiedqa(category: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = original_file(
        f"results/UnifiedQA/preds_{category}.jsonl", tmp_path_factory.getbasetemp() / "bbq-original"
    )
    rows = read_rows(path)
    # Every item's target is the R script's (so the scores can agree, not merely happen to).
    for row in rows:
        assert target_index(BBQItem.model_validate(row)) == r_target_loc(row), row["example_id"]
    assert_parity(rows)


def test_fixture_labels_follow_the_r_analysis() -> None:
    """Always runs: items spelled as in the release, for the categories whose label spellings
    differ from their stereotyped groups (SES lost every item to "low SES" before)."""
    rows = read_rows(FIXTURE)
    expected_targets = {row["example_id"]: row["expected_target"] for row in rows}
    for row in rows:
        item = BBQItem.model_validate(row)
        assert target_index(item) == r_target_loc(row) == expected_targets[row["example_id"]], (
            row["category"],
            row["example_id"],
        )
    theirs = assert_parity(rows)
    assert set(theirs["category"]) >= {"SES", "Gender_identity", "Race_ethnicity (names)"}


def test_every_exclusion_has_a_printed_reason() -> None:
    rows = read_rows(FIXTURE)
    item = BBQItem.model_validate(rows[0])
    broken = item.model_copy(
        update={"category": "Race_x_SES", "additional_metadata": {"stereotyped_groups": ["nobody"]}}
    )
    orphan = item.model_copy(
        update={"additional_metadata": {"stereotyped_groups": ["nobody"]}, "example_id": 999}
    )
    counts = exclusion_counts([BBQItem.model_validate(r) for r in rows] + [broken, orphan])
    assert counts == {
        "Race_x_SES": {EXCLUDED_INTERSECTIONAL: 1},
        "SES": {"no answer label matches the stereotyped groups": 1},
    }
    line = exclusion_summary(counts)
    assert line.startswith("excluded items: 2: ")
    assert "SES 1 (no answer label matches the stereotyped groups)" in line
    assert exclusion_summary({}) == "excluded items: none (every item has one target answer)"


def test_exclusions_reach_results_and_the_summary_line() -> None:
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses, to_results_json

    items = [BBQItem.model_validate(r) for r in read_rows(FIXTURE)]
    orphan = items[0].model_copy(
        update={"example_id": 999, "additional_metadata": {"stereotyped_groups": ["nobody"]}}
    )
    items.append(orphan)
    responses = pd.DataFrame(
        {"model": "m", "seed": 0, "uid": [i.uid for i in items], "output": ["A"] * len(items)}
    )
    results = to_results_json(score_responses(items, responses))
    assert results["excluded_by_reason"] == {
        "SES": {"no answer label matches the stereotyped groups": 1}
    }
    assert results["n_excluded_items"] == 1
    summary = FilBBQBenchmark.summary(results)
    assert "excluded items: 1: SES 1 (no answer label matches the stereotyped groups)" in summary


def test_names_templates_reported_apart_as_the_r_script_does() -> None:
    """Name proxies apart: BBQ_calculate_bias_score.R prints templates above 25 (first names as
    proxies) as "<category> (names)"; results.json ``r_categories`` gives both parts, equal to
    the R reference (written by hand from the published R code) on the release-spelled
    fixture, while ``models`` keeps the pooled category."""
    from biasbench.benchmarks.bbq.r_categories import r_categories
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses, to_results_json

    rows = read_rows(FIXTURE)
    items = [BBQItem.model_validate(r) for r in rows]
    responses = pd.DataFrame(
        [
            {"model": model, "seed": 0, "uid": item.uid, "output": row[column]}
            for row, item in zip(rows, items, strict=True)
            for column, model in UQA_MODELS.items()
            if not (model == "baseline_qonly" and item.context_condition == "disambig")
        ]
    )
    scored = score_responses(items, responses)
    split = r_categories(scored)
    theirs = r_bias_scores(rows).set_index(["category", "model", "context_condition"])
    expected = {
        "Gender_identity",
        "Gender_identity (names)",
        "Race_ethnicity",
        "Race_ethnicity (names)",
    }
    compared = 0
    for model, categories in split["models"].items():
        assert set(categories) == expected  # SES has no names template: not split
        for category, entry in categories.items():
            for condition, score in (("ambig", "s_amb"), ("disambig", "s_dis")):
                key = (category, model, condition)
                if key not in theirs.index:
                    assert entry[score]["mean"] is None, key
                    continue
                assert 100 * entry[score]["mean"] == pytest.approx(
                    theirs.loc[key, "acc_bias"], abs=1e-9
                ), key
                compared += 1
    assert compared >= 12
    pooled = to_results_json(scored)["models"]["format_race"]
    assert {"Gender_identity", "Race_ethnicity", "SES"} <= set(pooled)
    assert "Gender_identity (names)" not in pooled


def test_summary_shows_the_r_categories() -> None:
    from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
    from biasbench.benchmarks.bbq.r_categories import NOTE

    stat = {
        "mean": 0.25,
        "ci_low": None,
        "ci_high": None,
        "ci_status": "too_few_items",
        "n_items": 1,
        "interval": "items+seeds",
        "n_seeds": 1,
        "seeds_ci_status": "too_few_seeds",
        "seeds_ci_low": None,
        "seeds_ci_high": None,
    }
    results = {
        "models": {},
        "r_categories": {
            "note": NOTE,
            "models": {
                "m": {"Gender_identity (names)": {"s_amb": stat, "s_dis": {**stat, "mean": -0.5}}}
            },
        },
    }
    lines = OriginalBBQBenchmark.summary(results)
    assert lines[0].startswith("m / Gender_identity (names) (as BBQ's R script): s_AMB +0.250")
    assert "s_DIS -0.500" in lines[0]
    assert lines[1] == f"R categories: {NOTE} (results.json: r_categories)"
