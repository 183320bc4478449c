"""The registry finds benchmarks by their folders and by other packages' entry points, in a
fixed order, and checks every benchmark's options once against its declaration."""

from __future__ import annotations

import inspect
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from biasbench.engines.bbq_family.judging import languages
from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.errors import BiasbenchError
from biasbench.registry import (
    ENTRY_POINT_GROUP,
    Options,
    OptionSpec,
    benchmark_class,
    declaration,
    discovery,
    get_benchmark,
    item_reader,
    names,
    options_of,
    refresh,
)

FOLDER_ORDER = [
    "basqbbq",
    "bbq",
    "bharatbbq",
    "cbbq",
    "esbbq",
    "cabbq",
    "filbbq",
    "gbfa",
    "ggbbq",
    "honorific-bn",
    "honorific-hi",
    "honorific-ur",
    "honorific-ja",
    "honorific-ko",
    "honorific-languages",
    "honorific-ne",
    "jbbq",
    "kobbq",
    "mbbq",
    "pakbbq",
    "pbbq",
]
"""The folders by name, each module's declarations in its order (esbbq/ declares two)."""


def test_every_folder_with_a_declaration_is_found_in_a_fixed_order() -> None:
    folders = sorted(p.name for p in discovery.FOLDER.iterdir() if (p / "declaration.py").is_file())
    assert folders == discovery._folders()
    assert names()[: len(FOLDER_ORDER)] == FOLDER_ORDER
    refresh()
    assert names()[: len(FOLDER_ORDER)] == FOLDER_ORDER  # found again, the same order


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("cabbq", "biasbench.benchmarks.esbbq.benchmark:CaBBQBenchmark"),
        ("honorific-bn", "biasbench.benchmarks.honorific_bn.benchmark:HonorificBenchmark"),
    ],
)
def test_a_declaration_names_its_class_relative_to_its_folder(name: str, target: str) -> None:
    assert declaration(name).benchmark.startswith(".benchmark:")
    assert discovery.benchmark_targets()[name] == target
    assert benchmark_class(name).declaration is declaration(name)


@pytest.mark.parametrize(
    ("target", "module", "absolute"),
    [
        (".benchmark:X", "a.b.declaration", "a.b.benchmark:X"),
        ("..shared.reader:f", "a.b.declaration", "a.shared.reader:f"),
        ("x.y:Z", "a.b.declaration", "x.y:Z"),
    ],
)
def test_relative_targets(target: str, module: str, absolute: str) -> None:
    assert discovery._absolute(target, module) == absolute


def test_item_readers_come_from_declarations() -> None:
    from biasbench.benchmarks.mbbq.source import load_namespaced_file

    assert item_reader("mbbq/es") is load_namespaced_file
    assert item_reader("mbbq-control/tr") is load_namespaced_file
    assert item_reader("esbbq-cabbq/es") is None


# -- another package's benchmarks, through an entry point -----------------------------------
PLUGIN = {
    "qaa_plugin/__init__.py": "",
    "qaa_plugin/declaration.py": """
        from biasbench.engines.bbq_family.declaration import bbq_declaration
        from biasbench.engines.bbq_family.judging.languages import LanguageRules
        from biasbench.registry.interface import Paper

        QAB = LanguageRules(code="qab", name="Plug-in test language", answer_cue="\\nJibu:",
                            unknown_text="Sijui")
        DECLARATION = bbq_declaration(
            name="qab-plugin", benchmark=".benchmark:QabBenchmark", languages=("qab",),
            paper=Paper("A plug-in", "nobody"), items_summary="none",
            item_readers={"qabns": ".benchmark:read_items"}, language_rules=(QAB,))
        """,
    "qaa_plugin/benchmark.py": """
        from biasbench.benchmarks.jbbq.benchmark import JBBQBenchmark
        from qaa_plugin.declaration import DECLARATION


        class QabBenchmark(JBBQBenchmark):
            pass


        def read_items(path, namespace):
            return []
        """,
    "qaa_plugin-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: qaa-plugin\nVersion: 1.0\n",
    "qaa_plugin-1.0.dist-info/entry_points.txt": (
        f"[{ENTRY_POINT_GROUP}]\nqab = qaa_plugin.declaration:DECLARATION\n"
    ),
}


