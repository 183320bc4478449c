"""The README's table of benchmarks, generated from the registry's declarations.

One row per registered benchmark (name, languages, items, paper, licence and terms, its docs
page), read from the light declarations only (nothing is loaded). The table sits in README.md
between two markers; ``tests/test_readme_table.py`` fails when it differs from what this script
generates, so a benchmark added, renamed or relicensed shows up in the README by running:

    PYTHONPATH=. python scripts/readme_table.py          # rewrite the table in README.md
    PYTHONPATH=. python scripts/readme_table.py --check  # exit 1 if README.md is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START = (
    "<!-- benchmarks-table:start (generated from the registry by scripts/readme_table.py; "
    "do not edit by hand) -->"
)
END = "<!-- benchmarks-table:end -->"
HEADER = (
    "| benchmark | languages | items | paper | licence | terms of use | docs |\n"
    "|---|---|---|---|---|---|---|"
)


def _cell(text: str) -> str:
    """Text safe inside one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _items(summary: str) -> str:
    """The count an items summary starts with (``58,492 (11 categories, ...)`` -> ``58,492``)."""
    return summary.split(" (", 1)[0]


def table() -> str:
    """The Markdown table of every registered benchmark, in registry order."""
    from biasbench.registry import declarations

    rows = [HEADER]
    for found in declarations():
        paper = (
            f"[{_cell(found.paper.citation)}]({found.paper.url})"
            if found.paper.url
            else _cell(found.paper.citation)
        )
        docs = f"[{Path(found.docs_page).name}]({found.docs_page})" if found.docs_page else "none"
        rows.append(
            f"| `{found.name}` | {', '.join(found.languages)} | "
            f"{_cell(_items(found.items_summary))} | {paper} | "
            f"{_cell(found.licence or 'not recorded')} | {_cell(found.terms or '-')} | "
            f"{docs} |"
        )
    return "\n".join(rows)


def block(text: str) -> str:
    """The table a README text holds between the markers (one error line if they are missing)."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{README}: the markers of the benchmarks table are missing")
    return text[start + len(START) : end].strip("\n")


def with_table(text: str) -> str:
    """The README text with its table replaced by the generated one."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{README}: the markers of the benchmarks table are missing")
    return f"{text[: start + len(START)]}\n{table()}\n{text[end:]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when README.md's table is not the generated one",
    )
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    if args.check:
        if block(text) != table():
            print(
                f"{README}: the benchmarks table is out of date; run scripts/readme_table.py",
                file=sys.stderr,
            )
            return 1
        return 0
    README.write_text(with_table(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
