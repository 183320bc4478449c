"""Exported tables are safe to open: no spreadsheet formulas in CSV, no HTML in Markdown."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from biasbench.tables import (
    csv_text,
    neutralise_formula,
    read_csv,
    restore_formula,
    to_markdown,
    write_csv,
    write_table,
)


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
        ("+SUM(A1:A2)", "'+SUM(A1:A2)"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("'=already quoted", "''=already quoted"),  # so that reading back is lossless
        ("-0.45", "-0.45"),  # a negative number written as text is still a number
        ("+3", "+3"),
        ("-1e-3", "-1e-3"),
        ("judge", "judge"),
        ("'plain", "'plain"),
        ("", ""),
    ],
)
def test_text_cells_that_start_a_formula_get_an_apostrophe(cell: str, written: str) -> None:
    assert neutralise_formula(cell) == written
    assert restore_formula(written) == cell


def test_csv_keeps_numbers_numbers_and_quotes_formulas(tmp_path: Path) -> None:
    table = pd.DataFrame(
        {
            "model": ["=cmd|' /C calc'!A0", "@evil", "ok", "-0.5"],
            "hai_pp": [-36.0, 1.5, float("nan"), -0.25],
            "n": [1, -2, 3, 4],
        }
    )
    text = csv_text(table)
    rows = list(
        pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False).itertuples(index=False)
    )
    assert [r.model for r in rows] == ["'=cmd|' /C calc'!A0", "'@evil", "ok", "-0.5"]
    assert [r.hai_pp for r in rows] == ["-36.0", "1.5", "", "-0.25"]
    assert [r.n for r in rows] == ["1", "-2", "3", "4"]
    path = tmp_path / "t.csv"
    write_csv(table, path)
    back = read_csv(path)
    assert back["model"].tolist() == table["model"].tolist()
    assert back["hai_pp"].iloc[0] == -36.0 and back["n"].tolist() == [1, -2, 3, 4]


def test_every_table_writer_neutralises(tmp_path: Path) -> None:
    table = pd.DataFrame(
        {"model": ['=HYPERLINK("x")', "<script>alert(1)</script>"], "score": [-1.0, 0.5]}
    )
    csv_path, md_path, _ = write_table(table, tmp_path / "t")
    assert "\n\"'=HYPERLINK" in csv_path.read_text(encoding="utf-8")
    markdown = md_path.read_text(encoding="utf-8")
    assert "<script>" not in markdown and "&lt;script>" in markdown
    assert "| -1.000 |" in markdown


def test_markdown_escapes_html_pipes_and_newlines() -> None:
    table = pd.DataFrame(
        {"a": ["<b>x</b> & <!-- y", "p|q", "two\nlines", "<.001"], "b": [1, 2, 3, 4]}
    )
    lines = to_markdown(table).splitlines()
    assert len(lines) == 6
    assert lines[2] == "| &lt;b>x&lt;/b> & &lt;!-- y | 1 |"
    assert lines[5] == "| <.001 | 4 |"
    assert lines[3] == r"| p\|q | 2 |"
    assert lines[4] == "| two lines | 3 |"


def test_benchmark_tables_neutralise_a_hostile_model_name(tmp_path: Path) -> None:
    from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark

    bench = HonorificBenchmark()
    hostile = "=cmd|' /C calc'!A0"
    items = [i.item_id for i in bench.items[:8]]
    frame = pd.DataFrame(
        {
            "model": hostile,
            "item_id": items,
            "seed": None,
            "output": ["তিনি নয়টায় আসবেন।", "সে নয়টায় আসবে।"] * 4,
        }
    )
    bench.evaluate(frame, tmp_path, {hostile: bench.signature({"kind": "x"}, None, None)})
    for path in (tmp_path / "tables").glob("*.csv"):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert not line.startswith(("=", "+", "@", '"=')), (path.name, line)
    assert read_csv(tmp_path / "tables" / "table4.csv")["Model"].tolist() == [hostile]