@pytest.fixture()
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fake installed distribution declaring one benchmark through the entry-point group;
    the registry and the language table as they were, after the test."""
    for relative, text in PLUGIN.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    table, aliases = dict(languages.LANGUAGES), dict(languages._ALIASES)
    added = dict(languages._DECLARED_ADDED)
    refresh()
    yield tmp_path
    for mapping, saved in (
        (languages.LANGUAGES, table),
        (languages._ALIASES, aliases),
        (languages._DECLARED_ADDED, added),
    ):
        mapping.clear()
        mapping.update(saved)  # type: ignore[arg-type]
    languages.language_code.cache_clear()
    languages.parser_languages.cache_clear()
    monkeypatch.undo()
    for module in [m for m in sys.modules if m.split(".")[0] == "qaa_plugin"]:
        del sys.modules[module]
    refresh()


def test_an_entry_point_adds_a_benchmark_after_the_folders(plugin: Path) -> None:
    assert names() == [*FOLDER_ORDER, "qab-plugin"]
    assert benchmark_class("qab-plugin").__name__ == "QabBenchmark"
    assert item_reader("qabns/x").__name__ == "read_items"  # type: ignore[union-attr]


def test_a_declared_language_is_known_before_its_class_is_imported(plugin: Path) -> None:
    languages._DECLARED_ADDED.clear()
    assert "qaa_plugin.benchmark" not in sys.modules
    assert languages.rules_for("qab").answer_cue == "\nJibu:"
    assert "qaa_plugin.benchmark" not in sys.modules


def test_one_name_declared_twice_is_refused(plugin: Path) -> None:
    points = plugin / "qaa_plugin-1.0.dist-info" / "entry_points.txt"
    points.write_text(
        f"[{ENTRY_POINT_GROUP}]\nqab = qaa_plugin.declaration:TWICE\n", encoding="utf-8"
    )
    (plugin / "qaa_plugin" / "declaration.py").open("a", encoding="utf-8").write(
        "from dataclasses import replace\nTWICE = replace(DECLARATION, name='kobbq')\n"
    )
    refresh()
    with pytest.raises(
        TypeError,
        match="benchmark 'kobbq' is declared twice: in "
        "biasbench.benchmarks.kobbq.declaration and in "
        "qaa_plugin.declaration",
    ):
        names()


# -- options: declared once, checked once ---------------------------------------------------
SPECS = (
    OptionSpec("data", Path, None, "h"),
    OptionSpec("seed", int, 0, "h"),
    OptionSpec("set", str, "both", "h", choices=("both", "main")),
    OptionSpec("flag", bool, False, "h"),
)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"nope": 1}, "x has no option 'nope' (its options: data, flag, seed, set)"),
        ({"seed": "3"}, "--seed of x takes int values, not '3'"),
        ({"seed": True}, "--seed of x takes int values, not True"),
        ({"set": "all"}, "--set must be one of both, main, not 'all'"),
        ({"flag": 1}, "--flag of x takes bool values, not 1"),
    ],
)
def test_a_bad_option_is_refused_in_one_line(given: dict[str, Any], message: str) -> None:
    with pytest.raises(BiasbenchError) as caught:
        Options(SPECS, given, benchmark="x")
    assert str(caught.value) == message


def test_options_hold_every_declared_value_and_know_the_given_ones() -> None:
    options = Options(SPECS, {"data": "d", "seed": 0, "set": "main"}, benchmark="x")
    assert options.as_dict() == {"data": Path("d"), "seed": 0, "set": "main", "flag": False}
    assert options.data == Path("d") and options["set"] == "main" and "flag" in options
    assert options.given() == {"data": Path("d"), "set": "main"}  # seed 0 is its default


TESTS = Path(__file__).parent
MBBQ = TESTS / "benchmarks" / "mbbq" / "fixtures" / "data"
OFFLINE: dict[str, dict[str, Any]] = {
    "bbq": {"items": str(MBBQ / "SES_en.jsonl")},
    "cbbq": {
        "data": TESTS / "benchmarks" / "cbbq" / "fixtures" / "data",
        "categories": "SES,disability",
        "target_rule": "labels",
    },
    "esbbq": {"data": TESTS / "benchmarks" / "esbbq" / "fixtures" / "data_es"},
    "cabbq": {"data": TESTS / "benchmarks" / "esbbq" / "fixtures" / "data_ca"},
    "filbbq": {
        "items": str(MBBQ / "SES_en.jsonl"),
        "data_seed": 3,
        "prompt": discovery.FOLDER / "bbq" / "data" / "prompt_en.txt",
    },
    **{
        name: {}
        for name in (
            "honorific-bn",
            "honorific-hi",
            "honorific-ur",
            "honorific-ja",
            "honorific-ko",
            "honorific-ne",
            "honorific-languages",
        )
    },
    "jbbq": {"data": TESTS / "benchmarks" / "jbbq" / "fixtures" / "synthetic"},
    "kobbq": {"data": TESTS / "benchmarks" / "kobbq" / "fixtures", "prompt_id": 2},
    "mbbq": {"data": MBBQ, "languages": "es", "set": "main", "prompt_variant": 2},
    "basqbbq": {
        "data": TESTS / "benchmarks" / "basqbbq" / "fixtures" / "data" / "BasqBBQ",
        "categories": "Adin",
    },
    "bharatbbq": {
        "data": TESTS / "benchmarks" / "bharatbbq" / "fixtures" / "BharatBBQ_Dataset" / "Examples",
        "categories": "Age,Religion",
    },
    "gbfa": {"data": TESTS / "benchmarks" / "gbfa" / "fixtures", "languages": "fa,en"},
    "ggbbq": {"data": TESTS / "benchmarks" / "ggbbq" / "fixtures" / "data"},
    "pakbbq": {
        "data": TESTS / "benchmarks" / "pakbbq" / "fixtures" / "PakBBQ",
        "categories": "Religion",
    },
    "pbbq": {"data": TESTS / "benchmarks" / "pbbq" / "fixtures"},
}
"""Options each benchmark can be built with offline (the tests' fixture slices)."""


@pytest.mark.parametrize("name", names())
def test_every_declared_option_reaches_the_benchmark(name: str) -> None:
    """A benchmark is built from one options object holding every declared option: the given
    value, else its declared default (no default written a second time in a constructor)."""
    given = OFFLINE[name]
    bench = get_benchmark(name, **given)
    specs = {spec.name: spec for spec in declaration(name).options}
    expected = {k: spec.default for k, spec in specs.items()}
    expected.update({k: Path(v) if specs[k].kind is Path else v for k, v in given.items()})
    assert bench.option_values.as_dict() == expected
    cls = benchmark_class(name)
    parameters = list(inspect.signature(cls.__init__).parameters)[1:]
    assert parameters[0] == "options"
    # an honorific language also takes a loaded definition from Python code
    language = issubclass(cls, HonorificEngineBenchmark)
    assert parameters[1:] == (["definition"] if language else [])


@pytest.mark.parametrize("name", names())
def test_an_undeclared_option_is_refused_in_one_line_by_name(name: str) -> None:
    with pytest.raises(BiasbenchError, match=rf"^{name} has no option 'nope' \(its options: "):
        get_benchmark(name, nope=1)
    assert options_of(name).given() == {}
