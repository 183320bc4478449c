"""Reading and validating BBQ template CSVs (and the CSV records the vocabularies of
:mod:`biasbench.engines.bbq_family.items.vocabularies` are read from).

A BBQ template CSV holds one template row per line (``Q_id``, contexts, questions, answers,
``Known_stereotyped_groups``, ``Names`` / ``Lexical_diversity`` lists, ...); two vocabularies fill
its ``{{NAME1}}``/``{{NAME2}}`` slots: identity labels (``Category, Pilot_include, SubCat, Name,
Info``) and proper names (``Name, First_last, gender, ethnicity``). The cell semantics follow the
original BBQ generator (nyu-mll/BBQ); everything that would make
that generator crash or silently emit broken text is reported here instead, as an
:class:`~biasbench.errors.InputError` naming the file, the CSV line and the field.

Line numbers are 1-based physical lines with the header on line 1, i.e. what a text editor shows
for the first line of the record (the same as the record number when no cell spans lines).
"""

from __future__ import annotations

import ast
import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from biasbench.errors import InputError

#: Columns the generator cannot work without.
TEMPLATE_REQUIRED_COLUMNS: tuple[str, ...] = (
    "Q_id",
    "Ambiguous_Context",
    "Disambiguating_Context",
    "Question_negative_stereotype",
    "Question_non_negative",
    "Answer_negative",
    "Answer_non_negative",
    "Known_stereotyped_groups",
    "Lexical_diversity",
    "Notes",
)
#: Columns whose text is slot-filled and emitted.
TEXT_COLUMNS: tuple[str, ...] = (
    "Ambiguous_Context",
    "Disambiguating_Context",
    "Question_negative_stereotype",
    "Question_non_negative",
    "Answer_negative",
    "Answer_non_negative",
)
#: The slots this generator fills. ``{{GEN*}}``/``{{OCC*}}`` belong to BBQ's intersectional
#: script and are rejected as unknown.
KNOWN_SLOTS: frozenset[str] = frozenset({"NAME1", "NAME2", "WORD1", "WORD2"})


_SLOT_RE = re.compile(r"\{\{([^{}]*)\}\}")
# One part of a Names / Lexical_diversity cell: ``WORD1: [a, b]`` or ``{{NAME2}}: [c]``.
_LIST_PART_RE = re.compile(
    r"^\s*(?:\{\{)?(?P<kind>WORD|NAME)(?P<index>[12])(?:\}\})?\s*:\s*\[(?P<items>[^\[\]]*)\]\s*$"
)


# --------------------------------------------------------------------------------------------
# Raw CSV reading
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CsvRecord:
    """One data record of a CSV file: its starting line and its cells by column name."""

    line: int
    cells: dict[str, str]

    def get(self, column: str, default: str = "") -> str:
        return self.cells.get(column, default)


def read_csv_records(path: Path) -> tuple[list[str], list[CsvRecord]]:
    """Read a CSV file as strings only (no NA conversion), stripping a UTF-8 BOM.

    Returns the header and the records; blank lines are skipped, short records are padded with
    empty cells, and a record with more non-empty cells than the header is an error.
    """
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8-sig", newline="")
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    with handle:
        reader = csv.reader(handle)
        try:
            header = next(reader, None)
            if header is None:
                raise InputError("empty CSV file (no header)", file=str(path), line=1)
            duplicates = sorted({name for name in header if header.count(name) > 1 and name})
            if duplicates:
                raise InputError(
                    f"duplicate column(s) {', '.join(duplicates)}", file=str(path), line=1
                )
            records: list[CsvRecord] = []
            start_line = reader.line_num + 1
            for row in reader:
                if row and any(cell.strip() for cell in row):
                    extra = row[len(header) :]
                    if any(cell.strip() for cell in extra):
                        raise InputError(
                            f"record has {len(row)} cells but the header has {len(header)} columns",
                            file=str(path),
                            line=start_line,
                        )
                    padded = list(row[: len(header)]) + [""] * (len(header) - len(row))
                    records.append(CsvRecord(start_line, dict(zip(header, padded, strict=True))))
                start_line = reader.line_num + 1
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", file=str(path)) from None
        except csv.Error as exc:
            raise InputError(
                f"malformed CSV ({exc})", file=str(path), line=reader.line_num
            ) from None
    return header, records


def require_columns(header: Sequence[str], required: Iterable[str], path: Path) -> None:
    missing = [column for column in required if column not in header]
    if missing:
        raise InputError(
            f"missing required column(s) {', '.join(missing)} (found: {', '.join(header)})",
            file=str(path),
            line=1,
            field=missing[0],
        )


