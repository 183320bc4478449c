"""Statistics shared by the benchmarks: small pure functions over counts and arrays.

- significance: McNemar's exact test and its item-clustered (sign-flip) form, Holm correction,
  Connor's power / detectable difference (with a design effect for clustered pairs);
- effects: eta-squared, pairwise Spearman correlation and its summary;
- intervals: seed-level t intervals (also truncated to a score's range), bootstrap
  intervals, Wilson intervals for proportions,
  Newcombe's interval for a paired difference of proportions.
"""

from biasbench.stats.effects import (
    CorrelationSummary,
    eta_squared,
    off_diagonal_summary,
    pairwise_spearman,
)
from biasbench.stats.intervals import (
    ACCURACY_BOUNDS,
    BIAS_BOUNDS,
    BOUNDED_T_METHOD,
    ITEM_RATIO_METHOD,
    MIN_SEEDS_FOR_INTERVAL,
    BoundedInterval,
    IntervalStatus,
    SeedInterval,
    bootstrap_interval,
    bounded_seed_interval,
    bounded_t_intervals,
    interval_reason,
    item_ratio_interval,
    paired_difference_interval,
    seed_interval,
    wilson_interval,
    wilson_pct,
)
from biasbench.stats.significance import (
    EXACT_POWER_METHOD,
    DetectableDifference,
    design_effect,
    exact_min_detectable_difference,
    holm,
    mcnemar_exact,
    mcnemar_exact_power,
    mcnemar_min_detectable_difference,
    mcnemar_required_pairs,
    min_detectable_difference,
    proportion_design_effect,
    sign_flip_test,
)

__all__ = [
    "ACCURACY_BOUNDS",
    "BIAS_BOUNDS",
    "BOUNDED_T_METHOD",
    "MIN_SEEDS_FOR_INTERVAL",
    "BoundedInterval",
    "IntervalStatus",
    "bounded_seed_interval",
    "bounded_t_intervals",
    "interval_reason",
    "ITEM_RATIO_METHOD",
    "item_ratio_interval",
    "CorrelationSummary",
    "DetectableDifference",
    "EXACT_POWER_METHOD",
    "exact_min_detectable_difference",
    "mcnemar_exact_power",
    "SeedInterval",
    "bootstrap_interval",
    "design_effect",
    "eta_squared",
    "holm",
    "mcnemar_exact",
    "mcnemar_min_detectable_difference",
    "mcnemar_required_pairs",
    "min_detectable_difference",
    "off_diagonal_summary",
    "paired_difference_interval",
    "proportion_design_effect",
    "pairwise_spearman",
    "seed_interval",
    "sign_flip_test",
    "wilson_interval",
    "wilson_pct",
]
