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
``batch_size`` (``-M batch_size=N``) by a micro-batcher (:class:`_MicroBatcher`): option scoring
of several items shares forward passes, and greedy generations run as one left-padded
``generate`` call. A batch never changes an answer: padding is masked out, and what could
depend on batch-mates runs one at a time -- sampled generation (each request has its own seed)
and a repetition penalty (which would count the padding as seen tokens).

Decoding is controlled by the request alone: temperature 0 is greedy; otherwise the model samples
with the request's sampler (temperature, top_p, top_k, min_p; repetition_penalty applies to greedy
decoding too). Sampling shapers a checkpoint's ``generation_config.json`` may set beyond those
(typical_p, epsilon/eta cutoffs, n-gram bans) are neutralised, because they are not part of a
run's signature and would make two runs with the same signature decode differently.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from biasbench.errors import ModelSpecError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
)
from biasbench.models.options import BackendOption, ModelOptions

if TYPE_CHECKING:  # pragma: no cover - typing only; the runtime imports are lazy
    import torch

Task = Literal["causal", "masked"]
TaskChoice = Literal["auto", "causal", "masked"]
_T = TypeVar("_T")

# Files that define a local model's behaviour (weights, config, tokenizer, chat template, remote
# code). A README or a training log changing must not change the model's identity.
_FINGERPRINT_SUFFIXES = (".json", ".safetensors", ".bin", ".pt", ".model", ".txt", ".tiktoken",
                         ".py", ".jinja")
_SNAPSHOT_COMMIT = re.compile(r"snapshots/([0-9a-f]{40})/")
_DTYPES = ("auto", "float32", "float16", "bfloat16")
# Tokenizers without a real limit report this huge sentinel as model_max_length.
_UNBOUNDED_LENGTH = 10**9


@dataclass(frozen=True)
class OptionScore:
    """The score of one answer option."""

    logprob: float
    """Summed log-probability (causal) or pseudo-log-likelihood (masked) of the option's tokens."""
    n_tokens: int
    """How many tokens were scored, so a caller can length-normalise if its protocol says so."""


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


ScoreChoice = Literal["sum", "per_char"]
"""How an option is chosen from its scores: ``sum`` -- the highest summed (pseudo-)log-likelihood
(lm-evaluation-harness's ``acc``); ``per_char`` -- the highest log-likelihood per character of
the option as appended (``acc_norm``), which does not penalise a long option for its length."""


def option_choices(scores: Sequence[OptionScore], options: Sequence[str]) -> dict[str, Any]:
    """Both choices for one multiple-choice item, as lm-evaluation-harness reports acc and
    acc_norm: the summed scores and the choice by them, the per-character scores (divided by
    the length of the option text as appended, separator included) and the choice by those."""
    sums = [score.logprob for score in scores]
    n_chars = [len(option) for option in options]
    per_char = [total / length if length else math.nan
                for total, length in zip(sums, n_chars, strict=True)]
    return {"scores": sums, "scores_per_char": per_char,
            "n_tokens": [score.n_tokens for score in scores], "n_chars": n_chars,
            "choice_sum": answer_by_scores(sums), "choice_per_char": answer_by_scores(per_char)}


def generation_from_choice(prompt_text: str, options: Sequence[str],
                           scores: Sequence[OptionScore], *, method: str) -> Generation:
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


def detect_task(config: Any) -> Task:
    """Whether a transformers config describes a causal or a masked LM.

    Order of evidence: the saved ``architectures`` (``...ForMaskedLM`` vs ``...ForCausalLM`` /
    ``...LMHeadModel``), then ``is_decoder``, then which auto-model mapping knows the
    ``model_type`` (encoder families such as BERT appear in both; they are masked unless
    ``is_decoder`` is set).
    """
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    architectures = list(getattr(config, "architectures", None) or [])
    if any(name.endswith("ForMaskedLM") for name in architectures):
        return "masked"
    if any(name.endswith(("ForCausalLM", "LMHeadModel")) for name in architectures):
        return "causal"
    if getattr(config, "is_decoder", False):
        return "causal"
    model_type = getattr(config, "model_type", "")
    if model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        return "masked"
    if model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return "causal"
    raise ModelSpecError(
        f"cannot tell whether model type {model_type!r} (architectures {architectures}) is a "
        "causal or a masked LM; pass task='causal' or task='masked'")


