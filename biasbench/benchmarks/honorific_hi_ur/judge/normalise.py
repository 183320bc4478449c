"""Unicode normalisation (spec section 5), applied once to a model output and to the lexicon.

:func:`normalise` is the one pass over a whole output: invisible characters (BOM, ZWSP, soft
hyphen, word joiner, ZWJ, ZWNJ) removed, every Unicode space mapped to a plain space, Arabic
presentation forms (from PDFs) mapped to letters by NFKC on those ranges only, then NFC. NFC
decomposes the eight precomposed nukta letters (क़ U+0958 ... य़ U+095F, composition
exclusions), so a lexicon written either way meets the text only because it goes through the
same function.

:func:`match_key` is the lookup key of one word, never shown: Hindi drops the nukta (writers
drop it: खत्म = ख़त्म) and maps candrabindu to anusvara (हैँ = हैं) but never removes
anusvara, the only difference between है (ord) and हैं (hon). Urdu maps Arabic-keyboard
letters to Urdu ones (ي ى -> ی, ك -> ک, ه -> ہ, ة -> ۃ), folds ھ into ہ (انھوں = انہوں,
ته = تھ), spells hamza one way (ی+ٔ, ٸ -> ئ; ۓ -> ئے), drops tatweel and the optional vowel
marks, and never folds ے into ی (کرتے vs کرتی).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u00ad\u2060\u200c\u200d\u200e\u200f"), None)
_PRESENTATION = tuple(range(0xFB50, 0xFE00)) + tuple(range(0xFE70, 0xFEFF))
_PRESENTATION_SET = frozenset(map(chr, _PRESENTATION))


def normalise(text: str) -> str:
    """The output as the judge reads it: invisible characters out, spaces plain, NFC."""
    text = text.translate(_INVISIBLE)
    if any(char in _PRESENTATION_SET for char in text):
        text = "".join(
            unicodedata.normalize("NFKC", char) if char in _PRESENTATION_SET else char
            for char in text
        )
    chars = []
    for char in text:
        if char in "\n\r\t":
            chars.append("\n" if char != "\t" else " ")
        elif unicodedata.category(char) == "Zs":
            chars.append(" ")
        else:
            chars.append(char)
    return unicodedata.normalize("NFC", "".join(chars)).replace("\r", "\n")


_HINDI_KEY = {0x093C: None, 0x0901: "\u0902"}
_URDU_LETTERS = {
    0x064A: "\u06cc",
    0x0649: "\u06cc",
    0x0643: "\u06a9",
    0x0647: "\u06c1",
    0x0629: "\u06c3",
    0x06BE: "\u06c1",
    0x0678: "\u0626",
    0x06D3: "\u0626\u06d2",
    0x06C2: "\u06c1",
    0x0640: None,
}
_URDU_MARKS = dict.fromkeys([*range(0x064B, 0x0653), *range(0x0656, 0x0660), 0x0670], None)


@lru_cache(maxsize=65536)
def hindi_key(word: str) -> str:
    """Hindi lookup key: no nukta, candrabindu as anusvara."""
    return word.translate(_HINDI_KEY)


@lru_cache(maxsize=65536)
def urdu_key(word: str) -> str:
    """Urdu lookup key: Urdu letters for Arabic-keyboard ones, ھ/ہ folded, hamza spelt ئ,
    no tatweel or vowel marks."""
    word = word.replace("\u06cc\u0654", "\u0626").replace("\u064a\u0654", "\u0626")
    word = word.translate(_URDU_LETTERS)
    word = word.replace("\u06cc\u0654", "\u0626").replace("\u06d2\u0654", "\u0626\u06d2")
    return word.translate(_URDU_MARKS).replace("\u0654", "")


def match_key(word: str, language: str) -> str:
    return hindi_key(word) if language == "hi" else urdu_key(word)
