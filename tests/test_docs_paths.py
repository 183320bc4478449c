"""docs/architecture.md names only what exists, its layout tree is the package's folders, and
every relative link of the README and the docs leads to a file and a heading that exist.

The doc is the map a new engineer reads first; a path it names that the code no longer has, or a
folder of ``biasbench/`` missing from its tree, sends them looking for nothing. Placeholders
(``NAME``, ``<lang>``, ``*``) and what the doc says of the layout before (``(before: ...)``,
``Before this layout ...``) are not paths to check.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "biasbench"
DOC = ROOT / "docs" / "architecture.md"
TREE_GLYPHS = "│├└─ "
PLACEHOLDER = re.compile(r"[<>*{}]|\.\.|\b(?:NAME|XX|PID|RUN|RUN_DIR|DIR|FILE)\b")


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _tree_block(text: str) -> list[str]:
    """The lines of the fenced block that starts with ``biasbench/``."""
    match = re.search(r"^```\n(biasbench/ .*?)^```$", text, re.S | re.M)
    assert match, f"{DOC}: no layout tree (a fenced block starting with 'biasbench/')"
    return match.group(1).splitlines()


def tree_folders(lines: list[str]) -> list[str]:
    """The folders a tree names, as paths below the repository root (``├── x/`` under its
    parent by its indentation, four columns a level)."""
    paths: list[str] = []
    stack: list[str] = []
    for number, line in enumerate(lines, 1):
        name_at = len(line) - len(line.lstrip(TREE_GLYPHS))
        name = line[name_at:].split()[0]
        assert name.endswith("/"), f"{DOC} tree line {number}: {name!r} is not a folder"
        depth = name_at // 4
        assert depth <= len(stack), f"{DOC} tree line {number}: {name!r} skips a level"
        stack[depth:] = [name.rstrip("/")]
        paths.append("/".join(stack))
    return paths


def package_folders() -> set[str]:
    return {"biasbench"} | {
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_dir()
        and "__pycache__" not in path.parts
        and not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
        and any(child.is_file() and child.suffix != ".pyc" for child in path.rglob("*"))
    }


def test_the_tree_parser_reads_nesting() -> None:
    lines = ["biasbench/   root", "├── a/       x", "│   └── b/   y", "└── c/       z"]
    assert tree_folders(lines) == ["biasbench", "biasbench/a", "biasbench/a/b", "biasbench/c"]


BENCHMARK_FOLDERS = "biasbench/benchmarks/"
"""Below it, a folder is a benchmark's own: the tree may name it, and need not (a new benchmark
is its folder, with no line in the doc)."""


def required_folders(folders: set[str]) -> set[str]:
    """The folders the tree must name: every one but those inside a benchmark's folder."""
    return {f for f in folders if not f.startswith(BENCHMARK_FOLDERS)}


def test_the_layout_tree_has_one_line_per_folder_of_the_package() -> None:
    named = tree_folders(_tree_block(_text()))
    assert len(named) == len(set(named)), f"{DOC}: a folder named twice in the tree"
    actual = package_folders()
    missing = required_folders(actual) - set(named)
    assert not missing, f"{DOC}: folders missing from the tree: {sorted(missing)}"
    assert not set(named) - actual, (
        f"{DOC}: the tree names folders that do not exist: {sorted(set(named) - actual)}"
    )


def test_a_benchmark_folder_needs_no_line_in_the_tree() -> None:
    folders = {
        "biasbench",
        "biasbench/registry",
        "biasbench/benchmarks",
        "biasbench/benchmarks/newbbq",
        "biasbench/benchmarks/newbbq/data",
    }
    assert required_folders(folders) == {"biasbench", "biasbench/registry", "biasbench/benchmarks"}


def current_text(text: str) -> str:
    """The doc without what it says of the layout before (``(before: ...)`` and the sentence
    ``Before this layout ...``): those name old paths on purpose."""
    text = re.sub(r"\(before:.*?\)", "", text, flags=re.S)
    return re.sub(r"Before this layout.*?\.(?=\s)", "", text, flags=re.S)


