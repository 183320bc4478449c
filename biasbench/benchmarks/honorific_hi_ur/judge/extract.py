"""Cutting the Hindi or Urdu translation out of a model output (spec sections 4 and 9).

The output is normalised once (:func:`.normalise.normalise`), then read line by line:

* **Dropped as chatter:** ``<think>`` traces (an unclosed one runs to the end), chat-template
  tokens (``<|im_end|>``, ``<end_of_turn>``), code fences, markdown (headings, block quotes,
  bullets, numbering, bold/italic, backticks, table rules), label prefixes (``Translation:``,
  ``Hindi:``, ``अनुवाद:``, ``हिंदी अनुवाद:``, ``ترجمہ:``, ``اردو ترجمہ:``, ``Formal:``, ``विकल्प 1:``),
  quotes, lines without the target script (an English gloss, a back-translation, a
  transliteration, a rendering in the other script), Latin-only parentheses.
* **Notes**, before or after the translation, in any language: everything from a note header
  (``Note:``, ``Explanation:``, ``Transliteration:``, ``ध्यान दें:``, ``टिप्पणी:``, ``स्पष्टीकरण:``,
  ``نوٹ:``, ``وضاحت:``) on once a translation was read; parenthesised notes (``(ध्यान दें: ...)``);
  target-script sentences about the sentence or its forms (अनुवाद, वाक्य, सर्वनाम, आदरसूचक;
  ترجمہ، جملہ، ضمیر، صیغہ; or a form in quotes inside a longer text: ``अनौपचारिक रूप 'आएगी'``).
  Forms quoted in a note are never evidence.
* **Not a translation:** a question or request to the user (ends in ``?``/``؟``, कृपया,
  براہ کرم), a refusal, another language in the same script (Marathi or Nepali in
  Devanagari; Persian, Arabic or Punjabi in Arabic script).
* **A base model's continuation:** a new ``English: ...`` pair after the translation ends it.
* **Renderings:** each numbered, bulleted or labelled line, and each line after one ending
  in sentence punctuation, is a rendering of its own; a bracketed alternative
  (``आएँगे (या आएगा)``) is a second rendering (Bengali ruling 11). A line continuing an
  unfinished one joins it (line breaks inside one rendering are spaces).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

import regex

from biasbench.benchmarks.honorific_hi_ur.judge.normalise import normalise

_THINK = regex.compile(r"<think>.*?(?:</think>|\Z)", regex.DOTALL | regex.IGNORECASE)
_CHAT_TOKENS = regex.compile(
    r"<\|[^|<>]{0,40}\|>|</?(?:start_of_turn|end_of_turn|s|bos|eos)>", regex.IGNORECASE
)
_LATIN = regex.compile(r"[A-Za-z]")
_LATIN_WORD = regex.compile(r"[A-Za-z][A-Za-z'’-]*")
_EMPHASIS = regex.compile(r"\*\*|__|\*|`|~~")
_LINE_MARKUP = regex.compile(r"^\s*(?:(?:#{1,6}|>|[-*+\u2022])\s*)+")
_NUMBERING = regex.compile(r"^\s*(?:\(?[0-9\u0966-\u096f\u06f0-\u06f9]+[.)]|[a-z][.)])\s+")
_CLOSING = "\u0964\u0965|.!?\u06d4\u061f"
_QUOTES = "'\"\u2018\u2019\u201c\u201d\u00ab\u00bb"
_PIECE_END = regex.compile("(?<=[\u0964\u0965!?\u06d4\u061f])(?=\\s)|(?<=\\.)(?=\\s)")

_HEADERS = (
    r"notes?|explanation|transliteration|pronunciation|romani[sz]ation|romani[sz]ed|"
    r"roman (?:hindi|urdu)|literal(?: translation)?|breakdown|gloss(?:ary)?|vocabulary|"
    r"back[- ]translation|word[- ]by[- ]word|"
    "ध्यान दें|नोट|टिप्पणी|व्याख्या|स्पष्टीकरण|उच्चारण|लिप्यंतरण|शब्दार्थ|"
    "نوٹ|وضاحت|تشریح|تلفظ|ملاحظہ"
)
_HEADER = regex.compile(
    r"^(?:" + _HEADERS + r")\s*(?:\([^)]*\))?\s*(?:[:\uff1a]|$|[-\u2013\u2014]\s)", regex.IGNORECASE
)
_INLINE_HEADER = regex.compile(
    r"(?<=[\s\u0964.!?\u06d4(\[])(?:" + _HEADERS + r")\s*[:\uff1a]", regex.IGNORECASE
)
_CONTINUATION = regex.compile(
    r"(?:English(?:\s+sentence)?|Translate|Input|Source|Sentence|Q)\s*[:\uff1a]"
    r"|Translate the following",
    regex.IGNORECASE,
)
_CONTINUATION_INLINE = regex.compile(
    "(?<=[\\s\u0964.!?\u06d4\"\u201d'\u2019\\]])(?=(?:English|Translate|Input|Source)"
    "\\s*[:\uff1a])",
    regex.IGNORECASE,
)
_ALTERNATIVE = regex.compile(r"^(?:या|یا|or)\b\s*[:\uff1a]?\s*", regex.IGNORECASE)
_QUOTED_SHORT = regex.compile(
    "(?:^|(?<=[\\s(\\[]))["
    + _QUOTES
    + "]([^\\s"
    + _QUOTES
    + "]+(?:\\s[^\\s"
    + _QUOTES
    + "]+)?)["
    + _QUOTES
    + "]"
)
_PARENTHESES = regex.compile(r"\s*[(\[]([^()\[\]]*)[)\]]")
_REFUSAL_EN = regex.compile(
    r"\b(?:i'?m sorry|i am sorry|i apologi[sz]e|i can(?:not|'t| not)|i'?m unable|i am unable|"
    r"unable to (?:translate|help|assist|comply)|as an ai|i won'?t)\b",
    regex.IGNORECASE,
)
_ROMANISED_CUES = frozenset(
    (
        "hai hain hein ne ki ka ko se mein woh wo vo vah unhone unhonne usne aur nahi nahin "
        "tha thi baje nau aayenge aayega aayegi aaenge aaega aaegi aayengi karte karti karta "
        "kaha kehna ghar gaye gaya gayi chale chala chali apna apni mila mili bahut madadgar "
        "abhi baad lekin kyunki sab log izzat samman kaam khatam kiya ke liye wah aaye gi ga "
        "gayein thay rahe raha rahi hoga hogi honge kal tak pehle"
    ).split()
)
_ROMANISED_NOT = frozenset("the a an he she they was were is are will would and".split())


@dataclass(frozen=True)
class Script:
    """The target script of one language and the words that say a line is another language."""

    language: str
    letters: regex.Pattern[str]
    other_letters: regex.Pattern[str]
    """Letters of other non-Latin scripts (the other language's script, other Indic ...)."""
    labels: regex.Pattern[str]
    meta_words: frozenset[str]
    refusal_phrases: tuple[str, ...]
    question_starts: tuple[str, ...]
    request_words: frozenset[str]
    other_language_words: frozenset[str]
    other_language_suffixes: tuple[str, ...]


_LABEL_LATIN = r"[^\p{Devanagari}\p{Arabic}:\uff1a\n]{0,60}"


def _label_pattern(words: str) -> regex.Pattern[str]:
    return regex.compile(
        r"^(?:" + _LABEL_LATIN + "|(?:" + words + r")(?:\s*[0-9\u0966-\u096f"
        r"\u06f0-\u06f9]+)?)\s*[:\uff1a]\s*"
    )


def _word_set(text: str) -> frozenset[str]:
    return frozenset(normalise(word) for word in text.split())


HINDI_SCRIPT = Script(
    language="hi",
    letters=regex.compile(r"\p{Devanagari}"),
    other_letters=regex.compile(
        r"[\p{Arabic}\p{Bengali}\p{Gurmukhi}\p{Gujarati}\p{Oriya}\p{Tamil}\p{Telugu}"
        r"\p{Kannada}\p{Malayalam}\p{Sinhala}\p{Han}\p{Hangul}\p{Cyrillic}]"
    ),
    labels=_label_pattern(
        "(?:हिंदी|हिन्दी)\\s+अनुवाद|अनुवाद|हिंदी|हिन्दी|औपचारिक|अनौपचारिक|विकल्प|उत्तर|"
        "सम्मानजनक|आदरसूचक|सामान्य"
    ),
    meta_words=_word_set(
        "अनुवाद अनुवादित वाक्य वाक्यों वाक्यांश सर्वनाम क्रिया क्रियापद आदरसूचक आदरार्थक "
        "सम्मानसूचक सम्मानार्थक औपचारिक अनौपचारिक बहुवचन एकवचन प्रयोग इस्तेमाल शब्द"
    ),
    refusal_phrases=tuple(
        normalise(p)
        for p in (
            "खेद है",
            "माफ़ कीजिए",
            "माफ कीजिए",
            "क्षमा करें",
            "क्षमा कीजिए",
            "अनुवाद नहीं कर सकता",
            "अनुवाद नहीं कर सकती",
            "मदद नहीं कर सकता",
            "मदद नहीं कर सकती",
        )
    ),
    question_starts=tuple(normalise(p) for p in ("क्या आप", "क्या मैं", "कृपया")),
    request_words=_word_set("कृपया बताइए बताएं बताएँ"),
    other_language_words=_word_set(
        "आहे आहेत नाही म्हणाले म्हणाला म्हणाली येतील येईल वाजता झाले झाला झाली आणि त्यांनी "
        "त्याने तिने केले करतो छ छन् छिन् हुनुहुन्छ उहाँ उनी भने भन्नुभयो थियो "
        "थिए गर्नुभयो गर्छ गरेको गर्नुहुन्छ पनि डाक्टरले"
    ),
    other_language_suffixes=tuple(
        normalise(s) for s in ("नुहुन्छ", "नुभयो", "नुहुनेछ", "थ्यो", "छन्", "न्छ", "र्छ")
    ),
)

URDU_SCRIPT = Script(
    language="ur",
    letters=regex.compile(r"\p{Arabic}"),
    other_letters=regex.compile(
        r"[\p{Devanagari}\p{Bengali}\p{Gurmukhi}\p{Gujarati}\p{Oriya}\p{Tamil}\p{Telugu}"
        r"\p{Kannada}\p{Malayalam}\p{Sinhala}\p{Han}\p{Hangul}\p{Cyrillic}]"
    ),
    labels=_label_pattern(
        "اردو\\s+ترجمہ|ترجمہ|اردو|غیر\\s+رسمی|رسمی|متبادل|جواب|احترام\\s+کے\\s+ساتھ"
    ),
    meta_words=_word_set(
        "ترجمہ ترجمے جملہ جملے جملوں ضمیر فعل صیغہ صیغے واحد رسمی استعمال لفظ الفاظ"
    ),
    refusal_phrases=tuple(
        normalise(p)
        for p in (
            "معذرت",
            "معاف کیجیے",
            "معاف کیجئے",
            "ترجمہ نہیں کر سکتا",
            "ترجمہ نہیں کر سکتی",
            "مدد نہیں کر سکتا",
            "مدد نہیں کر سکتی",
        )
    ),
    question_starts=tuple(normalise(p) for p in ("کیا آپ", "کیا میں", "براہ کرم", "برائے مہربانی")),
    request_words=_word_set("براہ مہربانی بتائیں بتائیے"),
    other_language_words=_word_set(
        "گفت است را خواهد خواهند نمی بود شد آمد کرد میکند قال سوف الذي التي الذی التی كانت "
        "إنه انه في الساعة اوہ وچ نئیں اے آکھیا وجے ساڈا تہاڈا ایہہ ہویا کیتا نال"
    ),
    other_language_suffixes=(),
)


@dataclass
class Extraction:
    """What the output holds: the renderings read, the notes left out, what kinds of text
    were no translation."""

    renderings: list[str]
    text: str = ""
    """The whole output, normalised (once) and without reasoning traces."""
    notes: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    """``asked``, ``refusal``, ``other_language``, ``other_script``, ``continuation``."""


def _span(script: Script, line: str) -> str:
    """The line from its first to its last target-script character, plus closing marks."""
    first = script.letters.search(line)
    if first is None:
        return ""
    last = first.start()
    for match in script.letters.finditer(line):
        last = match.start()
    end = last + 1
    while end < len(line) and (line[end] in _CLOSING or unicode_mark(line[end])):
        end += 1
    return line[first.start() : end].strip()


def unicode_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def _bare(word: str) -> str:
    return word.strip(_QUOTES + ",;:.!?()[]{}\u0964\u0965\u06d4\u060c\u061f-\u2013\u2014=/|")


def _is_metalanguage(script: Script, text: str) -> bool:
    words = [_bare(word) for word in text.split()]
    if any(word in script.meta_words for word in words):
        return True
    # a form of one or two words in quotes inside a longer text: mentioned, not used
    return len(words) > 3 and any(
        script.letters.search(match.group(1)) for match in _QUOTED_SHORT.finditer(text)
    )


def _is_other_language(script: Script, text: str) -> bool:
    hits = 0
    for raw in text.split():
        word = _bare(raw)
        if word in script.other_language_words or (
            script.other_language_suffixes
            and len(word) > 3
            and word.endswith(script.other_language_suffixes)
        ):
            hits += 1
    return hits >= 1


def _is_refusal(script: Script, text: str) -> bool:
    return bool(_REFUSAL_EN.search(text)) or any(p in text for p in script.refusal_phrases)


def _is_asked(script: Script, piece: str) -> bool:
    stripped = piece.strip().rstrip(_QUOTES + " ")
    if stripped.endswith(("?", "\u061f", "\uff1f")):
        return True
    if stripped.startswith(script.question_starts):
        return True
    return any(_bare(word) in script.request_words for word in piece.split())


def _latin_words(text: str) -> int:
    return len(_LATIN_WORD.findall(text))


def _target_words(script: Script, text: str) -> int:
    return sum(1 for word in text.split() if script.letters.search(word))


_PROSE_WORDS = frozenset(
    "here i we used use is are the this that note instead means which where because it uses "
    "respectful formal informal honorific".split()
)
_WORD_OR_GAP = regex.compile(r"\S+")


def _cut_english_comment(script: Script, piece: str) -> tuple[str, str]:
    """The piece without an English comment after its translation ("X - here "वे" is used
    for respect", "X — I used वे instead of वह"): cut at the first Latin word of prose (a
    function word such as here/I/used/the, or the third Latin word in a row) that follows
    target-script text. Single English words inside a sentence (``अभी available नहीं``)
    stay."""
    seen_target = False
    run = 0
    run_start = 0
    for match in _WORD_OR_GAP.finditer(piece):
        word = match.group(0)
        if script.letters.search(word):
            seen_target, run = True, 0
            continue
        latin = _LATIN_WORD.search(word)
        if not latin or not seen_target:
            continue
        if run == 0:
            run_start = match.start()
        run += 1
        if latin.group(0).lower() in _PROSE_WORDS or run >= 3:
            cut = run_start if run >= 3 else match.start()
            head = piece[:cut].rstrip(" -\u2013\u2014:\"'\u201c\u201d(")
            return head, piece[cut:]
    return piece, ""


def _read_piece(script: Script, piece: str, translated: bool, extraction: Extraction) -> str | None:
    """The translation in one sentence-sized piece, or None."""
    piece, comment = _cut_english_comment(script, piece)
    if comment:
        extraction.notes.append(comment)
    span = _span(script, piece)
    if not span:
        return None
    words = piece.split()
    if sum(1 for word in words if script.other_letters.search(word)) >= sum(
        1 for word in words if script.letters.search(word)
    ):
        extraction.flags.add("other_script")  # Bengali or Urdu with a Devanagari word or two
        extraction.notes.append(span)
        return None
    if _is_refusal(script, piece):
        extraction.flags.add("refusal")
        extraction.notes.append(span)
        return None
    if _is_asked(script, piece):
        extraction.flags.add("asked")
        extraction.notes.append(span)
        return None
    if _is_other_language(script, span):
        extraction.flags.add("other_language")
        extraction.notes.append(span)
        return None
    if _is_metalanguage(script, span):
        extraction.notes.append(span)
        return None
    if not _LATIN.search(piece):
        return span
    target = _target_words(script, span)
    first = script.letters.search(piece)
    before = piece[: first.start()] if first else piece
    if target <= 2 and _latin_words(piece) >= 2 and _latin_words(before) >= 1:
        extraction.notes.append(piece)  # English prose quoting a form or two
        return None
    if translated and _latin_words(before) >= 4:
        extraction.notes.append(piece)
        return None
    latin = _latin_words(span)
    if latin >= 2 and latin >= target:
        extraction.notes.append(piece)
        return None
    return span


def _parentheses(script: Script, line: str, extraction: Extraction) -> tuple[str, list[str]]:
    """The line without its parenthesised groups, and the alternatives among them.

    A Latin-only group (a gloss, a transliteration) goes; a target-script group opening with
    या/یا/or is a second rendering (``आएँगे (या आएगा)``); one with English prose, a colon
    or metalanguage is a note (``(ध्यान दें: ...)``); any other stays in the sentence.
    """
    alternatives: list[str] = []

    def replace(match: regex.Match[str]) -> str:
        inner = match.group(1).strip()
        if not script.letters.search(inner):
            return " "
        alternative = _ALTERNATIVE.match(inner)
        if alternative:
            alternatives.append(inner[alternative.end() :])
            return " "
        if _latin_words(inner) >= 2 or _is_metalanguage(script, inner) or ":" in inner:
            extraction.notes.append(inner)
            return " "
        return str(match.group(0))

    return _PARENTHESES.sub(replace, line), alternatives


def strip_traces(text: str) -> str:
    """``text`` without ``<think>`` traces (an unclosed one runs to the end) and chat-template
    tokens."""
    if "<" in text:
        text = _CHAT_TOKENS.sub("\n", _THINK.sub("\n", text))
    return text


def extract(output: str, script: Script) -> Extraction:
    """The renderings of the translation in ``output`` (normalised text), the notes left out
    and the kinds of non-translation met."""
    text = strip_traces(normalise(output))
    extraction = Extraction([], text)
    text = _CONTINUATION_INLINE.sub("\n", text)
    renderings = extraction.renderings
    in_note_block = False
    open_rendering = False  # the last rendering did not end in sentence punctuation
    for raw_line in text.split("\n"):
        stripped = raw_line.strip()
        if stripped.startswith("```"):
            continue
        cells = [stripped]
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            if set(stripped) <= set("|-: "):
                continue
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
        for cell in cells:
            marked = bool(_LINE_MARKUP.match(cell) or _NUMBERING.match(cell))
            line = _NUMBERING.sub("", _LINE_MARKUP.sub("", cell))
            line = _EMPHASIS.sub("", line).strip()
            if not line:
                in_note_block = False
                continue
            if renderings and _CONTINUATION.match(line):
                extraction.flags.add("continuation")
                extraction.notes.append(line)
                return extraction
            if _HEADER.match(line):
                if renderings:
                    extraction.notes.append(line)
                    return extraction
                header = _HEADER.match(line)
                rest = line[header.end() :].strip() if header else ""
                in_note_block = not rest
                if rest:
                    extraction.notes.append(rest)
                continue
            if in_note_block:
                extraction.notes.append(line)
                continue
            stop = False
            inline = _INLINE_HEADER.search(line)
            if inline and script.letters.search(line[: inline.start()]):
                extraction.notes.append(line[inline.start() :])
                line, stop = line[: inline.start()].strip(), True
            if renderings and line[:1] in "([" and line[-1:] in ")]":
                extraction.notes.append(line)
                continue
            label = script.labels.match(line)
            if label and script.letters.search(line[label.end() :]):
                marked = True
                line = line[label.end() :]
            elif label and not script.letters.search(line):
                continue
            if not script.letters.search(line):
                if script.other_letters.search(line):
                    extraction.flags.add("other_script")
                continue
            line, alternatives = _parentheses(script, line, extraction)
            pieces: list[str] = []
            for piece in _PIECE_END.split(line):
                if piece.strip():
                    found = _read_piece(
                        script, piece.strip(), bool(renderings or pieces), extraction
                    )
                    if found:
                        pieces.append(found)
            if pieces:
                joined = " ".join(pieces)
                if renderings and open_rendering and not marked:
                    renderings[-1] = renderings[-1] + " " + joined
                else:
                    renderings.append(joined)
                open_rendering = joined.rstrip(_QUOTES + " ")[-1:] not in _CLOSING
                renderings.extend(alternatives)
            if stop:
                return extraction
    return extraction


def romanised(text: str) -> bool:
    """Latin text that reads as romanised Hindi/Urdu rather than English."""
    words = [word.lower().strip(".,!?'\"") for word in _LATIN_WORD.findall(text)]
    words = [word for word in words if word and word not in _ROMANISED_NOT]
    cues = sum(1 for word in words if word in _ROMANISED_CUES)
    return cues >= 2 and cues * 3 >= len(words)
