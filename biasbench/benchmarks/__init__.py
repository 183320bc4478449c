"""One subpackage per benchmark, each found by its folder (its light ``declaration.py``): no
list here names them (:mod:`biasbench.registry` finds and looks them up).

The lookup names below are kept for code written against this module's old registry (nothing
inside biasbench imports them from here): ``BENCHMARKS``, ``DECLARATIONS`` and ``ITEM_READERS``
are computed from the declarations when first read.
"""

from __future__ import annotations

from typing import Any

from biasbench.registry import (
    Benchmark,
    Declaration,
    benchmark_class,
    benchmark_classes,
    declaration,
    declarations,
    get_benchmark,
    item_reader,
    report_class,
)

__all__ = [
    "BENCHMARKS",
    "DECLARATIONS",
    "ITEM_READERS",
    "Benchmark",
    "Declaration",
    "benchmark_class",
    "benchmark_classes",
    "declaration",
    "declarations",
    "get_benchmark",
    "item_reader",
    "report_class",
]


def __getattr__(name: str) -> Any:
    # name -> "module:Class", name -> the declaration's name, namespace -> "module:function",
    # as the old dicts held them (computed: the folders are the list).
    from biasbench.registry import discovery

    if name == "BENCHMARKS":
        return discovery.benchmark_targets()
    if name == "DECLARATIONS":
        return {d.name: d for d in declarations()}
    if name == "ITEM_READERS":
        return discovery.item_readers()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
