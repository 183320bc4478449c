"""Hugging Face transformers backend: local causal LMs (generate and score) and masked LMs (score).

Two families of model answer a multiple-choice benchmark differently:

- **Causal LMs** (GPT-2, Llama, Qwen, SeaLLMs, SEA-LION...) generate text; ``score_options``
  returns the summed log-probability of each option's tokens as a continuation of the prompt.
- **Masked LMs** (BERT, RoBERTa, roberta-tagalog-base...) cannot generate; they answer by
  comparing the options' pseudo-log-likelihoods (Salazar et al., 2020, "Masked Language Model
  Scoring"): in the sequence ``prompt + option`` each option token is masked in turn and the
  log-probability of the true token at the mask is summed. Only the option's tokens are masked —
  the context is identical for every option, so the score compares options given the context.

Loading: ``name_or_path`` is a local folder (as written by ``save_pretrained``) or a model name.
A name is resolved through transformers' normal cache and downloaded there only when the user's
environment allows it; ``HF_HUB_OFFLINE=1`` makes loading use the cache alone. torch and
transformers are imported lazily, so ``import biasbench.models.hf`` stays light.

Batching: requests the runner has in flight at once are gathered into batches of up to
``batch_size`` (``-M batch_size=N``) by a micro-batcher (``hf_batching.MicroBatcher``): option
scoring of several items shares forward passes, and greedy generations run as one left-padded
``generate`` call. A batch never changes an answer: padding is masked out, and what could
depend on batch-mates runs one at a time -- sampled generation (each request has its own seed)
and a repetition penalty (which would count the padding as seen tokens).

Decoding is controlled by the request alone: temperature 0 is greedy; otherwise the model samples
with the request's sampler (temperature, top_p, top_k, min_p; repetition_penalty applies to greedy
decoding too). Sampling shapers a checkpoint's ``generation_config.json`` may set beyond those
(typical_p, epsilon/eta cutoffs, n-gram bans) are neutralised, because they are not part of a
run's signature and would make two runs with the same signature decode differently.

The backend is built here from its stages, one module each: ``hf_loading`` (task, device,
identity), ``hf_generation`` (text generation), ``hf_option_scoring`` (causal and masked-LM
option scores) and ``hf_batching`` (the micro-batcher); this module holds the class, its
options, loading and prompt rendering, and the choice of an answer from option scores.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from biasbench.errors import ModelSpecError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    OptionScore,
    PermanentModelError,
    Prompt,
)
from biasbench.models.hf_batching import MicroBatcher
from biasbench.models.hf_generation import CausalGeneration
from biasbench.models.hf_loading import (
    DTYPES,
    Task,
    TaskChoice,
    detect_task,
    model_identity,
    resolve_device,
)
from biasbench.models.hf_option_scoring import OptionScoring
from biasbench.models.options import BackendOption, ModelOptions

if TYPE_CHECKING:  # pragma: no cover - typing only; the runtime imports are lazy
    import torch

_T = TypeVar("_T")

# Tokenizers without a real limit report this huge sentinel as model_max_length.
_UNBOUNDED_LENGTH = 10**9


def answer_by_scores(scores: Sequence[float]) -> int:
    """Index of the best-scoring option: argmax, ties go to the lowest index, NaN never wins."""
    best_index: int | None = None
    for index, score in enumerate(scores):
        if math.isnan(score):
            continue
        if best_index is None or score > scores[best_index]:
            best_index = index
    if best_index is None:
        raise ValueError(f"no option has a usable score: {list(scores)!r}")
    return best_index


def option_choices(scores: Sequence[OptionScore], options: Sequence[str]) -> dict[str, Any]:
    """Both choices for one multiple-choice item, as lm-evaluation-harness reports acc and
    acc_norm: the summed scores and the choice by them, the per-character scores (divided by
    the length of the option text as appended, separator included) and the choice by those."""
    sums = [score.logprob for score in scores]
    n_chars = [len(option) for option in options]
    per_char = [
        total / length if length else math.nan for total, length in zip(sums, n_chars, strict=True)
    ]
    return {
        "scores": sums,
        "scores_per_char": per_char,
        "n_tokens": [score.n_tokens for score in scores],
        "n_chars": n_chars,
        "choice_sum": answer_by_scores(sums),
        "choice_per_char": answer_by_scores(per_char),
    }


def generation_from_choice(
    prompt_text: str, options: Sequence[str], scores: Sequence[OptionScore], *, method: str
) -> Generation:
    """A :class:`Generation` recording a score-based answer, with every score as evidence.

    The text is the chosen option stripped of surrounding whitespace, so the ordinary answer
    parser maps it back to its option (a letter such as ``"B"`` or the option's wording).
    """
    choice = answer_by_scores([score.logprob for score in scores])
    return Generation(
        text=options[choice].strip(),
        prompt_text=prompt_text,
        info={
            "choice": choice,
            "method": method,
            "options": list(options),
            "scores": [score.logprob for score in scores],
            "n_tokens": [score.n_tokens for score in scores],
        },
    )


class HFBackend(CausalGeneration, OptionScoring, ModelBackend):
    """A local transformers model (causal or masked LM) behind the async backend interface."""

    kind = "hf"
    summary = (
        "a local Hugging Face transformers model: causal LMs generate and score "
        "options, masked LMs score options only (--hf-task auto|causal|masked)"
    )
    spec_syntax = "hf:NAME_OR_PATH (a model name in the local cache, or a save_pretrained folder)"
    model_options = (
        BackendOption(
            "device",
            "str",
            "torch device: cpu, cuda, cuda:1, mps (default: cuda "
            "when available, else mps, else cpu)",
            default="auto",
        ),
        BackendOption(
            "dtype",
            "str",
            "weights dtype; auto keeps the checkpoint's on an accelerator and uses float32 on CPU",
            default="auto",
            choices=DTYPES,
            changes_answers=True,
        ),
        BackendOption(
            "revision", "str", "branch, tag or commit of a named model", changes_answers=True
        ),
        BackendOption(
            "batch_size",
            "int",
            "requests gathered into one batch (greedy "
            "generation, option scoring across items) and sequences per forward pass "
            "when scoring",
            default=16,
            minimum=1,
        ),
        BackendOption(
            "trust_remote_code", "bool", "run model code shipped with the checkpoint", default=False
        ),
    )
    can_score_options = True
    max_concurrency = None
    """Per instance: ``batch_size`` requests in flight, gathered into batches."""

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> HFBackend:
        if not arg:
            raise ModelSpecError("hf needs a model name or path: --model hf:NAME_OR_PATH")
        if options.hf_task not in ("auto", "causal", "masked"):
            raise ModelSpecError(
                f"--hf-task must be auto, causal or masked, not {options.hf_task!r}"
            )
        args = cls.check_model_args(options.model_args)
        return cls(
            arg,
            task=options.hf_task,
            chat=options.chat,  # type: ignore[arg-type]
            **args,
        )

    def __init__(
        self,
        name_or_path: str,
        *,
        task: TaskChoice = "auto",
        device: str | None = "auto",
        dtype: str = "auto",
        chat: bool = False,
        trust_remote_code: bool = False,
        revision: str | None = None,
        batch_size: int = 16,
    ) -> None:
        """Load config, tokenizer and model.

        Args:
            name_or_path: a local ``save_pretrained`` folder or a model name.
            task: ``auto`` detects causal vs masked from the config (see :func:`detect_task`).
            device: a torch device string (``cpu``, ``cuda``, ``cuda:1``, ``mps``); ``auto``
                or None: cuda when available, else mps, else cpu.
            dtype: ``auto`` keeps the checkpoint's dtype on accelerators and uses float32 on CPU
                (half precision is slow or unsupported there); or one of float32/float16/bfloat16.
            chat: send the chat form of prompts through the tokenizer's chat template (causal LMs
                whose tokenizer has one); otherwise the completion form is sent verbatim.
            trust_remote_code: allow model code shipped with the checkpoint (off by default).
            revision: a branch, tag or commit to load for a named model.
            batch_size: how many sequences one forward pass scores.
        """
        try:
            import torch  # noqa: F401 - both must be installed before anything loads
            import transformers
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ModelSpecError(
                "the hf backend needs torch and transformers: install "
                "biasbench[hf] and a torch build for your machine"
            ) from exc
        if dtype not in DTYPES:
            raise ModelSpecError(f"dtype must be one of {', '.join(DTYPES)}, not {dtype!r}")
        if batch_size < 1:
            raise ModelSpecError(f"batch_size must be at least 1, not {batch_size}")

        self.name_or_path = name_or_path
        self.device: torch.device = resolve_device(device)
        self.batch_size = batch_size
        self.max_concurrency = batch_size  # what the micro-batcher can gather at once
        self._lock = threading.Lock()  # torch RNG forking and the model are not shared safely
        self._batcher = MicroBatcher(batch_size, self._run_batch)
        common: dict[str, Any] = {"trust_remote_code": trust_remote_code, "revision": revision}
        try:
            config = transformers.AutoConfig.from_pretrained(name_or_path, **common)
            self.task: Task = detect_task(config) if task == "auto" else task
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(name_or_path, **common)
            model_class = (
                transformers.AutoModelForCausalLM
                if self.task == "causal"
                else transformers.AutoModelForMaskedLM
            )
            model = model_class.from_pretrained(
                name_or_path, config=config, dtype=self._torch_dtype(dtype), **common
            )
        except (OSError, ValueError, KeyError) as exc:
            raise ModelSpecError(
                f"cannot load Hugging Face model {name_or_path!r} as a {task} LM: {exc}"
            ) from exc
        self.model = model.to(self.device).eval()
        self.config = config
        self.dtype = str(self.model.dtype).removeprefix("torch.")

        if chat:
            if self.task != "causal":
                raise ModelSpecError(
                    "chat=True needs a causal LM; masked LMs score the completion form"
                )
            if not getattr(self.tokenizer, "chat_template", None):
                raise ModelSpecError(
                    f"{name_or_path!r} has no chat template; drop chat=True to "
                    "send the completion form"
                )
        self.mode = "chat" if chat else "completion"
        self.can_generate = self.task == "causal"  # a masked LM only scores options
        if self.task == "masked" and self.tokenizer.mask_token_id is None:
            raise ModelSpecError(
                f"{name_or_path!r} has no mask token, so it cannot be scored as a masked LM"
            )
        self._model_id = model_identity(name_or_path, revision)

    # ----------------------------------------------------------------- identity

    @property
    def model_id(self) -> str:
        """``folder-name#hash`` for a local folder, ``name@commit`` for a cached model name."""
        return self._model_id

    def describe(self) -> dict[str, Any]:
        """Signature fields: what changes this backend's answers (task and dtype included)."""
        return {**super().describe(), "task": self.task, "dtype": self.dtype}

    def _torch_dtype(self, dtype: str) -> Any:
        import torch

        if dtype == "auto":
            return torch.float32 if self.device.type == "cpu" else "auto"
        return getattr(torch, dtype)

    # ----------------------------------------------------------------- prompts

    def render(self, prompt: Prompt) -> tuple[str, bool]:
        """The exact text sent for ``prompt`` and whether the tokenizer adds its special tokens.

        A rendered chat template already contains the model's special tokens, so none are added.
        """
        if self.mode == "chat":
            text = self.tokenizer.apply_chat_template(
                prompt.as_chat(), tokenize=False, add_generation_prompt=True
            )
            return str(text), False
        return prompt.completion, True

    def _max_length(self) -> int | None:
        limit = getattr(self.tokenizer, "model_max_length", None)
        if isinstance(limit, int) and limit < _UNBOUNDED_LENGTH:
            return limit
        return getattr(self.config, "max_position_embeddings", None)

    def _check_length(self, n_tokens: int, what: str) -> None:
        limit = self._max_length()
        if limit is not None and n_tokens > limit:
            raise PermanentModelError(
                f"{what} is {n_tokens} tokens; {self.model_id} accepts at most {limit}"
            )

    # ----------------------------------------------------------------- the interface

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        """Continue the prompt (causal LMs only); returns only the new text, cut at a stop string."""
        if self.task == "masked":
            raise PermanentModelError(
                f"{self.model_id} is a masked LM and cannot generate text: masked LMs answer by "
                "score_options (pseudo-log-likelihood of each option)"
            )
        if self._batchable(params):  # greedy: the seed plays no part
            return await self._batcher.submit(("generate", params), (prompt, seed))
        return await self._in_thread(self._generate_sync, prompt, params, seed)

    async def score_options(self, prompt: Prompt, options: list[str]) -> list[float]:
        """Log-likelihood (causal) or pseudo-log-likelihood (masked) of each option after the prompt.

        Options are appended to the rendered prompt verbatim: put any separator (a space, a
        newline) in the option itself. Scores are sums over the option's tokens.
        """
        scores = await self.score_options_detailed(prompt, options)
        return [score.logprob for score in scores]

    async def score_options_detailed(self, prompt: Prompt, options: list[str]) -> list[OptionScore]:
        """Like :meth:`score_options`, with the number of tokens behind each score."""
        return await self._batcher.submit(("score",), (prompt, list(options)))

    async def choose(self, prompt: Prompt, options: list[str]) -> Generation:
        """Answer by scores: the best option as text, with every score kept as evidence."""
        scores = await self.score_options_detailed(prompt, options)
        method = "pseudo-log-likelihood" if self.task == "masked" else "log-likelihood"
        return generation_from_choice(self.render(prompt)[0], options, scores, method=method)

    async def aclose(self) -> None:
        """Nothing to release between runs: the weights stay loaded so the backend can serve the
        next run (or the next chunk of a Ray worker). :meth:`unload` frees them."""
        return None

    def unload(self) -> None:
        """Drop the model and free accelerator memory; the backend cannot answer afterwards."""
        import gc

        import torch

        self.model = None
        gc.collect()
        if self.device.type == "cuda":
            torch.cuda.empty_cache()

    def set_concurrency(self, workers: int) -> None:
        """The runner keeps ``workers`` requests in flight: a batch waits for that many."""
        self._batcher.expected = max(1, min(workers, self.batch_size))

    @staticmethod
    def _batchable(params: GenerationParams) -> bool:
        """Whether generations under ``params`` may share a batch without changing answers."""
        return params.temperature == 0 and params.repetition_penalty == 1.0

    def _run_batch(self, key: tuple[Any, ...], payloads: list[Any]) -> list[Any]:
        """One batch of the micro-batcher (in a worker thread): generations or scorings."""
        with self._lock:
            if key[0] == "generate":
                return self._generate_batch_sync(payloads, key[1])
            return self._score_batch_sync(payloads)

    async def _in_thread(self, work: Callable[..., _T], *args: Any) -> _T:
        # The torch work blocks for a long time; a thread keeps the event loop responsive.
        def locked() -> _T:
            with self._lock:
                return work(*args)

        return await asyncio.to_thread(locked)
