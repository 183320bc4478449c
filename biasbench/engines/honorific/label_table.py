"""The labels table of an honorific benchmark, the input of every score: its register labels
and columns, its validation (one :class:`~biasbench.errors.InputError` naming the field), the
old column names read as aliases, and the JSON numbers the scores are written as (undefined is
None, never NaN)."""

from __future__ import annotations

import math
import re

import pandas as pd

from biasbench.engines.honorific.items import CONDITIONS
from biasbench.errors import InputError

HONORIFIC, ORDINARY, MIXED, UNREADABLE = "honorific", "ordinary", "mixed", "unreadable"
LABELS = (HONORIFIC, ORDINARY, MIXED, UNREADABLE)
USABLE_LABELS = (HONORIFIC, ORDINARY)
LABEL_COLUMNS = (
    "model",
    "item_id",
    "occupation_en",
    "occupation_target",
    "template_id",
    "primed",
    "gender",
    "label",
    "plural",
)
SEED_COLUMN = "seed"
ITEM_LABEL_COLUMNS = (
    "model",
    "seed",
    "item_id",
    "occupation_en",
    "occupation_target",
    "template_id",
    "primed",
    "gender",
    "output",
    "label",
    "plural",
)
"""The label table's columns before the judge's readings (``gender`` is the pronoun
condition); ``evidence``, ``reason`` and ``truncated`` follow the readings."""
TRAILING_COLUMNS = ("evidence", "reason", "truncated")
TARGET_COLUMN = "occupation_target"
"""The occupation's term in the target language, whatever the language."""
_LANGUAGE_COLUMN = re.compile(r"^occupation_[a-z]{2,3}$")
"""``occupation_bn``, ``occupation_hi``...: the target term under a language's own name (what
honorific-bn's files, and every run folder written before the engine, call it)."""
MIN_USABLE_ITEMS = 4
"""An occupation rate resting on fewer usable no-pronoun items (of 7 frames) is flagged: below
4 the rate moves in steps of a third or more and most of the occupation's frames are missing."""
JsonNumber = float | None


def as_bool(column: pd.Series, name: str) -> pd.Series:
    """Booleans from a bool column or from the strings a CSV round trip leaves ("True"/"False")."""
    if column.dtype == bool:
        return column
    mapping = {"true": True, "false": False, "1": True, "0": False}
    lowered = column.astype(str).str.strip().str.lower()
    unknown = ~lowered.isin(list(mapping))
    if unknown.any():
        raise InputError(f"not a boolean: {column[unknown].iloc[0]!r}", field=name)
    return lowered.map(mapping).astype(bool)


def reading_column(name: str) -> str:
    """The label table's column of a judge's reading: its name, but ``translation_<name>``
    where the table already has a column so named (the reading ``gender``, the gender the
    translation assigns, beside ``gender``, the English pronoun condition)."""
    return f"translation_{name}" if name in (*ITEM_LABEL_COLUMNS, *TRAILING_COLUMNS) else name


def canonical_columns(labels: pd.DataFrame) -> pd.DataFrame:
    """``labels`` with the target term's column named ``occupation_target``: a table that names
    it after its language (``occupation_bn`` of honorific-bn and of older run folders) reads
    the same. The frame itself when nothing is renamed."""
    if TARGET_COLUMN in labels.columns:
        return labels
    aliases = [
        c
        for c in labels.columns
        if isinstance(c, str) and _LANGUAGE_COLUMN.match(c) and c != "occupation_en"
    ]
    if len(aliases) != 1:
        return labels
    return labels.rename(columns={aliases[0]: TARGET_COLUMN})


def file_columns(frame: pd.DataFrame, occupation_column: str) -> pd.DataFrame:
    """``frame`` with ``occupation_target`` named as the benchmark's files name it."""
    if occupation_column == TARGET_COLUMN or TARGET_COLUMN not in frame.columns:
        return frame
    return frame.rename(columns={TARGET_COLUMN: occupation_column})


def validate_labels(labels: pd.DataFrame) -> pd.DataFrame:
    """Check a labels table and return it with boolean ``primed``/``plural`` columns and the
    target term as ``occupation_target`` (:func:`canonical_columns`).

    Raises :class:`InputError` naming the field for a missing column, an unknown label or
    condition, or two rows for the same (model, item[, seed]). A ``plural`` a judge leaves
    undefined (None) reads as not plural.
    """
    labels = canonical_columns(labels)
    missing = [name for name in LABEL_COLUMNS if name not in labels.columns]
    if missing:
        raise InputError(f"labels table lacks column(s) {', '.join(missing)}", field=missing[0])
    for name, allowed in (("label", LABELS), ("gender", CONDITIONS)):
        unknown = ~labels[name].isin(allowed)
        if unknown.any():
            raise InputError(
                f"unknown value {labels[name][unknown].iloc[0]!r} "
                f"(expected one of {', '.join(allowed)})",
                field=name,
            )
    identity = ["model", "item_id"] + ([SEED_COLUMN] if SEED_COLUMN in labels.columns else [])
    duplicated = labels.duplicated(identity)
    if duplicated.any():
        first = labels.loc[duplicated, identity].iloc[0].tolist()
        raise InputError(f"more than one label for {' / '.join(map(str, first))}", field="item_id")
    checked = labels.copy()
    checked["primed"] = as_bool(labels["primed"], "primed")
    plural = labels["plural"]
    if plural.dtype == object and plural.isna().any():
        plural = plural.where(plural.notna(), False)
    checked["plural"] = as_bool(plural, "plural")
    return checked


def json_number(value: float | int | None) -> JsonNumber:
    """A plain float for JSON, with NaN/inf (undefined) as None."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def pct(numerator: float, denominator: float) -> float:
    return 100.0 * numerator / denominator if denominator else math.nan
