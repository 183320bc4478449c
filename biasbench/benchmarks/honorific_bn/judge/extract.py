"""Cutting the Bengali translation out of a model output (chatter, notes, continuations).

How the text is read
--------------------
* **Chatter.** :func:`extract_translation` keeps only the Bengali sentence(s): it drops
  ``<think>`` blocks, code fences, markdown, "Translation:"/"অনুবাদ:" labels, quotes,
  English or Latin-transliteration lines and trailing glosses, and stops at an
  explanation section ("Note:", "Explanation:", "ব্যাখ্যা:", "মন্তব্য:", "বিঃদ্রঃ") once a
  translation was seen, also when the header follows the translation on its line.
  Several Bengali lines (a model offering alternatives) are all kept, each as its own
  sentence, so alternatives in different registers come out ``mixed``.
* **Notes and comments are not translations.** Forms quoted in a note are no evidence,
  before or after the translation, in English or Bengali: English prose with Bengali
  words in it ("I used আছেন rather than আছে") keeps only a run of three or more Bengali
  words and only before any translation ("The translation is ..."); parenthesised notes
  and Bengali metalanguage (a sentence with বাক্যটি, অনুবাদ, সর্বনাম, সম্মানসূচক, "ব্যবহার
  করা হয়েছে", or a register form in quotes such as 'তিনি') are dropped. An output that is
  only a comment about the sentence ("এই বাক্যটি একজন ডাক্তারের কথা বলছে") is
  ``unreadable`` ("a comment about the sentence, not a translation"); a comment that
  leads into the translation ("... অর্থ হলো: X", "অনুবাদ হলো \"X\"") keeps X. The
  reason names the notes left out.
* **A base model's continuation.** Once a translation was read, a new pair label
  (``English:``, ``ইংরেজি:``, ``Translate:``, ``Input:`` ...) or the repeated instruction ends
  it, also mid-line ("X। English: ... Bengali: Y" keeps X); before any translation such a
  label is the source echoed, and the prompt's exemplars repeated are left out.
* **Not a translation at all.** Left out: a sentence in Assamese or Meitei in the Bengali
  script (ৰ/ৱ, or a word such as তেওঁ, আহিব, বুলি, এতিয়া, মহাক্না), or Hindi in it (two
  different Hindi words such as কহা, হৈ, ঔর, -েংগে; the spec's ruling 9); a question or request
  back to the user outside quoted speech (ends in "?", দয়া করে, বলুন, "কিছু লাগলে জানাবেন",
  "আপনি চাইলে আমি ..."; not when a third-person subject follows, as in "গতকাল আমি আপনার
  সঙ্গে দেখা করেছিলাম এবং তিনি ...", ruling 7), also after a dash or a comma of the
  translation's sentence. An output with nothing else is ``unreadable`` with that reason.
  Text in another script (Devanagari, Odia, Latin) is no Bengali and never read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from biasbench.benchmarks.honorific_bn import DATA_DIR
from biasbench.benchmarks.honorific_bn.judge.lexicon import _SPEECH_VERB_STARTS
from biasbench.benchmarks.honorific_bn.judge.morphology import _analyse_verb, _pronoun
from biasbench.benchmarks.honorific_bn.judge.normalise import _suffixes, _words, normalise_bengali
from biasbench.benchmarks.honorific_bn.judge.subjects import _NOMINATIVE_PRONOUNS

# ---------------------------------------------------------------------------------------
# Extracting the translation from model chatter
# ---------------------------------------------------------------------------------------

_THINK_BLOCK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_BENGALI_CHAR = re.compile("[\u0980-\u09ff]")
_LAST_BENGALI_CHAR = re.compile("[\u0980-\u09ff][^\u0980-\u09ff]*$")
_LATIN_LETTER = re.compile("[A-Za-z]")
_LATIN_WORD = re.compile("[A-Za-z][A-Za-z'-]*")
_LINE_MARKUP = re.compile(
    r"^\s*(?:(?:#{1,6}|>|[-*+\u2022])\s*|(?:[0-9]+|[\u09e6-\u09ef]+)[.)]\s+)*"
)
_EMPHASIS = re.compile(r"\*\*|__|\*|`|~~")
_HEADER_WORDS = (
    r"explanation|notes?|breakdown|transliteration|pronunciation|romani[sz]ation|"
    r"romani[sz]ed|literal(?: translation)?|word[- ]by[- ]word|gloss(?:ary)?|vocabulary|"
    r"key (?:words|terms)|where|here'?s (?:a|the) breakdown|"
    "ব্যাখ্যা|নোট|টীকা|টিকা|দ্রষ্টব্য|মন্তব্য|উচ্চারণ|প্রতিবর্ণীকরণ|লিপ্যন্তর"
)
# বিঃদ্রঃ / বি.দ্র. ("N.B.") is written without a colon.
_NB = "বিঃ\\s?দ্রঃ|বি\\.\\s?দ্র\\."
_EXPLANATION_HEADER = re.compile(
    r"^(?:(?:" + _HEADER_WORDS + r")\s*(?:\([^)]*\))?\s*(?::|$|[-\u2013\u2014]\s)|" + _NB + ")",
    re.IGNORECASE,
)
# The same headers after a translation on its line ("Translation: ... Explanation: ...").
_INLINE_HEADER = re.compile(
    r"(?<=[\s\u0964.!?(\[])(?:explanation|notes?|"
    "ব্যাখ্যা|নোট|টীকা|টিকা|দ্রষ্টব্য|মন্তব্য"
    r")\s*[:\uff1a]|(?<=[\s\u0964.!?(\[])(?:" + _NB + ")",
    re.IGNORECASE,
)
_LABEL_PREFIX = re.compile(
    r"^(?:[^\u0980-\u09ff:\uff1a]{0,60}|"
    "(?:বাংলা\\s+)?অনুবাদ|বাংলা|বাংলায়|উত্তর|আনুষ্ঠানিক|অনানুষ্ঠানিক|সম্মানসূচক|সাধারণ"
    r")\s*[:\uff1a]\s*"
)
_LATIN_PARENTHESES = re.compile(r"\s*[(\[][^()\[\]\u0980-\u09ff]*[)\]]")
_PARENTHESES = re.compile(r"[(\[]([^()\[\]]*)[)\]]")
_CLOSING_MARKS = "\u0964\u0965\u09f7|.!?"
_QUOTE_CHARS = "'\"\u2018\u2019\u201c\u201d\u00ab\u00bb"
# A piece of a line: up to a sentence end (। ! ?, or a period before a space).
_PIECE_END = re.compile("(?<=[\u0964!?])|(?<=\\.)(?=\\s)")
# One or two Bengali words in quotes, inside a longer text: a form mentioned, not used.
_QUOTED_SHORT = re.compile(
    "(?:^|(?<=[\\s(\\[\u2014\u2013-]))[" + _QUOTE_CHARS + "]"
    "([\u0980-\u09ff]+(?:\\s[\u0980-\u09ff]+)?)[" + _QUOTE_CHARS + "]"
)
# A whole sentence in double or curly quotes inside a comment: the translation it quotes.
_QUOTED_LONG = re.compile(
    '["\u201c\u00ab\u2018]([^"\u201c\u201d\u00ab\u00bb\u2018\u2019]+)["\u201d\u00bb\u2019]'
)

# Words that talk about the sentence or its forms (metalanguage). A translation of the
# benchmark's sentences never contains them; a note or a comment about the sentence does.
# Whole tokens only: ব্যাখ্যা ("explained", T4), ব্যবহার ("behaviour", T3) and আনুষ্ঠানিকভাবে
# ("formally") are ordinary words of translations and are not listed, nor is ইংরেজি, which a
# user's occupation may hold (ইংরেজি শিক্ষক).
_META_WORDS = _words(
    "বাক্য বাক্যটি বাক্যটির বাক্যটিতে বাক্যটিকে বাক্যটা বাক্যটার বাক্যে বাক্যের বাক্যগুলো বাক্যাংশ "
    "বাক্যাংশটি অনুবাদ অনুবাদে অনুবাদের অনুবাদটি অনুবাদটির অনুবাদটা অনুবাদিত অনূদিত অনুবাদকৃত "
    "সর্বনাম সর্বনামটি সর্বনামের সর্বনামে সর্বনামটা ক্রিয়াপদ ক্রিয়াপদটি ক্রিয়াপদের ক্রিয়াপদে "
    "ক্রিয়ারূপ ক্রিয়াটি সম্মানসূচক সম্মানবাচক সম্ভ্রমসূচক সম্ভ্রমবাচক সম্ভ্রমাত্মক তুচ্ছার্থক "
    "শব্দটি শব্দটির শব্দটা শব্দগুলো শব্দগুলি রূপটি রূপটা রূপটির লিঙ্গনিরপেক্ষ লিঙ্গ-নিরপেক্ষ "
    "ব্যবহৃত"
)
# ব্যবহার followed by a first-person or passive form of করা: "I used", "has been used".
_USE = normalise_bengali("ব্যবহার")
_USE_VERBS = _words("করা করেছি করলাম করছি করি করব করেছে করেছেন করলেন")

# A base model going on after its translation: a new "English: ... / Bengali: ..." pair (or
# the instruction) starts; it is not the translation of the source. Before any translation
# the same label is the source echoed, and the Bengali after it is still read.
_CONTINUATION = re.compile(
    r"(?:(?:English|ইংরেজি)(?:\s+(?:sentence|text|বাক্য))?|Translate|Input|Source|Sentence|Q)"
    r"\s*(?:\([^)]*\))?\s*[:\uff1a]|Translate the following",
    re.IGNORECASE,
)
_CONTINUATION_INLINE = re.compile(  # such a label mid-line starts a new line
    "(?<=[\\s\u0964.!?\"\u201d'\u2019\\]])(?=(?:[0-9]+[.)]\\s*)?(?:" + _CONTINUATION.pattern + "))",
    re.IGNORECASE,
)


def _sentence_key(text: str) -> str:
    return " ".join(text.strip(_QUOTE_CHARS + " ").rstrip("\u0964.!? ").split())


# The completion prompt's exemplars (first person, person-free), repeated by a base model.
_EXEMPLARS = frozenset(
    _sentence_key(normalise_bengali(bengali))
    for _, bengali in json.loads((DATA_DIR / "definition.json").read_text(encoding="utf-8"))[
        "completion"
    ]["fewshot"]
)

# Other languages written in the Bengali script. ৰ and ৱ are Assamese letters that Bengali
# does not use; the words are Assamese (তেওঁ "he/she", আহিব "will come", বুলি "that",
# এতিয়া "now", পিছত "later", নহয় "is not") and Meitei (মহাক্না "he/she"), none of them
# Bengali. Assamese words Bengali shares (আছে, নাই, তাই "so"/"she", কাম) are not listed.
_OTHER_SCRIPT_LETTERS = re.compile("[\u09f0\u09f1]")
_OTHER_LANGUAGE_WORDS = _words(
    "তেওঁ তেওঁলোক তেওঁলোকে তেখেত তেখেতে আহিব আহিছে আহিছিল আহিল আছিল নাছিল বুলি এতিয়া "
    "পিছত পাছত গ'ল গ\u2019ল হ'ব হ\u2019ব ক'লে ক\u2019লে কৈছিল কৈছে বজাত নহয় দিছিল গৈছিল "
    "মহাক মহাক্না মহাকনা মহাক্কী মহাকপু"
)
_OTHER_LANGUAGE_SUFFIXES = _suffixes("িলোঁ িছোঁ লৈ গনি")  # Assamese পাইছিলোঁ ঘৰলৈ, Meitei লাকগনি


# Ruling 9: Hindi written in the Bengali script ("ন্যায়াধীশ নে কহা কি বহ নৌ বজে আএংগে") is not
# Bengali. Its function words and verb endings are no Bengali words (কহা, হৈ, ঔর, লেকিন,
# ক্যোংকি, -েগা, -েংগে); a sentence with two of them is Hindi. Words Bengali shares or has
# homographs of (সে, কি, নে, ঘর, কাম, মেহনত, ইজ্জত, করতে, দিয়া, চলা) are not listed.
_HINDI_WORDS = _words(
    "হৈ হৈং হুঁ থা থী থে কহা কহী বহ বো ঔর লেকিন ক্যোংকি ক্যোঁকি উসনে উসকা উসকী উসকে উনকা "
    "উনকী উনকে উন্হোংনে উন্হোনে বহুত গয়া গয়ী গঈ গয়ে রহা রহী কিয়া লিয়া হুআ হুঈ হুএ বজে "
    "মেং অপনা অপনে অপনী লোগ সকতা সকতী সকতে করতা করতী চলী নৌ খতম সবকো উন্হেং"
)
_HINDI_SUFFIXES = _suffixes("েগা েগী েংগে েঙ্গে োংগে ুংগা এগা এগী এংগে এঙ্গে")


def _is_hindi(words: list[str]) -> bool:
    """Two different Hindi words ("হৈ হৈ", a Bengali "hubbub", is one)."""
    return (
        len(
            {
                word
                for word in words
                if word in _HINDI_WORDS or (len(word) > 3 and word.endswith(_HINDI_SUFFIXES))
            }
        )
        >= 2
    )


def _is_other_language(text: str) -> bool:
    """Assamese (or Meitei, or Hindi) in the Bengali script rather than Bengali."""
    if _OTHER_SCRIPT_LETTERS.search(text):
        return True
    words = [_bare(raw) for raw in text.split()]
    return _is_hindi(words) or any(
        word in _OTHER_LANGUAGE_WORDS or (len(word) > 3 and word.endswith(_OTHER_LANGUAGE_SUFFIXES))
        for word in words
    )


# A question or request back to the user ("আপনি কি ... চান?", "... জানাবেন"). None of the
# benchmark's sentences is a question or a request, so such a sentence is not a translation.
_SECOND_PERSON = _words("আপনি আপনার আপনাকে আপনারা আপনাদের তুমি তোমার তোমাকে তোমরা তোমাদের তুই তোর তোকে")
_FIRST_PERSON_WORDS = _words("আমি আমার আমাকে আমায় আমরা আমাদের")
_PLEASE = tuple(
    normalise_bengali(phrase) for phrase in ("দয়া করে", "দয়াকরে", "অনুগ্রহ করে", "অনুগ্রহপূর্বক", "প্লিজ")
)
_IMPERATIVES = _words("বলুন করুন দেখুন থাকুন আসুন বসুন শুনুন বুঝুন লিখুন পড়ুন রাখুন ভাবুন")
_REQUEST_VERBS = _words("জানাবেন বলবেন জানাবে বলবে জানিও বোলো")
_CONDITIONALS = _words("চাইলে লাগলে থাকলে হলে পারলে প্রয়োজনে দরকারে যদি")
_QUOTE_PAIRS = {"\u201c": "\u201d", "\u00ab": "\u00bb", "\u2018": "\u2019", '"': '"'}


def _outside_quotes(text: str) -> str:
    """The text without its quoted speech (“...”, «...», ‘...’, "..."; an unclosed quote runs
    to the end). A ’ inside a word (ন’টায়) is an apostrophe, not a closing quote."""
    out: list[str] = []
    closing: str | None = None
    for at, char in enumerate(text):
        if closing is None:
            if char in _QUOTE_PAIRS:
                closing = _QUOTE_PAIRS[char]
            else:
                out.append(char)
        elif char == closing and not _BENGALI_CHAR.match(text[at + 1 : at + 2]):
            closing = None
    return "".join(out)


def _before_reported_speech(text: str) -> str:
    """``text`` up to a verb of saying before a comma or colon: what follows is the
    person's speech, quoted without quotes ("দর্জি বলল, আমি আসব, আপনি অপেক্ষা করবেন")."""
    tokens = text.split()
    for at, raw in enumerate(tokens):
        word = _bare(raw)
        if (
            raw.endswith((",", ":"))
            and word.startswith(_SPEECH_VERB_STARTS)
            and _analyse_verb(word) is not None
        ):
            return " ".join(tokens[: at + 1])
    return text