def default_device() -> str:
    """``cuda`` when a CUDA device is available, else ``mps`` (Apple), else ``cpu``."""
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def resolve_device(device: str | None) -> Any:
    """The torch device for ``device`` (None or ``auto``: :func:`default_device`); a device this
    machine does not have is one clear error, not a crash mid-run."""
    import torch

    name = default_device() if device in (None, "auto") else str(device)
    try:
        resolved = torch.device(name)
    except (RuntimeError, ValueError):
        raise ModelSpecError(f"hf: -M device={name!r} is not a torch device (cpu, cuda, "
                             "cuda:1, mps)") from None
    if resolved.type == "cuda" and (not torch.cuda.is_available() or (
            resolved.index is not None and resolved.index >= torch.cuda.device_count())):
        raise ModelSpecError(f"hf: -M device={name}: no such CUDA device on this machine")
    if resolved.type == "mps" and not (getattr(torch.backends, "mps", None)
                                       and torch.backends.mps.is_available()):
        raise ModelSpecError(f"hf: -M device={name}: MPS is not available on this machine")
    return resolved


def local_model_fingerprint(folder: Path, length: int = 12) -> str:
    """Short SHA-256 over the names and full contents of the files that define a local model.

    Weights are hashed in full (not sampled) so two fine-tunes of one base never share an id;
    this reads the weights once more at load time, which the page cache usually makes cheap.
    """
    digest = hashlib.sha256()
    files = sorted(path for path in folder.iterdir()
                   if path.is_file() and path.name.endswith(_FINGERPRINT_SUFFIXES))
    for path in files:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()[:length]


def truncate_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    """Cut ``text`` at the earliest occurrence of any stop string; report whether one was found."""
    positions = [text.find(stop) for stop in stops if stop]
    positions = [position for position in positions if position >= 0]
    if not positions:
        return text, False
    return text[:min(positions)], True