# --------------------------------------------------------------------------------------------
# Cell parsers
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SlotLists:
    """The two lists of a ``Names`` or ``Lexical_diversity`` cell (``...1: [..]; ...2: [..]``).

    ``second`` follows the reference parser's quirk: a list-2 part survives only when it is the
    last part of the cell (every later part resets it to empty); ``dropped_second`` then tells.
    """

    first: tuple[str, ...]
    second: tuple[str, ...]
    dropped_second: bool = False


def parse_slot_lists(cell: str, *, file: str, line: int, field: str) -> SlotLists:
    """Parse a ``Names`` / ``Lexical_diversity`` cell such as ``WORD1: [a, b]; WORD2: [c, d]``.

    Prefixes ``WORD1:``, ``{{WORD1}}:``, ``NAME1:``, ``{{NAME1}}:`` (and their 2-variants) are
    accepted in either cell. Items are split on commas and stripped, so they cannot contain
    commas. A cell without a list 1, a part of another shape, or an empty item is an error.
    """
    first: tuple[str, ...] = ()
    second: tuple[str, ...] = ()
    saw_second = False
    for raw_part in cell.split(";"):
        match = _LIST_PART_RE.match(raw_part)
        if match is None:
            if raw_part.strip():
                raise InputError(
                    f"malformed part {raw_part.strip()!r}; expected e.g. 'WORD1: [a, b]; WORD2: [c, d]'",
                    file=file,
                    line=line,
                    field=field,
                )
            # An empty part (e.g. after a trailing ';') resets list 2 in the reference parser.
            second = ()
            continue
        items = tuple(item.strip() for item in match["items"].split(","))
        if any(not item for item in items):
            raise InputError(
                f"empty item in {raw_part.strip()!r}", file=file, line=line, field=field
            )
        if match["index"] == "1":
            first = items
            second = ()  # a list-1 part after list 2 resets it (reference parser)
        else:
            second = items
            saw_second = True
    if not first:
        raise InputError(
            "no list for slot 1 (e.g. 'WORD1: [a, b]')", file=file, line=line, field=field
        )
    return SlotLists(first, second, dropped_second=saw_second and not second)


_REFERENCE_PREFIXES: tuple[str, ...] = (
    "WORD{n}:",
    "{{{{WORD{n}}}}}:",
    "NAME{n}:",
    "{{{{NAME{n}}}}}:",
)


def _reference_items(part: str, index: int) -> tuple[str, ...]:
    for prefix in _REFERENCE_PREFIXES:
        part = part.replace(prefix.format(n=index), "")
    return tuple(item.strip() for item in part.strip().replace("[", "").replace("]", "").split(","))


def parse_slot_lists_as_reference(
    cell: str, *, file: str, line: int, field: str, warnings: list[str]
) -> SlotLists:
    """Parse a ``Names`` / ``Lexical_diversity`` cell exactly as the original BBQ generator does
    (its ``return_list_from_string``), quirks included, warning about each one:

    * the cell is split on every ``;``, also one inside a bracketed list, so
      ``NAME1: [deaf person; hard-of-hearing person]`` keeps only ``deaf person``;
    * a part that mentions ``WORD1``/``NAME1`` gives list 1; one that mentions ``WORD2``/``NAME2``
      gives list 2, and every other part resets list 2 to empty (so a ``;`` inside the NAME2
      list loses the whole list and the row yields nothing).
    """
    first: tuple[str, ...] = ()
    second: tuple[str, ...] = ()
    saw_second = False
    for part in cell.split(";"):
        if "WORD1" in part or "NAME1" in part:
            first = _reference_items(part, 1)
        if "WORD2" in part or "NAME2" in part:
            second = _reference_items(part, 2)
            saw_second = True
        else:
            second = ()
        if part.count("[") > part.count("]"):
            warnings.append(
                f"{file}:{line}: {field}: the list {part.strip()!r}... is cut at a "
                "';' inside it; the original generator splits there too, so the "
                "words after the ';' are lost"
            )
    if not first or not any(first):
        raise InputError(
            "no list for slot 1 (e.g. 'WORD1: [a, b]')", file=file, line=line, field=field
        )
    dropped = saw_second and not second
    if dropped:
        warnings.append(
            f"{file}:{line}: {field}: its slot-2 list is lost (a later ';' resets "
            "it in the original generator), so the row has no second slot words"
        )
    return SlotLists(first, second, dropped_second=dropped)


