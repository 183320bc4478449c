"""Benchmarks registered by name; each lives in its own subpackage.

Every benchmark is a subclass of :class:`biasbench.benchmarks.base.Benchmark`, and declares
what the CLI needs to know before loading it (name, paper, options, commands) in its package's
light ``declaration.py`` (:class:`~biasbench.benchmarks.base.Declaration`). Adding one touches
its own folder and one line each of :data:`BENCHMARKS` and :data:`DECLARATIONS`; the CLI (``run
NAME`` and its options, ``biasbench list``), the pipeline and the HTML report read this registry.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from biasbench.benchmarks.base import Benchmark, Declaration
from biasbench.errors import BiasbenchError

__all__ = ["BENCHMARKS", "DECLARATIONS", "Benchmark", "Declaration", "benchmark_class",
           "benchmark_classes", "declaration", "declarations", "get_benchmark", "item_reader",
           "report_class"]

# name -> "module:class", imported only when asked for.
BENCHMARKS: dict[str, str] = {
    "honorific-bn": "biasbench.benchmarks.honorific_bn.benchmark:HonorificBenchmark",
    "filbbq": "biasbench.benchmarks.filbbq.benchmark:FilBBQBenchmark",
    "bbq": "biasbench.benchmarks.bbq.benchmark:OriginalBBQBenchmark",
    "kobbq": "biasbench.benchmarks.kobbq.benchmark:KoBBQBenchmark",
    "cbbq": "biasbench.benchmarks.cbbq.benchmark:CBBQBenchmark",
    "esbbq": "biasbench.benchmarks.esbbq.benchmark:EsBBQBenchmark",
    "cabbq": "biasbench.benchmarks.esbbq.benchmark:CaBBQBenchmark",
    "jbbq": "biasbench.benchmarks.jbbq.benchmark:JBBQBenchmark",
    "mbbq": "biasbench.benchmarks.mbbq.benchmark:MBBQBenchmark",
    "bharatbbq": "biasbench.benchmarks.bharatbbq.benchmark:BharatBBQBenchmark",
    "pakbbq": "biasbench.benchmarks.pakbbq.benchmark:PakBBQBenchmark",
    "ggbbq": "biasbench.benchmarks.ggbbq.benchmark:GGBBQBenchmark",
    "basqbbq": "biasbench.benchmarks.basqbbq.benchmark:BasqBBQBenchmark",
    "gbfa": "biasbench.benchmarks.gbfa.benchmark:GBFABenchmark",
    "pbbq": "biasbench.benchmarks.pbbq.benchmark:PBBQBenchmark",
}

ITEM_READERS: dict[str, str] = {
    "mbbq": "biasbench.benchmarks.mbbq.source:load_namespaced_file",
    "mbbq-control": "biasbench.benchmarks.mbbq.source:load_namespaced_file",
}
"""Namespace (its part before the first ``/``) -> ``"module:function(path, namespace)"``
returning the file's BBQ items: a dataset whose files need rules of their own (MBBQ's
target_loc) is read by the one function its benchmark reads them with, so ``biasbench score
bbq --items mbbq/es=FILE`` and ``biasbench score mbbq`` score the same items."""


def item_reader(namespace: str) -> Callable[[Path, str], list[Any]] | None:
    """The dataset's own reader of a file given as ``namespace=FILE`` (None: plain BBQ)."""
    target = ITEM_READERS.get(namespace.split("/", 1)[0])
    if target is None:
        return None
    module, _, attr = target.partition(":")
    reader: Callable[[Path, str], list[Any]] = getattr(import_module(module), attr)
    return reader


