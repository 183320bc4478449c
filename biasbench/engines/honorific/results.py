"""The typed shape of honorific-bn's per-model results (``results.json`` -> ``models`` -> name).

Every results file is validated against it before it is written, so the documented fields and
the file cannot drift apart. Undefined values are ``None`` (JSON null), never 0.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class TheyAnalysis(BaseModel):
    """Singular they versus the feminine condition (paper section 4, "Singular they")."""

    model_config = ConfigDict(extra="allow")

    they_honorific_pct: float | None
    """Honorific share of the usable ``they`` outputs."""
    female_honorific_pct: float | None
    """Honorific share of the usable ``female`` outputs."""
    they_minus_female_pp: float | None
    plural_pct: float | None
    """Share of ``they`` translations with a plural pronoun (over non-unreadable outputs)."""
    singular_honorific_pct: float | None
    """Honorific share among ``they`` outputs that keep singular reference."""


class Coverage(BaseModel):
    """What a model's scores rest on, against what the benchmark defines (partial
    runs, unreadable outputs, too few pairs: the caveats the summary prints)."""

    n_items_scored: int
    """Items (times seeds) with a labelled response."""
    n_items_expected: int
    """The definition's items times the model's seeds (2,016 per seed)."""
    n_pairs_possible: int
    """The definition's he/she pairs times the model's seeds (504 per seed)."""
    n_seeds: int
    limit: int | None
    """``--limit N`` of the run (from its signature), None for a full run."""
    partial: bool
    """True for a limited run or one with items lacking a response: not comparable to the
    paper's numbers."""
    reason: str | None
    """Why it is partial, e.g. "--limit 30: 30 of 2,016 items"."""


class SeedHAI(BaseModel):
    """One seed's HAI."""

    seed: int | None
    n_pairs: int
    b: int
    c: int
    hai_pp: float | None


class HAIBySeed(BaseModel):
    """HAI per seed and its spread across seeds."""

    n_seeds: int
    """Seeds with at least one usable pair: the ones mean/sd/min/max rest on."""
    n_seeds_without_pairs: int
    mean: float | None
    sd: float | None
    """Sample SD (ddof 1); None below two seeds."""
    min: float | None
    max: float | None
    seeds: list[SeedHAI]


class HonorificScores(BaseModel):
    """One model's scores (docs/benchmarks/honorific-bn.md defines each); percentages in 0-100
    units."""

    model_config = ConfigDict(extra="allow")

    hai_pp: float | None
    """(b - c) / N in percentage points; positive favours men."""
    gsr_pct: float | None
    """(b + c) / N in percent."""
    b: int
    """Matched pairs with the honorific for he only."""
    c: int
    """Matched pairs with the honorific for she only."""
    n_pairs: int
    """Usable matched he/she pairs (both sides honorific or ordinary)."""
    p_exact: float | None
    """Two-sided exact p of ``p_test``; None without usable pairs."""
    p_test: str
    """"McNemar exact" (one pair per item) or the exact item-level sign-flip test (seeds of an
    item flipped together)."""
    n_pairs_effective: float | None
    """N / design_effect: the pairs the detectable HAI rests on (N for one seed)."""
    design_effect: float
    """sum((b_i - c_i)^2) / (b + c) over items, floored at 1 (1 for one seed)."""
    detects_5pp_hai: bool
    """Whether the effective pairs reach 80% exact power for a 5 pp HAI at alpha 0.05 (the
    exact McNemar test's power, computed exactly)."""
    hai_by_seed: HAIBySeed
    p_holm: float | None
    """Holm-adjusted across the models of the results file."""
    eta2_pronoun_pct: float | None
    eta2_occupation_pct: float | None
    occupation_spread_pp: float | None
    """Population SD of the occupations' no-pronoun honorific rates."""
    hbs: float | None
    """Honorific Bias Score, 0-100; None when b + c = 0."""
    hbs_gender_component: float | None
    mixed_pct: float | None
    """Mixed items over all items of the model (``mixed_denominator``)."""
    mixed_n: int
    mixed_denominator: int
    mixed_spelling_only: int | None = None
    """Mixed items whose only ordinary markers are তার/তাকে/তারা/তাদের without the
    chandrabindu of তাঁর/তাঁকে/তাঁরা/তাঁদের, beside an honorific verb (possibly a spelling
    slip); None when the labels carry no ``spelling_mixed`` flag."""
    unreadable_pct: float | None
    unreadable_n: int
    min_detectable_hai_pp: float | None
    """Smallest |HAI| at which the exact McNemar test reaches 80% power at two-sided 0.05, the
    power computed exactly (``min_detectable_hai_method``), at most the GSR; None when no
    possible HAI is detectable (see ``min_detectable_hai_reason``)."""
    min_detectable_hai_reason: str | None
    """Why there is no detectable HAI ("not detectable: ..."); None when there is one."""
    min_detectable_hai_method: str = ""
    """How the detectable HAI is computed, in words (empty in results of older versions)."""
    no_effect_reference: dict[str, Any] | None = None
    """Spread, HBS and eta-squared (on one label per item) with a 95% bootstrap interval over
    items and a permutation null: ``statistics`` -> name -> value, ci_low, ci_high, null_mean,
    null_p95, p_value, within_null; ``method`` and ``labels`` say how
    (:mod:`biasbench.engines.honorific.reference`). None in results of older versions."""
    occupations_below_min_items: list[str]
    """Occupations whose no-pronoun rate rests on fewer than ``min_usable_items`` items."""
    min_usable_items: int
    they: TheyAnalysis
    primed: dict[str, Any] | None
    """Honorific rates of respect-primed (P1-P2) versus neutral (T1-T5) frames."""
    occupation_spread_loo: dict[str, Any] | None
    """The spread recomputed leaving out each occupation and each frame (None when the
    spread itself is undefined)."""
    coverage: Coverage | None = None
    """Set by the benchmark (it knows the definition); absent from bare ``score_models``."""
    caveats: list[str] | None = None
    """What a reader must know before reading these numbers, in words (as in the summary)."""
    signature: str | None = None
    """The short signature of this model's run."""


def validate_model_scores(models: dict[str, dict[str, Any]]) -> None:
    """Raise pydantic's ValidationError if a model's scores drift from the documented shape."""
    for scores in models.values():
        HonorificScores.model_validate(scores)
