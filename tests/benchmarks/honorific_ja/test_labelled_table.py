"""Agreement of the Japanese judge with the labelled table (written from the spec before the
rules), on both analyser adapters, and every reading the table records."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.benchmarks.honorific_ja.tables import BLIND, HELD_OUT, labelled_rows

ROWS = labelled_rows()
HELD_OUT_ROWS = labelled_rows(HELD_OUT)
BLIND_ROWS = labelled_rows(BLIND)


def test_the_table_covers_every_class_and_condition() -> None:
    labels = Counter(row["label"] for row in ROWS)
    conditions = Counter(row["condition"] for row in ROWS)
    assert len(ROWS) >= 150
    assert set(labels) == {"honorific", "ordinary", "mixed", "unreadable"}
    assert min(labels.values()) >= 15
    assert set(conditions) == {"male", "female", "they", "nopronoun"}
    kinds = {kind for row in ROWS for kind in row.get("kinds", [])}
    assert {
        "humble_subject",
        "default_ordinary",
        "object_honorific",
        "female_noun",
        "prefix_noun",
    } <= kinds


# Blind-probe rows whose expected value the judge does not give, left as written and counted:
# row 47 (裁判官、9時に到着。) has one hiragana, so the spec's script test (at least two) makes
# it unreadable where the row expects ordinary; row 0 expects plain politeness for
# 言っていました (a です/ます end, teineigo); row 39 expects the title 様 for 教授の皆様 (様
# belongs to 皆様, not to the occupation noun).
KNOWN_LABEL_MISSES = {47}
KNOWN_READING_MISSES = {0, 39, 47}


@pytest.mark.parametrize("table", ["labelled", "held_out", "blind"])
def test_agreement_on_the_labelled_table(any_ja_judge: Any, table: str) -> None:
    rows = {"labelled": ROWS, "held_out": HELD_OUT_ROWS, "blind": BLIND_ROWS}[table]
    misses = set()
    for index, row in enumerate(rows):
        judged = any_ja_judge.judge(row["output"], row["condition"]).label.value
        if judged != row["label"]:
            misses.add(index)
    # measured 247/247, 69/69 and 152/153 on both adapters (measurements/judge_agreement_ja.py;
    # blind, before the fixes they showed, the held-out table was 67/69 and the probes' four
    # rounds 38/40, 35/40, 37/39 and 34/34): no row may regress
    assert misses == (KNOWN_LABEL_MISSES if table == "blind" else set())


@pytest.mark.parametrize(
    "row",
    ROWS + HELD_OUT_ROWS,
    ids=[f"row{i}" for i in range(len(ROWS))] + [f"held_out{i}" for i in range(len(HELD_OUT_ROWS))],
)
def test_each_row_label_and_readings(ja_judge: Any, row: dict[str, Any]) -> None:
    judgement = ja_judge.judge(row["output"], row["condition"])
    assert judgement.label.value == row["label"], (row["why"], judgement.reason)
    assert judgement.plural == row["plural"]
    assert judgement.readings["politeness"] == row["politeness"]
    assert judgement.readings["pronoun_gender"] == row["pronoun_gender"]
    assert judgement.readings["titles"] == row["titles"]
    kinds = {signal.kind for signal in judgement.evidence if signal.counted}
    assert set(row.get("kinds", [])) <= kinds
    assert set(judgement.readings) == set(ja_judge.readings)


@pytest.mark.parametrize(
    "index", range(len(BLIND_ROWS)), ids=[f"probe{i}" for i in range(len(BLIND_ROWS))]
)
def test_blind_probe_readings(ja_judge: Any, index: int) -> None:
    row = BLIND_ROWS[index]
    judgement = ja_judge.judge(row["output"], row["condition"])
    assert (judgement.label.value == row["label"]) is (index not in KNOWN_LABEL_MISSES)
    readings = (
        judgement.plural,
        judgement.readings["politeness"],
        judgement.readings["pronoun_gender"],
        judgement.readings["titles"],
    )
    expected = (row["plural"], row["politeness"], row["pronoun_gender"], row["titles"])
    assert (readings == expected) is (index not in KNOWN_READING_MISSES)