# name -> "module:attribute" of its Declaration: light modules the CLI reads without loading
# the benchmark (no pandas, scipy, matplotlib or model code; tests/test_cli_imports.py).
DECLARATIONS: dict[str, str] = {
    "honorific-bn": "biasbench.benchmarks.honorific_bn.declaration:DECLARATION",
    "filbbq": "biasbench.benchmarks.filbbq.declaration:DECLARATION",
    "bbq": "biasbench.benchmarks.bbq.declaration:DECLARATION",
    "kobbq": "biasbench.benchmarks.kobbq.declaration:DECLARATION",
    "cbbq": "biasbench.benchmarks.cbbq.declaration:DECLARATION",
    "esbbq": "biasbench.benchmarks.esbbq.declaration:ESBBQ",
    "cabbq": "biasbench.benchmarks.esbbq.declaration:CABBQ",
    "jbbq": "biasbench.benchmarks.jbbq.declaration:DECLARATION",
    "mbbq": "biasbench.benchmarks.mbbq.declaration:DECLARATION",
    "bharatbbq": "biasbench.benchmarks.bharatbbq.declaration:DECLARATION",
    "pakbbq": "biasbench.benchmarks.pakbbq.declaration:DECLARATION",
    "ggbbq": "biasbench.benchmarks.ggbbq.declaration:DECLARATION",
    "basqbbq": "biasbench.benchmarks.basqbbq.declaration:DECLARATION",
    "gbfa": "biasbench.benchmarks.gbfa.declaration:DECLARATION",
    "pbbq": "biasbench.benchmarks.pbbq.declaration:DECLARATION",
}


def declaration(name: str) -> Declaration:
    """The declaration of benchmark ``name``, read without loading the benchmark (an unknown
    name: one line naming the known ones)."""
    if name not in DECLARATIONS:
        raise BiasbenchError(f"unknown benchmark {name!r} (known: {', '.join(BENCHMARKS)})")
    module, _, attr = DECLARATIONS[name].partition(":")
    found = getattr(import_module(module), attr)
    if not isinstance(found, Declaration) or found.name != name:
        raise TypeError(f"{DECLARATIONS[name]} is not the Declaration of {name}")
    return found


def declarations() -> list[Declaration]:
    """Every registered benchmark's declaration, in registry order."""
    return [declaration(name) for name in DECLARATIONS]


def _load(target: str) -> type[Benchmark]:
    module, _, attr = target.partition(":")
    found = getattr(import_module(module), attr)
    if not (isinstance(found, type) and issubclass(found, Benchmark)):
        raise TypeError(f"{target} is not a Benchmark subclass")
    return found


def benchmark_class(name: str) -> type[Benchmark]:
    """The class registered as ``name`` (an unknown name: one line naming the known ones)."""
    if name not in BENCHMARKS:
        raise BiasbenchError(f"unknown benchmark {name!r} (known: {', '.join(BENCHMARKS)})")
    return _load(BENCHMARKS[name])


def report_class(name: str) -> type[Benchmark] | None:
    """The class whose report section shows results of benchmark ``name`` (None: unknown).
    ``biasbench score bbq --items FILES`` (any BBQ-format items) writes benchmark ``bbq``."""
    target = BENCHMARKS.get(name)
    return _load(target) if target else None


def benchmark_classes() -> list[type[Benchmark]]:
    """Every registered benchmark class, in registry order."""
    return [_load(target) for target in BENCHMARKS.values()]


def get_benchmark(name: str, **options: Any) -> Benchmark:
    """Instantiate the benchmark registered as ``name`` with its options; an option it does not
    declare is one line naming it and those it takes (never a raw ``TypeError``). Options its
    engine declares for every benchmark it serves (``configured_options``) are applied after
    construction (:meth:`Benchmark.configure`)."""
    cls = benchmark_class(name)
    configured = {k: options.pop(k) for k in list(options) if k in cls.configured_options}
    bench = _construct(cls, name, options)
    if configured:
        bench.configure(**configured)
    return bench


def _construct(cls: type[Benchmark], name: str, options: dict[str, Any]) -> Benchmark:
    import inspect

    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return cls(**options)
    declared = {p.name for p in parameters if p.kind is not p.VAR_POSITIONAL}
    unknown = sorted(set(options) - declared)
    if unknown:
        from biasbench.errors import BiasbenchError

        taken = ", ".join(sorted(declared)) or "none"
        raise BiasbenchError(f"{name} has no option {unknown[0]!r} (its options: {taken})")
    return cls(**options)
