"""Tokens and clauses of a cleaned translation.

Whitespace and punctuation separate tokens, matched with explicit
character classes: ``re``'s ``\\w``/``\\b`` do not treat Bengali vowel signs as word
characters and are never used on Bengali text here. A pronoun or verb must be a whole
token, so সে never matches inside সেন and তার never inside তারপর.

How clauses are split
---------------------
A clause ends at

* sentence punctuation (। ৷ ॥ | . ! ? or a line end) or a comma-like mark
  (, ; : — – quotes, brackets, a free-standing hyphen);
* a conjunction word, which itself belongs to no clause: এবং, আর, কিন্তু, তবে, তবুও,
  কারণ, কেননা, যেহেতু, যদিও, তাই, সুতরাং, অথচ, বরং, অথবা, কিংবা, নইলে, যে, যাতে,
  যখন, তখন, তারপর, এরপর ... (যে both as complementiser and as relative word), and
  তার পর / তার পরে / তার পরেও written apart ("after that": a connective, so its তার is
  not the pronoun);
* বলে/বলেই right after a finite verb, trailing না allowed (quotative "that" or
  "because": "আসবেন বলে জানিয়েছেন", "পরিশ্রম করে বলেই সবাই ...");
* ও "and" right after an unambiguous finite verb ("করলেন ও বাড়ি গেলেন"); after a
  finite verb of saying (বলল, জানালেন) ও is instead the subject pronoun of the reported
  clause ("বলল ও নয়টায় আসবে");
* a comma followed by তাই, কারণ, কিন্তু, তবুও, সেজন্য, ফলে ... (or by এবং/আর before a new
  subject) ends the clause before it as a conjunction does: those connectives follow a
  finite verb, so "পরিশ্রম করে, তাই" has a finite করে; the temporal তারপর/এরপর/তখন follow
  converbs and leave it. আর right after a lone subject pronoun is "any more" (আপনি আর
  খুঁজবেন না) and splits nothing;
* the end of the text: a last clause without a sentence mark is closed by ``"end"``, so that
  a converb-shaped form there is not read (the output may have been cut off, ruling 11);
* right after an unambiguous finite verb (a form no noun or converb shares, such as
  -েন, -ছে, -বে, -ছিল, গেল, or a first-person form such as জানি, করেছিলাম) and its
  trailing না/নি, when more words follow; this separates an embedded clause written
  without যে ("বিচারক বলেছেন সে নয়টায় আসবে", "আমি জানি তিনি ...") and postposed
  adjuncts ("আসছেন বহু বছর ধরে").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from biasbench.benchmarks.honorific_bn.judge.lexicon import (
    _AFTER_WORDS,
    _AND_WORDS,
    _BARE_O,
    _CLAUSE_CONNECTIVES,
    _CONJUNCTIONS,
    _QUOTATIVES,
    _RELATIVE_CONNECTIVE_NEXT,
    _RELATIVE_GENITIVES,
    _SPEECH_VERB_STARTS,
    _THAT_GENITIVES,
    _TRAILING_PARTICLES,
)
from biasbench.benchmarks.honorific_bn.judge.morphology import _analyse_verb
from biasbench.benchmarks.honorific_bn.judge.normalise import _words, normalise_bengali
from biasbench.benchmarks.honorific_bn.judge.subjects import _NOMINATIVE_PRONOUNS, _is_other_subject

# ---------------------------------------------------------------------------------------
# Tokens and clauses
# ---------------------------------------------------------------------------------------

_SENTENCE_MARKS = "\u0964.!?\n"
_COMMA_MARKS = ",;:\u2026\"'\u201c\u201d\u2018\u2019\u00ab\u00bb()[]{}<>\u2014\u2013/\\"
_WORD_CHARS = "[^\\s" + re.escape(_SENTENCE_MARKS + _COMMA_MARKS) + "]+"
# A word may hold an apostrophe between letters (ন'টায়); elsewhere quotes are marks.
_TOKEN_RE = re.compile(
    _WORD_CHARS + "(?:['\u2019]" + _WORD_CHARS + ")*"
    "|[" + re.escape(_SENTENCE_MARKS + _COMMA_MARKS) + "]"
)
_SENTENCE_MARK_SET = frozenset(_SENTENCE_MARKS)
_COMMA_MARK_SET = frozenset(_COMMA_MARKS)
_NUMBER_PUNCT = re.compile("(?<=[0-9\u09e6-\u09ef])[.:](?=[0-9\u09e6-\u09ef])")
_TOKEN_EDGE_JUNK = "-_*~`#"


@dataclass
class _Clause:
    words: list[str]
    o_pronoun: set[int]  # positions where a bare ও is the pronoun
    opened_implicitly: bool  # began right after an unambiguous finite verb, no mark between
    closed_by: str = "sentence"  # "sentence" | "comma" | "conjunction" | "verb" | "end"
    # "end": the text stopped without a sentence mark (possibly cut off, ruling 11)
    quoted: bool = False  # began inside quotation marks (quoted speech)


_CLAUSE_COMMAS = frozenset(",;")
_OPENING_QUOTES = frozenset("\u201c\u00ab\u2018")
_CLOSING_QUOTES = frozenset("\u201d\u00bb\u2019")
_EITHER_QUOTES = frozenset("\"'")
_AR = normalise_bengali("আর")
_JE, _JAR = normalise_bengali("যে"), normalise_bengali("যার")
_SUBJECT_PRONOUNS = _NOMINATIVE_PRONOUNS | _words("আপনি আপনারা তুমি তোমরা তুই তোরা আমি আমরা")


def _follows_finite(word: str, following: str) -> bool:
    """``word`` after a comma marks the clause before as finite (see _CLAUSE_CONNECTIVES)."""
    if word in _CLAUSE_CONNECTIVES:
        return True
    if word in _RELATIVE_GENITIVES and following in _RELATIVE_CONNECTIVE_NEXT:
        return True  # "পরিশ্রম করে, যার ফলে ...": a finite verb before "as a result of which"
    return word in _AND_WORDS and (
        following in _CLAUSE_CONNECTIVES
        or following in _SUBJECT_PRONOUNS
        or _is_other_subject(following)
    )


def _after_comma_connective(clauses: list[_Clause]) -> None:
    """A comma then তাই/কারণ/কিন্তু/এবং ...: the clause before ends as at a conjunction.

    Those connectives follow a finite verb, not a converb, so a present spelled like the
    converb (করে, দেখে, টানে) that closes that clause is finite ("সে খুব পরিশ্রম করে, তাই
    সবাই তাকে সম্মান করে"); temporal ones (তারপর, এরপর, তখন) follow converbs and leave it.
    """
    if clauses and clauses[-1].closed_by == "comma":
        clauses[-1].closed_by = "conjunction"


def _split_clauses(text: str, allow_o_pronoun: bool) -> list[_Clause]:
    """Split cleaned text into clauses (see the module docstring for the rules)."""
    clauses: list[_Clause] = []
    current = _Clause([], set(), False)

    def close(how: str, implicit_next: bool = False) -> None:
        nonlocal current
        if current.words:
            current.closed_by = how
            clauses.append(current)
        current = _Clause([], set(), implicit_next)

    tokens = _TOKEN_RE.findall(_NUMBER_PUNCT.sub("", text))
    in_quote = False
    for at, raw in enumerate(tokens):
        if raw in _OPENING_QUOTES or (raw in _EITHER_QUOTES and not in_quote):
            in_quote = True
        elif raw in _CLOSING_QUOTES or raw in _EITHER_QUOTES:
            in_quote = False
        if raw in _AFTER_WORDS and at > 0 and tokens[at - 1] in _THAT_GENITIVES:
            continue  # the পর of "তার পর", closed with it below
        if raw in _THAT_GENITIVES and at + 1 < len(tokens) and tokens[at + 1] in _AFTER_WORDS:
            close("conjunction")  # "তার পর": a connective like তারপর
            continue
        if raw in _SENTENCE_MARK_SET:
            close("sentence")
            continue
        if raw in _COMMA_MARK_SET:
            close("comma")
            continue
        word = raw.strip(_TOKEN_EDGE_JUNK)
        if not word:  # a free-standing dash works like a comma
            close("comma")
            continue
        words = current.words
        last = len(words) - 1  # the last word before any trailing না/নি/তো
        while last >= 0 and words[last] in _TRAILING_PARTICLES:
            last -= 1
        previous = _analyse_verb(words[last]) if last >= 0 else None
        if word == _AR and len(words) == 1 and words[0] in _SUBJECT_PRONOUNS:
            words.append(word)  # "আপনি আর খুঁজবেন না", "তিনি আর আসবেন না": "any more"
            continue
        if (
            not words
            and at > 0
            and tokens[at - 1] in _CLAUSE_COMMAS
            and _follows_finite(word, tokens[at + 1] if at + 1 < len(tokens) else "")
        ):
            _after_comma_connective(clauses)  # "পরিশ্রম করে, তাই ...": করে is finite
        if word in _CONJUNCTIONS and not (
            word == _JE and at + 1 < len(tokens) and tokens[at + 1] == _JAR
        ):
            close("conjunction")  # but "যে যার কাজ" is "each their own work", no "that"
            continue
        if word in _QUOTATIVES and previous is not None:
            close("conjunction")  # "আসবেন বলে": quotative/causal complementiser
            continue
        if word == _BARE_O:
            if not words:
                if allow_o_pronoun:
                    current.o_pronoun.add(0)
                words.append(word)
                continue
            if previous is not None and words[last].startswith(_SPEECH_VERB_STARTS):
                # "বলল ও নয়টায় আসবে": a clause reported without যে, ও its subject
                close("verb", implicit_next=True)
                if allow_o_pronoun:
                    current.o_pronoun.add(0)
                current.words.append(word)
                continue
            if previous is not None and previous.strong:
                close("conjunction")  # "করলেন ও বাড়ি গেলেন"
                continue
            words.append(word)  # "ডাক্তার ও নার্স": "and", not a pronoun
            continue
        if previous is not None and previous.strong and word not in _TRAILING_PARTICLES:
            close("verb", implicit_next=True)
            words = current.words
        if not words:
            current.quoted = in_quote
        words.append(word)
    close("end")  # words left: the text stopped without a sentence mark
    return clauses
