"""The one validation every BBQ-format reader goes through: a bad row is one InputError naming
the file, the line and the first invalid field."""

from __future__ import annotations

from typing import Any

import pytest

from biasbench.engines.bbq_family.items.items import BBQItem, parse_bbq_lines, validated_item
from biasbench.errors import InputError

GOOD: dict[str, Any] = {
    "example_id": 7,
    "question_index": "3",
    "question_polarity": "neg",
    "context_condition": "ambig",
    "category": "Age",
    "answer_info": {
        "ans0": ["the grandfather", "old"],
        "ans1": ["the grandson", "nonOld"],
        "ans2": ["Unknown", "unknown"],
    },
    "additional_metadata": {"stereotyped_groups": ["old"]},
    "context": "c",
    "question": "q",
    "ans0": "the grandfather",
    "ans1": "the grandson",
    "ans2": "Unknown",
    "label": 2,
}


def test_a_good_row_is_the_item() -> None:
    assert validated_item(GOOD, file="x.jsonl", line=3) == BBQItem.model_validate(GOOD)


@pytest.mark.parametrize(
    ("row", "whole", "field", "reason"),
    [
        ({**GOOD, "question_polarity": "positive"}, None, "question_polarity", "Input should be"),
        ({**GOOD, "label": "two"}, None, "label", "Input should be a valid integer"),
        ({k: v for k, v in GOOD.items() if k != "context"}, None, "context", "Field required"),
        ({**GOOD, "answer_info": {"ans0": "old"}}, None, "answer_info.ans0", "Input should be"),
        # An error about the row as a whole has no field of its own; a reader may name one.
        (["not", "an", "object"], None, None, "Input should be"),
        (["not", "an", "object"], "item", "item", "Input should be"),
    ],
)
def test_a_bad_row_names_file_line_and_field(
    row: Any, whole: str | None, field: str | None, reason: str
) -> None:
    with pytest.raises(InputError) as caught:
        validated_item(row, file="data/Age.jsonl", line=12, whole=whole)
    error = caught.value
    assert (error.file, error.line, error.field) == ("data/Age.jsonl", 12, field)
    assert error.reason.startswith(reason)
    where = "data/Age.jsonl:12: " + (f"field '{field}': " if field else "")
    assert str(error) == where + error.reason


def test_the_jsonl_reader_names_the_line_of_the_bad_row() -> None:
    import json

    lines = [json.dumps(GOOD), json.dumps({**GOOD, "label": "two"})]
    with pytest.raises(InputError) as caught:
        list(parse_bbq_lines(lines, "items.jsonl"))
    assert str(caught.value).startswith("items.jsonl:2: field 'label': ")
