"""Synthetic parallel items in several languages and scripted answers with a planted language
effect, for the cross-language comparison's tests and its worked example
(docs/bbq-engine/cross-language.md).

Every language of a dataset gets the same items (same category, example id, template and
context), as MBBQ's languages do. An answerer's behaviour per (item, language) is a
:class:`LanguageBehaviour`, whose :meth:`~LanguageBehaviour.expected` scores are exact for the
item population, so a planted difference between two languages is known.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.models.base import Generation, GenerationParams, ModelBackend, Prompt


@dataclass(frozen=True)
class LanguageBehaviour:
    """How a scripted model answers the items of one language (and category)."""

    p_unknown_ambig: float = 0.5
    """Ambiguous context: the unknown (correct) answer; acc_ambig = this."""
    p_target_ambig: float = 0.6
    """Ambiguous context, among the group answers: the target; s_AMB = (1 - u) (2 q - 1)."""
    p_correct_disambig: float = 0.7
    """Disambiguated context: the label, on average over items whose label is or is not the
    target; never unknown; acc_disambig = this."""
    disambig_bias: float = 0.1
    """Disambiguated: P(label) is ``p_correct + bias`` when the label is the target and
    ``p_correct - bias`` otherwise, so s_DIS = 2 bias (labels half target, half not)."""

    def expected(self) -> dict[str, float]:
        """The population scores of this behaviour (item offsets average out)."""
        u, q = self.p_unknown_ambig, self.p_target_ambig
        return {
            "acc_ambig": u,
            "s_amb": (1 - u) * (2 * q - 1),
            "acc_disambig": self.p_correct_disambig,
            "s_dis": 2 * self.disambig_bias,
        }


PLANTED_BASE = LanguageBehaviour(
    p_unknown_ambig=0.5, p_target_ambig=0.6, p_correct_disambig=0.6, disambig_bias=0.05
)
"""The behaviour of every language where nothing is planted (tests and benchmarks/ share it)."""


def control_planted(item: BBQItem) -> LanguageBehaviour:
    """MBBQ's control design, planted: es is worse at the task in both sets (acc_disambig
    -0.2) and, in the main set only, more biased in disambiguated contexts (s_DIS +0.2); the
    control set (namespaces ``mb-control...``) has no bias."""
    control = item.namespace.startswith("mb-control")
    behaviour = dataclasses.replace(PLANTED_BASE, disambig_bias=0.0) if control else PLANTED_BASE
    if item.language == "es":
        behaviour = dataclasses.replace(
            behaviour,
            p_correct_disambig=behaviour.p_correct_disambig - 0.2,
            disambig_bias=behaviour.disambig_bias + (0.0 if control else 0.1),
        )
    return behaviour


def parallel_items(
    dataset: str, languages: Sequence[str], categories: Sequence[str], per_category: int
) -> list[BBQItem]:
    """``per_category`` items per category in every language (half ambiguous; of the
    disambiguated, half labelled with the target), namespaced ``<dataset>/<lang>``. Every
    item's text is its own (a run's cache would answer two identical prompts once)."""
    items = []
    for language in languages:
        for category in categories:
            for example in range(per_category):
                ambiguous = example % 2 == 0
                label = 2 if ambiguous else (0 if example % 4 == 1 else 1)
                items.append(
                    BBQItem(
                        example_id=example,
                        question_index=str(example // 8),
                        question_polarity="neg",
                        context_condition="ambig" if ambiguous else "disambig",
                        category=category,
                        answer_info={
                            "ans0": ["the old one", "old"],
                            "ans1": ["the young one", "young"],
                            "ans2": ["unknown", "unknown"],
                        },
                        additional_metadata={"stereotyped_groups": ["old"]},
                        context=f"[{language}] {category} context {example}",
                        question="Who forgot?",
                        ans0="the old one",
                        ans1="the young one",
                        ans2="unknown",
                        label=label,
                        namespace=f"{dataset}/{language}",
                        language=language,
                    )
                )
    return items


def planted_answers(
    items: Sequence[BBQItem],
    behaviour: Callable[[BBQItem], LanguageBehaviour],
    seeds: Sequence[int],
    rng: np.random.Generator | int,
    *,
    model: str = "m",
    item_sd: float = 0.1,
) -> pd.DataFrame:
    """Answers (model, seed, uid, pred) for every item and seed. Each item (category, example
    id) has one offset, uniform in [-item_sd, item_sd] and shared by its languages and sets, on
    its target and correct-answer propensities: items differ, and the same item is alike in
    every language (what the pairing uses)."""
    generator = np.random.default_rng(rng)
    offsets: dict[tuple[str, int], float] = {}
    for item in items:
        offsets.setdefault(
            (item.category, item.example_id), float(generator.uniform(-item_sd, item_sd))
        )
    p = np.zeros((len(items), 3))
    for row, item in enumerate(items):
        b = behaviour(item)
        offset = offsets[(item.category, item.example_id)]
        if item.context_condition == "ambig":
            target = b.p_target_ambig + offset
            p[row] = [
                (1 - b.p_unknown_ambig) * target,
                (1 - b.p_unknown_ambig) * (1 - target),
                b.p_unknown_ambig,
            ]
        else:
            correct = (
                b.p_correct_disambig
                + offset
                + (b.disambig_bias if item.label == 0 else -b.disambig_bias)
            )
            p[row] = [correct, 1 - correct, 0.0] if item.label == 0 else [1 - correct, correct, 0.0]
    if (p < 0).any() or (p > 1).any():
        raise ValueError("a behaviour plus its item offsets leaves [0, 1]")
    cumulative = p.cumsum(axis=1)
    frames = []
    uids = [item.uid for item in items]
    for seed in seeds:
        draw = generator.random(len(items))[:, None]
        pred = (draw > cumulative).sum(axis=1).clip(0, 2)
        frames.append(pd.DataFrame({"model": model, "seed": seed, "uid": uids, "pred": pred}))
    return pd.concat(frames, ignore_index=True)


class LanguageAnswerer(ModelBackend):
    """A model for whole runs (``biasbench run``, the report): answers each request as
    :func:`planted_answers` would, with a letter. Its draws hash the item and seed, so every
    run gives the same answers; the item offsets of :func:`planted_answers` are left out (the
    pairing's gain is then smaller, the planted differences the same)."""

    kind = "planted-language"
    mode = "chat"

    def __init__(
        self,
        items: Sequence[BBQItem],
        behaviour: Callable[[BBQItem], LanguageBehaviour],
        *,
        name: str = "planted-language",
    ) -> None:
        self.by_uid = {item.uid: item for item in items}
        self.behaviour = behaviour
        self.name = name

    @property
    def model_id(self) -> str:
        return self.name

    def describe(self) -> dict[str, object]:
        return {"kind": self.kind, "name": self.name}

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        item = self.by_uid[prompt.item_id or ""]
        draw = int(hashlib.sha256(f"{item.uid}|{seed}".encode()).hexdigest()[:12], 16)
        u = (draw % 10**6) / 10**6
        b = self.behaviour(item)
        if item.context_condition == "ambig":
            p = [
                (1 - b.p_unknown_ambig) * b.p_target_ambig,
                (1 - b.p_unknown_ambig) * (1 - b.p_target_ambig),
                b.p_unknown_ambig,
            ]
        else:
            correct = b.p_correct_disambig + (
                b.disambig_bias if item.label == 0 else -b.disambig_bias
            )
            p = [correct, 1 - correct, 0.0] if item.label == 0 else [1 - correct, correct, 0.0]
        choice = int(np.searchsorted(np.cumsum(p), u, side="right").clip(0, 2))
        return Generation(
            text="ABC"[choice], prompt_text=prompt.text_for("chat"), info={"finish_reason": "stop"}
        )
