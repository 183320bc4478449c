"""What a harness log reader gives back: one :class:`HarnessSample` per logged sample, mapped to
an item of the benchmark, and the harness's own aggregate metrics as the log reports them."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError

HarnessName = Literal["lm-eval", "inspect"]


@dataclass(frozen=True)
class HarnessSample:
    """One logged sample, mapped to the benchmark's item ``uid``."""

    uid: str
    model: str
    task: str
    """The harness's task (lm-eval: ``bbq``, ``esbbq_age``; inspect: the eval's task)."""
    source: str
    """File and line (or zip member) the sample was read from: named in errors."""
    seed: int = 0
    """inspect's epoch; 0 for lm-eval (one deterministic pass)."""
    pred: int | None = None
    """The option (0-2 of the item) the harness's rule chose, when the log holds
    log-likelihoods (lm-eval multiple_choice: the argmax, every unknown wording the unknown
    option); None when the answer is text to be read."""
    output: str | None = None
    """The model's text (generation tasks, inspect); None for log-likelihood answers."""
    harness_answer: int | None = None
    """The option the harness itself scored the sample as (inspect's ``answer`` letter, lm-eval's
    argmax), in the item's option order; None where it found none."""
    per_sample: dict[str, Any] = field(default_factory=dict)
    """The harness's per-sample metric fields as logged (lm-eval's tuples, inspect's score)."""


@dataclass
class HarnessLog:
    """A harness's log of one or more tasks, read and mapped."""

    harness: HarnessName
    samples: list[HarnessSample]
    reported: dict[tuple[str, str], dict[str, float | None]]
    """(model, task) -> metric -> value as the harness's aggregate file reports it (lm-eval's
    results_<date>.json ``"acc,none"`` keys without the filter; inspect's results.scores);
    empty where the log has none."""
    files: list[str]
    tasks: list[str]
    errored: list[tuple[str, str]] = field(default_factory=list)
    """(source, message) of each logged sample that carries an error instead of an answer
    (inspect: the model call failed): left out of the scores, never read as an empty answer."""
    notes: list[str] = field(default_factory=list)
    """What the reader chose and why (a rerun's earlier files left out, two tasks over the same
    items scored apart): written into results.json beside the comparison."""

    def frame(self) -> pd.DataFrame:
        """The samples as responses the engine scores: model, uid, seed, output, pred. A
        missing text is "" (an empty answer, counted so), never NaN."""
        rows = [
            {
                "model": s.model,
                "uid": s.uid,
                "seed": s.seed,
                "output": s.output if s.pred is None else None,
                "pred": s.pred,
            }
            for s in self.samples
        ]
        frame = pd.DataFrame(rows, columns=["model", "uid", "seed", "output", "pred"])
        frame["pred"] = frame["pred"].astype("Int64")
        frame["output"] = frame["output"].astype(object)
        return frame


def bad(message: str, source: str, field_name: str | None = None) -> InputError:
    """An InputError for ``source`` ("file:line" or "file!member") naming the field."""
    file, _, line = source.rpartition(":")
    if file and line.isdigit():
        return InputError(message, file=file, line=int(line), field=field_name)
    return InputError(message, file=source, field=field_name)


_CREDENTIALS = (
    (re.compile(r"(://)[^/@\s]+@"), r"\1***@"),  # URL user:password@
    (
        re.compile(
            r"(?i)\b((?:(?:api|access)[_-]?key|key|token|secret|password|auth)\s*[=:]\s*)"
            r"[^,;&\s]+"
        ),
        r"\1***",
    ),
    (re.compile(r"(?i)\b(bearer\s+)\S+"), r"\1***"),
    (re.compile(r"\b(sk-)[A-Za-z0-9_-]{16,}"), r"\1***"),
)


def safe_model_name(name: str) -> str:
    """A model name as a log gives it, with anything shaped like a credential replaced by
    ``***`` (``openai/gpt?api_key=sk-...``): the name is written into every table and label."""
    for pattern, replacement in _CREDENTIALS:
        name = pattern.sub(replacement, name)
    return name


def as_float(value: Any, source: str, field_name: str) -> float:
    """A number as lm-eval logs it: a JSON number or its string (``"-3.25"``, sanitised)."""
    if isinstance(value, bool):
        raise bad(f"expected a number, got {value!r}", source, field_name)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise bad(f"expected a number, got {value!r}", source, field_name) from None
    if math.isnan(number):
        raise bad("log-likelihood is NaN", source, field_name)
    if number == math.inf:  # "1e400", "inf": no log-probability is; -inf (probability 0) is
        raise bad(f"log-likelihood is +infinity ({value!r})", source, field_name)
    return number


def local_index(by_uid: Mapping[str, BBQItem]) -> dict[tuple[str, int], list[str]]:
    """(category, example_id) -> the uids of items with them (several where namespaces
    repeat ids)."""
    index: dict[tuple[str, int], list[str]] = {}
    for uid, item in by_uid.items():
        index.setdefault((item.category, item.example_id), []).append(uid)
    return index


def find_uid(
    index: Mapping[tuple[str, int], list[str]],
    by_uid: Mapping[str, BBQItem],
    category: Any,
    example_id: Any,
    source: str,
    id_field: str,
    category_field: str,
) -> str:
    """The uid of the item with ``category`` and ``example_id`` (category None: the only item
    with that id), or an error naming the field that does not map."""
    if isinstance(example_id, bool) or not isinstance(example_id, int | str):
        raise bad(f"expected an integer example id, got {example_id!r}", source, id_field)
    try:
        number = int(example_id)
    except ValueError:
        raise bad(f"expected an integer example id, got {example_id!r}", source, id_field) from None
    if category is None:
        matches = [u for (c, e), uids in index.items() if e == number for u in uids]
        if len(matches) != 1:
            found = f"{len(matches)} items have" if matches else "no item has"
            raise bad(
                f"{found} example id {number}; the sample names no category", source, category_field
            )
        return matches[0]
    if not isinstance(category, str):
        raise bad(f"expected a string, got {category!r}", source, category_field)
    matches = index.get((category, number), [])
    if not matches:
        categories = sorted({c for c, _ in index})
        where = (
            f"category {category!r}"
            if category in categories
            else f"category {category!r} (the items have {', '.join(categories[:6])})"
        )
        raise bad(f"no item with example id {number} in {where}", source, id_field)
    if len(matches) > 1:
        raise bad(
            f"{len(matches)} items are {category}:{number} ({', '.join(matches[:3])})",
            source,
            id_field,
        )
    return matches[0]


def check_same_item(
    item: BBQItem,
    doc: Mapping[str, Any],
    source: str,
    fields: tuple[str, ...] = ("context_condition", "question_polarity", "label"),
) -> None:
    """Refuse a logged dataset row that is not the item it maps to (another release, another
    dataset): the first field that differs is named."""
    for name in fields:
        if name in doc and doc[name] != getattr(item, name):
            raise bad(
                f"the logged row says {doc[name]!r}, the benchmark's item {item.uid} "
                f"{getattr(item, name)!r}: the log is of other items",
                source,
                f"doc.{name}",
            )


def check_unique(samples: list[HarnessSample], id_field: str) -> None:
    """Two samples of one model, item and seed: the second is named with the first."""
    seen: dict[tuple[str, str, int], str] = {}
    for sample in samples:
        key = (sample.model, sample.uid, sample.seed)
        if key in seen:
            raise bad(
                f"a second sample of {sample.uid} for model {sample.model!r} "
                f"(first at {seen[key]})",
                sample.source,
                id_field,
            )
        seen[key] = sample.source
