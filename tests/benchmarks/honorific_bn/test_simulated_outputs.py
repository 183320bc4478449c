"""The judge on whole simulated runs (2,016 items per style) whose intended labels are known.

Under the first rules (bn-register-rules/1) the chatty style got 890 of
2,016 labels wrong (mixed from forms quoted in notes; 156 usable pairs instead of 504) and the
colloquial style 385 (all but the comments were honorific outputs read as mixed or unreadable).
"""

from __future__ import annotations

from collections import Counter

import pytest

from biasbench.benchmarks.honorific_bn.classifier import classify_register

from .simulated_outputs import STYLES, simulate


@pytest.mark.parametrize("style", STYLES)
def test_every_simulated_output_gets_its_intended_label(style: str) -> None:
    wrong = []
    for sim in simulate(style):
        result = classify_register(sim.output, sim.item.gender)
        got = (result.label.value, result.plural, result.spelling_mixed)
        if got != (sim.label, sim.plural, sim.spelling_mixed):
            wrong.append((sim.kind, sim.output, got, result.reason))
    assert wrong == []


def test_the_styles_cover_every_class() -> None:
    kinds = {style: Counter(sim.kind for sim in simulate(style)) for style in STYLES}
    assert set(kinds["chatty"]) == {
        "plain",
        "note-en-inline",
        "note-en-alternative",
        "note-en-explanation",
        "note-bn",
        "note-before",
    }
    assert set(kinds["colloquial"]) == {"plain", "comment", "chandrabindu-slip"} | {
        f"colloquial-{frame}" for frame in ("T2", "T3", "P1", "P2")
    }
    assert kinds["chatty"]["plain"] < 1100 and kinds["colloquial"]["comment"] >= 50
