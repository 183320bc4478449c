"""Benchmarks registered by name; each lives in its own subpackage.

A benchmark object provides: ``name``, ``version``, ``judge_version``,
``params_for(backend, temperature=, max_tokens=)``, ``requests(limit=, seeds=)``,
``signature(model, params, seeds)``, ``evaluate(responses, out_dir, signatures)`` and
``summary(results)``. Adding a benchmark touches its own folder and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from biasbench.errors import BiasbenchError

# name -> "module:factory", imported only when asked for.
BENCHMARKS: dict[str, str] = {
    "honorific-bn": "biasbench.benchmarks.honorific_bn.benchmark:HonorificBenchmark",
    "filbbq": "biasbench.benchmarks.filbbq.benchmark:FilBBQBenchmark",
}


def get_benchmark(name: str, **kwargs: Any) -> Any:
    """Instantiate the benchmark registered as ``name``."""
    if name not in BENCHMARKS:
        raise BiasbenchError(f"unknown benchmark {name!r} (known: {', '.join(BENCHMARKS)})")
    module, _, attr = BENCHMARKS[name].partition(":")
    factory: Callable[..., Any] = getattr(import_module(module), attr)
    return factory(**kwargs)
