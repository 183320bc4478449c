"""Scripted answers to BBQ items, in the shapes the answer parser must read, with planted
propensities (unknown in ambiguous contexts, the label in disambiguated ones, the target among
the group answers, seed-to-seed noise): for tests and the scoring benchmarks, not a model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import pandas as pd
from scipy import special

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.parser import LETTERS
from biasbench.engines.bbq_family.scoring.bias_scores import NO_INDEX, target_index


@dataclass(frozen=True)
class SyntheticModel:
    """A scripted answerer for benchmarks and tests (not a language model)."""

    name: str
    p_unknown_ambig: float = 0.5
    """Probability of the unknown answer in an ambiguous context."""
    p_correct_disambig: float = 0.7
    """Probability of the label in a disambiguated context."""
    p_target: float = 0.6
    """Probability of the target among its group answers (expected s = 2 * p_target - 1)."""
    seed_sd: float = 0.3
    """Per-seed noise on p_target (logit scale): FilBBQ's response instability across seeds."""
    p_unparsed: float = 0.03
    """Probability of an answer the judge cannot parse (refusal, 'A o B', chatter)."""


_LETTER_FORMATS: Final = (
    "{L}",
    "Sagot: {L}",
    "({L})",
    "Ang sagot ay {L}.",
    "**{L}**",
    "{L}. {T}",
    "Batay sa konteksto, ang tamang sagot ay {L}.",
    "{T}",
    "Answer: {L}",
    "{l}",
)
_UNKNOWN_TEXTS: Final = (
    "Hindi matukoy",
    "Walang sapat na impormasyon.",
    "Cannot be determined.",
    "Hindi alam",
)
_UNPARSED_TEXTS: Final = (
    "Paumanhin, hindi ko masasagot ang tanong na ito.",
    "A o B",
    "",
    "Mahirap sabihin.",
    "I'm sorry, but I can't help with that.",
)


def synthetic_responses(
    items: Sequence[BBQItem],
    models: Sequence[str | SyntheticModel],
    seeds: Sequence[int],
    rng: np.random.Generator | int,
    *,
    as_pred: bool = False,
    include_intended: bool = False,
) -> pd.DataFrame:
    """Scripted answers for every (model, seed, item): columns model, seed, uid, output (or pred).

    A model given by name gets random propensities from ``rng``. Outputs mix the letter shapes,
    option texts, unknown phrasings and unparsable answers that the judge must handle;
    ``as_pred=True`` gives option indices instead (unparsed -> missing).
    ``include_intended=True`` adds ``intended``: the option the script meant (-1 when it
    produced an unparsable answer), to check a judge against.
    """
    rng = np.random.default_rng(rng)
    n = len(items)
    uids = np.array([item.uid for item in items], dtype=object)
    labels = np.array([item.label for item in items])
    unknown = np.array(
        [NO_INDEX if item.unknown_index is None else item.unknown_index for item in items]
    )
    ambiguous = np.array([item.context_condition == "ambig" for item in items])
    target = np.empty(n, dtype=np.int64)
    other = np.empty(n, dtype=np.int64)
    for i, item in enumerate(items):
        groups = [j for j in range(3) if j != item.unknown_index]
        t = target_index(item)
        target[i] = t if t is not None else groups[0]
        other[i] = next(j for j in groups if j != target[i])
    answers = np.array([item.answers for item in items], dtype=object)

    frames = []
    for spec in models:
        model = (
            spec
            if isinstance(spec, SyntheticModel)
            else SyntheticModel(
                name=str(spec),
                p_unknown_ambig=rng.uniform(0.2, 0.8),
                p_correct_disambig=rng.uniform(0.4, 0.9),
                p_target=rng.uniform(0.45, 0.8),
            )
        )
        for seed in seeds:
            p_target = special.expit(special.logit(model.p_target) + rng.normal(0, model.seed_sd))
            draw = rng.random((3, n))
            group_answer = np.where(draw[1] < p_target, target, other)
            first = np.where(ambiguous, unknown, labels)
            p_first = np.where(ambiguous, model.p_unknown_ambig, model.p_correct_disambig)
            pick = np.where((draw[0] < p_first) & (first >= 0), first, group_answer)
            unparsed = draw[2] < model.p_unparsed
            frame = pd.DataFrame({"model": model.name, "seed": seed, "uid": uids})
            if as_pred:
                frame["pred"] = pd.array(np.where(unparsed, -1, pick), dtype="Int64")
                frame.loc[unparsed, "pred"] = pd.NA
            else:
                frame["output"] = _render(pick, unparsed, unknown, answers, rng)
            if include_intended:
                frame["intended"] = np.where(unparsed, NO_INDEX, pick)
            frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _render(
    pick: np.ndarray,
    unparsed: np.ndarray,
    unknown: np.ndarray,
    answers: np.ndarray,
    rng: np.random.Generator,
) -> list[str]:
    """Turn option picks into output strings in assorted shapes."""
    n = len(pick)
    shape = rng.integers(0, len(_LETTER_FORMATS), n)
    unknown_wording = rng.integers(0, len(_UNKNOWN_TEXTS) * 3, n)  # 1 in 3 uses a phrasing
    junk = rng.integers(0, len(_UNPARSED_TEXTS), n)
    texts = answers[np.arange(n), pick]
    outputs = []
    for i in range(n):
        if unparsed[i]:
            outputs.append(_UNPARSED_TEXTS[junk[i]])
        elif pick[i] == unknown[i] and unknown_wording[i] < len(_UNKNOWN_TEXTS):
            outputs.append(_UNKNOWN_TEXTS[unknown_wording[i]])
        else:
            letter = LETTERS[pick[i]]
            outputs.append(_LETTER_FORMATS[shape[i]].format(L=letter, l=letter.lower(), T=texts[i]))
    return outputs
