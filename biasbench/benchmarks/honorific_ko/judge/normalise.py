"""Unicode normalisation of a Korean model output, done once, before anything else reads it.

* NFC (after the characters below are dropped, so that jamo around a filler compose): Kiwi cannot read decomposed Hangul (``판사님께서 오셨습니다`` in NFD comes back as
  two unknown nouns, so no -시- would be found).
* Never NFKC: it turns compatibility jamo (ㄴ U+3134, typed in notes such as "'ㅂ니다'체") into
  *initial* jamo, not into the *final* jamo Kiwi writes inside endings (ᆫ U+11AB).
* Zero-width and filler characters go (ZWSP, ZWJ/ZWNJ, word joiner, BOM, soft hyphen, the Hangul
  fillers U+3164, U+115F, U+1160 and the half-width filler U+FFA0); NBSP, the ideographic space
  and the other Unicode spaces become a space; full-width punctuation (，。！？：（）) becomes its
  ASCII form, so that it ends clauses like it.
"""

from __future__ import annotations

import unicodedata

_DROPPED = dict.fromkeys(
    map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u3164\u115f\u1160\uffa0"), None
)
_SPACES = dict.fromkeys(
    map(
        ord,
        "\u00a0\u3000\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
        "\u202f\u205f\t",
    ),
    " ",
)
_FULL_WIDTH = {
    ord(wide): narrow
    for wide, narrow in zip(
        "\uff0c\u3002\uff01\uff1f\uff1a\uff08\uff09\uff02\uff07\uff1b", ",.!?:()\"';", strict=True
    )
}
_TABLE = {**_DROPPED, **_SPACES, **_FULL_WIDTH, ord("\r"): None}


def normalise_korean(text: str) -> str:
    """NFC, without zero-width or filler characters, with plain spaces and ASCII punctuation.

    Line breaks are kept (``\\r`` dropped), because the extractor reads the output by line.
    """
    return unicodedata.normalize("NFC", text.translate(_TABLE))
