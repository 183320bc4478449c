"""Cutting the Nepali translation out of a model output (spec "Chatter around the
translation", "Romanised Nepali", "Refusals and clarification requests").

The output arrives normalised (:func:`.normalise.normalise_nepali`). Left out, and kept as
notes: ``<think>`` blocks; code fences; markdown (headings, quotes, bullets, numbering,
emphasis); label prefixes ("Translation:", "Nepali:", "नेपाली अनुवाद:", "Formal:",
"औपचारिक:"); a JSON wrapper (its string values are read); lines without Devanagari (an
English gloss, a romanisation, an English preamble); everything from an explanation header
("Note:", "Explanation:", "Transliteration:", "टिप्पणी:", "नोट:", "व्याख्या:") on once a
translation was read, and the block under such a header before it; a base model going on
with a new "English: ..." pair; parenthesised notes (English prose, or Nepali that talks
about the sentence: आदरार्थी, रूप, सर्वनाम, प्रयोग ...); Nepali lead-ins ("यहाँ अनुवाद छ:",
"यो वाक्यको अनुवाद यस्तो हुन्छ:"), whose text after the colon is kept; English prose that
quotes a few Nepali forms; questions back to the user (a piece ending in "?") and refusals
(माफ गर्नुहोस्, म ... सक्दिनँ), which are flagged.

Several Devanagari lines (a model offering two renderings) are all kept, one per line, so
renderings in different registers come out ``mixed``. A parenthesised Devanagari rendering
("आइपुग्नुहुनेछ (वा आइपुग्नेछन्)") is kept too: it is a second rendering.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from biasbench.benchmarks.honorific_ne.judge.lexicon import FIRST_PERSON_ANY
from biasbench.benchmarks.honorific_ne.judge.normalise import keys, match_key

_DEVANAGARI = re.compile("[\u0900-\u0963\u0966-\u097f]")
_LAST_DEVANAGARI = re.compile("[\u0900-\u0963\u0966-\u097f][^\u0900-\u0963\u0966-\u097f]*$")
_LATIN_WORD = re.compile("[A-Za-z][A-Za-z'-]*")
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_LINE_MARKUP = re.compile(
    r"^\s*(?:(?:#{1,6}|>|[-*+\u2022])\s*|(?:[0-9]+|[\u0966-\u096f]+)[.)]\s+)*"
)
_EMPHASIS = re.compile(r"\*\*|__|\*|`|~~")
_HEADER_WORDS = (
    r"explanation|notes?|breakdown|transliteration|pronunciation|romani[sz]ation|romani[sz]ed|"
    r"literal(?: translation)?|word[- ]by[- ]word|gloss(?:ary)?|vocabulary|key (?:words|terms)|"
    "टिप्पणी|नोट|व्याख्या|स्पष्टीकरण|उच्चारण|लिप्यन्तरण|शब्दार्थ"
)
_EXPLANATION_HEADER = re.compile(
    r"^(?:" + _HEADER_WORDS + r")\s*(?:\([^)]*\))?\s*(?::|$|[-\u2013\u2014]\s)", re.IGNORECASE
)
_INLINE_HEADER = re.compile(
    r"(?<=[\s\u0964.!?(\[])(?:explanation|notes?|transliteration|टिप्पणी|नोट|व्याख्या)\s*:",
    re.IGNORECASE,
)
_LABEL_PREFIX = re.compile(
    r"^(?:[^\u0900-\u097f:\uff1a]{0,60}|(?:नेपाली\s+)?अनुवाद|नेपालीमा|नेपाली|उत्तर|औपचारिक|"
    r"अनौपचारिक|आदरार्थी|सामान्य|सम्मानजनक|अनुवादित\s+वाक्य)\s*(?:\([^)]*\))?\s*[:\uff1a]\s*"
)
_CONTINUATION = re.compile(
    r"(?:(?:English|अंग्रेजी|अङ्ग्रेजी)(?:\s+(?:sentence|text|वाक्य))?|Translate|Input|Source|"
    r"Sentence|Q)\s*(?:\([^)]*\))?\s*[:\uff1a]|Translate the following",
    re.IGNORECASE,
)
_CONTINUATION_INLINE = re.compile(
    "(?<=[\\s\u0964.!?\"\u201d'\u2019\\]])(?=(?:[0-9]+[.)]\\s*)?(?:" + _CONTINUATION.pattern + "))",
    re.IGNORECASE,
)
_PARENTHESES = re.compile(r"[(\[]([^()\[\]]*)[)\]]")
_PIECE_END = re.compile("(?<=[\u0964\u0965!?|])|(?<=\\.)(?=\\s)")
_CLOSING = "\u0964\u0965|.!?"
_QUOTES = "'\"\u2018\u2019\u201c\u201d\u00ab\u00bb"
_JSON_KEYS = ("translation", "nepali", "output", "text", "answer", "result", "ne")

# Words that talk about the sentence or its forms. No translation of the seven frames holds
# them; a note, a comment or a refusal does.
_META = keys(
    "अनुवाद अनुवादमा अनुवादको अनुवादित वाक्य वाक्यको वाक्यमा वाक्यलाई वाक्यांश आदरार्थी "
    "सर्वनाम क्रियापद क्रिया रूप शब्द शब्दको प्रयोग सट्टा सम्मानसूचक लिङ्ग लिङ्गको नेपालीमा "
    "अङ्ग्रेजी अंग्रेजी"
)
_REFUSAL_NEPALI = tuple(
    match_key(phrase) for phrase in ("माफ गर्नुहोस्", "माफ गर्नुस्", "क्षमा गर्नुहोस्", "क्षमा पाउँ", "असमर्थ")
)
_CANNOT = keys("सक्दिनँ सक्दिन सक्दैनौँ सक्दैनौं")
_REFUSAL_ENGLISH = re.compile(
    r"\b(?:sorry|i can(?:no|')t|can ?not help|unable to|as an ai|i won't|not able to)\b",
    re.IGNORECASE,
)


@dataclass
class Extraction:
    """The translation found in an output, and what was left out of it."""

    text: str
    notes: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    """Kinds of text left out: ``asked`` (a question), ``refusal``, ``continuation``,
    ``comment`` (Nepali about the sentence)."""


def has_devanagari(text: str) -> bool:
    return _DEVANAGARI.search(text) is not None


def is_english_refusal(text: str) -> bool:
    return _REFUSAL_ENGLISH.search(text) is not None


def _words(text: str) -> list[str]:
    return [match_key(word.strip(_QUOTES + ",;:.!?()[]{}\u0964\u0965-")) for word in text.split()]


def _is_meta(text: str) -> bool:
    return any(word in _META for word in _words(text))


def _is_refusal(text: str) -> bool:
    key = match_key(" ".join(text.split()))
    if any(phrase in key for phrase in _REFUSAL_NEPALI):
        return True
    words = _words(text)
    return any(word in _CANNOT for word in words) and any(w in FIRST_PERSON_ANY for w in words)


def _latin_words(text: str) -> int:
    return len(_LATIN_WORD.findall(text))


def _devanagari_span(text: str) -> str:
    first = _DEVANAGARI.search(text)
    if first is None:
        return ""
    end = _LAST_DEVANAGARI.search(text).start() + 1  # type: ignore[union-attr]
    while end < len(text) and text[end] in _CLOSING + _QUOTES:
        end += 1
    return text[first.start() : end].strip()


def _devanagari_runs(text: str) -> list[str]:
    """Runs of three or more Devanagari words without Latin letters between them."""
    runs: list[list[str]] = [[]]
    for word in text.split():
        if _LATIN_WORD.search(word):
            runs.append([])
        else:
            runs[-1].append(word)
    return [" ".join(run) for run in runs if sum(1 for w in run if has_devanagari(w)) >= 3]


def _from_json(text: str) -> str:
    """The translation strings of a JSON answer ({"translation": "..."}), else ``text``."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return text
    try:
        data = json.loads(stripped)
    except ValueError:
        return text
    found: list[str] = []

    def walk(value: object, key: str = "") -> None:
        if isinstance(value, dict):
            for name, item in value.items():
                walk(item, str(name).lower())
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and has_devanagari(value) and (key in _JSON_KEYS or not key):
            found.append(value)

    walk(data)
    return "\n".join(found) if found else text