def named_paths(text: str) -> set[str]:
    """Backticked paths of ``biasbench/`` (``biasbench/x/y.py``, ``biasbench/x/``) the doc names
    as they are now."""
    return {
        token
        for token in re.findall(r"`([^`\s]+)`", current_text(text))
        if token.startswith("biasbench/") and not PLACEHOLDER.search(token)
    }


def test_every_path_under_biasbench_the_doc_names_exists() -> None:
    missing = sorted(p for p in named_paths(_text()) if not (ROOT / p).exists())
    assert not missing, f"{DOC} names paths that do not exist: {missing}"


def _table_rows(text: str) -> list[tuple[list[str], str]]:
    """(the packages of its first cell, its second cell) of each row of the module table."""
    rows = []
    for line in text.splitlines():
        cells = line.split(" | ")
        if not line.startswith("| `") or len(cells) < 2:
            continue
        bases = [
            t for t in re.findall(r"`([^`\s]+)`", cells[0]) if t.endswith("/") or t.endswith(".py")
        ]
        if bases:
            rows.append((bases, " | ".join(cells[1:])))
    return rows


def _package_path(name: str) -> Path:
    """A table's package, written from the repository (``biasbench/models/``) or from
    ``biasbench/`` (``benchmarks/honorific_bn/``, ``models/urls.py``)."""
    return ROOT / name if name.startswith("biasbench/") else PACKAGE / name


def test_the_module_table_names_files_that_exist() -> None:
    rows = _table_rows(_text())
    assert len(rows) >= 10, f"{DOC}: the module table was not found"
    missing = []
    for bases, cell in rows:
        folders = [b for b in (_package_path(n) for n in bases) if b.is_dir()]
        for name in bases:
            if not _package_path(name).exists():
                missing.append(name)
        for token in re.findall(r"`([^`\s]+)`", cell):
            if PLACEHOLDER.search(token) or not re.fullmatch(r"[\w./]+(?:\.py|/)", token):
                continue
            # A bare name (``items.py``, ``judge/``) lives somewhere below the row's package.
            if not any(
                (folder / token).exists() or any(folder.rglob(token.rstrip("/")))
                for folder in folders
            ):
                missing.append(f"{token} (row {bases[0]})")
    assert not missing, f"{DOC}: the module table names what does not exist: {missing}"


@pytest.mark.parametrize("broken", ["biasbench/nowhere/", "biasbench/models/gone.py"])
def test_a_missing_path_is_caught(broken: str) -> None:
    assert broken in named_paths(f"The `{broken}` module. (It is `biasbench/x.py`.)")
    assert not (ROOT / broken).exists()


def test_the_layout_before_is_not_checked() -> None:
    text = (
        "In `biasbench/runfolder/` (before: `biasbench/runs.py`). Before this layout it took "
        "`biasbench/old/` (and `biasbench/older.py`), now one. See `biasbench/api.py`."
    )
    assert named_paths(text) == {"biasbench/runfolder/", "biasbench/api.py"}


NOT_OURS = {
    "generation_config.json": "a Hugging Face checkpoint's file",
    "prompt.txt": "FilBBQ's authors' prompt file, downloaded, never in the repository",
}
"""File names the doc gives that are other projects' files, not paths of this repository."""


def _repository_paths() -> list[str]:
    paths = [p.name for p in ROOT.iterdir()]
    for top in ("biasbench", "tests", "measurements", "docs", ".ci", "scripts"):
        paths += [
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / top).rglob("*")
            if "__pycache__" not in p.parts
        ]
    return paths


