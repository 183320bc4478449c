"""The typed shape of BBQ results (``results.json`` -> ``models`` -> model -> category).

Every results file is validated against it before it is written, so the documented fields and
the file cannot drift apart. Undefined values are ``None`` (JSON null), never 0.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class SeedStatistic(BaseModel):
    """One score summarised across seeds."""

    model_config = ConfigDict(extra="forbid")

    mean: float | None
    """Mean over the ``n_seeds`` seeds where the score is defined."""
    sd: float | None
    """Standard deviation across those seeds (ddof 1); None with fewer than two."""
    ci_low: float | None
    """Lower end of the 95% t-interval across seeds, truncated to the score's range; None
    with fewer than 3 seeds (see ``ci_status``)."""
    ci_high: float | None
    n_seeds: int
    """Seeds where the score is defined: what mean, SD and interval rest on."""
    ci_status: Literal["ok", "clipped", "degenerate", "too_few_seeds", "undefined"]
    """ok; clipped (the t-interval reached past the range and was cut at its bound);
    degenerate (every seed gave the same value: zero width is no spread, not certainty);
    too_few_seeds (no interval); undefined (no seed defines the score)."""
    ci_reason: str | None = None
    """Why there is no interval, in words (degenerate, too_few_seeds, undefined); None when
    there is one. A degenerate interval is written as null, never as mean..mean."""
    items_ci_low: float | None = None
    """The 95% interval over items (Student-t across items on the ratio of per-item totals
    over seeds, item-clustered SE, centred on ``mean``): it covers the score over items like
    these, where ``ci_low``/``ci_high`` cover only these items' seeds. None without one."""
    items_ci_high: float | None = None
    items_ci_status: Literal["ok", "clipped", "degenerate", "too_few_seeds",
                             "undefined"] | None = None
    """As ``ci_status``, with items for seeds (too_few_seeds: fewer than 3 items)."""
    n_items: int | None = None
    """The items the interval over items rests on."""


class CategoryScores(BaseModel):
    """A model's scores on one category; bias scores on the [-1, 1] scale."""

    model_config = ConfigDict(extra="forbid")

    acc_ambig: SeedStatistic
    """Accuracy on ambiguous contexts (the unknown answer is correct)."""
    acc_disambig: SeedStatistic
    s_amb: SeedStatistic
    """(1 - accuracy_ambig) x s on ambiguous items, per seed."""
    s_dis: SeedStatistic
    """s = 2 n_target / n_non_unknown - 1 on disambiguated items, per seed."""
    seeds_run: int
    """Seeds answered; each score's own ``n_seeds`` says how many of them define it."""
    unparsed_pct: float | None
    """Responses the parser could not map to an option (left out of every denominator)."""
    n_responses: int
    n_unparsed: int
    n_excluded: int
    """Responses to items without a single target answer."""
    n_items_ambig: int | None = None
    """Ambiguous items answered in a seed (the most in any seed): what a per-seed score of the
    ambiguous context rests on."""
    n_items_disambig: int | None = None
    few_items: str | None = None
    """"few items: 4 ambiguous (< 10)" when a context rests on fewer than ``MIN_ITEMS`` items
    (shown beside the scores in the summary, the tables and the report); None otherwise."""


def validate_models(models: dict[str, dict[str, Any]]) -> None:
    """Raise pydantic's ValidationError if any model/category entry drifts from the shape."""
    for categories in models.values():
        for entry in categories.values():
            CategoryScores.model_validate(entry)
