"""A CLI that answers at once: `--version`, `--help`, `list` and `run NAME --help`
load none of the heavy libraries; each benchmark's declaration is readable without its
benchmark; the step that needs a heavy module imports it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from biasbench.registry import benchmark_class, declaration, names

HEAVY = ("scipy", "statsmodels", "matplotlib", "pandas", "torch", "transformers")

# Runs the command in this interpreter, then prints the top-level names of every module loaded.
_WRAPPER = """
import json, sys
sys.argv = ["biasbench", *json.loads(sys.argv[1])]
try:
    from biasbench.entry import main
    main()
except SystemExit:
    pass
finally:
    sys.stdout.flush()
    sys.__stderr__.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def _modules_after(*args: str) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, json.dumps(list(args))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return done.returncode, set(json.loads(line.removeprefix("MODULES ")))


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--help"],
        ["list"],
        ["run", "--help"],
        ["score", "--help"],
        ["data", "--help"],
        *[["run", name, "--help"] for name in names()],
    ],
    ids=" ".join,
)
def test_answering_loads_no_heavy_library(args: list[str]) -> None:
    code, modules = _modules_after(*args)
    assert code == 0
    assert sorted({m.split(".")[0] for m in modules} & set(HEAVY)) == []


def test_run_name_help_loads_only_that_benchmarks_declaration() -> None:
    _, modules = _modules_after("run", "honorific-bn", "--help")
    loaded = {m for m in modules if m.startswith(("biasbench.benchmarks.", "biasbench.engines."))}
    assert "biasbench.benchmarks.honorific_bn.declaration" in loaded
    assert "biasbench.benchmarks.honorific_bn.benchmark" not in loaded
    assert not [
        m
        for m in loaded
        if m.startswith(
            (
                "biasbench.engines.bbq_family",
                "biasbench.benchmarks.bbq",
                "biasbench.benchmarks.filbbq",
            )
        )
    ]


def test_version_loads_neither_the_cli_nor_typer() -> None:
    _, modules = _modules_after("--version")
    assert {m for m in modules if m.startswith("biasbench")} == {
        "biasbench",
        "biasbench.entry",
        "biasbench.version",
    }
    assert "typer" not in modules and "click" not in modules


def test_a_mock_run_loads_no_plotting_or_model_library(tmp_path: object) -> None:
    # honorific-bn draws no figure in a run and the mock backend needs no torch.
    code, modules = _modules_after(
        "run",
        "honorific-bn",
        "--model",
        "mock:hashed-register",
        "--limit",
        "4",
        "--no-progress",
        "--out",
        f"{tmp_path}/run",
    )
    assert code == 0
    assert (
        sorted({m.split(".")[0] for m in modules} & {"matplotlib", "torch", "transformers"}) == []
    )


def test_a_mock_honorific_run_loads_neither_scipy_stats_nor_statsmodels(tmp_path: object) -> None:
    # Importing scipy.stats costs more CPU than the rest of this run's statistics: McNemar's
    # test, its power and Holm's correction come from biasbench.stats.binomial instead.
    code, modules = _modules_after(
        "run",
        "honorific-bn",
        "--model",
        "mock:hashed-register",
        "--limit",
        "40",
        "--no-progress",
        "--out",
        f"{tmp_path}/run",
    )
    assert code == 0
    assert (
        sorted(m for m in modules if m.startswith(("scipy.stats", "scipy.optimize", "statsmodels")))
        == []
    )


@pytest.mark.parametrize("name", names())
def test_every_class_takes_its_declaration(name: str) -> None:
    cls = benchmark_class(name)
    found = declaration(name)
    assert cls.declaration is found
    assert (
        cls.name,
        cls.languages,
        cls.paper,
        cls.items_summary,
        cls.options,
        cls.data_options,
        cls.limit_help,
        cls.responses_help,
        cls.licence,
        cls.terms,
        cls.output_language,
    ) == (
        found.name,
        found.languages,
        found.paper,
        found.items_summary,
        found.options,
        found.data_options,
        found.limit_help,
        found.responses_help,
        found.licence,
        found.terms,
        found.output_language,
    )
    assert cls.generates_items() == found.generates_items
    assert tuple(cls.commands()) == found.commands


def test_the_old_lookup_names_answer_from_the_folders() -> None:
    # Kept for code written against biasbench.benchmarks' old registry (nothing inside imports it).
    from biasbench import benchmarks
    from biasbench.benchmarks import base
    from biasbench.registry import interface

    assert list(benchmarks.DECLARATIONS) == list(benchmarks.BENCHMARKS) == names()
    assert benchmarks.BENCHMARKS["cabbq"] == "biasbench.benchmarks.esbbq.benchmark:CaBBQBenchmark"
    assert benchmarks.ITEM_READERS["mbbq-control"] == (
        "biasbench.benchmarks.mbbq.source:load_namespaced_file"
    )
    assert (base.Benchmark, base.OptionSpec) == (interface.Benchmark, interface.OptionSpec)