def _is_addressed_to_user(piece: str) -> bool:
    """A sentence to the user, outside quoted speech: a question (ends in ?), a request
    (দয়া করে, বলুন, "... লাগলে জানাবেন", a lone "জানাবেন"), or the model speaking to the
    user (আপনি/আপনার with আমি/আমাকে: "আপনি চাইলে আমি ... দিতে পারি")."""
    outside = _outside_quotes(piece).strip()
    if outside.rstrip(_QUOTE_CHARS + " ").endswith(("?", "\uff1f")):
        return True
    outside = _before_reported_speech(outside)
    if any(phrase in outside for phrase in _PLEASE):
        return True
    words = [word for word in (_bare(raw) for raw in outside.split()) if word]
    second = any(word in _SECOND_PERSON for word in words)
    first = any(word in _FIRST_PERSON_WORDS for word in words)
    # "গতকাল আমি আপনার সঙ্গে দেখা করেছিলাম এবং তিনি ...": আপনার in the person's place, but a
    # third-person subject follows; a translation, judged from that (ruling 7)
    third = any(word in _NOMINATIVE_PRONOUNS for word in words)
    if (second and first and not third) or any(word in _IMPERATIVES for word in words):
        return True
    if any(word in _REQUEST_VERBS for word in words):
        if any(word in _CONDITIONALS for word in words):
            return True  # "দরকার হলে জানাবেন", "কিছু লাগলে জানাবেন"
        if not any(word in _NOMINATIVE_PRONOUNS for word in words):
            return len(words) <= 2 or second or first  # not "তিনি পরে জানাবেন"
    return False


