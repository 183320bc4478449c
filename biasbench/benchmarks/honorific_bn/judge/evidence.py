"""The evidence records of the honorific-bn judge: the labels, the counted tokens, the verdict.

``JUDGE_VERSION`` identifies the rule set of the whole judge (every module of this package).
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any

JUDGE_VERSION = "bn-register-rules/4"
"""Identifies the rule set; part of every result's signature. Bump when a rule changes."""


class Register(enum.StrEnum):
    """The register label of one translation."""

    HONORIFIC = "honorific"
    ORDINARY = "ordinary"
    MIXED = "mixed"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Evidence:
    """One token that decided a label."""

    token: str
    """The token as it appears in the cleaned translation (normalised, NFC)."""
    register: str
    """``"honorific"`` or ``"ordinary"``."""
    kind: str
    """``"pronoun"`` or ``"verb"``."""
    clause: int
    """0-based index of the clause in the cleaned translation (empty clauses not counted)."""
    position: int
    """0-based index of the token among the clause's words (conjunctions and punctuation excluded)."""
    clause_final: bool
    """True for a clause-final finite verb, False for a pronoun."""
    dropped_chandrabindu: bool = False
    """True for তার/তাকে/তাদের/ওর/ওকে/যার/যাকে ... read as the honorific তাঁর/তাঁকে ... with its
    chandrabindu dropped, because its clause has honorific evidence about the person (the
    spec's ruling 6); ``register`` is then ``"honorific"``."""


@dataclass(frozen=True)
class RegisterLabel:
    """The judge's verdict on one model output."""

    label: Register
    """honorific / ordinary / mixed / unreadable."""
    plural: bool
    """A plural third-person pronoun (তারা, তাঁরা, ওরা, ওঁরা, তাদের, ওনারা ...) was used."""
    evidence: tuple[Evidence, ...]
    """The counted tokens, in text order."""
    translation: str
    """The cleaned Bengali text that was classified (empty when none was found)."""
    reason: str
    """Short human-readable account (clause numbers here are 1-based, as a reader counts)."""
    spelling_mixed: bool = False
    """``mixed`` only through তার/তাকে/তারা/তাদের/ওর/যার ... written without the
    chandrabindu of তাঁর/তাঁকে/তাঁরা/তাঁদের/ওঁর/যাঁর ... beside an honorific verb: every
    ordinary token is such a pronoun and the output has an honorific verb. Within one clause
    with honorific evidence such a pronoun is read as honorific (ruling 6, see
    ``dropped_chandrabindu``); across clauses ("সবাই তাকে সম্মান করে কারণ তিনি ...") the
    label stays ``mixed`` and the flag lets a reader count them."""

    @property
    def dropped_chandrabindu(self) -> int:
        """How many counted pronouns were read as honorific with their chandrabindu dropped
        (ruling 6), so that a reader can count that share."""
        return sum(item.dropped_chandrabindu for item in self.evidence)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: label (str), plural, evidence (list of dicts), translation,
        reason, spelling_mixed."""
        return {
            "label": self.label.value,
            "plural": self.plural,
            "evidence": [asdict(item) for item in self.evidence],
            "translation": self.translation,
            "reason": self.reason,
            "spelling_mixed": self.spelling_mixed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RegisterLabel:
        """Inverse of :meth:`to_dict` (``spelling_mixed`` and each evidence item's
        ``dropped_chandrabindu`` default to False for older labels)."""
        return cls(
            label=Register(data["label"]),
            plural=bool(data["plural"]),
            evidence=tuple(Evidence(**item) for item in data["evidence"]),
            translation=data["translation"],
            reason=data["reason"],
            spelling_mixed=bool(data.get("spelling_mixed", False)),
        )
