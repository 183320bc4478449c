"""Generated BBQ items written out: the four items of a filled template as release rows, the
two release formats' JSONL lines (the original BBQ's and FilBBQ's), atomic writes of a whole
generated set, and the report of what was written."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError
from biasbench.fsutil import write_files_atomically

if TYPE_CHECKING:
    from biasbench.engines.bbq_family.items.generate import GenerationResult

Style = Literal["filbbq", "bbq"]
"""``bbq``: the original BBQ generator and release format. ``filbbq``: FilBBQ's variant of the
generator (honours the ``Invalid_Partners`` column) and its release serialization."""

#: Field order of a BBQ item in both release formats.
ITEM_FIELDS: tuple[str, ...] = (
    "example_id",
    "question_index",
    "question_polarity",
    "context_condition",
    "category",
    "answer_info",
    "additional_metadata",
    "context",
    "question",
    "ans0",
    "ans1",
    "ans2",
    "label",
)


def four_items(
    first_id: int,
    *,
    question_index: Any,
    category: str,
    answer_info: dict[str, list[str]],
    metadata: dict[str, Any],
    contexts: dict[str, str],
    questions: dict[str, str],
    answers: list[str],
    unknown: str,
    text_of: dict[str, str],
) -> list[dict[str, Any]]:
    """The four items of one filled template (question polarity x context condition, in the
    published order), numbered from ``first_id``: the correct answer is the unknown option in
    the ambiguous context and the polarity's answer in the disambiguated one, its index the
    first match, as in the reference, should two answers read the same."""
    items = []
    for polarity in ("neg", "nonneg"):
        for condition in ("ambig", "disambig"):
            correct = unknown if condition == "ambig" else text_of[polarity]
            items.append(
                {
                    "example_id": first_id + len(items),
                    "question_index": question_index,
                    "question_polarity": polarity,
                    "context_condition": condition,
                    "category": category,
                    "answer_info": {key: list(value) for key, value in answer_info.items()},
                    "additional_metadata": {
                        key: list(value) if isinstance(value, list) else value
                        for key, value in metadata.items()
                    },
                    "context": contexts[condition],
                    "question": questions[polarity],
                    "ans0": answers[0],
                    "ans1": answers[1],
                    "ans2": answers[2],
                    "label": answers.index(correct),
                }
            )
    return items


@dataclass
class GenerationReport:
    """What a generator wrote: per category its file, item count and items per template."""

    seed: int
    files: dict[str, Path]
    """Category -> written jsonl file."""
    counts: dict[str, int]
    """Category -> number of items."""
    template_counts: dict[str, dict[str, int]]
    """Category -> template id -> number of items (0 for templates that yield none)."""
    warnings: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "seed": self.seed,
            "files": {c: str(p) for c, p in self.files.items()},
            "counts": dict(self.counts),
            "total": self.total,
            "template_counts": {c: dict(t) for c, t in self.template_counts.items()},
            "warnings": list(self.warnings),
        }


def write_generated(
    results: Mapping[str, GenerationResult], files: Mapping[str, Path], style: Style
) -> dict[str, Any]:
    """Write every category's items to its file at once (nothing is written unless all
    serialize) and return the fields of its :class:`GenerationReport` but the seed."""
    write_files_atomically({files[c]: serialize_items(r.items, style) for c, r in results.items()})
    return {
        "files": dict(files),
        "counts": {c: len(r.items) for c, r in results.items()},
        "template_counts": {c: r.template_counts for c, r in results.items()},
        "warnings": [w for r in results.values() for w in r.warnings],
    }


def _as_dict(item: Mapping[str, Any] | BBQItem) -> Mapping[str, Any]:
    return item.canonical_dict() if isinstance(item, BBQItem) else item


def serialize_item(item: Mapping[str, Any] | BBQItem, style: Style) -> str:
    """One jsonl line (without newline) in a release format.

    ``bbq``: ``json.dumps`` defaults, dict-valued ``answer_info``/``additional_metadata``.
    ``filbbq``: FilBBQ's release (pandas ``to_json`` style): those two fields as strings holding
    the dicts' Python repr, compact separators, ASCII only, ``/`` escaped as ``\\/``.
    """
    data = _as_dict(item)
    missing = [name for name in ITEM_FIELDS if name not in data]
    if missing:
        raise InputError(f"item lacks field(s) {', '.join(missing)}", field=missing[0])
    ordered = {name: data[name] for name in ITEM_FIELDS}
    if style == "bbq":
        return json.dumps(ordered)
    if style != "filbbq":
        raise InputError(f"unknown style {style!r}; expected 'filbbq' or 'bbq'", field="style")
    for name in ("answer_info", "additional_metadata"):
        if not isinstance(ordered[name], str):
            ordered[name] = repr(ordered[name])
    # "/" only occurs inside JSON strings, so escaping it textually is safe.
    return json.dumps(ordered, ensure_ascii=True, separators=(",", ":")).replace("/", "\\/")


def serialize_items(items: Iterable[Mapping[str, Any] | BBQItem], style: Style) -> bytes:
    """The whole jsonl file: one line per item, each ending with a newline."""
    return "".join(serialize_item(item, style) + "\n" for item in items).encode("utf-8")


def write_jsonl(items: Iterable[Mapping[str, Any] | BBQItem], path: Path, style: Style) -> Path:
    """Serialize ``items`` (see :func:`serialize_item`) and write them atomically to ``path``."""
    data = serialize_items(items, style)
    write_files_atomically({Path(path): data})
    return Path(path)