# A question to the user after a dash on the translation's line.
_TRAILING_QUESTION = re.compile("^(.*\\S)\\s+[\u2014\u2013-]\\s+([^\u2014\u2013]*[?\uff1f])\\s*$")


def _split_off_requests(piece: str) -> tuple[str, list[str]]:
    """The piece without a question or request tacked on to the translation after a dash or
    a comma ("X — আপনি কি সন্তুষ্ট?", "X, দয়া করে অপেক্ষা করুন।"), and the parts split off.

    Comma parts are only split where the piece has no quoted speech; a piece that is a
    question as a whole, or all request, is left to ``_not_a_translation``.
    """
    question = _TRAILING_QUESTION.match(piece)
    if question and _is_addressed_to_user(question.group(2)):
        return _closed(question.group(1)), [question.group(2)]
    if (
        "," not in piece
        or piece.rstrip(_QUOTE_CHARS + " ").endswith(("?", "\uff1f"))
        or any(quote in piece for quote in _QUOTE_PAIRS)
    ):
        return piece, []
    parts = piece.split(",")
    asked = [part for part in parts if _is_addressed_to_user(part)]
    if not asked or len(asked) == len(parts):
        return piece, []
    return _closed(",".join(part for part in parts if part not in asked)), [
        part.strip() for part in asked
    ]


