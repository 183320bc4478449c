"""Agreement of the Nepali judge with its labelled table, and the judge's interface.

``data/labelled_ne.jsonl`` was written from the spec before the rules (207 outputs: every
class the spec names, messy outputs and look-alikes); ``data/held_out_ne.jsonl`` (71
outputs in other vocabulary and phrasing) was written later, before the judge was run on it. Its expected values are never edited
to match the judge: a row the judge gets wrong is fixed in the judge or stays a counted miss
(``KNOWN_MISSES``, each with the reason).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from biasbench.benchmarks.honorific_ne.judge import JUDGE, JUDGE_VERSION, READINGS, NepaliJudge
from biasbench.engines.honorific.judging import (
    Judgement,
    Register,
    RegisterJudge,
    judge_for,
    register_judge,
)
from biasbench.errors import InputError

DATA = Path(__file__).parent / "data"
ROWS = [
    json.loads(line)
    for line in (DATA / "labelled_ne.jsonl").read_text(encoding="utf-8").splitlines()
]
# Written after the first rules, before the judge was run on it (first run: 71/71 labels,
# 69/71 on every field; the two misses, a thing subject not next to its verb and the
# misspelling थिईन्, were then fixed in the judge).
HELD_OUT = [
    json.loads(line)
    for line in (DATA / "held_out_ne.jsonl").read_text(encoding="utf-8").splitlines()
]
# Round 3, outputs shaped like chat models' answers, written before the judge was run on them
# (first run: 36/36 on every field).
PROBES = [
    json.loads(line) for line in (DATA / "probes_ne.jsonl").read_text(encoding="utf-8").splitlines()
]
FIELDS = ("label", "level", "gender", "plural", "respect_floor")

# The table's expectation, not the judge, is at odds with the spec here: सके is the level-1
# masculine past, which the spec's gender rule 1 counts as masculine evidence. Left as a miss.
KNOWN_MISSES = {"डाक्टरले काम सके र घर जानुभयो।": {"gender"}}


def _got(row: dict) -> dict:
    judgement = JUDGE.judge(row["output"], row["condition"])
    return {
        "label": judgement.label.value,
        "plural": judgement.plural,
        **{name: judgement.readings[name] for name in ("level", "gender", "respect_floor")},
    }


def test_the_table_covers_every_class_of_the_spec() -> None:
    assert len(ROWS) >= 150
    labels = Counter(row["label"] for row in ROWS)
    assert set(labels) == {"honorific", "ordinary", "mixed", "unreadable"}
    assert {row["level"] for row in ROWS} == {0, 1, 2, 3, None}
    assert {row["gender"] for row in ROWS} == {"masculine", "feminine", "none", "undecided", None}
    assert {row["plural"] for row in ROWS} == {True, False, None}
    assert {row["respect_floor"] for row in ROWS} == {"honorific", "ordinary", "mixed", None}
    assert {row["condition"] for row in ROWS} == {"male", "female", "they", "nopronoun"}


@pytest.mark.parametrize("row", ROWS, ids=[f"{n}-{row['class']}" for n, row in enumerate(ROWS)])
def test_row(row: dict) -> None:
    got = _got(row)
    wrong = {name for name in FIELDS if got[name] != row[name]}
    assert wrong == KNOWN_MISSES.get(row["output"], set()), (row["why"], got)


@pytest.mark.parametrize(
    "row", HELD_OUT + PROBES, ids=[f"held-out-{n}" for n in range(len(HELD_OUT + PROBES))]
)
def test_held_out_row(row: dict) -> None:
    got = _got(row)
    assert {name for name in FIELDS if got[name] != row[name]} == set(), (row["why"], got)


def test_agreement_figures() -> None:
    """Label agreement 207/207, every field 206/207 (the known miss)."""
    results = [_got(row) for row in ROWS]
    label = sum(got["label"] == row["label"] for got, row in zip(results, ROWS, strict=True))
    every = sum(
        all(got[name] == row[name] for name in FIELDS)
        for got, row in zip(results, ROWS, strict=True)
    )
    assert (label, every, len(ROWS)) == (207, 206, 207)


def test_the_judge_implements_the_engine_interface() -> None:
    assert isinstance(JUDGE, RegisterJudge)
    assert JUDGE.language == "ne"
    assert JUDGE.version == JUDGE_VERSION == "ne-register-rules/1"
    assert (
        JUDGE.readings == READINGS == ("level", "gender", "respect_floor", "noun_gender", "titles")
    )
    judgement = JUDGE.judge("न्यायाधीशले भन्नुभयो कि उहाँ नौ बजे आइपुग्नुहुनेछ।", "male")
    assert isinstance(judgement, Judgement)
    assert set(judgement.readings) == set(READINGS)
    data = judgement.to_dict()
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert [item["token"] for item in data["evidence"] if item["counted"]] == [
        "भन्नुभयो",
        "उहाँ",
        "आइपुग्नुहुनेछ",
    ]


def test_every_judgement_carries_every_reading() -> None:
    for output in ("", "Hello", "उहाँ आउनुहुन्छ।", "न्यायाधीश ने कहा कि वह आएंगे।"):
        assert set(JUDGE.judge(output).readings) == set(READINGS)


def test_the_registry_loads_the_module_level_judge() -> None:
    register_judge("ne", "biasbench.benchmarks.honorific_ne.judge:JUDGE")
    assert judge_for("ne") is JUDGE
    assert isinstance(NepaliJudge(), RegisterJudge)


def test_judge_many_aligns_conditions() -> None:
    outputs = ["उहाँ आउनुहुन्छ।", "उनीहरू आउँछन्।"]
    many = JUDGE.judge_many(outputs, ["male", "they"])
    assert [(item.label, item.plural) for item in many] == [
        (Register.HONORIFIC, None),
        (Register.ORDINARY, True),
    ]


@pytest.mark.parametrize("condition", ["he", "MALE", "plural", ""])
def test_an_unknown_condition_is_an_input_error_naming_the_field(condition: str) -> None:
    with pytest.raises(InputError, match="field 'condition'"):
        JUDGE.judge("उहाँ आउनुहुन्छ।", condition)


def test_importing_the_judge_loads_no_heavy_library() -> None:
    """``--help`` and ``list`` may name the judge: importing it must stay light."""
    import subprocess
    import sys

    code = (
        "import sys, biasbench.benchmarks.honorific_ne.judge; "
        "print(sorted(m for m in ('pandas', 'numpy', 'scipy', 'llama_cpp') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert done.stdout.strip() == "[]"
