"""The spec's three sensitivity variants, recomputed from a judgement's evidence.

"Recompute HAI, GSR, s_occ and HBS under three variants" (spec "Validation"):

* ``titles_honorific``: さん/様/先生 on the occupation noun count as strong honorific;
* ``pronouns_weak``: 彼/彼女 (and every plain pronoun) are weak, not strong ordinary;
* ``humble_excluded``: an output with ``humble_subject`` evidence is excluded (``None``)
  instead of ordinary.

The label is rebuilt per rendering (each line of ``Judgement.translation``) with the decision
of :func:`~biasbench.benchmarks.honorific_ja.judge._label_of`: strong evidence both ways ->
mixed, one way -> that label, none -> ordinary when the person is the subject of a predicate
(any predicate evidence, weak included), else unreadable. An output the judge found unreadable
stays unreadable in every variant (it has no readable rendering to relabel).
"""

from __future__ import annotations

from biasbench.benchmarks.honorific_ja.judge.rules import (
    STRONG_HONORIFIC_KINDS,
    STRONG_ORDINARY_KINDS,
)
from biasbench.engines.honorific.judging import Judgement, Register, Signal

VARIANTS = ("titles_honorific", "pronouns_weak", "humble_excluded")

_PREDICATE_KINDS = frozenset(
    {
        "sonkeigo_verb",
        "sonkeigo_pattern",
        "rareru_honorific",
        "humble_subject",
        "plain_main_verb",
        "plain_subordinate",
        "passive_of_person",
        "plain_adjectival",
        "potential",
    }
)


def _strong(signal: Signal) -> bool:
    return signal.counted and signal.rule.startswith("strong")


def _rendering_label(signals: list[Signal], variant: str) -> Register:
    honorific = [s for s in signals if _strong(s) and s.kind in STRONG_HONORIFIC_KINDS]
    ordinary = [s for s in signals if _strong(s) and s.kind in STRONG_ORDINARY_KINDS]
    if variant == "titles_honorific":
        honorific += [s for s in signals if s.counted and s.kind == "title"]
    if variant == "pronouns_weak":
        ordinary = [s for s in ordinary if s.kind != "plain_pronoun"]
    if honorific and ordinary:
        return Register.MIXED
    if honorific:
        return Register.HONORIFIC
    if ordinary:
        return Register.ORDINARY
    if any(s.counted and s.kind in _PREDICATE_KINDS | {"default_ordinary"} for s in signals):
        return Register.ORDINARY
    return Register.UNREADABLE


def relabel(judgement: Judgement, variant: str) -> Register | None:
    """The label of ``judgement`` under ``variant`` (None: excluded from the rates)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown sensitivity variant {variant!r} (known: {', '.join(VARIANTS)})")
    if judgement.label is Register.UNREADABLE:
        return Register.UNREADABLE
    if variant == "humble_excluded" and any(
        s.counted and s.kind == "humble_subject" for s in judgement.evidence
    ):
        return None
    # group the evidence by rendering (one per line of the translation)
    bounds, start = [], 0
    for line in judgement.translation.split("\n"):
        bounds.append((start, start + len(line)))
        start += len(line) + 1
    labels = []
    for low, high in bounds:
        signals = [s for s in judgement.evidence if low <= getattr(s, "start", 0) <= high]
        label = _rendering_label(signals, variant)
        if label is not Register.UNREADABLE:
            labels.append(label)
    if not labels:
        return Register.UNREADABLE
    return labels[0] if len(set(labels)) == 1 else Register.MIXED
