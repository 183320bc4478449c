"""Cutting the Korean translation(s) out of a model output (spec "Extracting the translation").

Only the translation is judged. Read line by line (the text is normalised already):

* dropped whole: ``<think>`` blocks, code-fence lines, markdown (headings, quotes, bullets,
  numbering, emphasis), a JSON wrapper (its string values are read);
* a label before a colon (``Translation:``, ``번역:``, ``한국어 번역:``, ``격식체:``, ``더 자연스러운
  표현:``) is stripped and what follows is read; a line that is only a label or a preamble
  ending in a colon ("요청하신 문장의 번역입니다:") is dropped;
* from an explanation header (``Note:``, ``Explanation:``, ``Romanization:``, ``참고:``,
  ``설명:``, ``※``) on, nothing more is read once a translation was seen; before it, only the
  header line is dropped; a new ``English:`` pair after the translation ends it;
* a parenthesised group without Hangul (romanisation, a hanja gloss, English) is dropped; one
  opened by 또는/혹은/or is an alternative and is read as a rendering of its own, and so is a
  quoted Korean sentence inside a parenthesised note ``(좀 더 자연스럽게: "...")``; any other
  parenthesised Korean is a note;
* each sentence is then kept or dropped: no Hangul (English, romanised Korean, Japanese,
  Chinese, Hindi) is dropped and its kind noted; English prose quoting Korean forms is a note;
  Korean meta-text (번역, 문장, 존댓말, 원하시면, 참고하세요, 도움이 되셨으면, 죄송 ...: words
  no translation of the benchmark's sentences holds, whose -시- would honour the user) and a
  question back to the user are dropped;
* quotes around a whole kept sentence are removed; quotation marks *inside* a sentence stay, so
  that the analysis can leave out a direct quotation.

Every kept line (or alternative) is one rendering; the judge reads all of them, so renderings in
different registers come out ``mixed``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from biasbench.benchmarks.honorific_ko.judge.lexicon import (
    ALTERNATIVE_OPENERS,
    CHATTER_EXCEPTIONS,
    CHATTER_MARKERS,
    ENGLISH_REFUSAL,
    ENGLISH_WORDS,
    REFUSAL_MARKERS,
)

HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e]")
_HANGUL_SYLLABLE = re.compile("[\uac00-\ud7a3]")
_KANA = re.compile("[\u3040-\u30ff]")
_HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf]")
_OTHER_SCRIPT = re.compile("[\u0900-\u0dff\u0600-\u06ff\u0e00-\u0e7f\u0400-\u04ff]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'/-]*")

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_LINE_MARKUP = re.compile(
    r"^\s*(?:(?:#{1,6}|>|[-*+\u2022\u00b7])\s*|(?:[0-9]+|[a-z])[.)]\s*|"
    "[\u2460-\u2473]\\s*)*"
)
_EMPHASIS = re.compile(r"\*\*|__|`|~~|(?<!\w)\*|\*(?!\w)")
_HEADER = re.compile(
    r"^(?:notes?|explanation|breakdown|romani[sz]ation|romani[sz]ed|transliteration|"
    r"pronunciation|literal(?: translation)?|word[- ]by[- ]word|gloss(?:ary)?|vocabulary|"
    r"key (?:words|terms)|back[- ]translation|"
    "참고|설명|해설|주의|메모|발음|로마자(?: 표기)?|직역|풀이|노트|팁"
    r")\s*(?:\([^)]*\))?\s*(?::|$|[-\u2013\u2014]\s)|^\u203b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(
    r"^(?:English|영어|Translate|Input|Source|Sentence|Q)(?:\s+(?:sentence|text|문장))?\s*:",
    re.IGNORECASE,
)
# A label before a colon: Latin text without Hangul (up to 80 characters: "Sure, here is the
# translation:") or a short Korean phrase (up to 25: "번역 결과는 다음과 같습니다:").
_LABEL = re.compile(
    "^(?:[A-Za-z][^\uac00-\ud7a3\u3131-\u318e:\n]{0,79}|"
    "[\uac00-\ud7a3][\uac00-\ud7a3 ()0-9/]{0,24})\\s*:\\s*"
)
_PARENTHESES = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")
_QUOTED = re.compile(
    "[\"\u201c\u2018'\u300c\u300e]([^\"\u201c\u201d\u2018\u2019'\u300c\u300d"
    "\u300e\u300f]+)[\"\u201d\u2019'\u300d\u300f]"
)
_QUOTES = "\"'\u201c\u201d\u2018\u2019\u300c\u300d\u300e\u300f\u00ab\u00bb"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_KEYS = ("translation", "korean", "ko", "output", "text", "answer", "번역", "result")


@dataclass
class Extraction:
    """The renderings found in an output, the notes left out, and what kinds of non-translation
    text were seen (``refusal``, ``comment``, ``asked``, ``english``, ``romanised``,
    ``japanese``, ``chinese``, ``other-language``)."""

    renderings: list[str]
    notes: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)


def _json_strings(text: str) -> str | None:
    """The strings of a JSON object wrapper (``{"translation": "..."}``), or None."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    values = [
        value for key, value in data.items() if isinstance(value, str) and key.lower() in _KEYS
    ]
    if not values:
        values = [value for value in data.values() if isinstance(value, str)]
    return "\n".join(values)


