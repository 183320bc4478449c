"""biasbench: measure social bias of language models in languages beyond English.

The Python API (see :mod:`biasbench.api`)::

    import biasbench

    result = biasbench.run("honorific-bn", model="mock:hashed-register", limit=40)
    result.scores       # pandas: model, group, statistic, value, ci_low, ci_high, n
    biasbench.score("honorific-bn", responses="outputs.jsonl", out="scored/")
    biasbench.load("runs/honorific-bn--gemma-3-270m").labels

``run``, ``score``, ``load``, ``dry_run`` and ``Results`` are imported on first use, so
``import biasbench`` loads no pandas, model or benchmark code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from biasbench.version import __version__

_API = ("run", "score", "load", "dry_run", "Results")

if TYPE_CHECKING:
    from biasbench.api import Results, dry_run, load, run, score


def __getattr__(name: str) -> Any:
    # PEP 562: the API module (and pandas behind it) loads when one of its names is used.
    if name in _API:
        from biasbench import api

        return getattr(api, name)
    raise AttributeError(f"module 'biasbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])


__all__ = ["Results", "__version__", "dry_run", "load", "run", "score"]
