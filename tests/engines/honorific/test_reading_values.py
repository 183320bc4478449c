"""How a reading's value is counted in the distributions: lists (titles found) as their items."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pytest

from biasbench.engines.honorific.readings import ReadingSpec, distribution


@pytest.mark.parametrize(
    ("value", "counted"),
    [
        (None, "undefined"),
        (math.nan, "undefined"),
        (True, "true"),
        (2.0, "2"),
        (2, "2"),
        ("haeyo", "haeyo"),
        ([], "none"),
        (["जी"], "जी"),
        (["先生", "さん"], "さん+先生"),
        (("साहब", "जी"), "जी+साहब"),
    ],
)
def test_a_value_is_counted_as(value: Any, counted: str) -> None:
    labels = pd.DataFrame({"model": ["m"], "gender": ["male"], "titles": [value]})
    found = distribution(labels, ReadingSpec("titles", "categorical"), "gender")
    assert found[["value", "n", "pct"]].values.tolist() == [[counted, 1, 100.0]]


def test_lists_in_one_column_are_counted_together() -> None:
    labels = pd.DataFrame(
        {
            "model": ["m"] * 4,
            "gender": ["male", "male", "female", "female"],
            "titles": [["जी"], [], ["जी"], None],
        }
    )
    found = distribution(labels, ReadingSpec("titles", "categorical", ("none",)), "gender")
    assert found[["gender", "value", "n"]].values.tolist() == [
        ["male", "none", 1],
        ["male", "जी", 1],
        ["female", "जी", 1],
        ["female", "undefined", 1],
    ]