def _read_piece(piece: str, translated: bool, notes: list[str], flags: set[str]) -> list[str]:
    """The translation in one sentence-sized piece of a line ([] when it holds none)."""
    if not has_devanagari(piece):
        if piece.strip(_QUOTES + " "):
            notes.append(piece)
        return []
    outside = piece.rstrip(_QUOTES + " ")
    if outside.endswith(("?", "\uff1f")):
        notes.append(piece)
        flags.add("asked")
        return []
    if _is_refusal(piece):
        notes.append(piece)
        flags.add("refusal")
        return []
    head, colon, tail = piece.partition(":")
    if colon and _is_meta(head):
        if not has_devanagari(tail):
            notes.append(piece)
            return []
        notes.append(head)
        piece = tail  # "यहाँ अनुवाद छ: ...", "यो वाक्यको अनुवाद यस्तो हुन्छ: ..."
    if _is_meta(piece):
        notes.append(piece)
        flags.add("comment")
        return []
    span = _devanagari_span(piece)
    devanagari = sum(1 for word in span.split() if has_devanagari(word))
    latin = _latin_words(piece)
    if latin >= 2 and latin >= devanagari:
        # English prose quoting Nepali: a translation is a run of three or more words, and
        # only before any translation was read ("The translation is ...").
        runs = _devanagari_runs(span)
        if runs and not translated:
            return runs[:1]
        notes.append(piece)
        return []
    return [span]


