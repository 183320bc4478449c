"""Benchmarks found by their folders, and by the entry points of other packages.

A benchmark is a folder: every subpackage of ``biasbench/benchmarks/`` holding a light
``declaration.py`` is found without any list, and its :class:`Declaration` names the rest as
text (its class as ``"module:Class"``, its item readers, its languages), imported only when
used. A declaration module exposes ``DECLARATIONS`` (a tuple: one folder may declare several
benchmarks, as esbbq/ declares EsBBQ and CaBBQ) or ``DECLARATION``. Another installed package
adds benchmarks through the entry-point group ``biasbench.benchmarks``: each entry point loads
to a Declaration or a sequence of them.

The order is deterministic: the package's folders by name (each module's declarations in its
order), then entry points by name. Two declarations of one name are a ``TypeError`` naming
both. Finding reads folder names and imports only the light declaration modules (no pandas,
scipy or model code), so ``biasbench --help``, ``list`` and ``run NAME --help`` stay fast.

The registry reaches benchmarks only by module name (text), never by an import statement: it
sits below the engines and the benchmarks (tests/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError
from biasbench.registry.interface import Benchmark, Declaration, Options

PACKAGE = "biasbench.benchmarks"
"""The package whose subfolders are benchmarks."""
FOLDER = Path(__file__).resolve().parents[1] / "benchmarks"
"""Its folder, read without importing it (the registry imports no benchmark)."""
ENTRY_POINT_GROUP = "biasbench.benchmarks"
"""The entry-point group through which other packages add benchmarks."""
DECLARATION_MODULE = "declaration"


def _folders() -> list[str]:
    """The benchmark folders' names, sorted: subpackages holding a ``declaration.py``."""
    if not FOLDER.is_dir():
        return []
    return sorted(
        path.name
        for path in FOLDER.iterdir()
        if path.is_dir()
        and path.name.isidentifier()
        and (path / f"{DECLARATION_MODULE}.py").is_file()
    )


def _absolute(target: str, module: str) -> str:
    """``target`` (``"module:attr"``, the module possibly relative: ``.benchmark:X``) made
    absolute against the package of ``module``."""
    if not target.startswith("."):
        return target
    package = module.rpartition(".")[0]
    dots = len(target) - len(target.lstrip("."))
    base = package.rsplit(".", dots - 1)[0] if dots > 1 else package
    return f"{base}.{target[dots:]}"


def _of_module(module: str) -> list[tuple[Declaration, str]]:
    """The declarations of a declaration module (``DECLARATIONS``, else ``DECLARATION``), each
    with the module its relative targets are read against."""
    loaded = import_module(module)
    found = getattr(loaded, "DECLARATIONS", None)
    if found is None:
        found = (getattr(loaded, "DECLARATION", None),)
    return [(_checked(d, module), module) for d in found]


def _checked(found: Any, where: str) -> Declaration:
    if not isinstance(found, Declaration):
        raise TypeError(f"{where}: {found!r} is not a biasbench Declaration")
    if not found.benchmark:
        raise TypeError(
            f"{where}: the declaration of {found.name} names no benchmark class "
            "(benchmark='module:Class')"
        )
    return found


def _entry_points_declared() -> bool:
    """Whether any installed distribution on ``sys.path`` names the entry-point group: a look
    at the ``entry_points.txt`` files only, so that without a plug-in ``biasbench list`` does
    not pay for importing :mod:`importlib.metadata` (60-100 ms, more than the scan)."""
    import os
    import sys

    header = f"[{ENTRY_POINT_GROUP}]"
    for entry in sys.path:
        try:
            found = [
                e.path
                for e in os.scandir(entry or ".")
                if e.name.endswith((".dist-info", ".egg-info"))
            ]
        except OSError:  # not a folder (a zip file, a path that does not exist)
            continue
        for folder in found:
            try:
                with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as text:
                    if header in text.read():
                        return True
            except OSError:
                continue
    return False


def _of_entry_points() -> list[tuple[Declaration, str]]:
    if not _entry_points_declared():
        return []
    from importlib.metadata import entry_points

    found: list[tuple[Declaration, str]] = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (p.name, p.value)):
        loaded = point.load()
        many = loaded if isinstance(loaded, list | tuple) else (loaded,)
        module = point.value.partition(":")[0]
        where = f"entry point {point.name} ({point.value})"
        found.extend((_checked(d, where), module) for d in many)
    return found


@cache
def _registry() -> dict[str, tuple[Declaration, str]]:
    """Every declaration by name, with its declaring module, in the documented order (read once
    per process)."""
    found: dict[str, tuple[Declaration, str]] = {}
    for where, declared in [
        *(
            (f"{PACKAGE}.{folder}", _of_module(f"{PACKAGE}.{folder}.{DECLARATION_MODULE}"))
            for folder in _folders()
        ),
        ("entry points", _of_entry_points()),
    ]:
        for one, module in declared:
            if one.name in found:
                raise TypeError(
                    f"benchmark {one.name!r} is declared twice: in "
                    f"{found[one.name][1]} and in {module} ({where})"
                )
            found[one.name] = (one, module)
    return found