def _is_chatter(sentence: str) -> bool:
    """Korean meta-text: a word no translation of the benchmark's sentences holds."""
    text = sentence
    for exception in CHATTER_EXCEPTIONS:
        text = text.replace(exception, " ")
    return any(marker in text for marker in CHATTER_MARKERS)


def _latin_kind(text: str) -> str:
    """``refusal``, ``english`` or ``romanised`` for a text without Hangul."""
    lower = text.lower()
    if any(marker in lower for marker in ENGLISH_REFUSAL):
        return "refusal"
    words = [word.lower().strip("'/-") for word in _LATIN_WORD.findall(text)]
    if any(word in ENGLISH_WORDS for word in words):
        return "english"
    return "romanised"


def _script_kind(text: str) -> str | None:
    """What a text without Hangul is, or None when it holds no letters at all."""
    if _KANA.search(text):
        return "japanese"
    if _HAN.search(text):
        return "chinese"
    if _OTHER_SCRIPT.search(text):
        return "other-language"
    if _LATIN_WORD.search(text):
        return _latin_kind(text)
    return None


def _strip_quotes(text: str) -> str:
    """``text`` without quotes around the whole of it (a closing mark after the quote stays)."""
    text = text.strip()
    for _ in range(2):
        if len(text) > 1 and text[0] in _QUOTES:
            body = text[1:]
            closing = body.rstrip(".!? ")
            if (
                closing
                and closing[-1] in _QUOTES
                and not any(quote in closing[:-1] for quote in _QUOTES)
            ):
                text = (closing[:-1] + body[len(closing) :]).strip()
            elif body.endswith(tuple(_QUOTES)) and not any(q in body[:-1] for q in _QUOTES):
                text = body[:-1].strip()
    return text


