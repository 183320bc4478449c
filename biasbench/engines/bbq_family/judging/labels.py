"""BBQ labels and responses on disk: the label rows a run writes (labels.jsonl) and the
responses produced elsewhere that ``biasbench score bbq`` reads; any BBQ-format benchmark."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError
from biasbench.responses import check_fields, iter_jsonl, write_jsonl

GRID_COLUMNS = ("grid_seed", "order", "prompt", "shown", "method", "evidence")
"""What a grid run's labels take from each cell's own parse (expand_grid_responses)."""


def _grid_labels(parsed: pd.DataFrame) -> pd.DataFrame:
    """A grid run's label rows name their cell: ``seed`` the sampling seed (the engine's
    replicate, the cell's index, is ``cell``), ``item_id`` the request as stored
    (``UID~oORDER~pVARIANT``, as in responses.sqlite and ``export``), ``order`` and
    ``prompt_variant``, ``shown_index`` the position chosen as shown; ``method`` and
    ``evidence`` are the parse of the options as shown (``pred_index`` and ``answer_text`` are
    the item's own option)."""
    out = parsed.drop(columns=["method_x", "evidence_x"]).rename(
        columns={
            "seed": "cell",
            "grid_seed": "seed",
            "prompt": "prompt_variant",
            "shown": "shown_index",
            "method_y": "method",
            "evidence_y": "evidence",
        }
    )
    out["item_id"] = [
        f"{u}~o{o}~p{p}"
        for u, o, p in zip(out["uid"], out["order"], out["prompt_variant"], strict=True)
    ]
    first = [
        "model",
        "seed",
        "cell",
        "uid",
        "item_id",
        "order",
        "prompt_variant",
        "pred_index",
        "shown_index",
        "method",
        "evidence",
    ]
    return out[[*first, *(c for c in out.columns if c not in first)]]


def write_bbq_labels(
    parsed: pd.DataFrame, frame: pd.DataFrame, items: Sequence[BBQItem], path: Path
) -> None:
    """One line per response: its raw output, the parsed answer (index and text), how it was
    matched and the evidence, with the item's category, template, context and correct answer.
    ``parsed``: the parsed answers as scored (``BBQResults.responses``: model, seed, uid,
    pred_index, method, evidence); ``frame``: the responses as read (output, flags)."""
    flags = ["truncated"] if "truncated" in frame.columns else []  # cut at max_tokens
    grid = "grid_seed" in frame.columns  # a grid run: frame from expand_grid_responses
    parsed = parsed.merge(
        frame[["model", "seed", "uid", "output", *flags, *(GRID_COLUMNS if grid else ())]],
        on=["model", "seed", "uid"],
        how="left",
    )
    if grid:
        parsed = _grid_labels(parsed)
    meta = pd.DataFrame(
        [
            {
                "uid": i.uid,
                "category": i.category,
                "question_index": i.question_index,
                "context_condition": i.context_condition,
                "question_polarity": i.question_polarity,
                "label": i.label,
                "answers": list(i.answers),
            }
            for i in items
        ]
    )
    if any(i.namespace for i in items):  # several languages or datasets: say which
        meta.insert(1, "namespace", [i.namespace for i in items])
        meta.insert(2, "language", [i.language for i in items])
    parsed = parsed.merge(meta, on="uid", how="left")
    parsed["answer_text"] = [
        a[p] if p >= 0 else None
        for a, p in zip(parsed["answers"], parsed["pred_index"], strict=True)
    ]
    # A missing value is null, never NaN (which no strict JSON reader accepts): pandas turns
    # the None of an unparsed answer's text into NaN.
    write_jsonl(
        [
            {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()}
            for row in parsed.to_dict(orient="records")
        ],
        path,
    )


def read_bbq_responses(path: Path, by_uid: dict[str, BBQItem]) -> pd.DataFrame:
    """JSONL lines with example_id, category, model, [seed], and output or pred; with items of
    several namespaces (languages, datasets) also ``namespace`` (``mbbq/es``) or ``language``
    (``es``, enough where one namespace has that language)."""
    rows = []
    seen: dict[tuple[str, int, str], int] = {}
    by_language: dict[tuple[str | None, str], list[str]] = {}
    by_local: dict[str, list[str]] = {}  # category:example_id -> the namespaced uids
    for known in by_uid.values():
        local = f"{known.category}:{known.example_id}"
        by_language.setdefault((known.language, local), []).append(known.uid)
        by_local.setdefault(local, []).append(known.uid)
    for line, obj in iter_jsonl(path):
        check_fields(
            obj,
            path=path,
            line=line,
            required=("example_id", "category", "model"),
            strings=("category", "model", "output", "namespace", "language"),
            integers=("example_id", "seed", "pred"),
        )
        if obj.get("output") is None and obj.get("pred") is None:
            raise InputError(
                "needs either output or pred", file=str(path), line=line, field="output"
            )
        uid = f"{obj['category']}:{obj['example_id']}"
        where = f"category {obj['category']!r}"
        if obj.get("namespace"):
            uid, where = f"{obj['namespace']}/{uid}", f"{where} of {obj['namespace']!r}"
        elif obj.get("language") and uid not in by_uid:
            matches = by_language.get((obj["language"], uid), [])
            if len(matches) > 1:
                raise InputError(
                    f"{len(matches)} items are {uid} in language "
                    f"{obj['language']!r} ({', '.join(matches[:3])}); give "
                    "namespace",
                    file=str(path),
                    line=line,
                    field="namespace",
                )
            where = f"{where} in language {obj['language']!r}"
            uid = matches[0] if matches else uid
        elif uid not in by_uid and uid in by_local:
            # Namespaced items (mbbq/es/Age:1) answered without saying where: one match is
            # unambiguous (a one-language run); several need the line to say which.
            matches = by_local[uid]
            if len(matches) > 1:
                raise InputError(
                    f"{len(matches)} items are {uid} ({', '.join(matches[:3])}"
                    f"{', ...' if len(matches) > 3 else ''}); give namespace or "
                    "language",
                    file=str(path),
                    line=line,
                    field="namespace",
                )
            uid = matches[0]
        if uid not in by_uid:
            raise InputError(
                f"unknown example_id {obj['example_id']} in {where}",
                file=str(path),
                line=line,
                field="example_id",
            )
        if obj.get("pred") is not None and obj["pred"] not in (0, 1, 2):
            raise InputError(
                f"pred must be 0, 1 or 2, not {obj['pred']}",
                file=str(path),
                line=line,
                field="pred",
            )
        seed = obj.get("seed") or 0
        key = (obj["model"], seed, uid)
        if key in seen:
            raise InputError(
                f"a second response of model {obj['model']!r} to {uid} under seed "
                f"{seed} (first on line {seen[key]})",
                file=str(path),
                line=line,
                field="example_id",
            )
        seen[key] = line
        rows.append(
            {
                "model": obj["model"],
                "uid": uid,
                "seed": seed,
                "output": obj.get("output"),
                "pred": obj.get("pred"),
            }
        )
    if not rows:
        raise InputError("no responses", file=str(path))
    return pd.DataFrame(rows)
