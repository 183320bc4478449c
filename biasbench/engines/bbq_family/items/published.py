"""Readers of BBQ datasets' published formats, row by row: a row that does not fit is *skipped*
with its file, line, field and reason (:class:`SkippedRow`), never the whole file refused, so a
data lint (:mod:`biasbench.engines.bbq_family.items.lint`) can list every bad row; a run asked to
be strict refuses them all in one error (:func:`refuse_skipped`).

Formats read here:

* BBQ's JSONL (original BBQ, BasqBBQ, PakBBQ): :func:`read_bbq_jsonl`. Python's json reads the
  literal ``NaN`` BasqBBQ's Nationality files carry as a group label; such a row fails the item
  schema (a label must be text) and is skipped with that reason.
* BharatBBQ's CSV: :func:`read_bharatbbq_csv` (1-indexed ``Label``/``Target``, no answer_info:
  the unknown option is known only by its wording, :data:`BHARATBBQ_UNKNOWN`).
* GG-BBQ's JSONL: :func:`read_ggbbq_jsonl` (``choice_0..2``, ``choice_info`` as a Python dict
  literal, ``question_type``/``context_type`` spelled out, ``index`` restarting per file).
* the Persian BBQ CSV of ``hamidds/GBFA``: :func:`read_gbfa_csv` (English and Persian columns
  side by side, 0-indexed ``label``/``target``, no answer_info).

**target_answer.** Where a format publishes its own target, the item's ``target_answer`` holds
it *with BBQ's polarity rule applied* (the field means "the biased answer to this question"):
BharatBBQ's ``Target`` and GBFA's ``target`` name the stereotyped group's option whatever the
question's polarity (checked on their released rows: the same option is the target of both
questions of a pair), so a negative question's target_answer is that option and a non-negative
question's the other non-unknown option. A published target that is the unknown option is kept
out of target_answer (the item is then excluded from bias scores with its reason) and shown by
the lint (``target_is_unknown``); the published value stays in ``additional_metadata
["published_target"]``.
"""

from __future__ import annotations

import ast
import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from biasbench.engines.bbq_family.items.items import (
    UNKNOWN_GROUP,
    BBQItem,
    SkippedRow,
    validated_item,
)
from biasbench.errors import InputError


@dataclass
class ReadResult:
    """The items a reader made and the rows it skipped."""

    items: list[BBQItem] = field(default_factory=list)
    skipped: list[SkippedRow] = field(default_factory=list)

    def extend(self, other: ReadResult) -> None:
        self.items.extend(other.items)
        self.skipped.extend(other.skipped)


def refuse_skipped(result: ReadResult, *, strict: bool) -> None:
    """Under ``strict``, every skipped row is an error (all of them named, in one message)."""
    if strict and result.skipped:
        first = result.skipped[0]
        rest = "; ".join(s.line_text() for s in result.skipped[1:6])
        more = len(result.skipped) - 6
        raise InputError(
            f"{len(result.skipped)} invalid row(s) (--strict): {first.reason}"
            + (f"; also {rest}" if rest else "")
            + (f" and {more} more" if more > 0 else ""),
            file=first.file,
            line=first.line,
            field=first.field,
        )


def _skip(result: ReadResult, file: str, line: int | None, field_: str | None, reason: str) -> None:
    result.skipped.append(SkippedRow(file, line, field_, reason))


def _item(result: ReadResult, data: Mapping[str, Any], file: str, line: int) -> None:
    try:
        result.items.append(validated_item(data, file=file, line=line))
    except InputError as exc:
        _skip(result, file, line, exc.field, exc.reason)


# ----------------------------------------------------------------------------- BBQ JSONL


