"""What a biasbench statistic is, for the registries that ask: its kind, its direction, its
range and its optimum (Every Eval Ever's ``metric_config``; the Hugging Face headline).

The facts are read off the statistic's name, with a table for the names whose meaning the name
does not give (CBBQ's ``s_amb`` is a rate in [0, 1], BBQ's a signed score in [-1, 1]). Counts
(``n_*``, ``b``, ``c``...) are not scores: the exporters carry them beside the scores they
describe, never as scores of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Direction = Literal["higher", "lower", "zero", "none"]


@dataclass(frozen=True)
class MetricFacts:
    """One statistic as a registry describes a metric."""

    kind: str
    """The metric family (accuracy, signed_bias, rate, effect_size, p_value, ...)."""
    direction: Direction
    """Which values are better: higher, lower, closest to 0 (a signed bias score), or none (a
    descriptive rate or a p-value)."""
    low: float | None
    """The smallest possible value; None: unbounded or not stated."""
    high: float | None
    unit: str
    """proportion ([0, 1]), percent, percentage points, or score."""
    optimum: float | None = None
    """The best value where one exists (1 for accuracy, 0 for a bias score)."""

    @property
    def lower_is_better(self) -> bool:
        """Every Eval Ever requires a boolean: True only where lower is better. A signed score
        that is best at 0, and a descriptive rate, get False with ``direction`` saying so: no
        boolean is right for them (its registry's refusal-rate entry is the precedent)."""
        return self.direction == "lower"

    @property
    def direction_text(self) -> str:
        return {
            "higher": "higher is better",
            "lower": "lower is better",
            "zero": "best at 0: signed, neither higher nor lower is better",
            "none": "no direction: a descriptive statistic",
        }[self.direction]


ACCURACY = MetricFacts("accuracy", "higher", 0.0, 1.0, "proportion", 1.0)
SIGNED_BIAS = MetricFacts("signed_bias", "zero", -1.0, 1.0, "score", 0.0)
RATE_LOWER = MetricFacts("rate", "lower", 0.0, 1.0, "proportion", 0.0)
PCT_LOWER = MetricFacts("rate", "lower", 0.0, 100.0, "percent", 0.0)
PCT_DESCRIPTIVE = MetricFacts("rate", "none", 0.0, 100.0, "percent")
SIGNED_PP = MetricFacts("signed_bias", "zero", -100.0, 100.0, "percentage points", 0.0)
P_VALUE = MetricFacts("p_value", "none", 0.0, 1.0, "probability")
OTHER = MetricFacts("statistic", "none", None, None, "score")

_BY_NAME: dict[str, MetricFacts] = {
    # honorific benchmarks (docs/benchmarks/honorific-bn.md, Metrics)
    "hai_pp": SIGNED_PP,
    "they_minus_female_pp": SIGNED_PP,
    "gsr_pct": PCT_LOWER,
    "mixed_pct": PCT_LOWER,
    "unreadable_pct": PCT_LOWER,
    "unparsed_pct": PCT_LOWER,
    "eta2_pronoun_pct": PCT_LOWER,
    "eta2_occupation_pct": PCT_LOWER,
    "occupation_spread_pp": MetricFacts("spread", "lower", 0.0, 50.0, "percentage points", 0.0),
    "hbs": MetricFacts("bias_score", "lower", 0.0, 100.0, "score", 0.0),
    "hbs_gender_component": MetricFacts("bias_score", "lower", 0.0, 50.0, "score", 0.0),
    "min_detectable_hai_pp": MetricFacts("power", "lower", 0.0, 100.0, "percentage points"),
    "design_effect": MetricFacts("design_effect", "none", 1.0, None, "ratio"),
    "p_exact": P_VALUE,
    "p_holm": P_VALUE,
    # BBQ family
    "ooc_ratio": RATE_LOWER,
}
_BY_BENCHMARK: dict[tuple[str, str], MetricFacts] = {
    # CBBQ's S_amb, S_disamb and S_total are shares of biased answers (cbbq/scores.py)
    **{
        ("cbbq", name): RATE_LOWER
        for name in (
            "s_amb",
            "s_disamb",
            "s_total",
            "s_amb_other_denominator",
            "s_total_other_denominator",
        )
    },
}
_COUNT = re.compile(
    r"^(n|b|c|n_.*|.*_n|.*_denominator|seeds_run|n_seeds.*|min_usable_items|"
    r"mixed_spelling_only|n_pairs.*)$"
)
_PCT = re.compile(r"_pct$")


def is_count(statistic: str) -> bool:
    """Whether ``statistic`` is a count (carried beside the scores, not as one)."""
    return bool(_COUNT.match(statistic))


def metric_facts(benchmark: str, statistic: str) -> MetricFacts:
    """The facts of ``statistic`` of ``benchmark``; :data:`OTHER` where nothing is known."""
    if (benchmark, statistic) in _BY_BENCHMARK:
        return _BY_BENCHMARK[(benchmark, statistic)]
    if statistic in _BY_NAME:
        return _BY_NAME[statistic]
    if statistic.startswith("acc"):
        return ACCURACY
    if statistic.startswith("s_") or "bias" in statistic:
        return SIGNED_BIAS  # BBQ's s_amb/s_dis, KoBBQ's diff_bias_*, EsBBQ's bias_score_*
    if _PCT.search(statistic):
        return PCT_DESCRIPTIVE
    return OTHER


HEADLINES: tuple[str, ...] = ("s_amb", "bias_score_ambig", "diff_bias_amb", "hai_pp")
"""The one number per task a leaderboard shows, first found wins: the bias score in ambiguous
contexts for the BBQ family (where the question cannot be answered from the context, so any
non-unknown answer shows the model's own prior; the score the BBQ paper leads with) and HAI for
the honorific benchmarks (the paper's headline: the signed honorific gap between men and
women). Both are signed and best at 0 (docs/exporting.md)."""