class _Reader:
    def __init__(self) -> None:
        self.renderings: list[str] = []
        self.notes: list[str] = []
        self.flags: set[str] = set()

    def parentheses(self, line: str) -> str:
        """``line`` without its parenthesised groups; alternatives and quoted renderings in them
        become renderings of their own."""

        def replace(match: re.Match[str]) -> str:
            inner = (match.group(1) if match.group(1) is not None else match.group(2)).strip()
            if not HANGUL.search(inner):
                return " "  # romanisation, a hanja or English gloss
            first = inner.split(maxsplit=1)
            if first and first[0].rstrip(":").lower() in ALTERNATIVE_OPENERS and len(first) > 1:
                self.renderings.append(_strip_quotes(first[1]))
                return " "
            quoted = _quoted_renderings(inner)
            if quoted:
                self.renderings += [_strip_quotes(q) for q in quoted]
            else:
                self.notes.append(inner)
            return " "

        return _PARENTHESES.sub(replace, line)

    def sentence(self, sentence: str) -> str | None:
        """The sentence if it is part of a translation, else None (noted)."""
        sentence = sentence.strip()
        if not sentence:
            return None
        if not _HANGUL_SYLLABLE.search(sentence):
            kind = _script_kind(sentence)
            if kind is not None:
                self.flags.add(kind)
                self.notes.append(sentence)
            return None
        hangul_words = sum(1 for word in sentence.split() if HANGUL.search(word))
        latin_words = len(_LATIN_WORD.findall(sentence))
        if latin_words >= 3 and latin_words >= hangul_words:
            # English prose: a run of four or more Korean words before any translation is the
            # translation it introduces ("Here is the Korean translation of it 판사는 ..."); a
            # shorter run is a form quoted by a note
            runs = [run for run in _korean_runs(sentence) if len(run.split()) >= 4]
            self.notes.append(sentence)
            return _strip_quotes(runs[0]) if runs and not self.renderings else None
        if len(_KANA.findall(sentence)) > len(_HANGUL_SYLLABLE.findall(sentence)):
            self.flags.add("japanese")
            self.notes.append(sentence)
            return None
        if _is_chatter(sentence):
            self.renderings += _quoted_renderings(sentence)
            self.flags.add("refusal" if any(m in sentence for m in REFUSAL_MARKERS) else "comment")
            self.notes.append(sentence)
            return None
        if sentence.rstrip(_QUOTES + " ").endswith("?"):
            self.flags.add("asked")
            self.notes.append(sentence)
            return None
        return _strip_quotes(sentence)

    def line(self, line: str) -> bool:
        """Reads one line; False when reading must stop (a note or a new pair follows)."""
        if line.lstrip().startswith("```"):
            return True
        line = _EMPHASIS.sub("", _LINE_MARKUP.sub("", line)).strip()
        if not line:
            return True
        if self.renderings and _CONTINUATION.match(line):
            self.notes.append(line)
            return False
        if _HEADER.match(line):
            self.notes.append(line)
            return not self.renderings
        label = _LABEL.match(line)
        if label:
            line = line[label.end() :].strip()
            if not line:
                return True
        line = self.parentheses(line)
        kept = [
            kept for kept in (self.sentence(part) for part in _SENTENCE_END.split(line)) if kept
        ]
        if kept:
            self.renderings.append(" ".join(kept))
        return True


def extract(text: str) -> Extraction:
    """The renderings of a (normalised) model output, with the notes left out."""
    if "<" in text:
        text = _THINK.sub("\n", text)
    wrapped = _json_strings(
        "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("```"))
    )
    if wrapped is not None:
        text = wrapped
    reader = _Reader()
    lines = text.split("\n")
    for at, line in enumerate(lines):
        if not _read_line(reader, line):
            # after the translation, a note's own words are dropped, but a full rendering
            # quoted in it ("A more respectful version: \"...\"") is a rendering
            for rest in lines[at:]:
                reader.renderings += _quoted_renderings(rest)
            break
    return Extraction([r for r in reader.renderings if r.strip()], reader.notes, reader.flags)


_RENDERING_WORDS = 4
"""A quoted Korean text inside a note is a full rendering from four words on (every frame's
translation has at least four: 일을 마치고 집에 갔다); shorter ones are forms the note quotes
("도착할 것이라고 말했습니다" means ...)."""


def _quoted_renderings(text: str) -> list[str]:
    """Korean sentences of four or more words quoted inside a note."""
    return [
        quoted.strip()
        for quoted in _QUOTED.findall(text)
        if sum(1 for word in quoted.split() if _HANGUL_SYLLABLE.search(word)) >= _RENDERING_WORDS
    ]


def _korean_runs(text: str) -> list[str]:
    """Maximal runs of words without Latin letters, in a text that mixes English and Korean."""
    runs: list[list[str]] = [[]]
    for word in text.split():
        if _LATIN_WORD.search(word):
            runs.append([])
        elif _HANGUL_SYLLABLE.search(word) or runs[-1]:
            runs[-1].append(word)
    return [" ".join(run).strip(_QUOTES + " ") for run in runs if run]


def _read_line(reader: _Reader, line: str) -> bool:
    """Reads a line, keeping the line's own rendering before the alternatives of its
    parentheses."""
    before = len(reader.renderings)
    go_on = reader.line(line)
    added = reader.renderings[before:]
    if len(added) > 1:
        # line() appended alternatives first and its own rendering last: put the line first
        reader.renderings[before:] = [added[-1], *added[:-1]]
    return go_on
