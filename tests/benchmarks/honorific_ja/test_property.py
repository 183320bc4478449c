"""The judge never crashes on any text: random kana, kanji, Latin, digits, punctuation,
combining marks, NFD input, empty and very long outputs."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

pytest.importorskip("hypothesis", reason="the property test needs hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from biasbench.engines.honorific.judging import Judgement, Register  # noqa: E402

_ALPHABET = st.one_of(
    st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),  # kana
    st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF),  # kanji
    st.characters(min_codepoint=0xFF61, max_codepoint=0xFF9F),  # half-width katakana
    st.characters(min_codepoint=0xAC00, max_codepoint=0xAC40),  # Hangul
    st.sampled_from(
        list(
            "aZ09 .,:;!?()[]{}\"'「」『』、。！？（）：\n\t*#-―～〜ー゛゜\u3099\u309a\u0301"
            "\u200b\ufeffいらっしゃるおっしゃれるられおります方彼女さん様"
        )
    ),
)
_WORDS = st.sampled_from(
    [
        "医師は",
        "9時に",
        "いらっしゃる",
        "と言いました",
        "おります",
        "彼女",
        "されて",
        "られない",
        "お",
        "ご",
        "になり",
        "です",
        "。",
        "、",
        "「",
        "」",
        "翻訳:",
        "※",
        "**",
        "\n",
        "(いし)",
        "Translation:",
    ]
)
_TEXT = st.one_of(st.text(_ALPHABET, max_size=200), st.lists(_WORDS, max_size=40).map("".join))


def _check(judgement: Judgement) -> None:
    assert isinstance(judgement.label, Register)
    assert isinstance(judgement.reason, str) and judgement.reason
    for signal in judgement.evidence:
        start, end = getattr(signal, "start", 0), getattr(signal, "end", 0)
        assert 0 <= start <= end <= len(judgement.translation) or not judgement.translation


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_TEXT, condition=st.sampled_from([None, "male", "female", "they", "nopronoun"]))
def test_never_crashes(ja_judge: Any, text: str, condition: str | None) -> None:
    _check(ja_judge.judge(text, condition))
    _check(ja_judge.judge(unicodedata.normalize("NFD", text), condition))


def test_very_long_output(ja_judge: Any) -> None:
    text = "医師は仕事を終えて家に帰りました。" * 2000
    assert ja_judge.judge(text, "male").label is Register.ORDINARY
