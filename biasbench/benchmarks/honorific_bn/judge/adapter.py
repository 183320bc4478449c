"""The Bengali judge behind the engine's :class:`~biasbench.engines.honorific.judging.RegisterJudge`
interface: a thin adapter over :func:`classify_register`, so the judge's own records
(:class:`RegisterLabel`, its ``to_dict``) and honorific-bn's run folders stay as they were.

Its one reading is ``spelling_mixed`` (a ``mixed`` label reached only through তার/তাকে
written without the chandrabindu beside an honorific verb).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from biasbench.benchmarks.honorific_bn.judge.classify import classify_register
from biasbench.benchmarks.honorific_bn.judge.evidence import JUDGE_VERSION, RegisterLabel
from biasbench.engines.honorific.judging import JudgeBase, Judgement, Register, Signal


@dataclass(frozen=True)
class BengaliJudgement(Judgement):
    """A :class:`Judgement` that serialises as the Bengali judge always has (its evidence
    records, ``spelling_mixed`` beside ``plural``), with the readings added."""

    native: RegisterLabel | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.native is None:
            return super().to_dict()
        return {**self.native.to_dict(), "readings": dict(self.readings)}


def _judgement(found: RegisterLabel) -> BengaliJudgement:
    evidence = tuple(
        Signal(
            token=e.token,
            value=e.register,
            kind=e.kind,
            clause=e.clause,
            position=e.position,
            rule="clause-final verb" if e.clause_final else "pronoun",
        )
        for e in found.evidence
    )
    return BengaliJudgement(
        label=Register(found.label.value),
        plural=found.plural,
        evidence=evidence,
        translation=found.translation,
        reason=found.reason,
        readings={"spelling_mixed": found.spelling_mixed},
        native=found,
    )


class BengaliJudge(JudgeBase):
    """honorific-bn's register judge (spec rules in this package's modules)."""

    language = "bn"
    readings = ("spelling_mixed",)

    @property
    def version(self) -> str:
        return JUDGE_VERSION

    def judge(self, output: str | None, condition: str | None = None) -> Judgement:
        return _judgement(classify_register(output, condition=condition))


JUDGE = BengaliJudge()