def _closed(text: str) -> str:
    """``text`` ending in a sentence mark, so that what follows it is a clause of its own."""
    text = text.rstrip()
    return text if text[-1:] in _CLOSING_MARKS else text + "\u0964"


def _not_a_translation(piece: str, span: str) -> str | None:
    """Why a Bengali-script piece is no translation of the source, or None."""
    if _is_other_language(span):
        return "other-language"
    if _sentence_key(span) in _EXEMPLARS:
        return "exemplar"
    if _is_addressed_to_user(piece):
        return "asked"
    return None


@dataclass
class _Extraction:
    """The translation found in an output, and the notes and comments left out of it."""

    text: str
    notes: list[str]
    flags: set[str] = field(default_factory=set)
    """Kinds of text left out: "other-language", "exemplar", "asked", "continuation"."""


def _bengali_span(line: str) -> str:
    """The line from its first to its last Bengali character, plus closing punctuation."""
    first = _BENGALI_CHAR.search(line)
    if first is None:
        return ""
    end = _LAST_BENGALI_CHAR.search(line).start() + 1  # type: ignore[union-attr]
    while end < len(line) and line[end] in _CLOSING_MARKS:
        end += 1
    return _LATIN_PARENTHESES.sub("", line[first.start() : end]).strip()


def _bare(word: str) -> str:
    return word.strip(_QUOTE_CHARS + ",;:.!?()[]{}\u0964-\u2013\u2014=/")


