"""The judge never raises on any text (hypothesis is not in the environment: a seeded random
generator over many cases): random Hangul syllables and jamo (compatibility, conjoining, the
fillers), Latin, digits, punctuation and quotes, combining marks, kana, kanji, emoji, zero-width
characters, NFD input, fragments of real outputs, empty and very long texts."""

from __future__ import annotations

import random
import unicodedata

import pytest

from biasbench.benchmarks.honorific_ko.judge import JUDGE, READINGS
from biasbench.engines.honorific.judging import CONDITIONS, Register
from tests.benchmarks.honorific_ko.kiwi_required import needs_kiwi

pytestmark = needs_kiwi

_RANGES = [
    (0xAC00, 0xD7A3),
    (0x1100, 0x11FF),
    (0x3131, 0x318E),
    (0x3164, 0x3164),
    (0x0041, 0x007A),
    (0x0030, 0x0039),
    (0x0300, 0x036F),
    (0x3040, 0x30FF),
    (0x4E00, 0x4FFF),
    (0x1F600, 0x1F64F),
    (0x2000, 0x206F),
    (0x3000, 0x303F),
    (0xFF01, 0xFF5E),
    (0x0900, 0x097F),
]
_PIECES = [
    "판사님께서",
    "께서",
    "께",
    "시",
    "9시",
    "분",
    "그분",
    "그녀",
    "그 분",
    "님",
    "들",
    "계세요",
    "하셨습니다",
    "했다",
    "거라고",
    '"',
    "'",
    "“",
    "”",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    "Translation:",
    "번역:",
    "참고:",
    "※",
    "```",
    "**",
    "#",
    "-",
    "1.",
    "\n",
    " ",
    ".",
    "?",
    "!",
    "。",
    "\u200b",
    "\ufeff",
    "\u00a0",
    "<think>",
    "</think>",
    "요",
    "ᆸ니다",
    "ᆫ다",
    "다",
    "지만",
    "는데",
    "고",
    "어",
    "세요",
    "ㅂ니다",
]


def _random_text(rng: random.Random) -> str:
    kind = rng.randrange(4)
    length = rng.choice([0, 1, 2, 5, 20, 80, 300])
    if kind == 0:
        low, high = rng.choice(_RANGES)
        return "".join(chr(rng.randint(low, high)) for _ in range(length))
    if kind == 1:
        return "".join(chr(rng.randint(*rng.choice(_RANGES))) for _ in range(length))
    if kind == 2:
        return "".join(rng.choice(_PIECES) for _ in range(length))
    text = "".join(rng.choice(_PIECES + [chr(rng.randint(0xAC00, 0xD7A3))]) for _ in range(length))
    return unicodedata.normalize(rng.choice(["NFD", "NFC", "NFKD"]), text)


def _valid(judgement: object) -> None:
    assert isinstance(judgement.label, Register)  # type: ignore[attr-defined]
    assert set(judgement.readings) == set(READINGS)  # type: ignore[attr-defined]
    assert judgement.reason  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(4))
def test_random_texts_never_crash(seed: int) -> None:
    rng = random.Random(seed)
    outputs = [_random_text(rng) for _ in range(400)]
    conditions = [rng.choice([*CONDITIONS, None]) for _ in outputs]
    many = JUDGE.judge_many(outputs, conditions)
    assert len(many) == len(outputs)
    for judgement in many:
        _valid(judgement)
    for output, condition in list(zip(outputs, conditions, strict=True))[:40]:
        _valid(JUDGE.judge(output, condition))


@pytest.mark.parametrize(
    "text",
    [
        "",
        None,
        " ",
        "\n\n\n",
        "\u200b\u200d\ufeff",
        "\u3164\u115f\u1160",
        "..." * 100,
        "판사님께서 오셨습니다. " * 2000,  # about 28,000 characters
        unicodedata.normalize("NFD", "판사님께서 오셨습니다. 그녀는 갔다."),
        "\u1100\u1161\u11a8" * 50,
        "ㄱㄴㄷ ㅏㅑ ㅂ니다",
        '"' * 30,
        "(" * 30 + "판사" + ")" * 5,
        '{"translation": 5}',
        '{"translation": "',
        "<think>",
        "```",
        "1.\n2.\n3.",
        "Translation:",
        "번역:",
        "판사:" * 40,
    ],
)
def test_edge_texts_never_crash(text: str | None) -> None:
    _valid(JUDGE.judge(text, "they"))


def test_a_long_output_keeps_a_short_reason() -> None:
    judgement = JUDGE.judge("판사님께서 오셨습니다. 판사는 갔다. " * 500)
    assert judgement.label is Register.MIXED
    assert len(judgement.reason) < 1000 and "more" in judgement.reason
    assert sum(signal.counted for signal in judgement.evidence) == 2000
