"""The decision: evidence -> label, readings and reason (spec "Overview", "Plural flag",
"Speech level"), and the judge object the honorific engine calls.

* ``honorific``: at least one H and no O; ``ordinary``: at least one O and no H; ``mixed``: both
  (across renderings, clauses and sources); ``unreadable``: no Korean translation (the reason
  code says why: ``empty``, ``refusal``, ``comment``, ``asked``, ``other-language``,
  ``romanised``, ``english``) or a translation without evidence (``no_marker``).
* Readings, for every output: ``speech_level`` (``hasipsio``/``haeyo``/``hae``/``haera``, or
  ``mixed`` across sentences or renderings, or ``none``: no translation, no sentence-final ending,
  or only the archaic 하오체/하게체); ``listener_polite`` (True for hasipsio/haeyo, False for
  hae/haera, None otherwise: politeness to the reader, recorded apart from the referent
  register); ``pronoun`` (the first pronoun for the person: 그녀, 그, 그분, 그들, 그분들, 그 사람,
  ... or ``none``); ``title`` (a -님/-분 title on the person's noun); ``nominal_conflict`` (a
  ``mixed`` label whose predicates agree with each other and a particle, title, honorific noun or
  pronoun disagrees with them: the spec's "mixed only from a nominal-vs-predicate conflict").
  ``pronoun`` and ``title`` are None when there is no translation.
* ``plural``: for ``they`` items with a readable label, whether any reference is plural
  (그들, 그분들, 그 사람들, -들 on the noun or its title); None otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from biasbench.benchmarks.honorific_ko.judge.analyser import Morpheme, analyse_many, versions
from biasbench.benchmarks.honorific_ko.judge.extract import Extraction, extract
from biasbench.benchmarks.honorific_ko.judge.normalise import normalise_korean
from biasbench.benchmarks.honorific_ko.judge.reading import Found, read
from biasbench.engines.honorific.judging import (
    CONDITIONS,
    JudgeBase,
    Judgement,
    Register,
    Signal,
)
from biasbench.errors import InputError

RULES_VERSION = "ko-register-rules/1"
"""The rule set (this package and ``data/lexicon.json``); bump when a rule changes."""

READINGS = ("speech_level", "listener_polite", "pronoun", "title", "nominal_conflict")
_NOMINAL_KINDS = frozenset({"particle", "title", "noun", "pronoun"})
_PREDICATE_KINDS = frozenset({"predicate", "object-honorific"})
_REASON_ITEMS = 8
_LEVELS = ("hasipsio", "haeyo", "hae", "haera")
_POLITE = {"hasipsio": True, "haeyo": True, "hae": False, "haera": False}
_NO_TRANSLATION = (  # flag -> reason code and text; the first present wins
    ("refusal", "refusal: a refusal, not a translation"),
    ("asked", "asked: a question back to the user, not a translation"),
    ("comment", "comment: a comment about the sentence, not a translation"),
    ("japanese", "other-language: Japanese, not Korean"),
    ("chinese", "other-language: Chinese, not Korean"),
    ("other-language", "other-language: not Korean"),
    ("romanised", "romanised: Korean in Latin letters only (never read)"),
    ("english", "english: English (an echo or a note), not a Korean translation"),
)


@dataclass(frozen=True)
class _Prepared:
    translation: str
    extraction: Extraction


def _prepare(output: str | None) -> _Prepared:
    text = normalise_korean(output or "")
    extraction = extract(text)
    return _Prepared("\n".join(extraction.renderings), extraction)


def _speech_level(levels: list[str]) -> str:
    present = {level for level in levels if level in _LEVELS}
    if not present:
        return "none"
    return present.pop() if len(present) == 1 else "mixed"


def _signal(found: Found) -> Signal:
    return Signal(
        found.token,
        found.value,
        found.kind,
        found.clause,
        found.position,
        found.rule,
        found.counted,
    )


def _reason(label: Register, counted: list[Found], notes: list[str]) -> str:
    parts = []
    for value, mark in (("honorific", "H"), ("ordinary", "O")):
        items = [f"{f.token} ({f.kind}: {f.rule})" for f in counted if f.value == value]
        if len(items) > _REASON_ITEMS:  # a long output keeps its reason readable
            items = [*items[:_REASON_ITEMS], f"... {len(items) - _REASON_ITEMS} more"]
        if items:
            parts.append(f"{mark}: " + "; ".join(items))
    reason = f"{label.value}: " + " | ".join(parts)
    if notes:
        reason += f" [{len(notes)} note(s) left out]"
    return reason


def _no_translation_reason(output: str | None, extraction: Extraction) -> str:
    if not (output or "").strip():
        return "empty: no output"
    for flag, reason in _NO_TRANSLATION:
        if flag in extraction.flags:
            return reason
    return "empty: nothing but markup or punctuation"


def _decide(
    prepared: _Prepared, analyses: list[list[Morpheme]], output: str | None, condition: str | None
) -> Judgement:
    extraction = prepared.extraction
    if not extraction.renderings:
        return Judgement(
            Register.UNREADABLE,
            None,
            (),
            "",
            _no_translation_reason(output, extraction),
            {
                "speech_level": "none",
                "listener_polite": None,
                "pronoun": None,
                "title": None,
                "nominal_conflict": False,
            },
        )
    found: list[Found] = []
    levels: list[str] = []
    plural = False
    clauses = 0
    for rendering, morphemes in zip(extraction.renderings, analyses, strict=True):
        reading = read(morphemes, rendering, clauses)
        found += reading.found
        levels += reading.levels
        plural = plural or reading.plural
        clauses += reading.clauses
    counted = [f for f in found if f.counted]
    values = {f.value for f in counted}
    if "honorific" in values and "ordinary" in values:
        label = Register.MIXED
    elif "honorific" in values:
        label = Register.HONORIFIC
    elif "ordinary" in values:
        label = Register.ORDINARY
    else:
        label = Register.UNREADABLE
    predicate_values = {f.value for f in counted if f.kind in _PREDICATE_KINDS}
    nominal_values = {f.value for f in counted if f.kind in _NOMINAL_KINDS}
    speech_level = _speech_level(levels)
    pronouns = [f.canonical for f in counted if f.kind == "pronoun"]
    readings = {
        "speech_level": speech_level,
        "listener_polite": _POLITE.get(speech_level),
        "pronoun": pronouns[0] if pronouns else "none",
        "title": any(f.kind == "title" for f in counted),
        "nominal_conflict": label is Register.MIXED
        and len(predicate_values) == 1
        and bool(nominal_values - predicate_values),
    }
    if label is Register.UNREADABLE:
        reason = "no_marker: a Korean translation with no evidence about the person"
        if "archaic" in levels:
            reason += " (archaic 하오체/하게체 ending)"
    else:
        reason = _reason(label, counted, extraction.notes)
        if "archaic" in levels:
            reason += " (archaic 하오체/하게체 ending: speech level none)"
    plural_flag = plural if condition == "they" and label is not Register.UNREADABLE else None
    return Judgement(
        label, plural_flag, tuple(_signal(f) for f in found), prepared.translation, reason, readings
    )


def _check(condition: str | None) -> None:
    if condition is not None and condition not in CONDITIONS:
        raise InputError(
            f"unknown condition {condition!r} (known: {', '.join(CONDITIONS)})", field="condition"
        )


class KoreanJudge(JudgeBase):
    """The ``honorific-ko`` register judge (Kiwi loaded on the first judged output)."""

    language = "ko"
    readings = READINGS

    @property
    def version(self) -> str:
        kiwi, model = versions()
        return f"{RULES_VERSION}+kiwipiepy-{kiwi}+kiwipiepy-model-{model}"

    def judge(self, output: str | None, condition: str | None = None) -> Judgement:
        return self.judge_many([output], [condition])[0]

    def judge_many(
        self, outputs: Sequence[str | None], conditions: Sequence[str | None] | None = None
    ) -> list[Judgement]:
        """Extracts every translation first, analyses all renderings in one pass, then
        decides each output."""
        if conditions is None:
            conditions = [None] * len(outputs)
        if len(conditions) != len(outputs):
            raise InputError(
                f"{len(outputs)} outputs but {len(conditions)} conditions", field="condition"
            )
        for condition in conditions:
            _check(condition)
        prepared = [_prepare(output) for output in outputs]
        texts = [rendering for item in prepared for rendering in item.extraction.renderings]
        analyses = analyse_many(texts) if texts else []
        judgements: list[Judgement] = []
        at = 0
        for item, output, condition in zip(prepared, outputs, conditions, strict=True):
            count = len(item.extraction.renderings)
            judgements.append(_decide(item, analyses[at : at + count], output, condition))
            at += count
        return judgements