def _is_register_form(word: str) -> bool:
    if _pronoun(word) is not None:
        return True
    verb = _analyse_verb(word)
    return verb is not None and verb.register is not None


def _is_metalanguage(text: str) -> bool:
    """Bengali text about the sentence or its forms rather than a translation of it.

    True when it holds a metalinguistic word (বাক্যটি, অনুবাদ, সর্বনাম, সম্মানসূচক ...),
    "ব্যবহার করা/করেছি" ("used"), or a register form in quotes inside a longer text
    ("এখানে 'তিনি' ব্যবহার ...", "'গেল' সাধারণ").
    """
    words = [_bare(word) for word in text.split()]
    if any(word in _META_WORDS for word in words):
        return True
    if any(a == _USE and b in _USE_VERBS for a, b in zip(words, words[1:], strict=False)):
        return True
    if len(words) > 2:
        for match in _QUOTED_SHORT.finditer(text):
            if any(_is_register_form(word) for word in match.group(1).split()):
                return True
    return False


def _quoted_translations(text: str) -> list[str]:
    """Sentences of three or more Bengali words quoted inside a comment."""
    found = []
    for match in _QUOTED_LONG.finditer(text):
        inner = match.group(1)
        if sum(1 for word in inner.split() if _BENGALI_CHAR.search(word)) >= 3:
            found.append(inner.strip())
    return found


