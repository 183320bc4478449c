"""Bias profiles: a model's k strongest biases, the templates with the largest mean score across
seeds per context condition, each with the stereotype its template names (read from the
template CSVs) and what the ranking rests on (seeds, items)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import pandas as pd

from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults
from biasbench.errors import InputError
from biasbench.stats import MIN_SEEDS_FOR_INTERVAL


def template_stereotypes(rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Template id -> stereotype text from BBQ template rows (a template CSV's dict rows).

    Uses ``Relevant_social_values`` with the ``Known_stereotyped_groups`` in brackets, e.g.
    ``"Gay people are cowards. [bakla, bading]"``; either part alone when the other is empty.
    The intersectional templates of the original BBQ name their groups in
    ``Known_stereotyped_race`` and ``Known_stereotyped_var2``: ``"drug use [Black, African
    American; M]"``.
    """
    info: dict[str, str] = {}
    for row in rows:
        qid = str(row.get("Q_id") or "").strip()
        if not qid:
            continue
        values = str(row.get("Relevant_social_values") or "").strip()
        groups = _parse_group_list(row.get("Known_stereotyped_groups"))
        if not groups and row.get("Known_stereotyped_race"):
            race = ", ".join(_parse_group_list(row.get("Known_stereotyped_race")))
            var2 = str(row.get("Known_stereotyped_var2") or "").strip()
            groups = [f"{race}; {var2}" if var2 else race]
        bracket = f"[{', '.join(groups)}]" if groups else ""
        info[qid] = " ".join(part for part in (values, bracket) if part)
    return info


def template_info_from(folder: Path, files: Mapping[str, str]) -> dict[tuple[str, str], str]:
    """(category, template id) -> the template's stereotype (:func:`template_stereotypes`),
    read from the template CSVs in ``folder`` (``files``: category -> file name); a category
    whose file is absent adds nothing (its profile shows the items' stereotyped groups)."""
    info: dict[tuple[str, str], str] = {}
    for category, file_name in files.items():
        path = Path(folder) / file_name
        if not path.is_file():
            continue
        with path.open(encoding="utf-8-sig", newline="") as fh:
            for qid, text in template_stereotypes(csv.DictReader(fh)).items():
                info[(category, qid)] = text
    return info


def _parse_group_list(cell: Any) -> list[str]:
    """The template CSV's group list, read by the generator's own parser
    (:func:`~biasbench.engines.bbq_family.items.templates.parse_group_list`); a cell it refuses is shown
    as written (a profile only displays it, so it never stops a report)."""
    from biasbench.engines.bbq_family.items.templates import parse_group_list

    text = str(cell or "").strip()
    if not text:
        return []
    try:
        return list(
            parse_group_list(
                text, file="", line=0, field="Known_stereotyped_groups", allow_none=True
            )
            or []
        )
    except InputError:
        return [text]


PROFILE_MIN_SEEDS: Final = MIN_SEEDS_FOR_INTERVAL
"""A template is ranked in a bias profile only when its score is defined in this many seeds."""
PROFILE_MIN_ITEMS: Final = 4
"""... and it has this many items of the context condition (the smallest published FilBBQ
template has 4 per context; a ``--limit`` run spreads 2-3 per template and is not ranked)."""


PROFILE_RULE: Final = (
    f"templates ranked by mean score across seeds, only with >= "
    f"{PROFILE_MIN_SEEDS} seeds defining the score and >= {PROFILE_MIN_ITEMS} "
    "items of the context per seed; others fill the profile unranked"
)


def profile_records(profile: pd.DataFrame) -> list[dict[str, Any]]:
    """A bias profile as JSON-ready rows (an empty rank and NaN become null)."""
    return [
        {
            key: (None if not isinstance(value, str) and pd.isna(value) else value)
            for key, value in row.items()
        }
        for row in profile.to_dict(orient="records")
    ]


def bias_profile(
    results: BBQResults, model: str, k: int = 5, template_info: Mapping[Any, str] | None = None
) -> pd.DataFrame:
    """A model's k strongest biases: top-k templates by mean score, per context condition.

    Every row says what it rests on (``n_seeds``: seeds defining the score; ``n_items``: items
    of the context per seed). Only templates with at least :data:`PROFILE_MIN_SEEDS` seeds and
    :data:`PROFILE_MIN_ITEMS` items are ranked; when fewer than k qualify, the strongest of the
    others fill the profile unranked (``rank`` empty, ``ranked`` False, ``note`` says why).
    ``template_info`` maps a template id (or ``(category, template id)``) to its stereotype
    text (see :func:`template_stereotypes`); otherwise the stereotyped groups of the template's
    items are shown. Templates whose score is undefined in every seed are skipped.
    """
    rows = results.by_template[results.by_template["model"] == model]
    if rows.empty:
        raise InputError(f"no results for model {model!r}", field="model")
    fallback = results.templates.set_index(["category", "question_index"])["stereotyped_groups"]
    template_info = template_info or {}
    parts = []
    for context, score, condition in (
        ("ambiguous", "s_amb", "ambig"),
        ("disambiguated", "s_dis", "disambig"),
    ):
        defined = rows.dropna(subset=[f"{score}_mean"]).assign(
            n_seeds=lambda d, s=score: d[f"{s}_n_seeds"].astype(int),
            n_items=lambda d, c=condition: d[f"n_items_{c}"].astype(int),
        )
        defined = defined.assign(
            ranked=(defined["n_seeds"] >= PROFILE_MIN_SEEDS)
            & (defined["n_items"] >= PROFILE_MIN_ITEMS)
        )
        top = defined.sort_values(
            ["ranked", f"{score}_mean", "category", "question_index"],
            ascending=[False, False, True, True],
        ).head(k)
        n_ranked = int(top["ranked"].sum())
        parts.append(
            pd.DataFrame(
                {
                    "context": context,
                    # object, not Int64: an unranked row shows "—" in tables, not "<NA>"
                    "rank": pd.Series(
                        [*range(1, n_ranked + 1), *[None] * (len(top) - n_ranked)], dtype=object
                    ),
                    "category": top["category"].to_numpy(),
                    "question_index": top["question_index"].to_numpy(),
                    "stereotype": [
                        template_info.get((c, q))
                        or template_info.get(q)
                        or fallback.get((c, q), "")
                        for c, q in zip(top["category"], top["question_index"], strict=True)
                    ],
                    "score": top[f"{score}_mean"].to_numpy(),
                    "sd": top[f"{score}_sd"].to_numpy(),
                    "ci_low": top[f"{score}_ci_low"].to_numpy(),
                    "ci_high": top[f"{score}_ci_high"].to_numpy(),
                    "ci_status": top[f"{score}_ci_status"].to_numpy(),
                    "n_seeds": top["n_seeds"].to_numpy(),
                    "n_items": top["n_items"].to_numpy(),
                    "ranked": top["ranked"].to_numpy(dtype=bool),
                    "note": [
                        ""
                        if ok
                        else f"not ranked: {s} seed(s), {i} item(s); needs "
                        f">= {PROFILE_MIN_SEEDS} seeds and >= {PROFILE_MIN_ITEMS} items"
                        for ok, s, i in zip(
                            top["ranked"], top["n_seeds"], top["n_items"], strict=True
                        )
                    ],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)
