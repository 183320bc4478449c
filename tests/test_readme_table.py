"""The README's table of benchmarks is the one the registry's declarations generate
(``scripts/readme_table.py``), and every benchmark it lists has its docs page."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from biasbench.registry import Declaration, declarations

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("readme_table", ROOT / "scripts" / "readme_table.py")
assert _SPEC and _SPEC.loader
readme_table = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(readme_table)


def test_the_readme_table_is_the_generated_one() -> None:
    found = readme_table.block(readme_table.README.read_text(encoding="utf-8"))
    assert found == readme_table.table(), (
        "README.md's benchmarks table is out of date: run "
        "PYTHONPATH=. python scripts/readme_table.py"
    )


def test_one_row_per_registered_benchmark_in_registry_order() -> None:
    rows = readme_table.table().splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [f"| `{d.name}`" for d in declarations()]


@pytest.mark.parametrize("found", declarations(), ids=lambda d: d.name)
def test_every_benchmark_has_its_page_and_licence(found: Declaration) -> None:
    assert found.docs_page.startswith("docs/benchmarks/"), found.name
    assert (ROOT / found.docs_page).is_file(), found.docs_page
    assert found.licence, f"{found.name}: no licence recorded (write 'unknown' if unchecked)"


@pytest.mark.parametrize(
    "summary, count",
    [
        ("58,492 (11 categories, the authors' published items at nyu-mll/BBQ@bea11bd)", "58,492"),
        ("about 100K (the README: 106,588; 14 categories x ...)", "about 100K"),
        (
            "10,088 per language + 10,072 control (6 categories x 4 languages, ...)",
            "10,088 per language + 10,072 control",
        ),
        ("2,016", "2,016"),
    ],
)
def test_the_items_column_is_the_summarys_count(summary: str, count: str) -> None:
    assert readme_table._items(summary) == count


@pytest.mark.parametrize(
    "text, cell",
    [
        ("a | b", "a \\| b"),
        ("two\n  lines", "two lines"),
    ],
)
def test_cells_stay_one_cell(text: str, cell: str) -> None:
    assert readme_table._cell(text) == cell


def test_a_stale_table_is_refused_and_rewritten() -> None:
    text = f"# x\n{readme_table.START}\n| old |\n{readme_table.END}\nafter\n"
    assert readme_table.block(text) == "| old |"
    fixed = readme_table.with_table(text)
    assert readme_table.block(fixed) == readme_table.table()
    assert fixed.startswith("# x\n") and fixed.endswith(f"{readme_table.END}\nafter\n")
