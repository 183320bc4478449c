"""Several languages (or datasets) in one BBQ run: scores per (model, namespace, category).

A run whose items carry more than one namespace (``mbbq/en``, ``mbbq/es``, ``mbbq-control/es``,
see :attr:`BBQItem.namespace`) is scored per namespace: the engine's category key becomes
``<namespace>/<category>`` (:func:`~biasbench.engines.bbq_family.scoring.bias_scores.scoped_category`), so every
per-category table, profile and plot is per language as well, and this module adds the
cross-language view: per model, namespace and category, and per model and namespace over all
its categories ("all"), s_AMB, s_DIS and both accuracies with their intervals across seeds
(``results.json: by_language``; its tables, figure, summary lines and report part:
:mod:`biasbench.engines.bbq_family.presenting.by_language`).

Runs with one namespace (FilBBQ, the original BBQ) never reach this module: their outputs are
unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.bias_scores import (
    is_scoped,
    scoped_category,
    scores_from_counts,
)
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults, across_seeds, score_entry

ALL: Final = "all"
"""The category of a namespace's row pooling all its categories (counts summed per seed)."""
KEY_COLUMNS: Final = ("model", "namespace", "language", "category")


def scopes(items: Sequence[BBQItem]) -> pd.DataFrame:
    """Scored category -> namespace, language and plain category, in the items' order."""
    scoped = is_scoped(items)
    rows: dict[str, dict[str, Any]] = {}
    for item in items:
        key = scoped_category(item, scoped)
        rows.setdefault(
            key,
            {
                "scoped": key,
                "namespace": item.namespace,
                "language": item.language or "",
                "plain": item.category,
            },
        )
    return pd.DataFrame(list(rows.values()), columns=["scoped", "namespace", "language", "plain"])


def namespace_order(items: Sequence[BBQItem]) -> list[str]:
    """Namespaces in the order their items come (a benchmark's own order of languages)."""
    return list(dict.fromkeys(item.namespace for item in items))


def language_scores(scored: BBQResults, items: Sequence[BBQItem]) -> pd.DataFrame:
    """Per model, namespace and category (and ``all`` per namespace): every score across seeds
    with its interval, ``seeds_run`` and the unparsed and excluded totals. Empty unless the
    items carry more than one namespace."""
    if not is_scoped(items):
        return pd.DataFrame(columns=list(KEY_COLUMNS))
    scope = scopes(items).set_index("scoped")
    counts = scored.counts.copy()
    counts["namespace"] = counts["category"].map(scope["namespace"])
    # A seed whose ambiguous answers are all unknown scores s_AMB 0 here too (as robust.py).
    per_seed = scores_from_counts(
        counts, ["model", "seed", "namespace"], all_unknown_is_no_bias=True
    )
    per_item = None
    if scored.per_item is not None:
        per_item = scored.per_item.assign(
            namespace=scored.per_item["category"].map(scope["namespace"])
        )
    pooled = across_seeds(per_seed, ["model", "namespace"], scored.confidence, per_item)
    pooled["category"] = ALL
    per_category = scored.by_category.copy()
    per_category["namespace"] = per_category["category"].map(scope["namespace"])
    per_category["category"] = per_category["category"].map(scope["plain"])
    frame = pd.concat([per_category, pooled], ignore_index=True)
    languages = dict(zip(scope["namespace"], scope["language"], strict=True))
    frame["language"] = frame["namespace"].map(languages)
    order = {name: i for i, name in enumerate(namespace_order(items))}
    categories = {name: i for i, name in enumerate(dict.fromkeys(scope["plain"]))}
    categories[ALL] = len(categories)
    frame = frame.assign(_ns=frame["namespace"].map(order), _cat=frame["category"].map(categories))
    frame = frame.sort_values(["model", "_ns", "_cat"], kind="stable").drop(columns=["_ns", "_cat"])
    leading = list(KEY_COLUMNS)
    return frame[leading + [c for c in frame.columns if c not in leading]].reset_index(drop=True)


def language_results(frame: pd.DataFrame) -> dict[str, Any]:
    """``results.json: by_language``: model -> namespace -> language and categories (each with
    the same entry as ``models``; ``all`` pools the namespace's categories)."""
    out: dict[str, Any] = {}
    for row in frame.to_dict("records"):
        model = out.setdefault(str(row["model"]), {})
        space = model.setdefault(
            str(row["namespace"]), {"language": row["language"], "categories": {}}
        )
        space["categories"][str(row["category"])] = score_entry(row)
    return out
