"""The benchmark interface's old place, kept for code written against it: the interface lives
in :mod:`biasbench.registry.interface` (nothing inside biasbench imports this module)."""

from __future__ import annotations

from biasbench.registry.interface import *  # noqa: F403
from biasbench.registry.interface import __all__ as __all__
