"""BBQ-format items: the schema and a loader for BBQ jsonl files (original BBQ, FilBBQ, KoBBQ-style).

``answer_info`` and ``additional_metadata`` are dicts in the original BBQ release and strings
holding a Python dict repr in the FilBBQ release; both load into the same typed item.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from biasbench.errors import InputError
from biasbench.registry import item_reader
from biasbench.responses import iter_json_objects, text_lines

UNKNOWN_GROUP = "unknown"

OPTIONAL_FIELDS = ("namespace", "language", "target_answer")
"""Fields that only some datasets set; left out of an item's JSON while unset."""


SAMPLING_UNIT: Final = "sampling_unit"
"""An item's ``additional_metadata`` key naming the sample it was drawn as, where a dataset
asks one sample as several items (KoBBQ: each sample in three choice orders). The default
interval resamples these units, not the items: orders of one sample answered alike are one
observation, not three (scored as three, KoBBQ's s_AMB interval covered 84%). Without the key
an item is its own unit."""


class BBQItem(BaseModel):
    """One BBQ question: a context, a question and three answers, one of them 'unknown'."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    example_id: int
    """Running id within its category file (unique per category, not globally)."""
    question_index: str
    """Template id (``Q_id``), e.g. ``ENBBQ-01`` or ``"1"``."""
    question_polarity: Literal["neg", "nonneg"]
    context_condition: Literal["ambig", "disambig"]
    category: str
    answer_info: dict[str, list[str]]
    """Per answer key ``ans0..ans2``: ``[text, group label]``; the unknown answer's group is ``unknown``."""
    additional_metadata: dict[str, Any] = Field(default_factory=dict)
    """subcategory, stereotyped_groups (list), version, source."""
    context: str
    question: str
    ans0: str
    ans1: str
    ans2: str
    label: int = Field(ge=0, le=2)
    """Index of the correct answer."""
    namespace: str = ""
    """Where the item comes from when one run mixes datasets or languages (``mbbq/es``): it
    prefixes :attr:`uid`, since example ids repeat across languages. Empty for a benchmark with
    one source, whose uids stay ``category:example_id``."""
    language: str | None = None
    """BCP 47 code of the item's language, when its dataset says (the parser and the prompt
    follow it)."""
    target_answer: int | None = Field(default=None, ge=0, le=2)
    """The answer the dataset itself names as the biased one *for this question* (polarity
    already applied), for datasets whose authors derive it otherwise than from answer_info
    labels: KoBBQ's biased_answer; BharatBBQ's Target and GBFA's target, which name the
    stereotyped group's option, with BBQ's polarity rule applied by their readers
    (docs/bbq-engine/data-lint.md). When set, scoring uses it instead of matching labels."""

    @field_validator("question_index", mode="before")
    @classmethod
    def _qid_as_str(cls, v: Any) -> str:
        return str(v)

    @field_validator("category")
    @classmethod
    def _plain_category(cls, v: str) -> str:
        # A category names the item's uid, its tables' rows and file names: a control
        # character (a newline) there would pay for every request and then fail at scoring.
        if not v.strip():
            raise ValueError("empty category")
        bad = next((c for c in v if ord(c) < 32 or ord(c) == 127), None)
        if bad is not None:
            raise ValueError(f"a control character ({bad!r}) in the category {v[:40]!r}")
        return v

    @field_validator("answer_info", "additional_metadata", mode="before")
    @classmethod
    def _parse_repr(cls, v: Any) -> Any:
        # FilBBQ stores these dicts as Python reprs inside a JSON string.
        if isinstance(v, str):
            try:
                return ast.literal_eval(v)
            except (ValueError, SyntaxError) as exc:
                raise ValueError(f"not a dict literal: {v[:60]!r}") from exc
        return v

    @property
    def uid(self) -> str:
        """Unique id in a run: ``category:example_id``, prefixed ``namespace/`` when set."""
        local = f"{self.category}:{self.example_id}"
        return f"{self.namespace}/{local}" if self.namespace else local

    def _unset_optional(self) -> set[str]:
        return {name for name in OPTIONAL_FIELDS if getattr(self, name) in (None, "")}

    def canonical_json(self) -> str:
        """The item as JSON for checksums: the provenance fields (namespace, language,
        target_answer) only when set, so items without them hash as they always have."""
        return self.model_dump_json(exclude=self._unset_optional())

    def canonical_dict(self) -> dict[str, Any]:
        """The item as a dict for release files, leaving out unset provenance fields."""
        return self.model_dump(exclude=self._unset_optional())

    @property
    def answers(self) -> tuple[str, str, str]:
        return (self.ans0, self.ans1, self.ans2)

    @property
    def stereotyped_groups(self) -> list[str]:
        groups = self.additional_metadata.get("stereotyped_groups") or []
        return [str(g) for g in groups]

    def answer_group(self, index: int) -> str:
        """Group label of answer ``index`` (from answer_info)."""
        info = self.answer_info.get(f"ans{index}", ["", ""])
        return str(info[1]) if len(info) > 1 else ""

    @property
    def unknown_index(self) -> int | None:
        """Index of the unknown answer (by its answer_info group label, never by wording)."""
        for i in range(3):
            if self.answer_group(i).lower() == UNKNOWN_GROUP:
                return i
        return None


