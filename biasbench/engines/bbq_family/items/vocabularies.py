"""The two vocabularies that fill a BBQ template's ``{{NAME1}}``/``{{NAME2}}`` slots, read and
validated: identity labels (``Category, Pilot_include, SubCat, Name, Info``) and proper names
(``Name, First_last, gender, ethnicity``). Bad input is an
:class:`~biasbench.errors.InputError` naming the file, the CSV line and the field."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from biasbench.engines.bbq_family.items.templates import (
    CsvRecord,
    read_csv_records,
    require_columns,
)
from biasbench.errors import InputError

LABEL_REQUIRED_COLUMNS: tuple[str, ...] = ("Category", "Name")
NAMES_REQUIRED_COLUMNS: tuple[str, ...] = ("Name", "First_last", "gender")


def _named_rows(
    path: Path, required: tuple[str, ...], *, skip_unpiloted: bool = False
) -> tuple[list[str], Iterator[CsvRecord]]:
    """A vocabulary's header and its rows, each with a non-empty ``Name`` (else an error naming
    the line); rows marked ``Pilot_include = No`` are skipped first where ``skip_unpiloted``."""
    header, records = read_csv_records(path)
    require_columns(header, required, path)

    def rows() -> Iterator[CsvRecord]:
        for record in records:
            if skip_unpiloted and record.get("Pilot_include") == "No":
                continue
            if not record.get("Name").strip():
                raise InputError("empty Name", file=str(path), line=record.line, field="Name")
            yield record

    return list(header), rows()


def _cell_or_none(value: str) -> str | None:
    # Empty cells are *missing*: a missing value never equals any string (as in the original
    # generator, where they read as NA).
    return value if value != "" else None


@dataclass(frozen=True)
class LabelEntry:
    """One identity label (a row of the label vocabulary)."""

    line: int
    category: str | None
    subcat: str | None
    name: str
    info: str | None


@dataclass(frozen=True)
class LabelVocabulary:
    """The identity-label vocabulary, in file order, without rows marked ``Pilot_include = No``."""

    path: Path
    entries: tuple[LabelEntry, ...]

    def for_category(self, category: str) -> list[LabelEntry]:
        """The category's rows in file order; an error when there are none."""
        rows = [entry for entry in self.entries if entry.category == category]
        if not rows:
            known = sorted({entry.category for entry in self.entries if entry.category})
            raise InputError(
                f"no vocabulary rows for category {category!r} (categories present: "
                f"{', '.join(known) or 'none'})",
                file=str(self.path),
                field="Category",
            )
        return rows


def read_label_vocabulary(path: Path) -> LabelVocabulary:
    """Read ``vocabulary_labels.csv`` (``Category, Pilot_include, SubCat, Name, Info``)."""
    path = Path(path)
    _, rows = _named_rows(path, LABEL_REQUIRED_COLUMNS, skip_unpiloted=True)
    entries = [
        LabelEntry(
            record.line,
            _cell_or_none(record.get("Category")),
            _cell_or_none(record.get("SubCat")),
            record.get("Name"),
            _cell_or_none(record.get("Info")),
        )
        for record in rows
    ]
    return LabelVocabulary(path, tuple(entries))


@dataclass(frozen=True)
class ProperName:
    """One proper name: ``first_last`` is ``first``, ``last`` or ``first_only``."""

    line: int
    name: str
    first_last: str | None
    gender: str | None
    ethnicity: str | None


@dataclass(frozen=True)
class NameVocabulary:
    """The proper-name vocabulary in file order."""

    path: Path
    entries: tuple[ProperName, ...]
    has_ethnicity: bool

    def select(
        self, *, first_last: str, gender: str | None = None, exclude_gender: str | None = None
    ) -> list[ProperName]:
        return [
            entry
            for entry in self.entries
            if entry.first_last == first_last
            and (gender is None or entry.gender == gender)
            and (exclude_gender is None or entry.gender != exclude_gender)
        ]


def read_name_vocabulary(path: Path) -> NameVocabulary:
    """Read ``vocabulary_proper_names.csv`` (``Name, First_last, gender, ethnicity, ...``)."""
    path = Path(path)
    header, rows = _named_rows(path, NAMES_REQUIRED_COLUMNS)
    entries = [
        ProperName(
            record.line,
            record.get("Name"),
            _cell_or_none(record.get("First_last")),
            _cell_or_none(record.get("gender")),
            _cell_or_none(record.get("ethnicity")),
        )
        for record in rows
    ]
    return NameVocabulary(path, tuple(entries), "ethnicity" in header)