def _bengali_runs(span: str) -> list[str]:
    """Maximal runs of words without Latin letters, of three or more Bengali words."""
    runs: list[list[str]] = [[]]
    for word in span.split():
        if _LATIN_LETTER.search(word):
            runs.append([])
        else:
            runs[-1].append(word)
    return [
        " ".join(run).strip(_QUOTE_CHARS + " ")
        for run in runs
        if sum(1 for word in run if _BENGALI_CHAR.search(word)) >= 3
    ]


def _latin_words(text: str) -> int:
    return len(_LATIN_WORD.findall(text))


def _is_note_group(inner: str) -> bool:
    """A parenthesised group that comments (English prose, metalanguage) rather than glosses."""
    return _BENGALI_CHAR.search(inner) is not None and (
        _latin_words(inner) >= 2 or _is_metalanguage(inner)
    )


def _read_piece(piece: str, translated: bool, notes: list[str], flags: set[str]) -> list[str]:
    """The translation in one sentence-sized piece of a line ([] when it holds none).

    ``translated`` says whether a translation was already kept; dropped text goes to
    ``notes``, and the kind of a piece that is no translation (see ``_not_a_translation``)
    to ``flags``.
    """
    label = _LABEL_PREFIX.match(piece)
    if label:
        if translated and _latin_words(label.group(0)) >= 4:
            notes.append(piece)  # "For a more respectful tone: ..." after the translation
            return []
        piece = piece[label.end() :]
    head, colon, tail = piece.partition(":")
    if colon and _BENGALI_CHAR.search(tail) and _is_metalanguage(head):
        piece = tail  # "ইংরেজি বাক্যটির বাংলা অর্থ হলো: ..." leads into the translation
    span = _bengali_span(piece)
    if not span:
        return []
    piece, asked = _split_off_requests(piece)
    if asked:
        notes += asked
        flags.add("asked")
        span = _bengali_span(piece)
        if not span:
            return []
    kind = _not_a_translation(piece, span)
    if kind is not None:
        notes.append(span)
        flags.add(kind)
        return []
    if _is_metalanguage(span):
        quoted = _quoted_translations(span)
        if not quoted:
            notes.append(span)
        return quoted
    if not _LATIN_LETTER.search(piece):
        return [span]
    bengali_words = sum(1 for word in span.split() if _BENGALI_CHAR.search(word))
    lead = _latin_words(piece[: _BENGALI_CHAR.search(piece).start()])  # type: ignore[union-attr]
    if bengali_words <= 2 or (translated and lead >= 4):
        notes.append(piece)  # a glossary item or English prose quoting a few forms
        return []
    latin = _latin_words(piece)
    if latin >= 2 and latin >= bengali_words:
        # English prose with Bengali words: a translation is a run of three or more Bengali
        # words ("The translation is X", "X - Bicharok noytay asben"); shorter runs are
        # forms quoted by a note, and after a translation any run is part of a note. (A
        # Bengali sentence with a few English words, such as a name, stays whole.)
        runs = _bengali_runs(span)
        if runs and not translated:
            return runs[:1]
        notes.append(piece)
        return []
    return [span]