def parse_group_list(
    cell: str, *, file: str, line: int, field: str, allow_none: bool = False
) -> tuple[str, ...] | None:
    """Parse a list literal of strings such as ``["bakla", "bading"]`` (no code is evaluated).

    With ``allow_none``, an empty cell or the string ``None`` means "no list" and gives None.
    """
    text = cell.strip()
    if allow_none and text in ("", "None"):
        return None
    if not text:
        raise InputError(
            'empty; expected a list literal such as ["F"]', file=file, line=line, field=field
        )
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise InputError(
            f"not a list literal: {text[:60]!r}", file=file, line=line, field=field
        ) from None
    if not isinstance(value, (list, tuple)):
        raise InputError(f"not a list literal: {text[:60]!r}", file=file, line=line, field=field)
    if not all(isinstance(element, str) for element in value):
        raise InputError(
            f"list elements must be strings: {text[:60]!r}", file=file, line=line, field=field
        )
    if not value and not allow_none:
        raise InputError(
            "empty list; name at least one stereotyped group", file=file, line=line, field=field
        )
    return tuple(value)


def template_slots(text: str) -> set[str]:
    """The slot names (``NAME1``, ``WORD2``, ...) used in a template text."""
    return set(_SLOT_RE.findall(text))


# --------------------------------------------------------------------------------------------
# Template rows
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TemplateRow:
    """One validated template row, with every cell already interpreted (targets, proper-noun
    flag, subcategory, ``Names`` override, as the original generator reads them)."""

    file: str
    line: int
    q_id: str
    ambiguous_context: str
    disambiguating_context: str
    question_negative: str
    question_non_negative: str
    answer_negative: str
    answer_non_negative: str
    stereotyped_groups: tuple[str, ...]
    """``Known_stereotyped_groups`` as parsed (T); written out verbatim."""
    notes: str
    lexical: SlotLists | None
    """``Lexical_diversity`` lists, or None when the cell is at most one character."""
    names: SlotLists | None
    """``Names`` override lists, or None when the column is absent or the cell is short."""
    proper_nouns_only: bool
    subcategory: str | None
    """The ``Subcategory`` value when the column exists and the value is longer than 1 character."""
    version: str
    """The ``version`` cell (``""`` when empty), or ``"None"`` when the column is missing."""
    name1_info: str
    name2_info: str
    invalid_partners: tuple[str, ...] | None
    """FilBBQ's ``Invalid_Partners`` (None: no restriction)."""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class TemplateFile:
    """A parsed template CSV: its rows, plus warnings about rows that were skipped or suspicious."""

    path: Path
    header: list[str]
    rows: list[TemplateRow]
    warnings: list[str] = field(default_factory=list)


def _validate_slots(
    record: CsvRecord,
    has_lexical: bool,
    lexical: SlotLists | None,
    file: str,
    warnings: list[str],
    reference_quirks: bool = False,
) -> None:
    for column in TEXT_COLUMNS:
        text = record.get(column)
        for slot in _SLOT_RE.findall(text):
            if slot not in KNOWN_SLOTS:
                raise InputError(
                    f"unknown slot {{{{{slot}}}}}; allowed: {{{{NAME1}}}}, {{{{NAME2}}}}, "
                    "{{WORD1}}, {{WORD2}}",
                    file=file,
                    line=record.line,
                    field=column,
                )
        leftover = _SLOT_RE.sub("", text)
        if ("{{" in leftover or "}}" in leftover) and reference_quirks:
            # The original generator leaves such text as it is (BBQ's Disability_status 19
            # writes "{[NAME1}}"); so does the published data.
            warnings.append(
                f"{file}:{record.line}: template {record.get('Q_id')}: {column} "
                "has a malformed slot (unbalanced '{{' or '}}'), kept verbatim as "
                "the original generator keeps it"
            )
        elif "{{" in leftover or "}}" in leftover:
            raise InputError(
                "malformed slot (unbalanced '{{' or '}}')",
                file=file,
                line=record.line,
                field=column,
            )
        used = template_slots(text)
        word_slots = sorted(used & {"WORD1", "WORD2"})
        if word_slots and not has_lexical:
            raise InputError(
                f"uses {{{{{word_slots[0]}}}}} but Lexical_diversity is empty, so the slot would "
                "stay unfilled",
                file=file,
                line=record.line,
                field=column,
            )
        if "WORD2" in used and lexical is not None and len(lexical.second) <= 1:
            # The reference generator draws WORD2 only from a list of more than one item.
            why = (
                "its WORD2 list is dropped because it is not the cell's last part"
                if lexical.dropped_second
                else "Lexical_diversity has no WORD2 list"
                if not lexical.second
                else "the WORD2 list has a single item"
            )
            warnings.append(
                f"{file}:{record.line}: template {record.get('Q_id')}: {column} uses "
                f"{{{{WORD2}}}} but {why}; it is filled with an empty string, as in "
                "the reference generator"
            )
    for column in ("Answer_negative", "Answer_non_negative"):
        used = template_slots(record.get(column)) & {"NAME1", "NAME2"}
        if len(used) != 1:
            what = "neither {{NAME1}} nor {{NAME2}}" if not used else "both {{NAME1}} and {{NAME2}}"
            warnings.append(
                f"{file}:{record.line}: template {record.get('Q_id')}: {column} "
                f"contains {what}; its answer_info group cannot be assigned cleanly"
            )


