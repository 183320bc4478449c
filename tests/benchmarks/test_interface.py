"""The one Benchmark interface: the registry, the options the CLI derives from it, `list`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import biasbench
from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.errors import BiasbenchError
from biasbench.models import registry as models
from biasbench.registry import benchmark_class, benchmark_classes, get_benchmark, names
from biasbench.registry.interface import Benchmark, OptionSpec
from tests.running import CliRun, spec_of


@pytest.mark.parametrize("name", names())
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


@pytest.mark.parametrize("name", names())
def test_run_name_offers_its_own_options_and_no_other(biasbench_cli: CliRun, name: str) -> None:
    help_text = " ".join(biasbench_cli("run", name, "--help").stdout.split())
    own = {spec.flag for spec in benchmark_class(name).options}
    others = {spec.flag for cls in benchmark_classes() for spec in cls.options} - own
    shown = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", help_text))
    assert own <= shown
    assert shown & others == set()  # only its own: another benchmark's are not offered


def test_filbbq_offers_its_declared_flags(biasbench_cli: CliRun) -> None:
    help_text = " ".join(biasbench_cli("run", "filbbq", "--help").stdout.split())
    for flag in (
        "--items",
        "--templates",
        "--data-seed",
        "--prompt",
        "--published-data",
        "--regenerate-items",
        "--option-score",
    ):
        assert flag in help_text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["honorific-bn", "--data-seed", "3"],
            "error: --data-seed is not an option of honorific-bn",
        ),
        (["filbbq", "--option-score", "max"], "error: --option-score must be one of per_char, sum"),
    ],
)
def test_an_option_the_benchmark_does_not_take_is_refused(
    biasbench_cli: CliRun, args: list[str], message: str
) -> None:
    result = biasbench_cli("run", *args, "--model", "mock:x")
    assert result.returncode == 2
    assert message in result.stderr


def test_list_shows_every_benchmark_and_backend(biasbench_cli: CliRun) -> None:
    result = biasbench_cli("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for cls in benchmark_classes():
        line = next(line for line in lines if line.startswith(f"  {cls.name}: "))
        assert cls.items_summary in line and ", ".join(cls.languages) in line
        assert cls.paper.citation in line
        assert f"licence: {cls.licence or 'not stated by the authors'}" in line
        assert line.endswith(f"; terms: {cls.terms}") if cls.terms else "; terms: " not in line
    # the datasets published under a licence say which
    stated = {cls.name for cls in benchmark_classes() if cls.licence}
    assert {"bbq", "kobbq", "cbbq"} <= stated
    backends = lines[lines.index("backends:") + 1 :]
    names = [line.split(":")[0].strip() for line in backends if not line.startswith("    ")]
    assert names == list(models.BACKENDS)
    # each backend shows its spec, its -M options and its capabilities
    assert sum(line.startswith("    spec: ") for line in backends) == len(models.BACKENDS)
    assert "    -M n_threads (int)" in "\n".join(backends)
    assert sum(line.startswith("    capabilities: ") for line in backends) == len(models.BACKENDS)


PACKAGE = Path(biasbench.__file__).parent


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize(
    "path",
    sorted([*(PACKAGE / "benchmarks").rglob("*.py"), *(PACKAGE / "engines").rglob("*.py")]),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_benchmarks_never_import_upward(path: Path) -> None:
    upward = ("biasbench.report", "biasbench.pipeline", "biasbench.cli")
    assert not [name for name in _imports(path) if name.startswith(upward)]


@pytest.mark.parametrize(
    "module",
    [
        "report/html.py",
        "runfolder/reading.py",
        "runfolder/grouping.py",
        "display.py",
        "tables.py",
        "figures.py",
        *sorted(f"pipeline/{p.name}" for p in (PACKAGE / "pipeline").glob("*.py")),
        *sorted(f"cli/{p.name}" for p in (PACKAGE / "cli").glob("*.py")),
    ],
)
def test_the_shared_layers_name_no_benchmark(module: str) -> None:
    """The report, the pipeline and the CLI name no benchmark and import none, nor an engine
    (``score --from`` goes through the benchmark's interface)."""
    text = (PACKAGE / module).read_text(encoding="utf-8")
    named = [*names(), "bbq", "honorific", "Honorific", "FilBBQ", 'lang="bn"', "'bn'", '"bn"']
    assert not [name for name in named if name in text]
    assert not [name for name in _imports(PACKAGE / module) if _names_a_package(name)]


def _names_a_package(name: str) -> bool:
    """Whether an import reaches into a benchmark's own package or an engine (the registry
    and the interface are allowed)."""
    parts = name.split(".")
    if parts[:2] == ["biasbench", "engines"]:
        return True
    return (
        parts[:2] == ["biasbench", "benchmarks"]
        and len(parts) > 2
        and (PACKAGE / "benchmarks" / parts[2]).is_dir()
    )


REACHES_AN_ENGINE_BY_NAME: dict[str, str] = {}
"""Front-end modules that still import an engine by name, and why."""


@pytest.mark.parametrize(
    "module",
    sorted(
        p.relative_to(PACKAGE).as_posix()
        for p in [
            *(PACKAGE / "cli").glob("*.py"),
            *(PACKAGE / "registry").glob("*.py"),
            *(PACKAGE / "pipeline").glob("*.py"),
            *(PACKAGE / "report").glob("*.py"),
            PACKAGE / "api.py",
            PACKAGE / "export.py",
        ]
    ),
)
def test_the_cli_the_registry_and_the_shared_layers_import_no_benchmark(module: str) -> None:
    """They reach benchmarks through the registry only (by name, as text): no import of a
    benchmark's package, nor of an engine's (but where REACHES_AN_ENGINE_BY_NAME says why)."""
    imported = sorted(
        name
        for name in _imports(PACKAGE / module)
        if name.startswith(("biasbench.benchmarks", "biasbench.engines"))
    )
    if module in REACHES_AN_ENGINE_BY_NAME:
        assert not [name for name in imported if name.startswith("biasbench.benchmarks")]
    else:
        assert imported == []


def test_the_they_table_has_one_wording_in_files_and_html() -> None:
    from biasbench.engines.honorific.tables import THEY_HEADERS, they_display

    scores = {
        "they": {
            "they_honorific_pct": 50.0,
            "female_honorific_pct": 25.0,
            "they_minus_female_pp": 25.0,
            "plural_pct": 10.0,
            "singular_honorific_pct": 40.0,
            "singular_minus_they_pp": -10.0,
            "they_honorific_n": 1,
            "they_usable_n": 2,
            "plural_n": 1,
            "plural_denominator": 10,
        }
    }
    shown = they_display({"models": {"m": scores}})
    assert list(shown.columns[1:7]) == list(THEY_HEADERS.values())
    assert THEY_HEADERS["female_honorific_pct"] == "she honorific %"


def test_evaluate_returns_results_and_leaves_results_json_to_its_one_writer(tmp_path: Path) -> None:
    import pandas as pd

    from biasbench.runfolder import LABELS_NAME, RESULTS_NAME
    from biasbench.runfolder.derived import write_results

    bench = HonorificBenchmark()
    frame = pd.DataFrame(
        {
            "model": "m",
            "item_id": [i.item_id for i in bench.items[:8]],
            "seed": None,
            "output": "সে নয়টায় আসবে।",
        }
    )
    results = bench.evaluate(frame, tmp_path, {"m": bench.signature({"kind": "x"}, None, None)})
    assert (tmp_path / LABELS_NAME).is_file() and not (tmp_path / RESULTS_NAME).exists()
    assert results["benchmark"] == "honorific-bn" and list(results["models"]) == ["m"]
    assert write_results(results, tmp_path) == tmp_path / RESULTS_NAME


def test_every_bbq_format_benchmark_offers_answer_by_and_option_score() -> None:
    # A BBQ-format benchmark that lacked them would silently answer one way only.
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark

    bbq_format = [c for c in benchmark_classes() if issubclass(c, BBQBenchmark)]
    assert {c.name for c in bbq_format} >= {
        "filbbq",
        "bbq",
        "mbbq",
        "kobbq",
        "cbbq",
        "esbbq",
        "cabbq",
        "jbbq",
    }
    for cls in bbq_format:
        names = {spec.name for spec in cls.options}
        assert {"answer_by", "option_score"} <= names, cls.name
        # declared once by the engine and applied after construction, never by the constructor
        assert {"answer_by", "option_score"} <= set(cls.configured_options), cls.name


def test_answer_options_are_applied_after_construction_and_checked() -> None:
    kobbq = Path(__file__).parent / "kobbq" / "fixtures"
    bench = get_benchmark("kobbq", data=kobbq, answer_by="scores", option_score="sum")
    assert (bench.answer_by, bench.option_score) == ("scores", "sum")  # type: ignore[attr-defined]
    with pytest.raises(
        BiasbenchError, match="--option-score must be one of per_char, sum, not 'avg'"
    ):  # checked once, by the registry
        get_benchmark("kobbq", data=kobbq, option_score="avg")


def _options_passed(monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, object]:
    """The benchmark options ``biasbench run ARGS`` hands to the pipeline."""
    return dict(spec_of(monkeypatch, *args, "--model", "mock:x").benchmark_options)


@pytest.mark.parametrize("name", names())
def test_run_with_no_benchmark_option_given_passes_none(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # Found live: mbbq's --prompt-variant (a number) and cbbq's (a name) made every other
    # benchmark's plain `biasbench run` fail with "--prompt-variant is not an option of ...".
    assert _options_passed(monkeypatch, name) == {}


@pytest.mark.parametrize(
    ("benchmark", "given", "passed"),
    [
        ("mbbq", "2", 2),  # read as mbbq's own type
        ("cbbq", "chatgpt-3.5", "chatgpt-3.5"),
    ],
)
def test_a_shared_option_name_is_read_as_each_benchmarks_own(
    monkeypatch: pytest.MonkeyPatch, benchmark: str, given: str, passed: object
) -> None:
    assert _options_passed(monkeypatch, benchmark, "--prompt-variant", given) == {
        "prompt_variant": passed
    }


@pytest.mark.parametrize(
    ("args", "passed"),
    [
        (["--model", "mock:y", "filbbq", "--data-seed", "4"], {"data_seed": 4}),  # options first
        (["filbbq", "--no-regenerate-items"], {}),  # the default
        (["kobbq", "--no-permute"], {"permute": False}),
    ],
)
def test_options_reach_the_benchmark_wherever_given(
    monkeypatch: pytest.MonkeyPatch, args: list[str], passed: object
) -> None:
    assert _options_passed(monkeypatch, *args) == passed


def test_a_shared_option_of_the_wrong_type_is_one_line(biasbench_cli: CliRun) -> None:
    result = biasbench_cli(
        "run", "mbbq", "--model", "mock:hashed-letter", "--prompt-variant", "chatglm", "--dry-run"
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --prompt-variant of mbbq takes int values, not 'chatglm'"
    ]
