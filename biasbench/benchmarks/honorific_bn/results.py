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


class HonorificScores(BaseModel):
    """One model's scores (specs/honorific-bn.md, "Metrics"); percentages in 0-100 units."""

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
    """McNemar's exact two-sided p; None without usable pairs."""
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
    min_detectable_hai_pp: float | None
    """Smallest |HAI| detectable at two-sided 0.05 with 80% power (Connor 1987)."""
    they: TheyAnalysis
    primed: dict[str, Any] | None
    """Honorific rates of respect-primed (P1-P2) versus neutral (T1-T5) frames."""
    occupation_spread_loo: dict[str, Any] | None
    """The spread recomputed leaving out each occupation and each frame (None when the
    spread itself is undefined)."""
    signature: str | None = None
    """The short signature of this model's run."""


def validate_model_scores(models: dict[str, dict[str, Any]]) -> None:
    """Raise pydantic's ValidationError if a model's scores drift from the documented shape."""
    for scores in models.values():
        HonorificScores.model_validate(scores)