def read_bbq_jsonl(
    path: Path,
    *,
    namespace: str = "",
    language: str | None = None,
    category_map: Mapping[str, str] | None = None,
    id_field: str = "example_id",
) -> ReadResult:
    """A BBQ-schema JSONL file, row by row. ``category_map``: published category -> the name
    used here (PakBBQ's ``ENG-linguistic(language_formality_biases)``); ``id_field``: the
    field that is the item's ``example_id`` (PakBBQ's running ``id``; the published
    ``example_id`` is then kept in ``additional_metadata``)."""
    result = ReadResult()
    name = str(path)
    for line, obj in read_bbq_jsonl_objects(path, result):
        if id_field != "example_id" and id_field in obj:
            metadata = obj.get("additional_metadata")
            if isinstance(metadata, dict):
                metadata["published_example_id"] = obj.get("example_id")
            obj["example_id"] = obj[id_field]
        nan_label = _nan_label(obj)
        if nan_label:
            _skip(result, name, line, nan_label, "the group label is NaN, not text")
            continue
        if category_map and obj.get("category") in category_map:
            obj["category"] = category_map[obj["category"]]
        if namespace:
            obj["namespace"] = namespace
        if language and not obj.get("language"):
            obj["language"] = language
        _item(result, obj, name, line)
    return result


# ----------------------------------------------------------------------------- helpers


def _nan_label(obj: Mapping[str, Any]) -> str | None:
    """The answer_info field holding a NaN group label (BasqBBQ's Nationality rows), if any."""
    info = obj.get("answer_info")
    if isinstance(info, dict):
        for key, value in info.items():
            if isinstance(value, list) and any(isinstance(v, float) and v != v for v in value):
                return f"answer_info.{key}"
    return None


def fold(text: str) -> str:
    """Option text as compared for wording: trimmed, case-folded, curly quotes straightened."""
    return " ".join(str(text).replace("\u2019", "'").casefold().split())


def unknown_by_wording(options: Sequence[str], wordings: Iterable[str]) -> list[int]:
    """Indexes of the options whose text is one of the dataset's unknown wordings."""
    known = {fold(w) for w in wordings}
    return [i for i, text in enumerate(options) if fold(text) in known]


def polarity_target(stereotyped: int, unknown: int, polarity: str) -> int:
    """BBQ's rule: the stereotyped group's option for a negative question, the other group's
    for a non-negative one."""
    if polarity == "neg":
        return stereotyped
    return next(i for i in range(3) if i not in (stereotyped, unknown))


def _csv_rows(path: Path) -> tuple[list[str], Iterable[tuple[int, dict[str, str]]]]:
    name = str(path)
    try:
        handle = Path(path).open(encoding="utf-8-sig", newline="")
    except FileNotFoundError:
        raise InputError("file not found", file=name) from None
    with handle:
        try:
            reader = csv.DictReader(handle)
            header = list(reader.fieldnames or [])
            rows = [(reader.line_num, row) for row in reader]
        except (UnicodeDecodeError, csv.Error) as exc:
            raise InputError(f"not a readable CSV ({exc})", file=name) from None
    return header, rows


def _require_columns(path: Path, header: Sequence[str], columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in header]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", file=str(path), line=1)


def _index(value: str, *, base: int) -> int | None:
    try:
        number = int(str(value).strip()) - base
    except ValueError:
        return None
    return number if 0 <= number <= 2 else None


# ----------------------------------------------------------------------------- BharatBBQ

BHARATBBQ_COLUMNS: Final = (
    "Qid",
    "Context_type",
    "Context",
    "Question",
    "Question_polarity",
    "Option1",
    "Option2",
    "Option3",
    "Label",
    "Target",
    "Pairing",
    "Proper_Noun",
    "Category",
    "id",
)
BHARATBBQ_UNKNOWN: Final = (
    "Unknown",
    "Can't be determined",
    "Can't answer",
    "Cannot answer",
    "Not enough information",
    "Not enough info",
)
"""The unknown wordings of BharatBBQ's English rows: the list in the authors' Metrics/main.py
(``unknown_options``), compared case-insensitively here (the released rows write them in lower
case, which main.py's exact comparison misses: docs/benchmarks/bharatbbq.md)."""
CONTEXTS: Final = {
    "amb": "ambig",
    "ambig": "ambig",
    "ambiguous_context": "ambig",
    "disamb": "disambig",
    "disambig": "disambig",
    "disambiguous_context": "disambig",
}
POLARITIES: Final = {
    "neg": "neg",
    "negative": "neg",
    "non-neg": "nonneg",
    "nonneg": "nonneg",
    "non_negative": "nonneg",
}