class HFBackend(ModelBackend):
    """A local transformers model (causal or masked LM) behind the async backend interface."""

    kind = "hf"
    summary = ("a local Hugging Face transformers model: causal LMs generate and score "
               "options, masked LMs score options only (--hf-task auto|causal|masked)")
    spec_syntax = "hf:NAME_OR_PATH (a model name in the local cache, or a save_pretrained folder)"
    model_options = (
        BackendOption("device", "str", "torch device: cpu, cuda, cuda:1, mps (default: cuda "
                      "when available, else mps, else cpu)", default="auto"),
        BackendOption("dtype", "str", "weights dtype; auto keeps the checkpoint's on an "
                      "accelerator and uses float32 on CPU", default="auto", choices=_DTYPES,
                      changes_answers=True),
        BackendOption("revision", "str", "branch, tag or commit of a named model",
                      changes_answers=True),
        BackendOption("batch_size", "int", "requests gathered into one batch (greedy "
                      "generation, option scoring across items) and sequences per forward pass "
                      "when scoring", default=16, minimum=1),
        BackendOption("trust_remote_code", "bool", "run model code shipped with the checkpoint",
                      default=False),
    )
    can_score_options = True
    max_concurrency = None
    """Per instance: ``batch_size`` requests in flight, gathered into batches."""

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> HFBackend:
        if not arg:
            raise ModelSpecError("hf needs a model name or path: --model hf:NAME_OR_PATH")
        if options.hf_task not in ("auto", "causal", "masked"):
            raise ModelSpecError(f"--hf-task must be auto, causal or masked, not "
                                 f"{options.hf_task!r}")
        args = cls.check_model_args(options.model_args)
        return cls(arg, task=options.hf_task, chat=options.chat,  # type: ignore[arg-type]
                   **args)

    def __init__(self, name_or_path: str, *, task: TaskChoice = "auto",
                 device: str | None = "auto",
                 dtype: str = "auto", chat: bool = False, trust_remote_code: bool = False,
                 revision: str | None = None, batch_size: int = 16) -> None:
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
            raise ModelSpecError("the hf backend needs torch and transformers: install "
                                 "biasbench[hf] and a torch build for your machine") from exc
        if dtype not in _DTYPES:
            raise ModelSpecError(f"dtype must be one of {', '.join(_DTYPES)}, not {dtype!r}")
        if batch_size < 1:
            raise ModelSpecError(f"batch_size must be at least 1, not {batch_size}")

        self.name_or_path = name_or_path
        self.device: torch.device = resolve_device(device)
        self.batch_size = batch_size
        self.max_concurrency = batch_size  # what the micro-batcher can gather at once
        self._lock = threading.Lock()  # torch RNG forking and the model are not shared safely
        self._batcher = _MicroBatcher(batch_size, self._run_batch)
        common: dict[str, Any] = {"trust_remote_code": trust_remote_code, "revision": revision}
        try:
            config = transformers.AutoConfig.from_pretrained(name_or_path, **common)
            self.task: Task = detect_task(config) if task == "auto" else task
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(name_or_path, **common)
            model_class = (transformers.AutoModelForCausalLM if self.task == "causal"
                           else transformers.AutoModelForMaskedLM)
            model = model_class.from_pretrained(name_or_path, config=config,
                                                dtype=self._torch_dtype(dtype), **common)
        except (OSError, ValueError, KeyError) as exc:
            raise ModelSpecError(f"cannot load Hugging Face model {name_or_path!r} as a "
                                 f"{task} LM: {exc}") from exc
        self.model = model.to(self.device).eval()
        self.config = config
        self.dtype = str(self.model.dtype).removeprefix("torch.")

        if chat:
            if self.task != "causal":
                raise ModelSpecError("chat=True needs a causal LM; masked LMs score the "
                                     "completion form")
            if not getattr(self.tokenizer, "chat_template", None):
                raise ModelSpecError(f"{name_or_path!r} has no chat template; drop chat=True to "
                                     "send the completion form")
        self.mode = "chat" if chat else "completion"
        self.can_generate = self.task == "causal"  # a masked LM only scores options
        if self.task == "masked" and self.tokenizer.mask_token_id is None:
            raise ModelSpecError(f"{name_or_path!r} has no mask token, so it cannot be scored "
                                 "as a masked LM")
        self._model_id = self._identify(name_or_path, revision)

    # ----------------------------------------------------------------- identity

    @property
    def model_id(self) -> str:
        """``folder-name#hash`` for a local folder, ``name@commit`` for a cached model name."""
        return self._model_id

    def describe(self) -> dict[str, Any]:
        """Signature fields: what changes this backend's answers (task and dtype included)."""
        return {**super().describe(), "task": self.task, "dtype": self.dtype}

    @staticmethod
    def _identify(name_or_path: str, revision: str | None) -> str:
        folder = Path(name_or_path)
        if folder.is_dir():
            # The folder's name, not its absolute path, so the id is the same on every machine.
            return f"{folder.resolve().name}#{local_model_fingerprint(folder)}"
        try:
            from transformers.utils import cached_file

            resolved = cached_file(name_or_path, "config.json", revision=revision)
        except (OSError, ValueError):
            resolved = None
        match = _SNAPSHOT_COMMIT.search(Path(resolved).as_posix()) if resolved else None
        if match:
            return f"{name_or_path}@{match.group(1)[:12]}"
        return f"{name_or_path}@{revision}" if revision else name_or_path

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
            text = self.tokenizer.apply_chat_template(prompt.as_chat(), tokenize=False,
                                                      add_generation_prompt=True)
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
            raise PermanentModelError(f"{what} is {n_tokens} tokens; {self.model_id} accepts "
                                      f"at most {limit}")

    def encode_with_option(self, prompt_text: str, option: str,
                           add_special_tokens: bool) -> tuple[list[int], list[int]]:
        """Token ids of ``prompt_text + option`` and the positions of the option's tokens.

        The two strings are tokenised together, as the model would read them, so tokenizer
        boundary effects are real: a token that straddles the boundary (``"Sagot: "`` + ``"A"``
        read as ``"Sagot:"`` + ``" A"``) belongs to the option. Special tokens the tokenizer adds
        (``<s>``, ``</s>``) never do.
        """
        full_text = prompt_text + option
        boundary = len(prompt_text)
        if getattr(self.tokenizer, "is_fast", False):
            encoded = self.tokenizer(full_text, add_special_tokens=add_special_tokens,
                                     return_offsets_mapping=True)
            ids = list(encoded["input_ids"])
            # Added special tokens carry (0, 0) offsets, so "ends past the boundary" skips them.
            positions = [index for index, (_, end) in enumerate(encoded["offset_mapping"])
                         if end > boundary]
        else:  # slow tokenizers have no offsets: the option starts where the ids diverge
            prompt_ids = self.tokenizer(prompt_text, add_special_tokens=add_special_tokens)
            ids = list(self.tokenizer(full_text, add_special_tokens=add_special_tokens)
                       ["input_ids"])
            shared = 0
            for left, right in zip(prompt_ids["input_ids"], ids, strict=False):
                if left != right:
                    break
                shared += 1
            special = set(self.tokenizer.all_special_ids)
            positions = [index for index in range(shared, len(ids)) if ids[index] not in special]
        if not positions:
            raise PermanentModelError(f"option {option!r} produced no tokens to score")
        self._check_length(len(ids), "prompt plus option")
        return ids, positions

    # ----------------------------------------------------------------- the interface

    async def generate(self, prompt: Prompt, params: GenerationParams,
                       seed: int | None) -> Generation:
        """Continue the prompt (causal LMs only); returns only the new text, cut at a stop string."""
        if self.task == "masked":
            raise PermanentModelError(
                f"{self.model_id} is a masked LM and cannot generate text: masked LMs answer by "
                "score_options (pseudo-log-likelihood of each option)")
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

    async def score_options_detailed(self, prompt: Prompt,
                                     options: list[str]) -> list[OptionScore]:
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

    # ----------------------------------------------------------------- generation

    @contextmanager
    def _seeded(self, seed: int | None) -> Iterator[None]:
        """Seed torch for one request without disturbing the process-wide RNG state."""
        if seed is None:
            yield
            return
        import torch

        on_cpu = self.device.type == "cpu"
        with torch.random.fork_rng(devices=[] if on_cpu else [self.device.index or 0],
                                   device_type=None if on_cpu else self.device.type):
            torch.manual_seed(seed)  # seeds the CPU and every accelerator generator
            yield

    def _decoding_kwargs(self, params: GenerationParams) -> dict[str, Any]:
        """generate() arguments that make the request's parameters the only decoding shapers."""
        pad_id = self.tokenizer.pad_token_id
        if pad_id is None:
            pad_id = self.tokenizer.eos_token_id
        kwargs: dict[str, Any] = {
            "max_new_tokens": params.max_tokens,
            "num_beams": 1,
            "repetition_penalty": params.repetition_penalty,
            "no_repeat_ngram_size": 0,
            "pad_token_id": pad_id,
        }
        if params.temperature > 0:
            kwargs.update(do_sample=True, temperature=params.temperature, top_p=params.top_p,
                          top_k=params.top_k, min_p=params.min_p, typical_p=1.0,
                          epsilon_cutoff=0.0, eta_cutoff=0.0)
        else:
            kwargs.update(do_sample=False)
        if params.stop:
            # Lets generation halt early; the text is still cut at the first stop string below.
            kwargs.update(stop_strings=list(params.stop), tokenizer=self.tokenizer)
        return kwargs

    def _generate_sync(self, prompt: Prompt, params: GenerationParams,
                       seed: int | None) -> Generation:
        import torch

        prompt_text, add_special = self.render(prompt)
        encoded = self.tokenizer(prompt_text, add_special_tokens=add_special, return_tensors="pt")
        prompt_ids = encoded["input_ids"]
        self._check_length(prompt_ids.shape[1], "the prompt")
        with torch.inference_mode(), self._seeded(seed):
            output = self.model.generate(input_ids=prompt_ids.to(self.device),
                                         attention_mask=encoded["attention_mask"].to(self.device),
                                         **self._decoding_kwargs(params))
        new_ids = output[0, prompt_ids.shape[1]:].tolist()
        return self._generation(prompt_text, prompt_ids[0].tolist(), new_ids, params, seed)

    def _eos_ids(self) -> set[int]:
        eos_ids = self.model.generation_config.eos_token_id
        return set(eos_ids if isinstance(eos_ids, list) else [eos_ids])

    def _generation(self, prompt_text: str, prompt_ids: list[int], new_ids: list[int],
                    params: GenerationParams, seed: int | None) -> Generation:
        text, stopped = truncate_at_stop(self._decode_continuation(prompt_ids, new_ids),
                                         params.stop)
        ended = stopped or bool(new_ids and new_ids[-1] in self._eos_ids())
        return Generation(text=text, prompt_text=prompt_text, info={
            "seed": seed,
            **params.sampler(),
            "sampling": "sample" if params.temperature > 0 else "greedy",
            "n_prompt_tokens": len(prompt_ids),
            "n_tokens": len(new_ids),
            "finish_reason": "stop" if ended or len(new_ids) < params.max_tokens else "length",
        })

    def _generate_batch_sync(self, jobs: list[tuple[Prompt, int | None]],
                             params: GenerationParams) -> list[Generation | Exception]:
        """Greedy generation of several prompts in one left-padded ``generate`` call.

        Each row ends where generating it alone would have ended (its end-of-sequence token or
        first stop string); what ``generate`` appends to a row finished before its batch-mates
        (padding) is dropped, so text, token counts and finish reasons are the unbatched ones.
        A prompt that cannot be sent (too long) fails alone.
        """
        import torch

        results: list[Generation | Exception | None] = [None] * len(jobs)
        rows: list[tuple[int, str, list[int]]] = []  # index, prompt text, prompt ids
        for index, (prompt, _) in enumerate(jobs):
            try:
                prompt_text, add_special = self.render(prompt)
                ids = list(self.tokenizer(prompt_text, add_special_tokens=add_special)
                           ["input_ids"])
                self._check_length(len(ids), "the prompt")
            except PermanentModelError as exc:
                results[index] = exc
                continue
            rows.append((index, prompt_text, ids))
        if rows:
            kwargs = self._decoding_kwargs(params)
            width = max(len(ids) for _, _, ids in rows)
            input_ids = torch.full((len(rows), width), kwargs["pad_token_id"], dtype=torch.long)
            attention = torch.zeros((len(rows), width), dtype=torch.long)
            for row, (_, _, ids) in enumerate(rows):  # left padding: every row ends together
                input_ids[row, width - len(ids):] = torch.tensor(ids, dtype=torch.long)
                attention[row, width - len(ids):] = 1
            with torch.inference_mode():
                output = self.model.generate(input_ids=input_ids.to(self.device),
                                             attention_mask=attention.to(self.device), **kwargs)
            for row, (index, prompt_text, ids) in enumerate(rows):
                new_ids = self._unpadded(ids, output[row, width:].tolist(), params)
                results[index] = self._generation(prompt_text, ids, new_ids, params,
                                                  jobs[index][1])
        return results  # type: ignore[return-value]

    def _unpadded(self, prompt_ids: list[int], new_ids: list[int],
                  params: GenerationParams) -> list[int]:
        """A batched row's new tokens up to where it would have stopped on its own."""
        eos_ids = self._eos_ids()
        cut = next((k + 1 for k, token in enumerate(new_ids) if token in eos_ids), len(new_ids))
        new_ids = new_ids[:cut]
        if params.stop and truncate_at_stop(self._decode_continuation(prompt_ids, new_ids),
                                            params.stop)[1]:
            # stopped by a stop string: at the first token whose text completes one
            for k in range(1, len(new_ids) + 1):
                if truncate_at_stop(self._decode_continuation(prompt_ids, new_ids[:k]),
                                    params.stop)[1]:
                    return new_ids[:k]
        return new_ids

    def _decode_continuation(self, prompt_ids: list[int], new_ids: list[int]) -> str:
        """The new text exactly as it continues the prompt.

        Decoding the new ids alone can lose a leading space (SentencePiece), so the whole
        sequence is decoded and the decoded prompt removed from its front.
        """
        whole = self.tokenizer.decode(prompt_ids + new_ids, skip_special_tokens=True)
        head = self.tokenizer.decode(prompt_ids, skip_special_tokens=True)
        if whole.startswith(head):
            return whole[len(head):]
        return self.tokenizer.decode(new_ids, skip_special_tokens=True)

    # ----------------------------------------------------------------- scoring

    def _score_sync(self, prompt: Prompt, options: list[str]) -> list[OptionScore]:
        prompt_text, add_special = self.render(prompt)
        encoded = [self.encode_with_option(prompt_text, option, add_special) for option in options]
        if self.task == "causal":
            return self._causal_scores(encoded)
        return self._pseudo_log_likelihoods(encoded)

    def _score_batch_sync(self, jobs: list[tuple[Prompt, list[str]]]
                          ) -> list[list[OptionScore] | Exception]:
        """The options of several requests scored together: their sequences share forward
        passes of ``batch_size`` rows. A request whose text cannot be scored fails alone."""
        results: list[list[OptionScore] | Exception | None] = [None] * len(jobs)
        encoded: list[tuple[list[int], list[int]]] = []
        owners: list[tuple[int, int]] = []  # (job index, options in it)
        for index, (prompt, options) in enumerate(jobs):
            try:
                prompt_text, add_special = self.render(prompt)
                mine = [self.encode_with_option(prompt_text, option, add_special)
                        for option in options]
            except PermanentModelError as exc:
                results[index] = exc
                continue
            encoded.extend(mine)
            owners.append((index, len(mine)))
        if encoded:
            scores = (self._causal_scores(encoded) if self.task == "causal"
                      else self._pseudo_log_likelihoods(encoded))
            start = 0
            for index, count in owners:
                results[index] = scores[start:start + count]
                start += count
        return results  # type: ignore[return-value]

    def _causal_scores(self, encoded: list[tuple[list[int], list[int]]]) -> list[OptionScore]:
        """Sum of log p(token | everything before it) over each option's tokens."""
        rows: list[tuple[list[int], list[int], list[int]]] = []  # ids, positions, targets
        for ids, positions in encoded:
            if positions[0] == 0:
                # Nothing precedes the first token: condition it on BOS (or EOS, as GPT-2 does).
                start = self.tokenizer.bos_token_id
                if start is None:
                    start = self.tokenizer.eos_token_id
                if start is None:
                    raise PermanentModelError("an option at the very start of the text needs a "
                                              "BOS or EOS token to condition on; this tokenizer "
                                              "has neither")
                ids = [start, *ids]
                positions = [position + 1 for position in positions]
            # The logits at position p - 1 predict the token at position p.
            rows.append((ids, [position - 1 for position in positions],
                         [ids[position] for position in positions]))
        totals = self._gather_log_probs(rows)
        return [OptionScore(total, len(row[1])) for total, row in zip(totals, rows, strict=True)]

    def _pseudo_log_likelihoods(self,
                                encoded: list[tuple[list[int], list[int]]]) -> list[OptionScore]:
        """Salazar et al.'s PLL restricted to the option: mask each option token, sum log p(true)."""
        mask_id = self.tokenizer.mask_token_id
        rows: list[tuple[list[int], list[int], list[int]]] = []
        owners: list[int] = []  # which option each masked copy belongs to
        for option_index, (ids, positions) in enumerate(encoded):
            for position in positions:
                masked = list(ids)
                masked[position] = mask_id
                rows.append((masked, [position], [ids[position]]))
                owners.append(option_index)
        sums = [0.0] * len(encoded)
        for owner, value in zip(owners, self._gather_log_probs(rows), strict=True):
            sums[owner] += value
        return [OptionScore(total, len(positions))
                for total, (_, positions) in zip(sums, encoded, strict=True)]

    def _gather_log_probs(self, rows: list[tuple[list[int], list[int], list[int]]]) -> list[float]:
        """For each (ids, read positions, target ids) row: sum of log-softmax[position, target].

        Rows are right-padded into batches of ``batch_size``; padding is masked out of attention
        and never read, so a row's score does not depend on its batch-mates. Rows are batched
        in order of length (rows of several requests differ), so little is padding.
        """
        import torch

        pad_id = self.tokenizer.pad_token_id
        if pad_id is None:
            pad_id = self.tokenizer.eos_token_id or 0
        order = sorted(range(len(rows)), key=lambda index: len(rows[index][0]))
        totals = [0.0] * len(rows)
        for start in range(0, len(rows), self.batch_size):
            indices = order[start:start + self.batch_size]
            batch = [rows[index] for index in indices]
            width = max(len(ids) for ids, _, _ in batch)
            input_ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
            attention = torch.zeros((len(batch), width), dtype=torch.long)
            for row_index, (ids, _, _) in enumerate(batch):
                input_ids[row_index, :len(ids)] = torch.tensor(ids, dtype=torch.long)
                attention[row_index, :len(ids)] = 1
            with torch.inference_mode():
                logits = self.model(input_ids=input_ids.to(self.device),
                                    attention_mask=attention.to(self.device)).logits
            for row_index, (_, positions, targets) in enumerate(batch):
                # Only the rows read are normalised, in float32 whatever the model's dtype.
                selected = logits[row_index, positions].float().log_softmax(dim=-1)
                rows_read = torch.arange(len(targets), device=selected.device)
                picked = selected[rows_read, torch.tensor(targets, device=selected.device)]
                totals[indices[row_index]] = float(picked.sum())
        return totals


