"""Model backends behind one async interface (see base.py) and the spec registry."""

from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
    TransientModelError,
)
from biasbench.models.registry import (
    BACKENDS,
    DEFAULT_MODEL,
    ModelOptions,
    load_model,
    parse_model_spec,
)

__all__ = ["BACKENDS", "DEFAULT_MODEL", "Generation", "GenerationParams", "ModelBackend",
           "ModelOptions", "PermanentModelError", "Prompt", "TransientModelError", "load_model",
           "parse_model_spec"]
