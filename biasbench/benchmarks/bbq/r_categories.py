"""The original BBQ's categories as its R analysis reports them: the name-proxy templates apart.

BBQ_calculate_bias_score.R relabels every item of a template numbered above 25 as
``<category> (names)`` before scoring: those templates name people by first names standing in
for the group (Gender_identity, Race_ethnicity, Race_x_SES, Race_x_gender), so the R script
prints, e.g., "Gender_identity" (templates 1-25) and "Gender_identity (names)" (26 and above)
as two categories. biasbench's per-category scores pool both; :func:`r_categories` gives the two
parts apart, from the same counts, with the same intervals, for results.json ``r_categories``.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.scoring.bias_scores import scores_from_counts
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults, across_seeds, score_entry

LAST_GROUP_TEMPLATE: Final = 25
"""BBQ_calculate_bias_score.R: ``as.numeric(question_index) > 25`` marks a names template."""
NAMES_SUFFIX: Final = " (names)"
NOTE: Final = (
    "BBQ_calculate_bias_score.R reports templates numbered above 25 (first names as "
    "proxies for the group) as '<category> (names)' and the rest as '<category>'; "
    "biasbench's per-category scores (models) pool both, these are the parts apart, "
    "as the R script prints them"
)


def r_category(category: pd.Series, question_index: pd.Series) -> pd.Series:
    """Each row's category as the R script names it (``" (names)"`` above template 25)."""
    names = pd.to_numeric(question_index, errors="coerce") > LAST_GROUP_TEMPLATE
    return category.astype(str) + np.where(names, NAMES_SUFFIX, "")


def r_categories(scored: BBQResults) -> dict[str, Any]:
    """``{"note", "models": model -> R category -> score entry}`` for the categories that have
    names templates (both parts: ``Gender_identity`` and ``Gender_identity (names)``); empty
    when no answered item is a names template."""
    counts = scored.counts.copy()
    counts["category"] = r_category(counts["category"], counts["question_index"])
    split = {
        c[: -len(NAMES_SUFFIX)] for c in counts["category"].unique() if c.endswith(NAMES_SUFFIX)
    }
    if not split:
        return {}
    wanted = {*split, *(f"{c}{NAMES_SUFFIX}" for c in split)}
    counts = counts[counts["category"].isin(wanted)]
    per_seed = scores_from_counts(
        counts, ["model", "seed", "category"], all_unknown_is_no_bias=True
    )
    per_item = None
    if scored.per_item is not None:
        per_item = scored.per_item.copy()
        per_item["category"] = r_category(per_item["category"], per_item["question_index"])
        per_item = per_item[per_item["category"].isin(wanted)]
    by_category = across_seeds(per_seed, ["model", "category"], scored.confidence, per_item)
    models: dict[str, dict[str, Any]] = {}
    for row in by_category.to_dict("records"):
        models.setdefault(str(row["model"]), {})[str(row["category"])] = score_entry(row)
    return {"note": NOTE, "models": models}