def refresh() -> None:
    """Find the benchmarks again (after a folder or a package was added in this process)."""
    _registry.cache_clear()
    _name_index.cache_clear()


@cache
def _name_index() -> dict[str, str]:
    """Benchmark name -> the folder whose name it is (``honorific-bn`` -> ``honorific_bn``)."""
    return {folder.replace("_", "-"): folder for folder in _folders()}


def names() -> list[str]:
    """Every benchmark's name, in order."""
    return list(_registry())


def declarations() -> list[Declaration]:
    """Every benchmark's declaration, in order."""
    return [found for found, _ in _registry().values()]


def _unknown(name: str) -> BiasbenchError:
    return BiasbenchError(f"unknown benchmark {name!r} (known: {', '.join(names())})")


def _entry(name: str) -> tuple[Declaration, str]:
    """(declaration, declaring module) of ``name``. A name that is its folder's name
    (``honorific-bn`` in ``honorific_bn/``) is read from that folder alone while nothing else
    has been asked, so ``run NAME --help`` imports one declaration module."""
    if _registry.cache_info().currsize == 0 and name in _name_index():
        module = f"{PACKAGE}.{_name_index()[name]}.{DECLARATION_MODULE}"
        own = next((entry for entry in _of_module(module) if entry[0].name == name), None)
        if own is not None:
            return own
    found = _registry().get(name)
    if found is None:
        raise _unknown(name)
    return found


def declaration(name: str) -> Declaration:
    """The declaration of benchmark ``name``, read without loading the benchmark (an unknown
    name: one line naming the known ones)."""
    return _entry(name)[0]


def known(name: str) -> bool:
    """Whether a benchmark is called ``name``."""
    return name in _registry()


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(import_module(module), attr)


def benchmark_class(name: str) -> type[Benchmark]:
    """The class of benchmark ``name`` (an unknown name: one line naming the known ones)."""
    found, module = _entry(name)
    target = _absolute(found.benchmark, module)
    found = _load(target)
    if not (isinstance(found, type) and issubclass(found, Benchmark)):
        raise TypeError(f"{target} is not a Benchmark subclass")
    return found


def report_class(name: str) -> type[Benchmark] | None:
    """The class whose report section shows results of benchmark ``name`` (None: unknown).
    ``biasbench score bbq --items FILES`` (any BBQ-format items) writes benchmark ``bbq``."""
    return benchmark_class(name) if known(name) else None


def benchmark_classes() -> list[type[Benchmark]]:
    """Every benchmark class, in order."""
    return [benchmark_class(name) for name in names()]


def item_reader(namespace: str) -> Callable[[Path, str], list[Any]] | None:
    """The dataset's own reader of a file given as ``namespace=FILE`` (None: plain BBQ), from
    the declarations' :attr:`~Declaration.item_readers`."""
    key = namespace.split("/", 1)[0]
    for found, module in _registry().values():
        if key in found.item_readers:
            reader: Callable[[Path, str], list[Any]] = _load(
                _absolute(found.item_readers[key], module)
            )
            return reader
    return None


def item_readers() -> dict[str, str]:
    """Namespace -> ``"module:function"`` of every declared item reader."""
    return {
        ns: _absolute(target, module)
        for found, module in _registry().values()
        for ns, target in found.item_readers.items()
    }


def benchmark_targets() -> dict[str, str]:
    """Name -> ``"module:Class"`` of every benchmark, absolute."""
    return {
        name: _absolute(found.benchmark, module) for name, (found, module) in _registry().items()
    }


def language_rules() -> list[Any]:
    """Every declared language rule object, in order (:attr:`Declaration.language_rules`)."""
    return [rules for found in declarations() for rules in found.language_rules]


def options_of(name: str, given: dict[str, Any] | None = None) -> Options:
    """The options of benchmark ``name`` with ``given`` checked against its declaration, once
    for the CLI and the API (:class:`Options`)."""
    found = declaration(name)
    return Options(found.options, given or {}, benchmark=name)


def get_benchmark(name: str, **options: Any) -> Benchmark:
    """Instantiate benchmark ``name`` with its options, checked against its declaration
    (:func:`options_of`: an undeclared option, a wrong type, a choice not offered are one line).
    Options its engine declares for every benchmark it serves (``configured_options``) are
    applied after construction (:meth:`Benchmark.configure`)."""
    cls = benchmark_class(name)
    return cls.from_options(options_of(name, options))
