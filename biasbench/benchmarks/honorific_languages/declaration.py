"""``honorific-languages``: the honorific benchmarks side by side in one run (the engine's
own benchmark, found here like every other: docs/honorific-engine.md)."""

from biasbench.engines.honorific.declaration import LANGUAGES_DECLARATION as DECLARATION

__all__ = ["DECLARATION"]