def _extract(output: str) -> _Extraction:
    text = normalise_bengali(output).replace("\r\n", "\n").replace("\r", "\n")
    if "<" in text:
        text = _THINK_BLOCK.sub("\n", text)
    text = _CONTINUATION_INLINE.sub("\n", text)
    kept: list[str] = []
    notes: list[str] = []
    flags: set[str] = set()
    in_note_block = False  # under a bare "Note:" line before any translation
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            continue  # a code fence; its content lines are read as ordinary lines
        line = _EMPHASIS.sub("", _LINE_MARKUP.sub("", line)).strip()
        if not line:
            in_note_block = False
            continue
        if kept and _CONTINUATION.match(line):
            notes.append(line)  # the model going on with a new pair: not this translation
            flags.add("continuation")
            break
        header = _EXPLANATION_HEADER.match(line)
        if header:
            if kept:
                break
            in_note_block = not line[header.end() :].strip()
            continue
        if in_note_block:
            notes.append(line)
            continue
        stop = False
        inline = _INLINE_HEADER.search(line)
        if inline and _BENGALI_CHAR.search(line[: inline.start()]):
            notes.append(line[inline.start() :])
            line, stop = line[: inline.start()].strip(), True
        if kept and line[:1] in "([" and line[-1:] in ")]":
            notes.append(line)  # a parenthesised line after the translation is a note
            continue
        line = _LATIN_PARENTHESES.sub("", line)

        def drop_note(match: re.Match[str]) -> str:
            if _is_note_group(match.group(1)):
                notes.append(match.group(1))
                return " "
            return match.group(0)

        line = _PARENTHESES.sub(drop_note, line)
        quoted = _quoted_translations(line)
        if quoted and _is_metalanguage(_QUOTED_LONG.sub(" ", line)):
            # a comment around a quoted translation: "বাক্যটির অনুবাদ হলো "...""
            notes.append(_QUOTED_LONG.sub(" ", line))
            kept.append(" ".join(quoted))
            if stop:
                break
            continue
        pieces: list[str] = []
        for piece in _PIECE_END.split(line):
            if piece.strip():
                pieces += _read_piece(piece.strip(), bool(kept or pieces), notes, flags)
        if pieces:
            kept.append(" ".join(pieces))
        if stop:
            break
    return _Extraction("\n".join(kept), notes, flags)


def extract_translation(output: str) -> str:
    """The Bengali sentence(s) of a model output, normalised; "" when there are none.

    Drops ``<think>`` blocks, code fences, markdown (headings, quotes, bullets, numbering,
    bold/italic, backticks), label prefixes ("Translation:", "Bengali translation:",
    "অনুবাদ:", "Formal:"), surrounding quotes, lines without Bengali (an English gloss, a
    Latin transliteration, a refusal), Latin text before the first or after the last
    Bengali character of a line, and Latin-only parentheses.

    Notes are not part of the translation, wherever they stand: everything from an
    explanation header ("Note:", "Explanation:", "ব্যাখ্যা:", "মন্তব্য:", "বিঃদ্রঃ" ...) on,
    at a line start or after the translation on its line; the lines under a bare "Note:"
    before the translation; a parenthesised line after it; parenthesised groups of English
    prose or metalanguage; English prose quoting Bengali forms ("I used আছেন rather than
    আছে"), of which only a whole quoted sentence before any translation is kept ("The
    translation is ..."); and Bengali sentences about the sentence or its forms (see
    ``_is_metalanguage``), of which only a quoted sentence or the text after a colon is
    kept. Kept lines are joined with newlines, each read as its own sentence.
    """
    return _extract(output).text
