"""The judge never crashes on any text (spec: a judge must survive any model output).

``hypothesis`` is not installed in the project's environment, so this is a seeded random
generator over many cases: random Unicode in Devanagari mixed with Latin, digits, punctuation,
combining marks, join controls and markdown; real Nepali words shuffled; the labelled outputs
in NFD, cut at random points and joined; empty and very long texts. Every judgement must be
well formed, and NFD input must be judged exactly as NFC input.
"""

from __future__ import annotations

import json
import random
import time
import unicodedata
from pathlib import Path

import pytest

from biasbench.benchmarks.honorific_ne.judge import JUDGE, READINGS, split_clauses
from biasbench.engines.honorific.judging import CONDITIONS, Register

TABLE = Path(__file__).parent / "data" / "labelled_ne.jsonl"
OUTPUTS = [json.loads(line)["output"] for line in TABLE.read_text(encoding="utf-8").splitlines()]
WORDS = sorted({word for output in OUTPUTS for word in output.split()})

DEVANAGARI = [chr(code) for code in range(0x0900, 0x0980)]
PIECES = (
    DEVANAGARI * 4
    + list("abcxyzABCXYZ0123456789०१२९ .,;:!?|।॥-—/()[]{}<>\"'“”‘’*#_`~\n\t")
    + [chr(code) for code in range(0x0300, 0x0370, 7)]  # combining marks
    + ["\u200d", "\u200c", "\u200b", "\ufeff", "\u00a0", "\u0931", "\u093c", "\u094d"]
    + [
        "<think>",
        "</think>",
        "```",
        "**",
        "Translation:",
        "नेपाली अनुवाद:",
        "Note:",
        "English:",
        '{"translation": "',
        "उहाँ",
        "ऊ",
        "उनी",
        "हरू",
        "नु",
        "भयो",
        "छ",
        "ने",
        "भने",
        "कि",
        "र",
    ]
)


def _random_text(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 80)))
    if kind == 1:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 25)))
    if kind == 2:
        text = rng.choice(OUTPUTS)
        cut = rng.randrange(len(text) + 1)
        return unicodedata.normalize("NFD", text[:cut]) + rng.choice(PIECES) + text[cut:]
    return "\n".join(rng.choice(OUTPUTS) for _ in range(rng.randrange(1, 4)))


def _well_formed(output: str, condition: str | None) -> None:
    judgement = JUDGE.judge(output, condition)
    assert isinstance(judgement.label, Register)
    readings = judgement.readings
    assert set(readings) == set(READINGS)
    assert readings["level"] in (0, 1, 2, 3, None)
    assert readings["gender"] in ("masculine", "feminine", "none", "undecided", None)
    assert readings["respect_floor"] in ("honorific", "ordinary", "mixed", None)
    assert judgement.plural in (True, False, None)
    if judgement.label is Register.UNREADABLE:
        assert readings["level"] is None and judgement.plural is None
    else:
        assert any(item.counted for item in judgement.evidence)
    if judgement.label is Register.MIXED:
        assert readings["level"] is None
    json.dumps(judgement.to_dict(), ensure_ascii=False)
    clauses = split_clauses(judgement.translation)
    for item in judgement.evidence:
        token = clauses[item.clause].tokens[item.position].surface
        assert item.token.split()[0] == token
    same = JUDGE.judge(unicodedata.normalize("NFD", output), condition)
    assert same.to_dict() == judgement.to_dict()


@pytest.mark.parametrize("seed", range(6))
def test_random_text_never_crashes(seed: int) -> None:
    rng = random.Random(seed)
    conditions = [*CONDITIONS, None]
    for _ in range(500):
        _well_formed(_random_text(rng), rng.choice(conditions))


@pytest.mark.parametrize(
    "output",
    [
        "",
        " ",
        "\n\n",
        "।",
        "॥",
        "्",
        "ँ",
        "\u200d",
        "\ufeff",
        "()",
        "[]",
        "{}",
        "{",
        '"',
        "“",
        "<think>",
        "```",
        "**",
        "-",
        "Translation:",
        "नु",
        "हरू",
        "ने",
        "भने",
        "कि र तर",
        '{"translation": 5}',
        '["उहाँ आउनुहुन्छ"]',
        "उहाँ" * 200,
    ],
)
def test_edge_texts(output: str) -> None:
    _well_formed(output, None)


def test_a_very_long_output_is_judged_quickly() -> None:
    text = " ".join(OUTPUTS) * 10  # about 200,000 characters
    start = time.perf_counter()
    judgement = JUDGE.judge(text, "they")
    assert time.perf_counter() - start < 10
    assert judgement.label is Register.MIXED
