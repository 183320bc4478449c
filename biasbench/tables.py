"""Tables as Markdown, CSV and LaTeX: the one writer every benchmark and the report use (below both)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biasbench.fsutil import write_files_atomically

# pandas' to_markdown/to_latex need optional packages (tabulate, jinja2); these tables are
# small and fixed, so they are rendered here without extra dependencies.

# A spreadsheet reads a text cell starting with =, +, -, @, tab or CR as a formula (OWASP).
_FORMULA = re.compile(r"^'*[=+\-@\t\r]")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def neutralise_formula(text: str) -> str:
    """``text`` made inert in a spreadsheet: a leading apostrophe before a formula start.

    Numbers written as text ("-0.45") stay as they are. Text already starting with
    apostrophes before a formula start gets one more, so :func:`restore_formula` is exact.
    """
    if _FORMULA.match(text) and not _is_number(text):
        return "'" + text
    return text


def restore_formula(text: str) -> str:
    """The inverse of :func:`neutralise_formula` (for reading our own CSVs back)."""
    if text.startswith("'") and _FORMULA.match(text) and not _is_number(text):
        return text[1:]
    return text


def _text_columns(frame: pd.DataFrame) -> list[Any]:
    return [
        c
        for c, dtype in zip(frame.columns, frame.dtypes, strict=True)
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
    ]


def neutralise_frame(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``table`` with :func:`neutralise_formula` applied to every text cell."""
    out = table.copy()
    out.columns = [neutralise_formula(c) if isinstance(c, str) else c for c in out.columns]
    for column in _text_columns(out):
        out[column] = out[column].map(lambda v: neutralise_formula(v) if isinstance(v, str) else v)
    return out


CSV_LINE_END = "\r\n"
"""RFC 4180 line ends. With them the csv module (under pandas too) quotes every cell that holds
a CR or an LF: with a bare "\n" it leaves a lone CR unquoted, and readers split the row there."""


def csv_text(table: pd.DataFrame) -> str:
    """``table`` as CSV text with every formula-like text cell neutralised (numbers untouched)
    and every cell holding a CR or LF quoted.

    Every CSV biasbench writes goes through here (tables, exports, annotation sheets and keys),
    so a model, occupation or template named ``=cmd|' /C calc'!A0`` opens as text in a
    spreadsheet, and pandas and Python's csv module read back the rows that were written."""
    return neutralise_frame(table).to_csv(index=False, lineterminator=CSV_LINE_END)


def write_csv(table: pd.DataFrame, path: Path, *, encoding: str = "utf-8") -> None:
    """Write :func:`csv_text` of ``table`` to ``path`` atomically (``utf-8-sig`` for a sheet a
    spreadsheet opens)."""
    write_files_atomically({Path(path): csv_text(table).encode(encoding, "surrogatepass")})


def read_csv(path: Path, **options: Any) -> pd.DataFrame:
    """Read a CSV written by :func:`write_csv`, undoing the formula neutralisation."""
    frame = pd.read_csv(path, **options)
    frame.columns = [restore_formula(c) if isinstance(c, str) else c for c in frame.columns]
    for column in _text_columns(frame):
        frame[column] = frame[column].map(lambda v: restore_formula(v) if isinstance(v, str) else v)
    return frame


_HTML_START = re.compile(r"<(?=[A-Za-z/!?])")


def _markdown_cell(value: Any) -> str:
    # Markdown renders inline HTML: a "<" that could open a tag, comment or processing
    # instruction is escaped ("<.001" stays as written); one cell stays on one line.
    text = _HTML_START.sub("&lt;", str(value)).replace("|", r"\|")
    return " ".join(text.splitlines()) if ("\n" in text or "\r" in text) else text


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub-style pipe table; text columns left-aligned, the others right-aligned."""
    cell = _markdown_cell

    first = table.columns[0]
    header = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join(":---" if c == first else "---:" for c in table.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"$<$",
    ">": r"$>$",
    "—": "---",
}


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters (and "<", which text fonts may not print as "<")."""
    return "".join(_LATEX_SPECIALS.get(char, char) for char in str(text))


def to_latex(table: pd.DataFrame, headers: Mapping[str, str] | None = None) -> str:
    """A booktabs tabular; ``headers`` maps column names to ready-made LaTeX headers."""
    headers = headers or {}
    spec = "l" + "r" * (len(table.columns) - 1)
    head = " & ".join(headers.get(c, latex_escape(c)) for c in table.columns)
    body = [
        " & ".join(latex_escape(v) for v in row) + r" \\" for row in table.itertuples(index=False)
    ]
    return (
        "\n".join(
            [
                rf"\begin{{tabular}}{{{spec}}}",
                r"\toprule",
                head + r" \\",
                r"\midrule",
                *body,
                r"\bottomrule",
                r"\end{tabular}",
            ]
        )
        + "\n"
    )


def is_undefined(value: Any) -> bool:
    """None, pandas' NA, NaN or an infinity: a value shown as undefined ("—"), never as a number."""
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float | np.floating) and not math.isfinite(value)


def cell_text(value: Any, decimals: int) -> str:
    """A Markdown/LaTeX cell: floats rounded, undefined shown as —."""
    if is_undefined(value):
        return "—"
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    return str(value)


def write_table(table: pd.DataFrame, stem: Path, decimals: int = 3) -> list[Path]:
    """Write ``stem``.csv (full precision), .md and .tex (rounded; undefined shown as —)."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    shown = table.apply(lambda col: col.map(lambda v: cell_text(v, decimals)))
    paths = [stem.with_suffix(".csv"), stem.with_suffix(".md"), stem.with_suffix(".tex")]
    write_files_atomically(
        {
            paths[0]: csv_text(table).encode("utf-8"),
            paths[1]: to_markdown(shown).encode("utf-8"),
            paths[2]: to_latex(shown).encode("utf-8"),
        }
    )
    return paths
