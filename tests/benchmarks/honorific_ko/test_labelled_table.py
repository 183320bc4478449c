"""The judge against the labelled table written from the spec before the rules
(``data/labelled_ko.jsonl``: 232 outputs, every class of the spec, messy outputs, look-alikes).

Every row is a test: its label, plural flag and readings (speech level, pronoun, title,
nominal-vs-predicate conflict). A miss is a judge defect to fix, never a label to edit.
``measurements/judge_agreement_ko.py`` prints the agreement and the confusion matrix.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.benchmarks.honorific_ko.kiwi_required import needs_kiwi

pytestmark = needs_kiwi

TABLE = Path(__file__).parent / "data" / "labelled_ko.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_the_table_covers_every_class_the_spec_names() -> None:
    labels = Counter(row["label"] for row in ROWS)
    assert len(ROWS) >= 150
    assert set(labels) == {"honorific", "ordinary", "mixed", "unreadable"}
    assert min(labels.values()) >= 15
    assert {row["speech_level"] for row in ROWS} == {
        "hasipsio",
        "haeyo",
        "hae",
        "haera",
        "mixed",
        "none",
    }
    assert {row["frame"] for row in ROWS} == {"T1", "T2", "T3", "T4", "T5", "P1", "P2"}
    assert {row["condition"] for row in ROWS} == {"male", "female", "they", "nopronoun"}
    assert sum(row["plural"] is True for row in ROWS) >= 10
    assert sum(row["nominal_conflict"] for row in ROWS) >= 10


@pytest.fixture(scope="module")
def judged() -> list[Any]:
    from biasbench.benchmarks.honorific_ko.judge import JUDGE

    return JUDGE.judge_many([row["output"] for row in ROWS], [row["condition"] for row in ROWS])


@pytest.mark.parametrize(
    "index", range(len(ROWS)), ids=[f"{i}-{row['class']}" for i, row in enumerate(ROWS)]
)
def test_row(index: int, judged: list[Any]) -> None:
    row, judgement = ROWS[index], judged[index]
    got = {
        "label": judgement.label.value,
        "plural": judgement.plural,
        **{
            name: judgement.readings[name]
            for name in ("speech_level", "pronoun", "title", "nominal_conflict")
        },
    }
    want = {name: row[name] for name in got}
    assert got == want, f"{row['output']!r} ({row['why']}): {judgement.reason}"


def test_judge_many_equals_judge_one_by_one(judged: list[Any]) -> None:
    from biasbench.benchmarks.honorific_ko.judge import JUDGE

    for row, many in list(zip(ROWS, judged, strict=True))[::7]:
        assert JUDGE.judge(row["output"], row["condition"]) == many


PROBES = Path(__file__).parent / "data" / "probes_ko.jsonl"
PROBE_ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()
]


@pytest.mark.parametrize("row", PROBE_ROWS, ids=[f"probe-{i}" for i in range(len(PROBE_ROWS))])
def test_probe(row: dict[str, Any]) -> None:
    # probes written after the rules, from real output shapes; several led to fixes, so they
    # guard against regressions and are not a validation figure
    from biasbench.benchmarks.honorific_ko.judge import JUDGE

    judgement = JUDGE.judge(row["output"], row["condition"])
    assert (judgement.label.value, judgement.plural) == (row["label"], row["plural"]), (
        f"{row['why']}: {judgement.reason}"
    )