@dataclass(frozen=True)
class SkippedRow:
    """A published row that is not a valid item, and why."""

    file: str
    line: int | None
    field: str | None
    reason: str

    def line_text(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.field + ': ' if self.field else ''}{self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "field": self.field, "reason": self.reason}


def validated_item(data: Any, *, file: str, line: int | None, whole: str | None = None) -> BBQItem:
    """``data`` as a :class:`BBQItem`, or one :class:`InputError` naming ``file``, ``line`` and
    the first invalid field (``whole``, when given, names an error about the item as a whole).

    Every reader of a BBQ-format dataset validates its rows through here, so a bad row reads
    the same whichever benchmark's file it is in."""
    try:
        return BBQItem.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or whole
        raise InputError(err["msg"], file=file, line=line, field=field) from None


def parse_bbq_lines(
    lines: Iterable[str], source: str, skipped: list[SkippedRow] | None = None
) -> Iterator[BBQItem]:
    """Parse BBQ jsonl lines; errors name ``source``, the line and the field. With
    ``skipped``, a row that is valid JSON but not a valid item is recorded there and skipped
    (the data lint lists it) instead of stopping the whole file."""
    for lineno, obj in iter_json_objects(lines, source):
        try:
            yield validated_item(obj, file=source, line=lineno)
        except InputError as exc:
            if skipped is None:
                raise
            skipped.append(SkippedRow(source, lineno, exc.field, exc.reason))


NAMESPACED_FILE = re.compile(r"^(?P<namespace>[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)=(?P<path>.+)$")
"""``mbbq/es=Age_es.jsonl``: the file's items get that namespace (and, where its part after the
last ``/`` is a language code such as ``es``, that language), so files of several languages
load together. A namespace of a dataset with rules of its own (``mbbq/``, ``mbbq-control/``:
:data:`biasbench.benchmarks.ITEM_READERS`) has the file read by that dataset's reader."""
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)*$")


def _namespaced(entry: str | Path) -> tuple[str, Path]:
    match = NAMESPACED_FILE.match(str(entry)) if not Path(entry).exists() else None
    return (match["namespace"], Path(match["path"])) if match else ("", Path(entry))


def load_bbq_jsonl(
    paths: str | Path | Iterable[str | Path], *, skipped: list[SkippedRow] | None = None
) -> list[BBQItem]:
    """Load one or many BBQ jsonl files (one per category); uids must be unique across them.
    An entry ``NAMESPACE=PATH`` gives its items a namespace (files of several languages). With
    ``skipped``, rows that are not valid items are recorded there and skipped (a file left
    with no valid item is still refused, naming its first invalid row)."""
    if isinstance(paths, (str, Path)):
        paths = [p for p in str(paths).split(",") if p]
    items: list[BBQItem] = []
    seen: dict[str, str] = {}
    for entry in paths:
        namespace, path = _namespaced(entry)
        if not path.exists():
            raise InputError("file not found", file=str(path))
        # mbbq/es: the part after the last "/" names the language; a bare "bbq" does not
        language = namespace.rsplit("/", 1)[-1] if "/" in namespace else ""
        reader = item_reader(namespace) if namespace else None
        parsed = (
            reader(path, namespace)
            if reader is not None  # the dataset's own rules
            else parse_bbq_lines(text_lines(path), str(path), skipped)
        )  # UTF-8, bounded lines
        before, skipped_before = len(items), len(skipped or ())
        for item in parsed:
            if namespace and reader is None:
                update: dict[str, Any] = {"namespace": namespace}
                if item.language is None and LANGUAGE_CODE.match(language):
                    update["language"] = language
                item = item.model_copy(update=update)
            if item.uid in seen:
                raise InputError(
                    f"duplicate example {item.uid} (also in {seen[item.uid]})",
                    file=str(path),
                    field="example_id",
                )
            seen[item.uid] = str(path)
            items.append(item)
        if len(items) == before:
            invalid = (skipped or [])[skipped_before:]
            if invalid:  # every row skipped: the first one's reason, as without skipping
                first = invalid[0]
                raise InputError(
                    f"no valid item: {first.reason} (and {len(invalid) - 1} more invalid row(s))"
                    if len(invalid) > 1
                    else first.reason,
                    file=first.file,
                    line=first.line,
                    field=first.field,
                )
            raise InputError(
                "no items: the file is empty or holds only blank lines", file=str(path)
            )
    return items


def load_item_files(
    paths: str | Sequence[str | Path], skipped: list[SkippedRow] | None = None
) -> tuple[list[BBQItem], str, dict[str, Any]]:
    """``--items FILES`` of a BBQ-format benchmark: the items, the files as one text (the
    results' ``items_source``) and the signature's ``data_source``; with ``skipped``, invalid
    rows are recorded there and skipped (:func:`load_bbq_jsonl`)."""
    source = ",".join(str(p) for p in ([paths] if isinstance(paths, str) else paths))
    return load_bbq_jsonl(paths, skipped=skipped), source, {"items": "files", "files": source}


def items_sha256(items: Sequence[BBQItem]) -> str:
    """Checksum of a BBQ item set as parsed (the data checksum of a signature)."""
    return hashlib.sha256("\n".join(i.canonical_json() for i in items).encode()).hexdigest()
