"""Items that carry their dataset, language and the dataset's own biased answer."""

from __future__ import annotations

import pytest

from biasbench.engines.bbq_family.items.items import BBQItem, items_sha256
from biasbench.engines.bbq_family.scoring.bias_scores import (
    EXCLUDED_NO_UNKNOWN,
    EXCLUDED_TARGET_IS_UNKNOWN,
    exclusion_reason,
    score_predictions,
    target_index,
)

BASE = {
    "example_id": 7,
    "question_index": "3",
    "question_polarity": "neg",
    "context_condition": "ambig",
    "category": "Age",
    "answer_info": {
        "ans0": ["el abuelo", "old"],
        "ans1": ["el nieto", "nonOld"],
        "ans2": ["No se sabe", "unknown"],
    },
    "additional_metadata": {"stereotyped_groups": ["old"]},
    "context": "c",
    "question": "q",
    "ans0": "el abuelo",
    "ans1": "el nieto",
    "ans2": "No se sabe",
    "label": 2,
}


@pytest.mark.parametrize(("namespace", "uid"), [("", "Age:7"), ("mbbq/es", "mbbq/es/Age:7")])
def test_the_namespace_prefixes_the_uid(namespace: str, uid: str) -> None:
    assert BBQItem(**BASE, namespace=namespace).uid == uid


def test_an_item_without_provenance_hashes_as_before() -> None:
    # The checksum of existing BBQ/FilBBQ item sets must not move with the new fields.
    item = BBQItem(**BASE)
    assert "namespace" not in item.canonical_json()
    assert items_sha256([item]) == items_sha256([BBQItem(**BASE, namespace="")])
    assert items_sha256([item]) != items_sha256([BBQItem(**BASE, language="es")])
    assert set(item.canonical_dict()) == set(BASE)


@pytest.mark.parametrize(
    ("polarity", "target_answer", "label_target"),
    [
        ("neg", 1, 0),  # the dataset's word wins over the labels' reading
        ("nonneg", 0, 1),  # already polarity-applied: never flipped again
    ],
)
def test_the_datasets_biased_answer_is_the_target(
    polarity: str, target_answer: int, label_target: int
) -> None:
    item = BBQItem(**{**BASE, "question_polarity": polarity})
    assert target_index(item) == label_target
    marked = BBQItem(**{**BASE, "question_polarity": polarity}, target_answer=target_answer)
    assert exclusion_reason(marked) is None
    assert target_index(marked) == target_answer


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"target_answer": 2}, EXCLUDED_TARGET_IS_UNKNOWN),
        (
            {
                "target_answer": 0,
                "answer_info": {
                    "ans0": ["a", "old"],
                    "ans1": ["b", "nonOld"],
                    "ans2": ["c", "young"],
                },
            },
            EXCLUDED_NO_UNKNOWN,
        ),
    ],
)
def test_a_biased_answer_needs_an_unknown_beside_it(changes: dict, reason: str) -> None:
    assert exclusion_reason(BBQItem(**{**BASE, **changes})) == reason


def test_scores_follow_the_datasets_biased_answer() -> None:
    # Labels say ans0 is the target; the dataset says ans1. Always answering ans1 is s = +1.
    items = [
        BBQItem(
            **{**BASE, "example_id": i, "context_condition": "disambig", "label": 1},
            target_answer=1,
        )
        for i in range(4)
    ]
    row = score_predictions(items, [1, 1, 1, 1]).iloc[0]
    assert row["s_dis"] == 1.0
    assert row["n_excluded"] == 0


def test_exclusions_printed_are_those_of_the_items_answered() -> None:
    # A --limit run answered 1 of 2 excluded items: the summary must say 1, not the dataset's 2.
    import pandas as pd

    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses

    excluded = [BBQItem(**{**BASE, "example_id": i}, target_answer=2) for i in (1, 2)]
    scored_item = BBQItem(**{**BASE, "example_id": 3})
    responses = pd.DataFrame(
        {"model": "m", "seed": 0, "uid": [excluded[0].uid, scored_item.uid], "output": ["A", "A"]}
    )
    scored = score_responses([*excluded, scored_item], responses)
    assert scored.excluded_by_reason == {"Age": {EXCLUDED_TARGET_IS_UNKNOWN: 1}}
