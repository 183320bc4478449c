"""Tokens and clauses of one rendering (spec 5.6 and 5.8).

Tokens come from the ``regex`` module's ``\\p{L}\\p{M}\\p{Nd}`` classes, never from Python
``re``'s ``\\w``/``\\b``, which split Devanagari words at vowel signs (करते -> करत) and match
वह inside वहाँ. A word is whole or nothing: ان never matches inside انجینئر.

A clause ends at sentence and comma-like punctuation (। ॥ | . ! ? ; : — ۔ ، ؛ ؟ ,), at a
conjunction (और, लेकिन, कि, क्योंकि ...; اور، لیکن، کہ، کیونکہ ...), at a connective phrase
built on इस/उस/اس (इसके बाद, اس لیے: an event, not the person), at पर/پر only where it is
"but" (after a verb or a comma; घर पर is "at home"), and before a nominative pronoun
(वह, वे, وہ ...) that follows a verb in the same run (``उन्होंने कहा वह नौ बजे आएँगे`` has
no कि). Clock times (9:00) are one number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import regex

from biasbench.benchmarks.honorific_hi_ur.judge.lexicon import Lexicon

_TOKEN = regex.compile(r"[\p{L}\p{M}\p{Nd}]+(?:[-'’][\p{L}\p{M}\p{Nd}]+)*|[^\s\p{L}\p{M}\p{Nd}]")
_WORD_START = regex.compile(r"[\p{L}\p{M}\p{Nd}]")
_NUMBER_PUNCT = regex.compile(r"(?<=\p{Nd})[.:](?=\p{Nd})")


@dataclass(frozen=True, slots=True)
class Token:
    surface: str
    key: str


@dataclass
class Clause:
    tokens: list[Token] = field(default_factory=list)
    opener: str = ""
    """The conjunction (match key) that opened the clause, "" after punctuation or at start."""

    @property
    def keys(self) -> list[str]:
        return [token.key for token in self.tokens]


def tokens_of(text: str, lexicon: Lexicon) -> list[Token]:
    text = _NUMBER_PUNCT.sub("", text)
    return [
        Token(raw, lexicon.key(raw) if _WORD_START.match(raw) else raw)
        for raw in _TOKEN.findall(text)
    ]


def is_word(token: Token) -> bool:
    """A word or number, not a punctuation mark."""
    return _WORD_START.match(token.surface) is not None


def _has_verb(clause: Clause, lexicon: Lexicon) -> bool:
    return any(
        (form := lexicon.verbs.get(key)) is not None and form.kind in ("finite", "aux")
        for key in clause.keys
    )


def split_clauses(text: str, lexicon: Lexicon) -> list[Clause]:
    tokens = tokens_of(text, lexicon)
    clauses: list[Clause] = []
    current = Clause()

    def close(opener: str = "") -> None:
        nonlocal current
        if current.tokens:
            clauses.append(current)
        current = Clause(opener=opener)

    at = 0
    while at < len(tokens):
        token = tokens[at]
        if not is_word(token):
            close()
            at += 1
            continue
        phrase = next(
            (
                p
                for p in lexicon.conjunction_phrases
                if tuple(t.key for t in tokens[at : at + len(p)]) == p
            ),
            None,
        )
        if phrase is not None:
            close(" ".join(phrase))
            at += len(phrase)
            continue
        key = token.key
        if key in lexicon.conjunctions:
            close(key)
            at += 1
            continue
        if key == lexicon.on_word:
            last = current.keys[-1] if current.tokens else None
            last_form = lexicon.verbs.get(last) if last else None
            if (
                last is None
                or (last_form is not None and last_form.kind in ("finite", "aux"))
                or last in lexicon.negations
            ):
                close(key)
                at += 1
                continue
        if key in lexicon.nominatives and current.tokens and _has_verb(current, lexicon):
            close()
        current.tokens.append(token)
        at += 1
    close()
    return clauses
