"""Multiple choice answered by option scores (biasbench's protocol, for any BBQ-format
benchmark): how a run answers (``--answer-by``) and the wrapper that turns an option-scoring
backend into one that answers a letter.

As lm-evaluation-harness does for multiple-choice tasks, a base (completion-mode) model that can
score options answers by the log-likelihood of each option's text as a continuation of the
prompt's answer cue; a chat model generates its answer, which the parser reads; a masked LM,
which cannot generate, answers by the options' pseudo-log-likelihoods.
"""

from __future__ import annotations

from typing import Any, Literal

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.parser import LETTERS
from biasbench.errors import BiasbenchError, InputError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    OptionScore,
    PermanentModelError,
    Prompt,
    ScoreChoice,
)
from biasbench.models.hf import option_choices

OPTION_SEPARATOR = " "
"""Between the scored text and an appended option: the option as the text would be written
("...HIV positive? Ang tomboy", "Sagot: Ang tomboy"), not glued to the question mark or the
colon, which changes its first token."""
DEFAULT_OPTION_SCORE: ScoreChoice = "per_char"
"""Option-scored answers are chosen by the per-character (length-normalised) score by default."""
OPTION_SCORES: tuple[ScoreChoice, ...] = ("per_char", "sum")

AnswerBy = Literal["auto", "generate", "scores"]
ANSWER_BY: tuple[str, ...] = ("auto", "generate", "scores")
DEFAULT_ANSWER_BY: AnswerBy = "auto"

ScoredText = Literal["item", "prompt"]
"""What an option is appended to: ``item`` -- the item's context and question (masked LMs, which
read both sides of a mask); ``prompt`` -- the benchmark's whole prompt up to its answer cue
(causal LMs, which continue it, as lm-evaluation-harness does)."""


def resolve_answer_by(answer_by: str, backend: ModelBackend) -> Literal["generate", "scores"]:
    """How ``backend`` answers multiple choice under ``answer_by``; one clear error when it
    cannot (a chat endpoint asked to score, a masked LM asked to generate)."""
    if answer_by not in ANSWER_BY:
        raise InputError(f"--answer-by must be one of {', '.join(ANSWER_BY)}, not {answer_by!r}")
    if answer_by == "auto":
        if not backend.can_generate:
            return "scores"
        # A chat model is asked in its own format and answers in words; a base model
        # continuing a completion prompt is what log-likelihood scoring fits.
        return (
            "scores" if backend.can_score_options and backend.mode == "completion" else "generate"
        )
    if answer_by == "generate" and not backend.can_generate:
        raise BiasbenchError(
            f"{backend.model_id} cannot generate text (a masked LM): it "
            "answers by option scores; drop --answer-by generate"
        )
    if answer_by == "scores" and not backend.can_score_options:
        raise BiasbenchError(
            f"{backend.kind} backend {backend.model_id} cannot score options "
            f"in {backend.mode} mode (no prompt log-likelihoods); use "
            "--answer-by generate"
        )
    return answer_by  # type: ignore[return-value]


class OptionScoringBackend(ModelBackend):
    """Wraps a backend that scores options: answers with the best option's letter.

    The scored text (``scored_text``) is either the item's context and question (masked LMs) or
    the benchmark's prompt up to its answer cue (causal LMs), followed by
    :data:`OPTION_SEPARATOR` and the option's text. Both choices lm-evaluation-harness reports
    are computed: by the summed (pseudo-)log-likelihood (``sum``, its acc) and by the
    per-character one (``per_char``, its acc_norm); ``headline`` says which one answers (default
    ``per_char``: FilBBQ's unknown option is often much longer than the group answers, and a
    sum penalises it for its length). Every score and both choices are recorded with the
    response. The FilBBQ paper does not say how it scored roberta-tagalog-base; this is
    biasbench's protocol, recorded in the signature (``describe``).
    """

    deterministic = True
    """Option scores do not depend on a seed, so one seed suffices."""
    can_score_options = False  # it answers letters; the inner backend scores

    def __init__(
        self,
        inner: ModelBackend,
        by_uid: dict[str, BBQItem],
        headline: ScoreChoice = DEFAULT_OPTION_SCORE,
        scored_text: ScoredText = "item",
    ) -> None:
        if headline not in ("sum", "per_char"):
            raise InputError(f"option score must be 'sum' or 'per_char', not {headline!r}")
        if scored_text not in ("item", "prompt"):
            raise ValueError(f"scored_text must be 'item' or 'prompt', not {scored_text!r}")
        self.inner, self.by_uid, self.headline = inner, by_uid, headline
        self.scored_text: ScoredText = scored_text
        self.kind, self.max_concurrency = inner.kind, inner.max_concurrency
        self.mode = "completion" if scored_text == "item" else inner.mode

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def describe(self) -> dict[str, Any]:
        if self.scored_text == "item":  # the masked-LM protocol, as signed before --answer-by
            return {
                **self.inner.describe(),
                "answers_by": "option pseudo-log-likelihood",
                "option_text": "context + ' ' + question + ' ' + option",
                "option_score": self.headline,
            }
        return {
            **self.inner.describe(),
            "answers_by": "option log-likelihood",
            "option_text": "prompt + ' ' + option",
            "option_score": self.headline,
        }

    def set_concurrency(self, workers: int) -> None:
        self.inner.set_concurrency(workers)

    def _scoring_prompt(self, prompt: Prompt) -> tuple[Prompt, str]:
        """The prompt the options are appended to, and the text recorded as sent."""
        if self.scored_text == "prompt":
            return prompt, prompt.text_for(self.inner.mode)
        item = self.by_uid[prompt.item_id or ""]
        context = f"{item.context} {item.question}"
        return Prompt(messages=(("user", context),), completion=context), context

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        item = self.by_uid[prompt.item_id or ""]
        scoring_prompt, sent = self._scoring_prompt(prompt)
        options = [OPTION_SEPARATOR + answer for answer in item.answers]
        detailed = getattr(self.inner, "score_options_detailed", None)
        if detailed is not None:
            scores = await detailed(scoring_prompt, options)
        else:  # a backend that only sums: token counts unknown
            scores = [
                OptionScore(total, 0)
                for total in await self.inner.score_options(scoring_prompt, options)
            ]
        try:
            choices = option_choices(scores, options)
        except ValueError as exc:  # every score NaN: no answer (recorded as failed, not lost)
            raise PermanentModelError(str(exc)) from None
        best = choices[f"choice_{self.headline}"]
        return Generation(
            text=LETTERS[best],
            prompt_text=sent,
            info={
                "option_scores": choices["scores"],
                "option_scores_per_char": choices["scores_per_char"],
                "option_n_tokens": choices["n_tokens"] if detailed is not None else None,
                "option_n_chars": choices["n_chars"],
                "choice_sum": LETTERS[choices["choice_sum"]],
                "choice_per_char": LETTERS[choices["choice_per_char"]],
                "option_score": self.headline,
            },
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
