"""Model backends behind one async interface (see base.py) and the spec registry."""

from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
    TransientModelError,
)
from biasbench.models.options import BackendOption, parse_model_args
from biasbench.models.registry import (
    BACKENDS,
    DEFAULT_MODEL,
    BackendInfo,
    ModelOptions,
    backend_class,
    list_backends,
    load_model,
    parse_model_spec,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "BackendInfo",
    "BackendOption",
    "Generation",
    "GenerationParams",
    "ModelBackend",
    "ModelOptions",
    "PermanentModelError",
    "Prompt",
    "TransientModelError",
    "backend_class",
    "list_backends",
    "load_model",
    "parse_model_args",
    "parse_model_spec",
]
