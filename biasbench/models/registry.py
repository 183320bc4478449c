"""Model specs (``KIND[:ARG]``) to backends. Adding a backend touches this registry only.

Specs:
  llamacpp                 the embedded default (Gemma 3 270M base, GGUF Q4_K_M)
  llamacpp:PATH.gguf       any local GGUF file
  openai:NAME              an OpenAI-compatible endpoint (--base-url, --api chat|completions,
                           key from $OPENAI_API_KEY or the variable named by --api-key-env)
  hf:NAME_OR_PATH          a Hugging Face transformers model (causal or masked LM)
  replay:FILE[@MODEL]      answers read from a JSONL file
  mock:SCRIPT              scripted outputs (tests, demos)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from biasbench.errors import ModelSpecError
from biasbench.models.base import ModelBackend

DEFAULT_MODEL = "llamacpp"


@dataclass
class ModelOptions:
    """Backend options a CLI or caller may set; each backend reads the ones it knows."""

    base_url: str | None = None
    api: str = "chat"
    api_key_env: str = "OPENAI_API_KEY"
    chat: bool = False
    hf_task: str = "auto"
    threads: int | None = None
    """CPU threads of a local llama.cpp model (default: every core)."""
    sampler_extras: bool = True
    """openai: send top_k, min_p and repetition_penalty (vLLM, llama.cpp's server...); False for
    a strict OpenAI endpoint that rejects unknown fields."""

    def __repr__(self) -> str:
        # The base URL may carry credentials (user:password@host): never show them.
        from biasbench.models.openai_compat import display_url

        shown = {**self.__dict__}
        if shown.get("base_url"):
            shown["base_url"] = display_url(shown["base_url"])
        return f"ModelOptions({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


def _llamacpp(arg: str | None, opts: ModelOptions) -> ModelBackend:
    from biasbench.models.llamacpp import LlamaCppBackend

    return LlamaCppBackend(arg or None, chat=opts.chat, n_threads=opts.threads)


def _openai(arg: str | None, opts: ModelOptions) -> ModelBackend:
    if not arg:
        raise ModelSpecError("openai needs a model name: --model openai:NAME")
    if not opts.base_url:
        raise ModelSpecError("openai:NAME needs --base-url (e.g. http://localhost:8000/v1)")
    if opts.api not in ("chat", "completions"):
        raise ModelSpecError(f"--api must be chat or completions, not {opts.api!r}")
    from biasbench.models.openai_compat import OpenAIBackend

    return OpenAIBackend(arg, opts.base_url, api=opts.api,  # type: ignore[arg-type]
                         api_key_env=opts.api_key_env, sampler_extras=opts.sampler_extras)


def _hf(arg: str | None, opts: ModelOptions) -> ModelBackend:
    if not arg:
        raise ModelSpecError("hf needs a model name or path: --model hf:NAME_OR_PATH")
    if opts.hf_task not in ("auto", "causal", "masked"):
        raise ModelSpecError(f"--hf-task must be auto, causal or masked, not {opts.hf_task!r}")
    from biasbench.models.hf import HFBackend

    return HFBackend(arg, task=opts.hf_task, chat=opts.chat)  # type: ignore[arg-type]


def _replay(arg: str | None, opts: ModelOptions) -> ModelBackend:
    if not arg:
        raise ModelSpecError("replay needs a file: --model replay:FILE.jsonl[@MODEL]")
    from biasbench.models.replay import ReplayBackend

    path, _, model = arg.partition("@")
    return ReplayBackend(path, model or None)


def _mock(arg: str | None, opts: ModelOptions) -> ModelBackend:
    from biasbench.models.mock import MockBackend

    return MockBackend(arg or "hashed-register", mode="completion" if opts.api == "completions"
                       else "chat")


BACKENDS: dict[str, Callable[[str | None, ModelOptions], ModelBackend]] = {
    "llamacpp": _llamacpp,
    "openai": _openai,
    "hf": _hf,
    "replay": _replay,
    "mock": _mock,
}


def parse_model_spec(spec: str) -> tuple[str, str | None]:
    """Split ``KIND[:ARG]``; raise ModelSpecError naming the known kinds when it does not parse."""
    kind, sep, arg = spec.strip().partition(":")
    if kind not in BACKENDS:
        raise ModelSpecError(f"model spec {spec!r} does not parse: unknown backend {kind!r} "
                             f"(known: {', '.join(BACKENDS)}; e.g. openai:gpt-4o-mini)")
    if sep and not arg:
        raise ModelSpecError(f"model spec {spec!r} does not parse: nothing after ':'")
    return kind, (arg or None)


def load_model(spec: str = DEFAULT_MODEL, options: ModelOptions | None = None) -> ModelBackend:
    """Build the backend for ``spec``; heavy dependencies load only here."""
    kind, arg = parse_model_spec(spec)
    return BACKENDS[kind](arg, options or ModelOptions())
