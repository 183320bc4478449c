"""The benchmark interface and the registry that finds benchmarks: below the engines and the
benchmarks, so both import it downward.

:mod:`.interface` holds what every benchmark implements and declares (``Benchmark``,
``Declaration``, ``OptionSpec``, ``Options``, ``Paper``, ``Command``); :mod:`.discovery` finds
the benchmarks by their folders (and other packages' entry points) and looks them up by name.
"""

from __future__ import annotations

from biasbench.registry.discovery import (
    ENTRY_POINT_GROUP,
    benchmark_class,
    benchmark_classes,
    declaration,
    declarations,
    get_benchmark,
    item_reader,
    known,
    language_rules,
    names,
    options_of,
    refresh,
    report_class,
)
from biasbench.registry.interface import (
    Benchmark,
    BenchmarkInfo,
    Command,
    Declaration,
    Options,
    OptionSpec,
    Paper,
    Results,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Benchmark",
    "BenchmarkInfo",
    "Command",
    "Declaration",
    "OptionSpec",
    "Options",
    "Paper",
    "Results",
    "benchmark_class",
    "benchmark_classes",
    "declaration",
    "declarations",
    "get_benchmark",
    "item_reader",
    "known",
    "language_rules",
    "names",
    "options_of",
    "refresh",
    "report_class",
]
