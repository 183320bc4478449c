"""No import cycle and no upward import anywhere in ``biasbench/`` (beside the benchmarks' own
layering test in tests/benchmarks/test_interface.py).

Imports are read with ast: module-level imports and function-level imports (inside a function,
loaded when it runs) are counted separately; ``if TYPE_CHECKING:`` imports are annotations only
and are not counted. The layers are those of docs/architecture.md: front ends (cli, the API)
-> pipeline, report, export -> benchmarks (``measurements/``, every module of it: its
``__init__.py`` and ``base.py`` only re-export the registry for code written against them) ->
engines of benchmark families (``engines/``) -> the benchmark interface and registry
(``registry/``) -> run folders and their display -> backends (models, runner, stats, signature,
tables, figures) -> foundations. A benchmark may import an engine and the registry; an engine
imports no benchmark, and the registry neither: it finds benchmarks by their folders and
imports them by name (text), never by an import statement.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import biasbench

PACKAGE = Path(biasbench.__file__).parent

LAYERS: tuple[frozenset[str], ...] = (
    frozenset(
        {
            "errors",
            "fsutil",
            "jsonutil",
            "textutil",
            "version",
            "arguments",
            "signals",
            "progress",
            "responses",
            "output_health",
        }
    ),
    frozenset({"models", "runner", "stats", "signature", "tables", "figures"}),
    frozenset({"runfolder", "display", "runspec"}),
    frozenset({"registry"}),
    frozenset({"engines"}),
    frozenset({"benchmarks"}),
    frozenset({"pipeline", "report", "export", "exporting"}),
    frozenset({"api", "cli", "entry", "__main__", "", "testing"}),
)
"""Lowest first; a module may import its own layer and those below. ``""`` is the package root
(the API's facade: it loads the API on first use); ``registry`` is the benchmark interface and
the registry, ``benchmarks`` every benchmark's package (:func:`_top`)."""

ALLOWED_CYCLES: dict[tuple[str, str], str] = {}
"""Function-level imports allowed to close a cycle: (importer, imported) -> why."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> Iterator[tuple[str, bool]]:
    """(imported biasbench module, whether the import runs inside a function)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (found for orelse in child.orelse for found in walk(orelse, in_function))
                continue
            inside = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                # `from pkg import submodule` imports the submodule; otherwise the module itself
                names = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                    for alias in child.names
                ]
            for name in names:
                target = _resolve(name) if name.startswith("biasbench") else None
                if target and target != module:
                    yield target, inside
            yield from walk(child, inside)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), False)


EDGES: dict[tuple[str, str], bool] = {}
"""(importer, imported) -> True when every import of it is function-level."""
for _module in MODULES:
    for _target, _inside in _imports(_module):
        EDGES[(_module, _target)] = EDGES.get((_module, _target), True) and _inside


def _cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while (top := stack.pop()) != node:
                component.append(top)
            component.append(node)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _top(module: str) -> str:
    """The name a module's layer is listed by: its top-level package below ``biasbench``."""
    parts = module.split(".")[1:]
    return parts[0] if parts else ""


def _layer(module: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if _top(module) in layer)


def test_every_module_has_a_layer() -> None:
    assert [m for m in MODULES if not any(_top(m) in layer for layer in LAYERS)] == []


def test_no_module_level_import_cycle() -> None:
    assert _cycles({edge for edge, inside in EDGES.items() if not inside}) == []


def test_no_import_cycle_counting_function_level_imports() -> None:
    # A function-level import may break a cycle only where ALLOWED_CYCLES says why.
    edges = {edge for edge in EDGES if edge not in ALLOWED_CYCLES}
    assert _cycles(edges) == []


@pytest.mark.parametrize("edge", sorted(ALLOWED_CYCLES), ids="->".join)
def test_each_allowed_cycle_is_function_level_and_still_exists(edge: tuple[str, str]) -> None:
    assert EDGES.get(edge) is True  # present, and only inside functions
    assert _cycles(set(EDGES)) != []  # without the allowance there would be a cycle


def test_nothing_imports_upward() -> None:
    upward = sorted(f"{a} -> {b}" for (a, b) in EDGES if _layer(b) > _layer(a))
    assert upward == []


@pytest.mark.parametrize(
    ("importer", "imported", "upward"),
    [
        ("biasbench.engines.bbq_family.benchmark", "biasbench.registry.interface", False),
        ("biasbench.registry.discovery", "biasbench.benchmarks", True),
        ("biasbench.registry.interface", "biasbench.engines.bbq_family.family", True),
        ("biasbench.engines.bbq_family.family", "biasbench.benchmarks.bbq.benchmark", True),
        ("biasbench.benchmarks.bbq.benchmark", "biasbench.registry", False),
        ("biasbench.cli.run", "biasbench.registry", False),
    ],
)
def test_the_layers_put_the_registry_below_engines_and_benchmarks(
    importer: str, imported: str, upward: bool
) -> None:
    assert (_layer(imported) > _layer(importer)) is upward


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import biasbench.runfolder.reading\n", {("biasbench.runfolder.reading", False)}),
        ("from biasbench import display\n", {("biasbench.display", False)}),
        (
            "from biasbench.runfolder.reading import load_run\n",
            {("biasbench.runfolder.reading", False)},
        ),
        (
            "def f():\n    from biasbench.runfolder import reading\n",
            {("biasbench.runfolder.reading", True)},
        ),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import biasbench.runfolder\n",
            set(),
        ),
    ],
)
def test_imports_are_read_as_python_runs_them(
    tmp_path: Path, source: str, expected: set[tuple[str, bool]]
) -> None:
    saved = MODULES["biasbench.errors"]
    fake = tmp_path / "errors.py"
    fake.write_text(source, encoding="utf-8")
    MODULES["biasbench.errors"] = fake
    try:
        assert set(_imports("biasbench.errors")) == expected
    finally:
        MODULES["biasbench.errors"] = saved


HONORIFIC_ENGINE = "biasbench.engines.honorific"


def test_the_honorific_engine_imports_no_benchmark_folder() -> None:
    # Not even inside a function: a language reaches the engine, never the other way round.
    found = sorted(
        f"{a} -> {b}"
        for (a, b) in EDGES
        if a.startswith(HONORIFIC_ENGINE) and _top(b) == "benchmarks.*"
    )
    assert found == []


def test_the_honorific_engine_names_no_language_folder() -> None:
    # A language's judge is reached through register_judge/judge_for, its data through the
    # benchmark class that names its folder: the engine's code spells no folder's name.
    named = sorted(
        str(path.relative_to(PACKAGE))
        for module, path in MODULES.items()
        if module.startswith(HONORIFIC_ENGINE)
        and "benchmarks.honorific_" in path.read_text(encoding="utf-8")
    )
    assert named == []
