"""Every CSV biasbench writes is safe in a spreadsheet and reads back whole (round 2, item 7):
formula prefixes are neutralised and cells holding CR or LF are quoted, so pandas and Python's
csv module both read back exactly the rows written."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest

from biasbench.export import export_runs, run_tables
from biasbench.pipeline import run_benchmark
from biasbench.tables import csv_text, restore_formula

HOSTILE = '=HYPERLINK("http://x","y")\r+1\r\n@SUM(A1)\n-2+3\tলেখা'
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile")
    script = base / "hostile.json"
    script.write_text(json.dumps({"*": HOSTILE}), encoding="utf-8")
    run_dir = base / "run"
    run_benchmark("honorific-bn", f"mock:{script}", out=run_dir, limit=12, progress=False)
    return run_dir


def _csv_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def _formula_cells(rows: list[list[str]]) -> int:
    return sum(
        1 for row in rows for cell in row if cell.startswith(FORMULA_START) and not _number(cell)
    )


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_export_csv_reads_back_the_same_rows_with_pandas_and_csv(
    hostile_run: Path, tmp_path: Path
) -> None:
    export_runs([hostile_run], "csv", tmp_path / "exp")
    tables = run_tables(hostile_run)
    for name in ("responses", "labels", "scores"):
        path = tmp_path / "exp" / f"{name}.csv"
        rows = _csv_rows(path)
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        expected = len(getattr(tables, name))
        assert (len(rows) - 1, len(frame)) == (expected, expected), name
        assert _formula_cells(rows) == 0, name
        assert [list(r) for r in frame.itertuples(index=False)] == rows[1:], name
    outputs = pd.read_csv(tmp_path / "exp" / "responses.csv", dtype=str)["output"]
    assert {restore_formula(o) for o in outputs} == {HOSTILE}


def test_the_runs_own_tables_and_annotation_files_are_safe(
    hostile_run: Path, tmp_path: Path
) -> None:
    from biasbench.benchmarks.honorific_bn.cli import read_labels
    from biasbench.engines.honorific.annotation import (
        draw_annotation_sample,
        read_annotation_key,
        write_annotation_sheet,
    )
    from biasbench.tables import write_csv

    sample = draw_annotation_sample(read_labels([hostile_run]), n=8, pair_share=0.5, seed=0)
    write_annotation_sheet(sample, tmp_path / "sheet.csv")
    key = sample.key.copy()
    key["rule_label"] = "=1+1"
    write_csv(key, tmp_path / "key.csv")
    for path in [
        tmp_path / "sheet.csv",
        tmp_path / "key.csv",
        *sorted((hostile_run / "tables").glob("*.csv")),
    ]:
        rows = _csv_rows(path)
        assert _formula_cells(rows) == 0, path
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        assert len(frame) == len(rows) - 1, path
    assert set(read_annotation_key(tmp_path / "key.csv")["rule_label"]) == {"=1+1"}


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("a\rb", '"a\rb"'),
        ("a\nb", '"a\nb"'),
        ("=cmd", "'=cmd"),
        ("-0.5", "-0.5"),
        ("plain", "plain"),
    ],
)
def test_csv_cells(cell: str, written: str) -> None:
    text = csv_text(pd.DataFrame({"c": [cell]}))
    assert text == f"c\r\n{written}\r\n"
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["c"], [written.strip('"')]]
