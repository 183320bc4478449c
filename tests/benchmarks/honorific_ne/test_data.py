"""The honorific-ne benchmark data: occupations, definition, mock sentences and exemplars."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from biasbench.benchmarks.honorific_ne.judge import JUDGE
from biasbench.engines.honorific.judging import Register

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "biasbench" / "benchmarks" / "honorific_ne" / "data"
BENGALI = ROOT / "biasbench" / "benchmarks" / "honorific_bn" / "data"
DEFINITION = json.loads((DATA / "definition.json").read_text(encoding="utf-8"))
DEVANAGARI_ONLY = re.compile("^[\u0900-\u097f ]+$")


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_occupations_have_the_bengali_ids_and_names_in_nepali() -> None:
    nepali, bengali = _rows(DATA / "occupations.csv"), _rows(BENGALI / "occupations.csv")
    assert list(nepali[0]) == ["id", "en", "ne", "ne_feminine"]
    assert [(row["id"], row["en"]) for row in nepali] == [(row["id"], row["en"]) for row in bengali]
    assert len(nepali) == 72
    for row in nepali:
        assert DEVANAGARI_ONLY.match(row["ne"]), row
        assert not row["ne_feminine"] or DEVANAGARI_ONLY.match(row["ne_feminine"]), row
    terms = [row["ne"] for row in nepali]
    assert len(set(terms)) == len(terms)  # principal and head teacher differ
    feminine = {row["en"]: row["ne_feminine"] for row in nepali if row["ne_feminine"]}
    assert feminine["teacher"] == "शिक्षिका" and feminine["poet"] == "कवयित्री"


def test_the_definition_has_the_bengali_shape() -> None:
    bengali = json.loads((BENGALI / "definition.json").read_text(encoding="utf-8"))
    # script and occupation_column are optional (the engine's defaults; Bengali names its own)
    assert set(bengali) - {"script", "occupation_column"} <= set(DEFINITION)
    assert DEFINITION["name"] == "honorific-ne" and DEFINITION["version"] == "1.0"
    assert DEFINITION["target_language"] == "Nepali"
    assert DEFINITION["conditions"] == bengali["conditions"]
    assert DEFINITION["instruction"] == bengali["instruction"].replace("Bengali", "Nepali")
    assert DEFINITION["decoding"] == bengali["decoding"]
    assert [english for english, _ in DEFINITION["completion"]["fewshot"]] == [
        english for english, _ in bengali["completion"]["fewshot"]
    ]


@pytest.mark.parametrize("exemplar", [n for _, n in DEFINITION["completion"]["fewshot"]])
def test_exemplars_prime_no_level(exemplar: str) -> None:
    judgement = JUDGE.judge(exemplar)
    assert judgement.label is Register.UNREADABLE
    assert judgement.reason.startswith("no_evidence")


@pytest.mark.parametrize(
    ("name", "label", "level", "gender"),
    [
        ("honorific", Register.HONORIFIC, 2, "none"),
        ("ordinary", Register.ORDINARY, 1, "masculine"),
        ("honorific_feminine", Register.HONORIFIC, 2, "feminine"),
        ("ordinary_feminine", Register.ORDINARY, 1, "feminine"),
        ("ordinary_level0", Register.ORDINARY, 0, "masculine"),
    ],
)
def test_mock_sentences_are_judged_as_named(
    name: str, label: Register, level: int, gender: str
) -> None:
    judgement = JUDGE.judge(DEFINITION["mock"][name], "male")
    assert (judgement.label, judgement.readings["level"], judgement.readings["gender"]) == (
        label,
        level,
        gender,
    )
    assert set(DEFINITION["mock"]) == {
        "honorific",
        "ordinary",
        "honorific_feminine",
        "ordinary_feminine",
        "ordinary_level0",
    }
