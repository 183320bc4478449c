"""A request to the llama.cpp engine (:class:`~biasbench.models.llamacpp_engine.LlamaEngine`):
how its next token is chosen (:class:`Sampling`, llama.cpp's sampler chain), the job the
engine's thread works on, and its outcome, set on the caller's future."""

from __future__ import annotations

from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any


class EngineError(Exception):
    """A request this engine cannot serve (too long for the context, no tokens to score)."""


class EngineAborted(Exception):
    """The engine was closed (Ctrl-C, SIGTERM, end of run) before this request finished."""


@dataclass
class Sampling:
    """How the next token is chosen: greedy at temperature 0, else llama.cpp's sampler chain
    under the request's seed (top_k 0, top_p 1 and min_p 0 switch those stages off)."""

    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    min_p: float = 0.0
    repetition_penalty: float = 1.0
    seed: int = 0

    @property
    def greedy_argmax(self) -> bool:
        """Greedy without a penalty: the argmax of the logits, read directly."""
        return self.temperature <= 0 and self.repetition_penalty == 1.0


@dataclass
class GenerationResult:
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str
    """``stop`` (a stop string or end-of-generation token) or ``length`` (max_tokens)."""


@dataclass
class Job:
    future: Future[Any]
    tokens: list[int]
    cancelled: bool = False
    seq: int = -1
    pos: int = 0

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class GenerationJob(Job):
    max_tokens: int = 0
    stop: tuple[str, ...] = ()
    sampling: Sampling = field(default_factory=Sampling)
    sampler: Any = None
    out: list[int] = field(default_factory=list)
    text: bytearray = field(default_factory=bytearray)
    next_token: int = -1
    """The token this job feeds to the next decode step (its last prompt token, then each
    answer token)."""


@dataclass
class ScoringJob(Job):
    options: list[tuple[list[int], int]] = field(default_factory=list)
    """Per option: the token ids of prompt + option and where the option's tokens start."""


def make_sampler(lib: Any, s: Sampling, prompt: list[int]) -> Any:
    """llama.cpp's sampler chain for ``s`` (None for greedy argmax: the logits are read
    directly); a repetition penalty has already read the prompt's last 64 tokens."""
    if s.greedy_argmax:
        return None
    chain = lib.llama_sampler_chain_init(lib.llama_sampler_chain_default_params())
    if s.repetition_penalty != 1.0:
        # over the last 64 tokens read, the prompt's included (as llama-cpp-python does)
        lib.llama_sampler_chain_add(
            chain, lib.llama_sampler_init_penalties(64, s.repetition_penalty, 0.0, 0.0)
        )
        for token in prompt[-64:]:
            lib.llama_sampler_accept(chain, token)
    if s.temperature <= 0:
        lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_greedy())
        return chain
    if s.top_k > 0:
        lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_top_k(s.top_k))
    if s.top_p < 1.0:
        lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_top_p(s.top_p, 1))
    if s.min_p > 0.0:
        lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_min_p(s.min_p, 1))
    lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_temp(s.temperature))
    lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_dist(s.seed & 0xFFFFFFFF))
    return chain


def resolve(future: Future[Any], value: Any = None, *, error: BaseException | None = None) -> None:
    """Set a request's outcome unless its caller has cancelled it meanwhile."""
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)
    except InvalidStateError:  # cancelled by its caller in the meantime
        pass


def common_prefix(sequences: list[list[int]]) -> int:
    if not sequences:
        return 0
    first = sequences[0]
    n = min(len(s) for s in sequences)
    for i in range(n):
        token = first[i]
        if any(s[i] != token for s in sequences[1:]):
            return i
    return n