def extract_translation(text: str) -> Extraction:
    """The Nepali translation(s) in a normalised model output, one kept line per rendering."""
    if "<" in text:
        text = _THINK.sub("\n", text)
    text = _from_json(text).replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTINUATION_INLINE.sub("\n", text)
    kept: list[str] = []
    notes: list[str] = []
    flags: set[str] = set()
    in_note_block = False
    for raw_line in text.split("\n"):
        if raw_line.lstrip().startswith("```"):
            continue
        line = _EMPHASIS.sub("", _LINE_MARKUP.sub("", raw_line)).strip()
        if not line:
            in_note_block = False
            continue
        if kept and _CONTINUATION.match(line):
            notes.append(line)
            flags.add("continuation")
            break
        header = _EXPLANATION_HEADER.match(line)
        if header:
            if kept:
                notes.append(line)
                break
            in_note_block = not line[header.end() :].strip()
            notes.append(line)
            continue
        if in_note_block:
            notes.append(line)
            continue
        stop = False
        inline = _INLINE_HEADER.search(line)
        if inline and has_devanagari(line[: inline.start()]):
            notes.append(line[inline.start() :])
            line, stop = line[: inline.start()].strip(), True
        if kept and line[:1] in "([" and line[-1:] in ")]":
            notes.append(line)
            continue
        label = _LABEL_PREFIX.match(line)
        if label:
            line = line[label.end() :]

        def drop_note(match: re.Match[str]) -> str:
            inner = match.group(1)
            if not has_devanagari(inner) or _latin_words(inner) >= 2 or _is_meta(inner):
                notes.append(inner)
                return " "
            return match.group(0)

        line = _PARENTHESES.sub(drop_note, line)
        pieces: list[str] = []
        for piece in _PIECE_END.split(line):
            if piece.strip():
                pieces += _read_piece(piece.strip(), bool(kept or pieces), notes, flags)
        if pieces:
            kept.append(" ".join(pieces))
        if stop:
            break
    return Extraction("\n".join(kept), notes, flags)
