"""One-line refusals of bad argument values, shared by the CLI and the Python API.

Every value a run is decided by is checked here before anything loads or is sent: a wrong type
(``limit="5"``), an out-of-range number (``limit=0``, ``temperature=-1``) or a value that is
not finite (``temperature=nan``) is a :class:`~biasbench.errors.BiasbenchError` naming the
option, never a raw ``TypeError``, a traceback or a silently accepted value.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError

SEED_MAX = 2**63 - 1
MAX_SEEDS = 1000
"""The most seeds one run asks every prompt under (FilBBQ's protocol asks 50): more is a typo,
and would build billions of requests before the first is sent."""
"""The largest seed (SQLite and Parquet hold 64-bit integers)."""


def _name(option: str) -> str:
    return option if option.startswith("-") else f"--{option.replace('_', '-')}"


def check_int(
    option: str,
    value: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    optional: bool = True,
) -> int | None:
    """``value`` as an int, or one line naming ``option``; bools and floats are refused."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BiasbenchError(f"{_name(option)} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise BiasbenchError(f"{_name(option)} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise BiasbenchError(f"{_name(option)} must be at most {maximum:,}, not {value}")
    return value


def check_float(
    option: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    optional: bool = True,
) -> float | None:
    """``value`` as a finite float, or one line naming ``option``."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BiasbenchError(f"{_name(option)} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise BiasbenchError(f"{_name(option)} must be a finite number, not {value!r}")
    if minimum is not None and number < minimum:
        raise BiasbenchError(f"{_name(option)} must be at least {minimum:g}, not {value!r}")
    if maximum is not None and number > maximum:
        raise BiasbenchError(f"{_name(option)} must be at most {maximum:g}, not {value!r}")
    return number


def check_seeds(value: Any) -> list[int] | None:
    """A list of distinct seeds from 0 to :data:`SEED_MAX`, or None."""
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise BiasbenchError(f"--seeds must be a count or a list of whole numbers, not {value!r}")
    if len(value) > MAX_SEEDS:
        raise BiasbenchError(
            f"--seeds names {len(value):,} seeds; a run takes at most {MAX_SEEDS:,}"
        )
    seeds = [check_int("seeds", s, minimum=0, maximum=SEED_MAX, optional=False) for s in value]
    if not seeds:
        raise BiasbenchError("--seeds must name at least one seed")
    return seeds  # type: ignore[return-value]


def check_text(option: str, value: Any, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BiasbenchError(f"{_name(option)} must be text, not {value!r}")
    return value


def check_path(option: str, value: Any) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, str | os.PathLike):
        raise BiasbenchError(f"{_name(option)} must be a path, not {value!r}")
    return Path(value)


def check_run_arguments(
    *,
    benchmark: Any,
    model: Any,
    out: Any,
    limit: Any,
    seeds: Any,
    temperature: Any,
    max_tokens: Any,
    concurrency: Any = 1,
) -> None:
    """Every plain argument of a run, as :func:`biasbench.run` and ``biasbench run`` take it."""
    check_text("benchmark", benchmark)
    check_text("model", model)
    check_path("out", out)
    check_int("limit", limit, minimum=1)
    check_seeds(seeds)
    check_float("temperature", temperature, minimum=0.0, maximum=100.0)
    check_int("max_tokens", max_tokens, minimum=1, maximum=10_000_000)
    check_int("concurrency", concurrency, minimum=1, maximum=100_000, optional=False)