class _MicroBatcher:
    """Gathers requests made concurrently on one event loop into batches.

    ``submit(key, payload)`` queues a payload; requests with equal keys may share a batch.
    A drain task waits until ``expected`` requests are queued or the queue stops growing for a
    few event-loop turns (the runner's workers are all waiting, or there is no more work), then
    runs batches of up to ``size`` in a worker thread through ``run(key, payloads)``, which
    returns one result or exception per payload. If a whole batch raises, its requests are
    retried one by one, so one bad request fails alone.
    """

    _IDLE_TURNS = 3
    """Event-loop turns without a new request after which a partial batch runs."""

    def __init__(self, size: int,
                 run: Callable[[tuple[Any, ...], list[Any]], list[Any]]) -> None:
        self.size = size
        self.expected = size
        self._run = run
        self._queue: dict[tuple[Any, ...], list[tuple[Any, asyncio.Future[Any]]]] = {}
        self._drainer: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def submit(self, key: tuple[Any, ...], payload: Any) -> Any:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a later run on another event loop starts afresh
            self._loop, self._queue, self._drainer = loop, {}, None
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.setdefault(key, []).append((payload, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        return await future

    def _queued(self) -> int:
        return sum(len(jobs) for jobs in self._queue.values())

    async def _drain(self) -> None:
        while self._queue:
            idle, seen = 0, self._queued()
            while seen < min(self.expected, self.size) and idle < self._IDLE_TURNS:
                await asyncio.sleep(0)
                now = self._queued()
                idle, seen = (0, now) if now > seen else (idle + 1, seen)
            key = max(self._queue, key=lambda k: len(self._queue[k]))  # the fullest batch first
            jobs = self._queue[key][:self.size]
            rest = self._queue[key][self.size:]
            if rest:
                self._queue[key] = rest
            else:
                del self._queue[key]
            jobs = [(payload, future) for payload, future in jobs if not future.cancelled()]
            if jobs:
                await self._run_jobs(key, jobs)

    async def _run_jobs(self, key: tuple[Any, ...],
                        jobs: list[tuple[Any, asyncio.Future[Any]]]) -> None:
        payloads = [payload for payload, _ in jobs]
        try:
            results = await asyncio.to_thread(self._run, key, payloads)
        except Exception as exc:  # the batch as a whole failed: find the request that did
            if len(jobs) == 1:
                results = [exc]
            else:
                results = []
                for payload in payloads:
                    try:
                        results.extend(await asyncio.to_thread(self._run, key, [payload]))
                    except Exception as single:
                        results.append(single)
        except BaseException as exc:  # cancelled: every waiting request learns it
            for _, future in jobs:
                if not future.done():
                    future.cancel()
            raise exc
        for (_, future), result in zip(jobs, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)