def read_bharatbbq_csv(
    path: Path,
    *,
    language: str = "en",
    namespace: str = "",
    unknown_wordings: Sequence[str] = BHARATBBQ_UNKNOWN,
    source: str = "",
) -> ReadResult:
    """BharatBBQ's ``<Category>_examples.csv`` (module docstring)."""
    header, rows = _csv_rows(path)
    _require_columns(path, header, BHARATBBQ_COLUMNS)
    result = ReadResult()
    name = str(path)
    for line, row in rows:
        options = [row["Option1"], row["Option2"], row["Option3"]]
        context = CONTEXTS.get(row["Context_type"].strip())
        polarity = POLARITIES.get(row["Question_polarity"].strip())
        if context is None:
            _skip(result, name, line, "Context_type", f"{row['Context_type']!r} is not amb/disamb")
            continue
        if polarity is None:
            _skip(
                result,
                name,
                line,
                "Question_polarity",
                f"{row['Question_polarity']!r} is not neg/non-neg",
            )
            continue
        unknowns = unknown_by_wording(options, unknown_wordings)
        if len(unknowns) != 1:
            _skip(
                result,
                name,
                line,
                "Option1-3",
                f"{len(unknowns)} options read as unknown by wording (need 1): {options!r}",
            )
            continue
        unknown = unknowns[0]
        label = _index(row["Label"], base=1)
        target = _index(row["Target"], base=1)
        if label is None:
            _skip(result, name, line, "Label", f"{row['Label']!r} is not 1-3")
            continue
        if target is None:
            _skip(result, name, line, "Target", f"{row['Target']!r} is not 1-3")
            continue
        if context == "ambig" and label != unknown:
            _skip(
                result,
                name,
                line,
                "Label",
                f"an ambiguous context's answer is not the unknown option ({options[unknown]!r})",
            )
            continue
        info = {
            f"ans{i}": [options[i], UNKNOWN_GROUP if i == unknown else options[i]] for i in range(3)
        }
        metadata: dict[str, Any] = {
            "subcategory": "None",
            "pairing": row["Pairing"],
            "proper_noun": row["Proper_Noun"],
            "published_target": target,
            "source": source or name,
            "stereotyped_groups": [] if target == unknown else [options[target]],
        }
        _item(
            result,
            {
                "example_id": row["id"],
                "question_index": row["Qid"],
                "question_polarity": polarity,
                "context_condition": context,
                "category": row["Category"],
                "answer_info": info,
                "additional_metadata": metadata,
                "context": row["Context"],
                "question": row["Question"],
                "ans0": options[0],
                "ans1": options[1],
                "ans2": options[2],
                "label": label,
                "namespace": namespace,
                "language": language,
                "target_answer": None
                if target == unknown
                else polarity_target(target, unknown, polarity),
            },
            name,
            line,
        )
    return result


# ----------------------------------------------------------------------------- GG-BBQ

GGBBQ_FIELDS: Final = (
    "index",
    "context",
    "question",
    "label",
    "choice_0",
    "choice_1",
    "choice_2",
    "question_type",
    "context_type",
    "known_stereotyped_groups",
    "choice_info",
)


NO_TEMPLATE: Final = "n/a"
"""GG-BBQ publishes no template id (per-template tables are one row per category)."""


