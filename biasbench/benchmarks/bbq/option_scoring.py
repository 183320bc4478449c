"""Masked LMs answer BBQ items by scoring the options (biasbench's protocol, for any BBQ-format
benchmark): the wrapper that turns an option-scoring backend into one that answers a letter."""

from __future__ import annotations

from typing import Any

from biasbench.benchmarks.base import OptionSpec
from biasbench.benchmarks.bbq.items import BBQItem
from biasbench.benchmarks.bbq.parser import LETTERS
from biasbench.errors import InputError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
)
from biasbench.models.hf import OptionScore, ScoreChoice, option_choices

OPTION_SEPARATOR = " "
"""Between the question and an appended option: the option as the text would be written
("...HIV positive? Ang tomboy"), not glued to the question mark, which changes its first token."""
DEFAULT_OPTION_SCORE: ScoreChoice = "per_char"
"""Masked LMs answer by the per-character (length-normalised) option score by default."""
OPTION_SCORES: tuple[ScoreChoice, ...] = ("per_char", "sum")

OPTION_SCORE_OPTION = OptionSpec(
    "option_score", str, DEFAULT_OPTION_SCORE, "masked LMs: choose options by per_char "
    "(log-likelihood per character, lm-eval's acc_norm) or sum (acc); both are reported.",
    choices=OPTION_SCORES)
"""``--option-score``, an option of every BBQ-format benchmark."""


class OptionScoringBackend(ModelBackend):
    """Wraps a backend that scores options (masked LMs): answers with the best option's letter.

    The scoring text is the item's context and question followed by :data:`OPTION_SEPARATOR`
    and the option. Both choices lm-evaluation-harness reports are computed: by the summed
    pseudo-log-likelihood (``sum``, its acc) and by the per-character one (``per_char``, its
    acc_norm); ``headline`` says which one answers (default ``per_char``: FilBBQ's unknown
    option is often much longer than the group answers, and a sum penalises it for its length).
    Every score and both choices are recorded with the response. The FilBBQ paper does not
    say how it scored roberta-tagalog-base; this is biasbench's protocol, recorded in the
    signature (``describe``).
    """

    deterministic = True
    """Option scores do not depend on a seed, so one seed suffices."""

    def __init__(self, inner: ModelBackend, by_uid: dict[str, BBQItem],
                 headline: ScoreChoice = DEFAULT_OPTION_SCORE) -> None:
        if headline not in ("sum", "per_char"):
            raise InputError(f"option score must be 'sum' or 'per_char', not {headline!r}")
        self.inner, self.by_uid, self.headline = inner, by_uid, headline
        self.kind, self.mode, self.max_concurrency = inner.kind, "completion", inner.max_concurrency

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def describe(self) -> dict[str, Any]:
        return {**self.inner.describe(), "answers_by": "option pseudo-log-likelihood",
                "option_text": "context + ' ' + question + ' ' + option",
                "option_score": self.headline}

    async def generate(self, prompt: Prompt, params: GenerationParams,
                       seed: int | None) -> Generation:
        item = self.by_uid[prompt.item_id or ""]
        context = f"{item.context} {item.question}"
        options = [OPTION_SEPARATOR + answer for answer in item.answers]
        scoring_prompt = Prompt(messages=(("user", context),), completion=context)
        detailed = getattr(self.inner, "score_options_detailed", None)
        if detailed is not None:
            scores = await detailed(scoring_prompt, options)
        else:  # a backend that only sums: token counts unknown
            scores = [OptionScore(total, 0)
                      for total in await self.inner.score_options(scoring_prompt, options)]
        try:
            choices = option_choices(scores, options)
        except ValueError as exc:  # every score NaN: no answer (recorded as failed, not lost)
            raise PermanentModelError(str(exc)) from None
        best = choices[f"choice_{self.headline}"]
        return Generation(text=LETTERS[best], prompt_text=context, info={
            "option_scores": choices["scores"],
            "option_scores_per_char": choices["scores_per_char"],
            "option_n_tokens": choices["n_tokens"] if detailed is not None else None,
            "option_n_chars": choices["n_chars"],
            "choice_sum": LETTERS[choices["choice_sum"]],
            "choice_per_char": LETTERS[choices["choice_per_char"]],
            "option_score": self.headline})

    async def aclose(self) -> None:
        await self.inner.aclose()
