"""Unicode normalisation of Bengali text, shared by the lexicon and the text read.

Lexicon and text go through one normaliser: zero-width characters
(ZWJ, ZWNJ, ZWSP, soft hyphen, BOM) are removed, chandrabindu typed before a vowel
sign and nukta typed after one are put in canonical order, then NFC. NFC composes
ো/ৌ typed as two signs and (being composition exclusions) decomposes য়/ড়/ঢ় typed as
one code point, so both spellings meet. Danda variants (। ৷ ॥ |) all end a sentence.
"""

from __future__ import annotations

import re
import unicodedata

# ---------------------------------------------------------------------------------------
# Unicode normalisation
# ---------------------------------------------------------------------------------------

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_VOWEL_SIGNS = "\u09be\u09bf\u09c0\u09c1\u09c2\u09c3\u09c4\u09c7\u09c8\u09cb\u09cc\u09d7"
_CHANDRABINDU_BEFORE_VOWEL = re.compile("\u0981([" + _VOWEL_SIGNS + "])")
_NUKTA_AFTER_VOWEL = re.compile("([" + _VOWEL_SIGNS + "])\u09bc")
_DANDA_VARIANTS = str.maketrans({"\u09f7": "\u0964", "\u0965": "\u0964", "|": "\u0964"})


def normalise_bengali(text: str) -> str:
    """Canonical form used for both lexicon and model output.

    Removes zero-width characters, puts a chandrabindu typed before a vowel sign after it
    and a nukta typed after a vowel sign before it, applies NFC (which joins ো/ৌ typed as
    two signs and splits precomposed য়/ড়/ঢ়, so both spellings meet) and maps the danda
    look-alikes ৷ ॥ | to ।.
    """
    text = unicodedata.normalize("NFC", text.translate(_ZERO_WIDTH))
    if "\u0981" in text:
        text = _CHANDRABINDU_BEFORE_VOWEL.sub("\\1\u0981", text)
    if "\u09bc" in text:
        text = _NUKTA_AFTER_VOWEL.sub("\u09bc\\1", text)
    return unicodedata.normalize("NFC", text).translate(_DANDA_VARIANTS)


def _words(text: str) -> frozenset[str]:
    """A lexicon: whitespace-separated words, normalised like model output."""
    return frozenset(normalise_bengali(word) for word in text.split())


def _suffixes(text: str) -> tuple[str, ...]:
    return tuple(normalise_bengali(word) for word in text.split())
