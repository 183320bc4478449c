"""The one Benchmark interface: the registry, the options the CLI derives from it, `list`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from biasbench.benchmarks import BENCHMARKS, benchmark_class, benchmark_classes, get_benchmark
from biasbench.benchmarks.base import Benchmark, OptionSpec
from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.errors import BiasbenchError
from biasbench.models import registry as models


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300"}  # rich's help would cut long option names
    return subprocess.run([sys.executable, "-m", "biasbench", *args], capture_output=True,
                          text=True, timeout=120, env=env)


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_every_registered_benchmark_is_a_complete_benchmark(name: str) -> None:
    cls = benchmark_class(name)
    assert issubclass(cls, Benchmark) and not cls.__abstractmethods__
    assert cls.name == name
    assert cls.languages and all(isinstance(code, str) for code in cls.languages)
    assert cls.paper.citation and cls.paper.title and cls.items_summary
    assert all(isinstance(spec, OptionSpec) for spec in cls.options)


def test_get_benchmark_returns_a_benchmark_and_refuses_unknown_names() -> None:
    bench = get_benchmark("honorific-bn")
    assert isinstance(bench, Benchmark) and isinstance(bench, HonorificBenchmark)
    with pytest.raises(BiasbenchError, match="unknown benchmark 'nope'"):
        get_benchmark("nope")


def test_adapt_backend_is_the_identity_by_default() -> None:
    backend = object()
    assert HonorificBenchmark().adapt_backend(backend) is backend  # type: ignore[arg-type]


@pytest.mark.parametrize(("language", "benchmark"), [("bn", "honorific-bn"), ("fil", "filbbq")])
def test_language_is_data_of_the_benchmark(language: str, benchmark: str) -> None:
    assert language in benchmark_class(benchmark).languages


def test_run_offers_every_declared_option() -> None:
    help_text = " ".join(_cli("run", "--help").stdout.split())
    flags = {spec.flag for cls in benchmark_classes() for spec in cls.options}
    assert flags >= {"--items", "--templates", "--data-seed", "--prompt", "--published-data",
                     "--regenerate-items", "--option-score"}
    missing = [flag for flag in flags if flag not in help_text]
    assert not missing


@pytest.mark.parametrize(("args", "message"), [
    (["honorific-bn", "--data-seed", "3"], "error: --data-seed is not an option of honorific-bn"),
    (["filbbq", "--option-score", "max"], "error: --option-score must be one of per_char, sum"),
])
def test_an_option_the_benchmark_does_not_take_is_refused(args: list[str], message: str) -> None:
    result = _cli("run", *args, "--model", "mock:x")
    assert result.returncode == 2
    assert message in result.stderr


def test_list_shows_every_benchmark_and_backend() -> None:
    result = _cli("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for cls in benchmark_classes():
        line = next(line for line in lines if line.startswith(f"  {cls.name}: "))
        assert cls.items_summary in line and ", ".join(cls.languages) in line
        assert cls.paper.citation in line
    backends = lines[lines.index("backends:") + 1:]
    assert [line.split(":")[0].strip() for line in backends] == list(models.BACKENDS)
