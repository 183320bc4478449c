"""What a run's scores rest on: the items each model answered against those the benchmark
defines (a partial run says why), and a hint when nearly all answers matched no option."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults


def run_coverage(frame: pd.DataFrame, n_items: int, limit: int | None) -> dict[str, Any]:
    """What one model's scores rest on against the benchmark's items: ``limit`` (``--limit N``
    from the signature), the distinct items answered and defined, and whether the run is
    partial (limited, or fewer items answered than defined) with the reason in words."""
    answered = int(frame["uid"].nunique()) if "uid" in frame.columns else 0
    if limit:
        reason: str | None = f"--limit {limit}, {answered:,} of {n_items:,} items"
    elif answered < n_items:
        reason = f"{answered:,} of {n_items:,} items have a response"
    else:
        reason = None
    return {
        "n_items_scored": answered,
        "n_items_expected": n_items,
        "limit": limit,
        "partial": reason is not None,
        "reason": reason,
    }


NEARLY_ALL_UNPARSED: Final = 0.9
"""The share of unparsed answers (on scored items) at which a run on ``--items`` files says
what may be wrong: the answers are rarely that unreadable unless the items' language is."""


def unparsed_hint(scored: BBQResults, items: Sequence[BBQItem]) -> str | None:
    """One line when nearly all answers matched no option: the language the items were read in
    (none: English and Filipino rules), what may be wrong and how to fix it; None otherwise."""
    totals = scored.unparsed_by_run[["n_responses", "n_unparsed", "n_excluded"]].sum()
    on_scored = int(totals["n_responses"] - totals["n_excluded"])
    if on_scored == 0 or totals["n_unparsed"] / on_scored < NEARLY_ALL_UNPARSED:
        return None
    share = f"{int(totals['n_unparsed']):,} of {on_scored:,} answers matched no option"
    languages = sorted({item.language for item in items if item.language})
    from biasbench.engines.bbq_family.judging.languages import LANGUAGES

    packs = ", ".join(sorted(LANGUAGES))
    pack_route = (
        "; a language without a pack, or answers worded in a way its pack does not "
        "read (other letters, numbers, cues): write a pack and add --language-rules "
        "FILE (docs/bbq-engine/language-packs.md). labels.jsonl shows each answer"
    )
    if not languages:
        return (
            f"{share}: the items name no language, so the answers were read with the "
            "English (and Filipino) rules; if they are in another language with a built-in "
            f"pack ({packs}), give each file a namespace ending in its language code "
            '(--items mbbq/es=SES_es.jsonl) or its items a "language" field, then '
            "score again" + pack_route
        )
    return (
        f"{share}: the items were read as {', '.join(languages)}; if the answers are in "
        "another language with a built-in pack "
        f"({packs}), give each file the namespace of its own language "
        "(--items mbbq/es=SES_es.jsonl reads SES_es.jsonl as Spanish), then score again"
        + pack_route
    )