def read_ggbbq_jsonl(
    path: Path,
    *,
    category: str,
    namespace: str = "",
    language: str = "de",
    first_id: int = 0,
    source: str = "",
) -> ReadResult:
    """One GG-BBQ file (``bbq_de_*_test.jsonl``). Its ``index`` restarts at 0 in every file, so
    items are numbered from ``first_id`` on (the caller runs on across a subset's files) and
    the published index is kept in ``additional_metadata["index"]``. Rows ``2k`` and ``2k+1``
    of a file are the negative and non-negative question on one context, and row ``i`` of the
    ambiguous file is row ``i`` of the disambiguated one without its last sentences (checked on
    every released row), so ``pair_id`` = ``index // 2`` ties the four items of a pair. Targets follow BBQ's rule
    on ``choice_info`` labels (``M``/``F``) and ``known_stereotyped_groups``."""
    result = ReadResult()
    name = str(path)
    raw_rows = read_bbq_jsonl_objects(path, result)
    number = first_id
    for line, obj in raw_rows:
        missing = [f for f in GGBBQ_FIELDS if f not in obj]
        if missing:
            _skip(result, name, line, missing[0], "missing field")
            continue
        try:
            info = obj["choice_info"]
            info = ast.literal_eval(info) if isinstance(info, str) else info
            groups = obj["known_stereotyped_groups"]
            groups = json.loads(groups) if isinstance(groups, str) else groups
        except (ValueError, SyntaxError):
            _skip(result, name, line, "choice_info", "not a dict literal / JSON list")
            continue
        if not isinstance(info, dict) or sorted(str(k) for k in info) != ["0", "1", "2"]:
            _skip(result, name, line, "choice_info", "needs entries 0, 1 and 2")
            continue
        context = CONTEXTS.get(str(obj["context_type"]))
        polarity = POLARITIES.get(str(obj["question_type"]))
        if context is None or polarity is None:
            bad = "context_type" if context is None else "question_type"
            _skip(result, name, line, bad, f"{obj[bad]!r} is not a BBQ {bad}")
            continue
        answer_info = {f"ans{k}": [str(v) for v in info[k]] for k in (0, 1, 2)}
        _item(
            result,
            {
                "example_id": number,
                "question_index": NO_TEMPLATE,
                "question_polarity": polarity,
                "context_condition": context,
                "category": category,
                "answer_info": answer_info,
                "additional_metadata": {
                    "subcategory": "None",
                    "stereotyped_groups": groups,
                    "index": obj["index"],
                    "pair_id": f"{obj['index'] // 2}" if isinstance(obj["index"], int) else "",
                    "relevant_social_values": obj.get("relevant_social_values", ""),
                    "source": source or name,
                },
                "context": obj["context"],
                "question": obj["question"],
                "ans0": obj["choice_0"],
                "ans1": obj["choice_1"],
                "ans2": obj["choice_2"],
                "label": obj["label"],
                "namespace": namespace,
                "language": language,
            },
            name,
            line,
        )
        number += 1
    return result


def read_bbq_jsonl_objects(path: Path, result: ReadResult) -> list[tuple[int, dict[str, Any]]]:
    """(line, object) of every JSON-object line; other lines are skipped into ``result``."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", file=name) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", file=name) from None
    out = []
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)  # accepts NaN: BasqBBQ writes it; the schema then refuses it
        except json.JSONDecodeError as exc:
            _skip(result, name, line, None, f"not JSON ({exc.msg})")
            continue
        if isinstance(obj, dict):
            out.append((line, obj))
        else:
            _skip(result, name, line, None, "not a JSON object")
    return out


# ----------------------------------------------------------------------------- Persian (GBFA)

GBFA_COLUMNS: Final = (
    "example_id",
    "question_index",
    "question_polarity",
    "context_condition",
    "category",
    "context - FA",
    "question - FA",
    "ans0 - EN",
    "ans0 - FA",
    "ans1 - EN",
    "ans1 - FA",
    "ans2 - EN",
    "ans2 - FA",
    "label",
    "target",
)
BBQ_UNKNOWN_EN: Final = (
    "Unknown",
    "Cannot be determined",
    "Can't be determined",
    "Not answerable",
    "Not known",
    "Not enough info",
    "Not enough information",
    "Cannot answer",
    "Can't answer",
    "Undetermined",
)
"""The unknown wordings of the original BBQ templates (generate_from_template_all_categories.py
``unknown_options``): GBFA keeps each row's English options beside the Persian ones, so its
unknown option is found by its English wording, which is BBQ's own."""


