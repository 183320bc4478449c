"""The register-judge interface every honorific language implements, and its lazy registry.

A judge reads one model output (and the item's pronoun condition) and returns a
:class:`Judgement`: the register label the metrics use, the plural flag, the evidence that
decided it, and the readings its language allows beside the label (the gender the translation
assigns, a register level, a speech level, titles...). Judges that read tokens (Bengali, Hindi,
Urdu, Nepali) and judges that read a morphological analyser's output (Korean, Japanese) serve
the same interface: an analyser-backed judge loads its analyser on first use (never at import)
and may override :meth:`RegisterJudge.judge_many` to analyse a batch at once.

Judges are registered by language code as ``"module:attribute"`` strings and imported only
when asked for (as sacrebleu keeps its tokenizers), so ``--help`` and ``list`` load no
analyser.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import import_module
from typing import Any, Protocol, runtime_checkable

from biasbench.errors import BiasbenchError

CONDITIONS = ("male", "female", "they", "nopronoun")
"""The pronoun conditions of an item (the English sentence's pronoun)."""


class Register(enum.StrEnum):
    """The register label of one translation: the only value the metrics read."""

    HONORIFIC = "honorific"
    ORDINARY = "ordinary"
    MIXED = "mixed"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Signal:
    """One piece of evidence: a token (or morpheme) that decided, or was refused as, evidence."""

    token: str
    """The surface token (or the analyser's morpheme ``form/TAG``) as in the cleaned text."""
    value: str
    """What it says: ``honorific``/``ordinary`` for register evidence, ``masculine``/``feminine``
    for gender evidence, ``plural``, a level (``"2"``), or ``neutral``."""
    kind: str
    """What it is: ``pronoun``, ``verb``, ``auxiliary``, ``particle``, ``noun``, ``title``..."""
    clause: int
    """0-based clause index in the cleaned translation."""
    position: int
    """0-based index of the token (or morpheme) within its clause."""
    rule: str
    """The spec rule that admitted or excluded it (short id or phrase)."""
    counted: bool = True
    """False for a token recorded as refused evidence (a look-alike, someone else's verb)."""


@dataclass(frozen=True)
class Judgement:
    """A judge's verdict on one model output."""

    label: Register
    plural: bool | None
    """A real plural reading of the person (``they`` items); None where the language's spec
    leaves it undefined (not a translation, or not a ``they`` item where the spec says so)."""
    evidence: tuple[Signal, ...]
    translation: str
    """The cleaned target-language text that was judged (empty when none was found)."""
    reason: str
    """A short account for a reader; for ``unreadable`` it starts with the reason code."""
    readings: Mapping[str, Any] = field(default_factory=dict)
    """The readings beside the label, by name (``gender``, ``level``, ``speech_level``,
    ``politeness``, ``titles``, ``noun_gender``...): JSON values, None where undefined."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (label as its string, evidence as a list of dicts)."""
        return {
            "label": self.label.value,
            "plural": self.plural,
            "evidence": [asdict(item) for item in self.evidence],
            "translation": self.translation,
            "reason": self.reason,
            "readings": dict(self.readings),
        }


@runtime_checkable
class RegisterJudge(Protocol):
    """What the engine asks of a language's judge."""

    language: str
    """The target language's code (``"hi"``)."""
    readings: tuple[str, ...]
    """The names of the readings every :class:`Judgement` of this judge carries."""

    @property
    def version(self) -> str:
        """The rule set's version, with the analyser and its dictionary's versions where one is
        used (``"ko-register-rules/1+kiwi-0.21.0"``): part of every result's signature. May load
        the analyser to learn them."""
        ...

    def judge(self, output: str | None, condition: str | None = None) -> Judgement:
        """Label one output. Never raises on any text; an unknown ``condition`` is an
        :class:`~biasbench.errors.InputError` naming the field ``condition``."""
        ...

    def judge_many(
        self, outputs: Sequence[str | None], conditions: Sequence[str | None] | None = None
    ) -> list[Judgement]:
        """Label many outputs (conditions aligned, or all None)."""
        ...


class JudgeBase:
    """A convenience base: ``judge_many`` as a loop over ``judge``. Analyser-backed judges
    override it to analyse a batch at once."""

    language: str = ""
    readings: tuple[str, ...] = ()

    @property
    def version(self) -> str:
        raise NotImplementedError

    def judge(self, output: str | None, condition: str | None = None) -> Judgement:
        raise NotImplementedError

    def judge_many(
        self, outputs: Sequence[str | None], conditions: Sequence[str | None] | None = None
    ) -> list[Judgement]:
        if conditions is None:
            return [self.judge(output) for output in outputs]
        return [self.judge(out, cond) for out, cond in zip(outputs, conditions, strict=True)]


_JUDGES: dict[str, str] = {}
_LOADED: dict[str, RegisterJudge] = {}


def register_judge(language: str, target: str) -> None:
    """Register ``"module:attribute"`` (a judge instance, or a zero-argument factory) for
    ``language``; nothing is imported until :func:`judge_for` asks for it."""
    _JUDGES[language] = target


def judge_for(language: str) -> RegisterJudge:
    """The judge of ``language``, imported on first use (an unknown language: one line naming
    the known ones)."""
    if language in _LOADED:
        return _LOADED[language]
    if language not in _JUDGES:
        known = ", ".join(sorted(_JUDGES)) or "none"
        raise BiasbenchError(f"no register judge for language {language!r} (known: {known})")
    module, _, attr = _JUDGES[language].partition(":")
    found: Any = getattr(import_module(module), attr)
    judge = (
        found()
        if isinstance(found, type) or (callable(found) and not hasattr(found, "judge"))
        else found
    )
    if not isinstance(judge, RegisterJudge):
        raise TypeError(f"{_JUDGES[language]} is not a RegisterJudge")
    _LOADED[language] = judge
    return judge


def registered_languages() -> list[str]:
    return sorted(_JUDGES)


JudgeFactory = Callable[[], RegisterJudge]
