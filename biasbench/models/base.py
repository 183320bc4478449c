"""The one small async interface every model backend implements.

A benchmark produces a :class:`Prompt` carrying both a chat form and a completion form; the
backend sends whichever its API speaks and reports the exact text it sent, so the store records
what the model really saw.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal

from biasbench.models.options import BackendOption, ModelOptions, check_model_args

PromptMode = Literal["chat", "completion"]


@dataclass(frozen=True)
class Prompt:
    """What a benchmark asks a model, in both shapes an API may need."""

    messages: tuple[tuple[str, str], ...]
    """Chat form: (role, content) pairs, for chat/instruct models."""
    completion: str
    """Completion form: one string a base model continues (few-shot or plain)."""
    item_id: str | None = field(default=None, compare=False)
    """The benchmark item asked about; lets a replay backend look its answer up. Not sent."""

    def as_chat(self) -> list[dict[str, str]]:
        return [{"role": role, "content": content} for role, content in self.messages]

    def text_for(self, mode: PromptMode) -> str:
        """The exact text sent in ``mode`` (chat messages are rendered role-tagged)."""
        if mode == "completion":
            return self.completion
        return "\n".join(f"<{role}>{content}" for role, content in self.messages)


@dataclass(frozen=True)
class GenerationParams:
    """Decoding parameters; every field is part of the cache key and the run signature.

    The sampler is explicit and the same on every backend: one temperature means one sampler.
    Its defaults switch every truncation and penalty off (``top_p=1.0``, ``top_k=0``,
    ``min_p=0.0``, ``repetition_penalty=1.0``), so a run at temperature T samples from the
    model's distribution at T, whatever a backend's own defaults are (llama.cpp's are top_k 40,
    top_p 0.95, min_p 0.05; servers have theirs; checkpoints' generation configs have theirs).
    Every backend sends or applies all of them. Temperature 0 is greedy decoding, where only
    ``repetition_penalty`` still plays a part. What a server may still override is in
    docs/architecture.md.
    """

    temperature: float = 0.0
    """Sampling temperature; 0 means greedy."""
    max_tokens: int = 128
    """Upper bound on generated tokens."""
    top_p: float = 1.0
    """Nucleus sampling mass in (0, 1]; 1.0 is off."""
    stop: tuple[str, ...] = ()
    """Stop sequences (completion prompts use them to end after one line)."""
    top_k: int = 0
    """Keep only the k most likely tokens; 0 is off."""
    min_p: float = 0.0
    """Drop tokens less likely than min_p times the most likely one, in [0, 1]; 0 is off."""
    repetition_penalty: float = 1.0
    """Multiplicative penalty on tokens already seen (CTRL-style); 1.0 is off."""

    def __post_init__(self) -> None:
        # Old callers passed top_p=None for "the backend's default": that is exactly the
        # hidden sampler this class exists to rule out.
        checks = [
            (
                isinstance(self.temperature, int | float) and self.temperature >= 0,
                "temperature must be >= 0",
            ),
            (
                isinstance(self.max_tokens, int) and self.max_tokens >= 1,
                "max_tokens must be a positive integer",
            ),
            (
                isinstance(self.top_p, int | float) and 0 < self.top_p <= 1,
                "top_p must be in (0, 1] (1.0 is off)",
            ),
            (
                isinstance(self.top_k, int)
                and not isinstance(self.top_k, bool)
                and self.top_k >= 0,
                "top_k must be an integer >= 0 (0 is off)",
            ),
            (
                isinstance(self.min_p, int | float) and 0 <= self.min_p <= 1,
                "min_p must be in [0, 1] (0 is off)",
            ),
            (
                isinstance(self.repetition_penalty, int | float) and self.repetition_penalty > 0,
                "repetition_penalty must be > 0 (1.0 is off)",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"{message}: {self!r}")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    def sampler(self) -> dict[str, Any]:
        """The complete sampler: temperature, top_p, top_k, min_p, repetition_penalty."""
        return {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "top_k": self.top_k,
            "min_p": self.min_p,
            "repetition_penalty": self.repetition_penalty,
        }

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["stop"] = list(self.stop)
        return d


@dataclass
class Generation:
    """One model answer."""

    text: str
    """Raw output text, exactly as returned."""
    prompt_text: str
    """The text actually sent (chat messages rendered, or the completion string)."""
    info: dict[str, Any] = field(default_factory=dict)
    """Backend extras: token usage, finish reason, system fingerprint."""


@dataclass(frozen=True)
class OptionScore:
    """The score of one answer option."""

    logprob: float
    """Summed log-probability (causal) or pseudo-log-likelihood (masked) of the option's tokens."""
    n_tokens: int
    """How many tokens were scored, so a caller can length-normalise if its protocol says so."""


ScoreChoice = Literal["sum", "per_char"]
"""How an option is chosen from its scores: ``sum`` -- the highest summed (pseudo-)log-likelihood
(lm-evaluation-harness's ``acc``); ``per_char`` -- the highest log-likelihood per character of
the option as appended (``acc_norm``), which does not penalise a long option for its length."""


class TransientModelError(Exception):
    """A failure worth retrying (429, 5xx, timeout, connection reset)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class EndpointUnreachableError(TransientModelError):
    """A transient error meaning the endpoint could not be reached at all (connection refused,
    unknown host), as opposed to a server that answered with an error.

    The runner treats it like any transient error once the endpoint has answered during a run,
    but when it is the very first thing a run sees it stops early with one clear error instead of
    backing off through every request.
    """

    def __init__(self, message: str, endpoint: str) -> None:
        super().__init__(message)
        self.endpoint = endpoint
        """The base URL that could not be reached (credentials stripped)."""


class PermanentModelError(Exception):
    """A failure retrying will not fix (400, 401, 404, bad prompt)."""


class UnusableAnswerError(PermanentModelError):
    """A server answered (200) but its content is not text: an object, a number, or parts none
    of which is text. The request is stored as failed with this one-line reason (and the raw
    content in the row's info), not retried within the run: the same server would answer the
    same way. A rerun tries failed requests again."""

    def __init__(self, message: str, raw: Any = None) -> None:
        super().__init__(message)
        self.raw = raw
        """The content as received (JSON-able), kept so a paid answer is never lost."""


# Part types that carry the answer's text (OpenAI chat parts, the Responses API, and what
# several compatible servers send).
_TEXT_PART_TYPES = frozenset({"text", "output_text"})
# Part types that are not the answer (reasoning, audio, images...): skipped, and recorded.
_NON_ANSWER_PART_TYPES = frozenset(
    {
        "reasoning",
        "thinking",
        "redacted_thinking",
        "image_url",
        "image",
        "input_audio",
        "audio",
        "file",
        "tool_use",
        "tool_call",
    }
)


# Characters that carry no text on their own: an answer made only of these (and whitespace) is
# empty. U+200C/U+200D are meaningful between Bengali letters, never alone.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def is_empty_text(text: str) -> bool:
    """Whether an answer is empty: no text, or only whitespace and invisible characters."""
    return not text.strip().strip(_INVISIBLE).strip()


# What servers and libraries call the two ends every backend can tell apart.
_STOPPED = frozenset(
    {
        "stop",
        "eos",
        "eos_token",
        "stop_sequence",
        "stop_token",
        "end_turn",
        "end",
        "stopped",
        "finished",
        "complete",
    }
)
_CUT = frozenset(
    {
        "length",
        "max_tokens",
        "max_length",
        "max_new_tokens",
        "max_output_tokens",
        "model_length",
        "token_limit",
    }
)


def normalise_finish_reason(value: Any) -> str:
    """Why generation ended, in one vocabulary for every backend: ``stop`` (the model ended,
    or a stop sequence matched), ``length`` (cut at ``max_tokens`` or the context window),
    ``unknown`` (not reported), or the server's own reason lower-cased (``content_filter``,
    ``tool_calls``...)."""
    if value is None or value == "":
        return "unknown"
    text = str(value).strip().lower()[:64]
    if text in _STOPPED:
        return "stop"
    if text in _CUT:
        return "length"
    return text or "unknown"


def _one_line(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def text_from_content(content: Any) -> tuple[str, dict[str, Any]]:
    """The answer text of a ``content`` (chat) or ``text`` (completions) field, and notes on its
    shape for the stored row's info.

    A string is the answer as is; None (no content) is an empty answer. A list of parts
    (``[{"type": "text", "text": ...}, "plain string", ...]``) is joined into one text;
    reasoning, image or audio parts are skipped and named in the notes. A single part object
    is read as a one-part list. Anything else (an object without text, a number, parts none of
    which is text) raises :class:`UnusableAnswerError` with a one-line reason.
    """
    if isinstance(content, str):
        return content, {}
    if content is None:
        return "", {}
    parts = [content] if isinstance(content, dict) else content
    if not isinstance(parts, list):
        raise UnusableAnswerError(
            f"answer content is a {type(content).__name__}, not text: {_one_line(content)}",
            raw=content,
        )
    texts: list[str] = []
    skipped: list[str] = []
    refusals: list[str] = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
            continue
        kind = part.get("type") if isinstance(part, dict) else None
        text = part.get("text") if isinstance(part, dict) else None
        if isinstance(text, str) and (kind is None or kind in _TEXT_PART_TYPES):
            texts.append(text)
        elif kind == "refusal" and isinstance(part.get("refusal"), str):
            refusals.append(part["refusal"])
        elif isinstance(kind, str) and kind in _NON_ANSWER_PART_TYPES:
            skipped.append(kind)
        else:
            raise UnusableAnswerError(
                f"answer content has a part that is not text: {_one_line(part)}", raw=content
            )
    if parts and not texts and not refusals:
        raise UnusableAnswerError(
            f"answer content has no text part (only {', '.join(sorted(set(skipped)))})", raw=content
        )
    notes: dict[str, Any] = {"content_shape": "object" if isinstance(content, dict) else "parts"}
    if skipped:
        notes["skipped_parts"] = skipped
    if refusals:  # a refusal is an answer with no text, as a message's "refusal" field is
        notes["refusal"] = "\n".join(refusals)
    return "".join(texts), notes


class ModelBackend(abc.ABC):
    """A model behind one async interface.

    Backends import their heavy dependency lazily (in ``__init__`` or on first use), so
    ``import biasbench`` stays light.
    """

    kind: str = "base"
    """Backend family name used in specs, e.g. ``openai`` or ``llamacpp``."""
    mode: PromptMode = "chat"
    """Which prompt form this backend sends."""

    # -- what the registry and ``biasbench list`` show (see models/registry.py)
    summary: ClassVar[str] = ""
    """One line saying what this backend runs."""
    spec_syntax: ClassVar[str] = ""
    """The ``--model`` forms it accepts, e.g. ``hf:NAME_OR_PATH``."""
    model_options: ClassVar[tuple[BackendOption, ...]] = ()
    """The ``-M key=value`` options it accepts (validated by :meth:`check_model_args`)."""

    # -- capabilities: callers read these instead of probing for methods
    can_generate: bool = True
    """It answers ``generate`` (a masked LM does not: it only scores options)."""
    can_score_options: bool = False
    """It implements ``score_options`` (log-likelihood of each option)."""
    max_concurrency: int | None = None
    """A hard cap for backends that cannot serve requests in parallel (local CPU models)."""
    owns_concurrency: bool = False
    """An in-process backend that batches requests itself (llama.cpp): the runner keeps
    ``max_concurrency`` requests in flight whatever ``--concurrency`` says (that option sizes
    the connections to an endpoint)."""
    deterministic: bool = False
    """Its answer does not depend on the seed, so one seed suffices (option scoring)."""
    answers_by_item: bool = False
    """True when the answer depends on the item, not only on the prompt (replay): the item id
    then enters the cache key."""

    @classmethod
    def check_model_args(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """``-M`` options validated and typed; an unknown key is one line naming the accepted."""
        return check_model_args(cls.kind, cls.model_options, given)

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> ModelBackend:
        """Build the backend for ``KIND[:arg]`` from the CLI's model options (spec parsing and
        option checks belong to the backend, so a new backend is one file)."""
        raise NotImplementedError(f"backend {cls.kind!r} cannot be built from a model spec")

    @classmethod
    def capabilities(cls) -> dict[str, Any]:
        """The capability attributes, for ``biasbench list``."""
        return {
            "can_generate": cls.can_generate,
            "can_score_options": cls.can_score_options,
            "max_concurrency": cls.max_concurrency,
            "deterministic": cls.deterministic,
            "answers_by_item": cls.answers_by_item,
        }

    @property
    @abc.abstractmethod
    def model_id(self) -> str:
        """Stable identifier of the model (name, or file name plus checksum) for keys and signatures."""

    def describe(self) -> dict[str, Any]:
        """What identifies this model in a signature (never secrets)."""
        return {"kind": self.kind, "model": self.model_id, "mode": self.mode}

    @abc.abstractmethod
    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        """Answer ``prompt``; raise TransientModelError or PermanentModelError on failure."""

    async def score_options(self, prompt: Prompt, options: list[str]) -> list[float]:
        """Log-likelihood of each option as a continuation of ``prompt`` (where supported)."""
        raise NotImplementedError(f"backend {self.kind!r} cannot score options")

    async def aclose(self) -> None:
        """Release connections at the end of a run. The backend must stay usable: a later run
        (another event loop) may call it again, so weights stay loaded."""
        return None

    def redact(self, message: str) -> str:
        """``message`` without this backend's secrets (API key, URL credentials), for anything
        stored or printed: errors, logs, exception messages."""
        return message

    def set_concurrency(self, workers: int) -> None:
        """Told how many requests the runner will keep in flight (to size connection pools)."""
        return None
