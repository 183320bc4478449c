"""The toy judge: आप honorific (level 2), तुम ordinary but respectful (level 1), तू ordinary
(level 0); वे plural; गया masculine, गई feminine. Readings: ``gender``, ``level`` and the
alternative split ``respect_floor`` (level >= 1)."""

from __future__ import annotations

from biasbench.engines.honorific.judging import CONDITIONS, JudgeBase, Judgement, Register, Signal
from biasbench.errors import InputError

LEVELS = {"आप": 2, "तुम": 1, "तू": 0}
GENDERS = {"गया": "masculine", "गई": "feminine"}


class ToyJudge(JudgeBase):
    language = "zz"
    readings = ("gender", "level", "respect_floor")

    @property
    def version(self) -> str:
        return "zz-register-rules/1"

    def judge(self, output: str | None, condition: str | None = None) -> Judgement:
        if condition is not None and condition not in CONDITIONS:
            raise InputError(f"unknown condition {condition!r}", field="condition")
        words = [w.strip("।.,!?\"'") for w in (output or "").split()]
        found = [
            Signal(w, str(LEVELS[w]), "pronoun", 0, i, "toy-level")
            for i, w in enumerate(words)
            if w in LEVELS
        ]
        genders = {GENDERS[w] for w in words if w in GENDERS}
        levels = {LEVELS[s.token] for s in found}
        if not levels:
            return Judgement(
                Register.UNREADABLE,
                None,
                (),
                output or "",
                "no_signal",
                {"gender": None, "level": None, "respect_floor": None},
            )
        registers = {Register.HONORIFIC if lv == 2 else Register.ORDINARY for lv in levels}
        label = registers.pop() if len(registers) == 1 else Register.MIXED
        level = min(levels)
        gender = genders.pop() if len(genders) == 1 else ("none" if not genders else None)
        return Judgement(
            label,
            "वे" in words,
            tuple(found),
            output or "",
            f"levels {levels}",
            {
                "gender": gender,
                "level": level,
                "respect_floor": "honorific" if level >= 1 else "ordinary",
            },
        )


JUDGE = ToyJudge()