def test_every_other_path_the_doc_names_stands_somewhere_in_the_repository() -> None:
    """``judging/languages.py``, ``tests/test_cli.py``, ``pyproject.toml``: each the tail of a
    path of the repository."""
    paths = _repository_paths()
    missing = []
    for token in sorted(set(re.findall(r"`([^`\s]+)`", current_text(_text())))):
        if (
            PLACEHOLDER.search(token)
            or token in NOT_OURS
            or token.startswith(("-", "/", "."))
            or not re.fullmatch(r"[\w./-]+(?:\.py|/|\.md|\.toml|\.txt|\.json|\.csv)", token)
        ):
            continue
        tail = token.rstrip("/")
        if not any(p == tail or p.endswith("/" + tail) for p in paths):
            missing.append(token)
    assert not missing, f"{DOC} names paths that are nowhere in the repository: {missing}"


# --------------------------------------------------------------------- links of README and docs

LINKED_DOCS = sorted(
    [ROOT / "README.md", ROOT / "measurements" / "README.md", *(ROOT / "docs").rglob("*.md")]
)
"""The pages whose relative links must resolve: the README, every page under docs/, and the
measurement scripts' README."""
FENCE = re.compile(r"^```.*?^```[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)


def _prose(text: str) -> str:
    """The text without fenced blocks and code spans: a link or heading inside code is text."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation and symbols dropped
    (letters, marks and digits of any script kept, and ``-``, ``_``), each space a hyphen."""
    kept = (
        ch
        for ch in heading.strip().lower()
        if ch in "-_ " or unicodedata.category(ch)[0] not in "PSCZ"
    )
    return "".join(kept).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor of a page; a repeated one gets ``-1``, ``-2``..., as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, text: str) -> list[str]:
    """The relative links of ``page`` whose file is missing, or whose ``#anchor`` names no
    heading of the Markdown page it points to."""
    broken = []
    for target in LINK.findall(_prose(text)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve()
        if path and not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and (not path or linked.suffix == ".md"):
            linked_text = linked.read_text(encoding="utf-8") if path else text
            if anchor not in anchors(linked_text):
                broken.append(f"{target} (no heading with this anchor)")
    return broken


@pytest.mark.parametrize(
    "heading, expected",
    [
        (
            "Robustness grid: seeds, answer orders and prompts (`run --vary`)",
            "robustness-grid-seeds-answer-orders-and-prompts-run---vary",
        ),
        ("Scores (scale [-1, 1])", "scores-scale--1-1"),
        (
            "Refusals apart (`scoring/refusals.py`, `presenting/refusals.py`)",
            "refusals-apart-scoringrefusalspy-presentingrefusalspy",
        ),
        (
            "A language new to the engine, from the benchmark's folder",
            "a-language-new-to-the-engine-from-the-benchmarks-folder",
        ),
        ("`--limit N` (`bbq_family/items/sample.py`)", "--limit-n-bbq_familyitemssamplepy"),
        ("Bengali তিনি and সে", "bengali-তিনি-and-সে"),
    ],
)
def test_slug_is_githubs_anchor(heading: str, expected: str) -> None:
    assert slug(heading) == expected


def test_repeated_headings_get_numbered_anchors() -> None:
    text = "# Page\n## Items\n```\n# not a heading\n```\n## Items\n## Items\n"
    assert anchors(text) == {"page", "items", "items-1", "items-2"}


@pytest.mark.parametrize(
    "link, broken",
    [
        ("[ok](architecture.md)", False),
        ("[ok](architecture.md#contracts)", False),
        ("[ok](#here)", False),
        ("![figure](img/report.png)", False),
        ("[web](https://example.org/missing.md#nowhere)", False),
        ("`[in code](gone.md)`", False),
        ("[gone](gone.md)", True),
        ("[bad anchor](architecture.md#no-such-heading)", True),
        ("[bad anchor here](#elsewhere)", True),
        ("[old page](bbq.md#mbbq)", True),
        ("[a link whose text\nwraps](gone.md)", True),
    ],
)
def test_a_broken_link_is_caught(link: str, broken: bool) -> None:
    page = ROOT / "docs" / "page.md"
    assert bool(broken_links(page, f"# Here\n\nSee {link}.\n")) is broken


@pytest.mark.parametrize("page", LINKED_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = broken_links(page, page.read_text(encoding="utf-8"))
    assert not broken, f"{page.relative_to(ROOT)}: broken links: {broken}"