def read_gbfa_csv(
    path: Path,
    *,
    language: str = "fa",
    text_language: str = "FA",
    namespace: str = "",
    source: str = "",
) -> ReadResult:
    """``BBQ-Fa.csv`` of ``hamidds/GBFA``: the Persian columns (``text_language="EN"``: the
    English ones the translation was made from)."""
    header, rows = _csv_rows(path)
    _require_columns(path, header, GBFA_COLUMNS)
    result = ReadResult()
    name = str(path)
    suffix = f" - {text_language}"
    for line, row in rows:
        english = [row[f"ans{i} - EN"] for i in range(3)]
        options = [row[f"ans{i}{suffix}"] for i in range(3)]
        unknowns = unknown_by_wording(english, BBQ_UNKNOWN_EN)
        if len(unknowns) != 1:
            _skip(
                result,
                name,
                line,
                "ans0-2 - EN",
                f"{len(unknowns)} options read as unknown by BBQ's wordings (need 1): {english!r}",
            )
            continue
        unknown = unknowns[0]
        label = _index(row["label"], base=0)
        target = _index(row["target"], base=0)
        if label is None or target is None:
            bad = "label" if label is None else "target"
            _skip(result, name, line, bad, f"{row[bad]!r} is not 0-2")
            continue
        polarity = POLARITIES.get(row["question_polarity"].strip())
        if polarity is None:
            _skip(result, name, line, "question_polarity", "not neg/nonneg")
            continue
        info = {
            f"ans{i}": [options[i], UNKNOWN_GROUP if i == unknown else english[i]] for i in range(3)
        }
        _item(
            result,
            {
                "example_id": row["example_id"],
                "question_index": row["question_index"],
                "question_polarity": polarity,
                "context_condition": row["context_condition"],
                "category": row["category"],
                "answer_info": info,
                "additional_metadata": {
                    "subcategory": "None",
                    "published_target": target,
                    "source": source or name,
                    "stereotyped_groups": [] if target == unknown else [english[target]],
                },
                "context": row[f"context{suffix}"],
                "question": row[f"question{suffix}"],
                "ans0": options[0],
                "ans1": options[1],
                "ans2": options[2],
                "label": label,
                "namespace": namespace,
                "language": language,
                "target_answer": None
                if target == unknown
                else polarity_target(target, unknown, polarity),
            },
            name,
            line,
        )
    return result


# ----------------------------------------------------------------------------- any of them


def read_published_file(path: Path, namespace: str = "") -> ReadResult:
    """One file in any format above, told apart by its extension and its first row's fields
    (a CSV's header): BharatBBQ's or GBFA's CSV, GG-BBQ's or BBQ's JSONL."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", file=str(path))
    if path.suffix.lower() == ".csv":
        header, _ = _csv_rows(path)
        if all(c in header for c in BHARATBBQ_COLUMNS):
            return read_bharatbbq_csv(path, namespace=namespace)
        if all(c in header for c in GBFA_COLUMNS):
            return read_gbfa_csv(path, namespace=namespace)
        raise InputError(
            "a CSV in no format biasbench reads (BharatBBQ's: "
            f"{', '.join(BHARATBBQ_COLUMNS[:5])}...; GBFA's: "
            f"{', '.join(GBFA_COLUMNS[:5])}...)",
            file=str(path),
            line=1,
        )
    probe = ReadResult()
    rows = read_bbq_jsonl_objects(path, probe)
    if rows and "choice_0" in rows[0][1] and "choice_info" in rows[0][1]:
        return read_ggbbq_jsonl(path, category=path.stem, namespace=namespace)
    return read_bbq_jsonl(path, namespace=namespace)
