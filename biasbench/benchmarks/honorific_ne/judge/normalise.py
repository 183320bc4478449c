"""Unicode normalisation of Nepali text (once, at the start) and the match key of a token.

The output is normalised once: NFC, zero-width characters (ZWJ, ZWNJ, ZWSP, BOM, word
joiner, soft hyphen) deleted, no-break and other spaces made plain spaces, U+0931 (the old
eyelash-RA encoding ऱ) made र, and ो/ौ typed as ा + े/ै made one sign. NFC decomposes the
precomposed nukta letters (U+0958-U+095F) into base + nukta, so both spellings meet.
Deleting ZWJ makes the three encodings of the eyelash past (गर्‍यो, गर्यो, गऱ्यो) one string.

Tokens are then compared through :func:`match_key`, which also folds what writers use
interchangeably but the displayed text keeps: candrabindu as anusvara (उहाँ/उहां), the
final halanta (छन्/छन, गर्छिन्/गर्छिन; never a halanta inside a word, where it makes a
conjunct) and the plural -हरु as -हरू. The lexicon goes through the same key.
"""

from __future__ import annotations

import re
import unicodedata

_DELETE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_TWO_PART_O = (("\u093e\u0947", "\u094b"), ("\u093e\u0948", "\u094c"))


def normalise_nepali(text: str) -> str:
    """The canonical form of a model output, used for everything the judge reads."""
    text = unicodedata.normalize("NFC", text.translate(_DELETE))
    text = _SPACES.sub(" ", text).replace("\u0931", "\u0930")
    for parts, sign in _TWO_PART_O:
        if parts in text:
            text = text.replace(parts, sign)
    return text


def match_key(token: str) -> str:
    """The form a normalised token is looked up under: candrabindu folded to anusvara, the
    plural -हरु to -हरू, and a final halanta dropped."""
    key = token.replace("\u0901", "\u0902")
    if "हरु" in key:
        key = key.replace("हरु", "हरू")
    return key[:-1] if key.endswith("\u094d") else key


def keys(text: str) -> frozenset[str]:
    """A lexicon: whitespace-separated words, through the same normalisation and key."""
    return frozenset(match_key(normalise_nepali(word)) for word in text.split())
