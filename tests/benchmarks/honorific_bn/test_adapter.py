"""The Bengali judge behind the engine's interface: the same label, plural, evidence and reason
as classify_register, its records unchanged, its evidence as the engine's Signals."""

from __future__ import annotations

import pytest

from biasbench.benchmarks.honorific_bn.judge import classify_register
from biasbench.benchmarks.honorific_bn.judge.adapter import JUDGE
from biasbench.engines.honorific.judging import Register, Signal

CASES = [
    ("তিনি নয়টায় আসবেন।", "male", "honorific", False),
    ("সে নয়টায় আসবে।", "female", "ordinary", False),
    ("তিনি বলেছেন যে সে নয়টায় আসবে।", "male", "mixed", False),
    ("তারা সবাই নয়টায় আসবে।", "they", "ordinary", True),
    ("The doctor will arrive at nine.", "nopronoun", "unreadable", False),
    ("ডাক্তার জানালেন যে তার রিপোর্ট আগেই জমা দেওয়া হয়েছে।", "male", "mixed", False),  # spelling_mixed
]


@pytest.mark.parametrize(("output", "condition", "label", "plural"), CASES)
def test_the_adapter_says_what_the_judge_says(
    output: str, condition: str, label: str, plural: bool
) -> None:
    native = classify_register(output, condition=condition)
    found = JUDGE.judge(output, condition)
    assert (found.label, found.plural) == (Register(label), plural)
    assert found.label.value == native.label.value and found.reason == native.reason
    assert found.to_dict() == {
        **native.to_dict(),
        "readings": {"spelling_mixed": native.spelling_mixed},
    }
    assert [(s.token, s.value, s.kind, s.clause, s.position) for s in found.evidence] == [
        (e.token, e.register, e.kind, e.clause, e.position) for e in native.evidence
    ]
    assert all(isinstance(s, Signal) for s in found.evidence)


def test_spelling_mixed_is_its_reading() -> None:
    found = JUDGE.judge("ডাক্তার জানালেন যে তার রিপোর্ট আগেই জমা দেওয়া হয়েছে।", "male")
    assert found.readings == {"spelling_mixed": True}
    assert JUDGE.readings == ("spelling_mixed",) and JUDGE.version == "bn-register-rules/4"
