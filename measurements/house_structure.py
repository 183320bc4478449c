"""Structure figures of the package, for a before/after note: imports that run up between the
layers, import cycles, imports from an engine or the registry into a benchmark's package, and
the largest files.

    PYTHONPATH=$PWD python measurements/house_structure.py [TREE]

The layers are tests/test_layers.py's (of the tree measured, so an older tree is measured by
its own layering); the engine/registry -> benchmarks count is the same for any tree.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def main() -> None:
    tree = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sys.path.insert(0, str(tree))
    spec = importlib.util.spec_from_file_location("layers", tree / "tests" / "test_layers.py")
    assert spec and spec.loader
    layers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layers)
    edges = layers.EDGES
    into_benchmarks = sorted(
        f"{a} -> {b}"
        for a, b in edges
        if a.startswith(("biasbench.engines", "biasbench.registry"))
        and b.startswith("biasbench.benchmarks")
    )
    upward = sorted(f"{a} -> {b}" for a, b in edges if layers._layer(b) > layers._layer(a))
    module_cycles = layers._cycles({e for e, inside in edges.items() if not inside})
    all_cycles = layers._cycles(set(edges))
    sizes = sorted(
        (
            (len(p.read_text(encoding="utf-8").splitlines()), p.relative_to(tree))
            for p in (tree / "biasbench").rglob("*.py")
        ),
        reverse=True,
    )
    print(f"imports from an engine or the registry into benchmarks/: {len(into_benchmarks)}")
    for line in into_benchmarks:
        print(f"  {line}")
    print(f"upward imports by the tree's own layers: {len(upward)}")
    print(
        f"import cycles: {len(module_cycles)} module-level, {len(all_cycles)} counting "
        "function-level imports"
    )
    print(
        f"modules: {len(sizes)}; files over 450 lines: {sum(n > 450 for n, _ in sizes)}; "
        f"largest: {', '.join(f'{p} ({n})' for n, p in sizes[:3])}"
    )


if __name__ == "__main__":
    main()