def parse_template_record(
    record: CsvRecord,
    header: Sequence[str],
    file: str,
    warnings: list[str],
    reference_quirks: bool = False,
) -> TemplateRow:
    """Interpret one template record (columns already checked). ``reference_quirks`` reads the
    list cells as the original BBQ generator does (:func:`parse_slot_lists_as_reference`) and
    accepts a ``Names`` cell whose NAME2 list is lost (the row then yields nothing)."""
    line = record.line
    groups = parse_group_list(
        record.get("Known_stereotyped_groups"),
        file=file,
        line=line,
        field="Known_stereotyped_groups",
    )
    assert groups is not None
    lexical_cell = record.get("Lexical_diversity")
    has_lexical = len(lexical_cell) > 1
    parse = (
        partial(parse_slot_lists_as_reference, warnings=warnings)
        if reference_quirks
        else parse_slot_lists
    )
    lexical = (
        parse(lexical_cell, file=file, line=line, field="Lexical_diversity")
        if has_lexical
        else None
    )
    names_cell = record.get("Names")
    names = None
    if len(names_cell) > 1:
        names = parse(names_cell, file=file, line=line, field="Names")
        if not names.second and not reference_quirks:
            raise InputError(
                "no NAME2 list (it must be the cell's last part, e.g. 'NAME1: [a]; NAME2: [b]')",
                file=file,
                line=line,
                field="Names",
            )
    _validate_slots(record, has_lexical, lexical, file, warnings, reference_quirks)
    subcategory_cell = record.get("Subcategory")
    invalid_partners = None
    if "Invalid_Partners" in header:
        invalid_partners = parse_group_list(
            record.get("Invalid_Partners"),
            file=file,
            line=line,
            field="Invalid_Partners",
            allow_none=True,
        )
    return TemplateRow(
        file=file,
        line=line,
        q_id=record.get("Q_id"),
        ambiguous_context=record.get("Ambiguous_Context"),
        disambiguating_context=record.get("Disambiguating_Context"),
        question_negative=record.get("Question_negative_stereotype"),
        question_non_negative=record.get("Question_non_negative"),
        answer_negative=record.get("Answer_negative"),
        answer_non_negative=record.get("Answer_non_negative"),
        stereotyped_groups=groups,
        notes=record.get("Notes"),
        lexical=lexical,
        names=names,
        proper_nouns_only=record.get("Proper_nouns_only") == "TRUE",
        subcategory=subcategory_cell if len(subcategory_cell) > 1 else None,
        version=record.get("version") if "version" in header else "None",
        name1_info=record.get("NAME1_info"),
        name2_info=record.get("NAME2_info"),
        invalid_partners=invalid_partners,
    )


def read_template_csv(path: Path, *, reference_quirks: bool = False) -> TemplateFile:
    """Read and validate a template CSV; rows with an empty ``Ambiguous_Context`` are dropped.
    ``reference_quirks``: see :func:`parse_template_record` (the original BBQ templates)."""
    path = Path(path)
    header, records = read_csv_records(path)
    require_columns(header, TEMPLATE_REQUIRED_COLUMNS, path)
    file = str(path)
    warnings: list[str] = []
    rows: list[TemplateRow] = []
    for record in records:
        if not record.get("Ambiguous_Context"):
            warnings.append(
                f"{file}:{record.line}: row {record.get('Q_id') or '(no Q_id)'} "
                "skipped: Ambiguous_Context is empty"
            )
            continue
        if not record.get("Q_id").strip():
            raise InputError("empty Q_id", file=file, line=record.line, field="Q_id")
        rows.append(parse_template_record(record, header, file, warnings, reference_quirks))
    return TemplateFile(path, header, rows, warnings)


def unique_in_order(values: Iterable[str]) -> list[str]:
    """Distinct values, first occurrence kept, file order preserved."""
    return list(dict.fromkeys(values))
