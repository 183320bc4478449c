"""Model specs (``KIND[:ARG]``) to backends.

Adding a backend is one file plus one line in :data:`BACKENDS`: the file holds a
:class:`~biasbench.models.base.ModelBackend` subclass that carries its ``kind``, one-line
``summary``, ``spec_syntax``, its ``-M`` options (``model_options``), its capabilities, and a
``from_spec`` classmethod that parses the part after ``KIND:`` and builds it. The CLI, the
pipeline, Ray workers and ``biasbench list`` read the registry; none names a backend.

Specs:
  llamacpp                 the embedded default (Gemma 3 270M base, GGUF Q4_K_M)
  llamacpp:PATH.gguf       any local GGUF file
  openai:NAME              an OpenAI-compatible endpoint (--base-url, default $OPENAI_BASE_URL,
                           else OpenAI's API; --api chat|completions; key from $OPENAI_API_KEY
                           or the variable named by --api-key-env)
  hf:NAME_OR_PATH          a Hugging Face transformers model (causal or masked LM)
  replay:FILE[@MODEL]      answers read from a JSONL file
  mock:SCRIPT              scripted outputs (tests, demos)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from biasbench.errors import ModelSpecError
from biasbench.models.base import ModelBackend
from biasbench.models.options import BackendOption, ModelOptions, parse_model_args

__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "BackendInfo",
    "ModelOptions",
    "backend_class",
    "check_model_spec",
    "list_backends",
    "load_model",
    "parse_model_args",
    "parse_model_spec",
]

DEFAULT_MODEL = "llamacpp"

# name -> "module:Class". Importing a backend module is light (heavy dependencies load when a
# backend is built), so listing every backend imports no torch or llama.cpp.
BACKENDS: dict[str, str] = {
    "llamacpp": "biasbench.models.llamacpp:LlamaCppBackend",
    "openai": "biasbench.models.openai_compat:OpenAIBackend",
    "hf": "biasbench.models.hf:HFBackend",
    "replay": "biasbench.models.replay:ReplayBackend",
    "mock": "biasbench.models.mock:MockBackend",
}


def backend_class(name: str) -> type[ModelBackend]:
    """The backend class registered as ``name``."""
    if name not in BACKENDS:
        raise ModelSpecError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    module, _, attr = BACKENDS[name].partition(":")
    cls = getattr(import_module(module), attr)
    if not (isinstance(cls, type) and issubclass(cls, ModelBackend)) or cls.kind != name:
        # A registry line pointing at the wrong class would build the wrong model silently.
        raise TypeError(
            f"registry entry {name!r} -> {BACKENDS[name]} is not a ModelBackend of kind {name!r}"
        )
    return cls


@dataclass(frozen=True)
class BackendInfo:
    """What ``biasbench list`` shows of one backend."""

    name: str
    summary: str
    spec_syntax: str
    options: tuple[BackendOption, ...]
    capabilities: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "spec_syntax": self.spec_syntax,
            "options": [option.to_dict() for option in self.options],
            "capabilities": dict(self.capabilities),
        }

    def lines(self) -> list[str]:
        """A short plain-text block: name and summary, spec forms, -M keys, capabilities."""
        caps = ", ".join(f"{k}={v}" for k, v in self.capabilities.items())
        lines = [f"{self.name}: {self.summary}", f"  spec: {self.spec_syntax}"]
        for option in self.options:
            mark = " [changes answers: in the signature]" if option.changes_answers else ""
            lines.append(f"  -M {option.name} ({option.type}): {option.help}{mark}")
        if not self.options:
            lines.append("  -M: no options")
        lines.append(f"  capabilities: {caps}")
        return lines


def list_backends() -> list[BackendInfo]:
    """Every registered backend, in registry order."""
    infos = []
    for name in BACKENDS:
        cls = backend_class(name)
        infos.append(
            BackendInfo(name, cls.summary, cls.spec_syntax, cls.model_options, cls.capabilities())
        )
    return infos


def parse_model_spec(spec: str) -> tuple[str, str | None]:
    """Split ``KIND[:ARG]``; raise ModelSpecError naming the known kinds when it does not parse."""
    kind, sep, arg = spec.strip().partition(":")
    if kind not in BACKENDS:
        raise ModelSpecError(
            f"model spec {spec!r} does not parse: unknown backend {kind!r} "
            f"(known: {', '.join(BACKENDS)}; e.g. openai:gpt-4o-mini)"
        )
    if sep and not arg:
        raise ModelSpecError(f"model spec {spec!r} does not parse: nothing after ':'")
    return kind, (arg or None)


def check_model_spec(spec: str, options: ModelOptions | None = None) -> type[ModelBackend]:
    """The backend class of ``spec`` once the spec parses and its ``-M`` options are valid;
    cheap (nothing loads), so a caller can refuse a typo before slower work."""
    kind, arg = parse_model_spec(spec)
    model_args = (options or ModelOptions()).model_args
    cls = backend_class(kind)
    cls.check_model_args(model_args)
    if kind == "llamacpp":  # a file that is not GGUF, or a context no machine can hold
        from biasbench.models.gguf_check import check_llamacpp

        check_llamacpp(arg, model_args)
    return cls


def load_model(spec: str = DEFAULT_MODEL, options: ModelOptions | None = None) -> ModelBackend:
    """Build the backend for ``spec``; heavy dependencies load only here. Its ``-M`` options
    (``options.model_args``) are checked before anything is loaded."""
    cls = check_model_spec(spec, options)  # an unknown key fails before any loading
    return cls.from_spec(parse_model_spec(spec)[1], options or ModelOptions())
