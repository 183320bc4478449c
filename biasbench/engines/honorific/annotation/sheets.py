"""Annotation sheets on disk: the blind sheet written as CSV (UTF-8 with BOM, so spreadsheet
programs show Bengali), and filled copies and the key read back with file, line and field
named for any unknown label or missing column."""

from __future__ import annotations

import csv
import io
from os import PathLike
from pathlib import Path

import pandas as pd

from biasbench.engines.honorific.annotation.sample import (
    SHEET_COLUMNS,
    AnnotationSample,
)
from biasbench.engines.honorific.judging import Register
from biasbench.errors import InputError
from biasbench.responses import read_text
from biasbench.tables import restore_formula, write_csv

ANNOTATION_LABELS: tuple[str, ...] = tuple(label.value for label in Register)
"""The four labels, in the fixed order used by every confusion matrix."""


LABEL_ALIASES: dict[str, str] = {"h": "honorific", "o": "ordinary", "m": "mixed", "u": "unreadable"}
"""Shorthands an annotator may type instead of the full label (case-insensitive)."""


def write_annotation_sheet(
    sample: pd.DataFrame | AnnotationSample, path: str | PathLike[str]
) -> None:
    """Write the blind sheet as CSV (UTF-8 with BOM); only :data:`SHEET_COLUMNS` are written."""
    sheet = sample.sheet if isinstance(sample, AnnotationSample) else sample
    missing = [name for name in SHEET_COLUMNS if name not in sheet.columns]
    if missing:
        raise InputError(f"sheet lacks column(s) {', '.join(missing)}", field=missing[0])
    out = sheet.loc[:, list(SHEET_COLUMNS)].astype(object)
    out = out.where(out.notna(), "")  # a missing output is written as an empty cell
    # Annotators open it in a spreadsheet: model outputs must not run as formulas.
    write_csv(out, Path(path), encoding="utf-8-sig")


def read_annotation_key(path: str | PathLike[str]) -> pd.DataFrame:
    """The key written by ``annotate export`` (:data:`KEY_COLUMNS`, as text); an empty,
    non-UTF-8 or incomplete key is an InputError naming the file, line and field."""
    file = str(path)
    text = read_text(path)
    if not text.strip():
        raise InputError("empty annotation key (no header, no rows)", file=file, line=1)
    key = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    key.columns = [restore_formula(c) for c in key.columns]
    key = key.map(restore_formula)  # the key is written with formula cells neutralised
    missing = [name for name in ("sample_id", "rule_label") if name not in key.columns]
    if missing:
        raise InputError(
            f"missing column(s) {', '.join(missing)}", file=file, line=1, field=missing[0]
        )
    if key.empty:
        raise InputError("annotation key has a header but no rows", file=file, line=2)
    return key


def normalise_label(value: str) -> str | None:
    """A label as typed by an annotator -> one of :data:`ANNOTATION_LABELS`, or None if unknown."""
    text = value.strip().lower()
    text = LABEL_ALIASES.get(text, text)
    return text if text in ANNOTATION_LABELS else None


def read_annotation_sheet(path: str | PathLike[str], *, allow_blank: bool = False) -> pd.DataFrame:
    """Read a filled annotation sheet; labels normalised to :data:`ANNOTATION_LABELS`.

    Raises InputError naming the file, the (1-based, physical) line and the field for a
    missing column, a duplicate sample_id, an unknown label, or a blank label (unless
    ``allow_blank``, which keeps blanks as "").
    """
    file = str(path)
    with io.StringIO(read_text(path), newline="") as handle:  # UTF-8 checked, line by line
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            raise InputError("empty annotation sheet", file=file, line=1) from None
        header = [name.strip() for name in header]
        missing = [name for name in SHEET_COLUMNS if name not in header]
        if missing:
            raise InputError(
                f"missing column(s) {', '.join(missing)}", file=file, line=1, field=missing[0]
            )
        column = {name: header.index(name) for name in SHEET_COLUMNS}
        records: list[dict[str, str]] = []
        seen: set[str] = set()
        line = reader.line_num + 1  # physical line where the next record starts
        for values in reader:
            start, line = line, reader.line_num + 1
            if not any(value.strip() for value in values):
                continue
            if len(values) < len(header):
                values = values + [""] * (len(header) - len(values))
            record = {name: values[index] for name, index in column.items()}
            sample_id = record["sample_id"].strip()
            if not sample_id:
                raise InputError("empty sample_id", file=file, line=start, field="sample_id")
            if sample_id in seen:
                raise InputError(
                    f"sample_id {sample_id!r} occurs twice",
                    file=file,
                    line=start,
                    field="sample_id",
                )
            seen.add(sample_id)
            record["sample_id"] = sample_id
            raw_label = record["annotator_label"]
            if not raw_label.strip():
                if not allow_blank:
                    raise InputError(
                        "no label given", file=file, line=start, field="annotator_label"
                    )
                record["annotator_label"] = ""
            else:
                label = normalise_label(raw_label)
                if label is None:
                    raise InputError(
                        f"unknown label {raw_label.strip()!r}; expected one of "
                        f"{', '.join(ANNOTATION_LABELS)} (or h/o/m/u)",
                        file=file,
                        line=start,
                        field="annotator_label",
                    )
                record["annotator_label"] = label
            records.append(record)
    return pd.DataFrame(records, columns=list(SHEET_COLUMNS)).astype(object)
