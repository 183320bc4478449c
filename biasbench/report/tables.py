"""Tables as Markdown, CSV and LaTeX, shared by every benchmark's report."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.fsutil import write_files_atomically

# pandas' to_markdown/to_latex need optional packages (tabulate, jinja2); these tables are
# small and fixed, so they are rendered here without extra dependencies.


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub-style pipe table; text columns left-aligned, the others right-aligned."""
    def cell(value: Any) -> str:
        return str(value).replace("|", r"\|")

    first = table.columns[0]
    header = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join(":---" if c == first else "---:" for c in table.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                   "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                   "^": r"\textasciicircum{}", "<": r"$<$", ">": r"$>$", "—": "---"}


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters (and "<", which text fonts may not print as "<")."""
    return "".join(_LATEX_SPECIALS.get(char, char) for char in str(text))


def to_latex(table: pd.DataFrame, headers: Mapping[str, str] | None = None) -> str:
    """A booktabs tabular; ``headers`` maps column names to ready-made LaTeX headers."""
    headers = headers or {}
    spec = "l" + "r" * (len(table.columns) - 1)
    head = " & ".join(headers.get(c, latex_escape(c)) for c in table.columns)
    body = [" & ".join(latex_escape(v) for v in row) + r" \\"
            for row in table.itertuples(index=False)]
    return "\n".join([rf"\begin{{tabular}}{{{spec}}}", r"\toprule", head + r" \\", r"\midrule",
                      *body, r"\bottomrule", r"\end{tabular}"]) + "\n"




def _display(value: Any, decimals: int) -> str:
    if isinstance(value, float):
        return "—" if value != value else f"{value:.{decimals}f}"
    return "—" if value is None else str(value)


def write_table(table: pd.DataFrame, stem: Path, decimals: int = 3) -> list[Path]:
    """Write ``stem``.csv (full precision), .md and .tex (rounded; undefined shown as —)."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    shown = table.apply(lambda col: col.map(lambda v: _display(v, decimals)))
    paths = [stem.with_suffix(".csv"), stem.with_suffix(".md"), stem.with_suffix(".tex")]
    write_files_atomically({paths[0]: table.to_csv(index=False).encode("utf-8"),
                            paths[1]: to_markdown(shown).encode("utf-8"),
                            paths[2]: to_latex(shown).encode("utf-8")})
    return paths
