"""Unicode normalisation of Japanese text, done once at the start of a judgement.

NFKC folds half-width katakana (ﾊﾟｲﾛｯﾄ -> パイロット), full-width digits, Latin and
punctuation (９時 -> 9時, ： -> :, （ -> (), the ideographic space and CJK compatibility
ideographs, and composes combining voiced marks (か + U+3099 -> が). The spacing marks
゛゜ (U+309B/U+309C) are not composed: NFKC turns them into a space plus a combining mark,
so they are mapped to the combining marks first. Zero-width characters are removed.
The judged translation, and every evidence offset, is this normalised text.
"""

from __future__ import annotations

import re
import unicodedata

_SPACING_MARKS = str.maketrans({"\u309b": "\u3099", "\u309c": "\u309a"})
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_KATAKANA = re.compile("[\u30a1-\u30f6]+")
_HIRAGANA_OFFSET = 0x60

# Sonkeigo written in katakana for emphasis or in half-width legacy text (イラッシャル):
# a katakana run whose hiragana fold starts with one of these is read in hiragana.
_KATAKANA_SONKEIGO_STEMS = ("いらっしゃ", "おっしゃ", "なさ", "くださ", "おいでに", "ござ")


def normalise_japanese(text: str) -> str:
    """NFKC after mapping the spacing voiced marks to combining ones; zero-width removed."""
    return unicodedata.normalize("NFKC", text.translate(_SPACING_MARKS).translate(_ZERO_WIDTH))


def to_hiragana(text: str) -> str:
    """Katakana letters folded to hiragana (same length; ー and other characters kept)."""
    return "".join(chr(ord(c) - _HIRAGANA_OFFSET) if "\u30a1" <= c <= "\u30f6" else c for c in text)


def fold_katakana_sonkeigo(text: str) -> str:
    """The text with katakana sonkeigo runs (イラッシャイマス) in hiragana, same length, so
    that the analyser reads them as verbs and offsets do not move."""

    def fold(match: re.Match[str]) -> str:
        run = to_hiragana(match.group(0))
        return run if run.startswith(_KATAKANA_SONKEIGO_STEMS) else match.group(0)

    return _KATAKANA.sub(fold, text)


def is_hiragana(char: str) -> bool:
    return "\u3041" <= char <= "\u309f"


def is_katakana(char: str) -> bool:
    return "\u30a0" <= char <= "\u30ff" or char == "\u31f0"


def is_kanji(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf" or char == "々"
