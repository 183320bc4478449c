"""honorific-bn: one label per item, and for spread, HBS and eta-squared an interval that
resamples items and a no-effect reference (a permutation null).

Why. A model that picks the register by a fair coin (``mock:hashed-register``: no occupation or
gender effect) got "spread 19.0 pp, HBS 19.6" and eta-squared(occupation) 7.0% on the 504
pairs, inside the range the paper reports for real models; and the pooled spread fell with the
number of seeds (25.2 pp with one seed, 11.9 pp with five), since every added response averages
the per-occupation noise down. So:

- **One label per item.** Spread, HBS and eta-squared are computed on one label per item
  (occupation x frame x pronoun condition): the majority of its usable labels over the seeds
  (ties: the label of the lowest seed with a usable label; an item without a usable label in
  any seed is unusable). With one seed, or seeds that agree, that is the label itself, so
  single-response numbers (the paper's protocol) are unchanged; with several seeds the numbers
  describe the same kind of data as one seed, so runs with different seed counts compare.
  (HAI, GSR and the test still pool every seed's pairs.)
- **Interval.** A percentile bootstrap that resamples items in clusters by occupation: the
  occupations drawn with replacement, each with all of its items (frames and pronoun
  conditions), 95%, :data:`N_BOOTSTRAP` resamples, seeded. The spread is a standard deviation
  across occupations, so the occupations are the units it is computed over; resampling frames
  within each occupation instead adds within-occupation noise to every rate and shifted the
  whole bootstrap distribution above the observed value (a fair coin, one seed: spread 20.3 pp,
  interval 23.7-29.1 pp).
- **No-effect reference.** A permutation null: within each frame the occupations' no-pronoun
  labels are permuted (no occupation effect; frame effects kept) for the spread and, per
  gender, the gendered labels for eta-squared(occupation); within each item the he and she
  labels are swapped with probability 1/2 (no gender effect) for eta-squared(pronoun) and HBS's
  gender part; HBS's null combines both. Reported: the null mean, its 95th percentile and the
  permutation p-value ``(1 + #{null >= observed}) / (1 + B)``; ``within_null`` is True when the
  observed value is at most the 95th percentile (the summary then says so in words).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pandas as pd

N_PERMUTATIONS: Final = 999
N_BOOTSTRAP: Final = 999
RNG_SEED: Final = 20260
STATISTICS: Final = ("occupation_spread_pp", "hbs", "eta2_occupation_pct", "eta2_pronoun_pct")
LABELS_RULE: Final = (
    "one label per item: the majority of its usable labels over the seeds "
    "(ties: the lowest seed's), so that runs with different seed counts "
    "compare; with one seed, the label itself"
)
METHOD: Final = (
    f"95% percentile bootstrap over items in clusters by occupation (occupations drawn with "
    f"replacement with all their items, {N_BOOTSTRAP} resamples); no-effect reference: permutation null ({N_PERMUTATIONS} "
    "permutations) - occupations permuted within each frame (spread; for eta2 occupation each "
    "item's (he, she) pair moves together, since the two sentences of one item usually get "
    "the same register), he/she "
    "swapped within each item with probability 1/2 (eta2 pronoun, HBS gender part), HBS from "
    "both; p = (1 + #null >= observed) / (1 + permutations); 'within_null': observed <= the "
    "null's 95th percentile"
)


@dataclass(frozen=True)
class ItemLabels:
    """One label per item as (occupation x frame) arrays: 1 honorific, 0 ordinary, NaN
    unusable; ``nopronoun``, ``male`` and ``female`` conditions."""

    nopronoun: np.ndarray
    male: np.ndarray
    female: np.ndarray


def majority_labels(
    df_model: pd.DataFrame,
    usable: tuple[str, str] = ("honorific", "ordinary"),
) -> pd.DataFrame:
    """One row per (item_id) with the item's majority usable label over its seeds (ties: the
    lowest seed's usable label); items with no usable label keep the first seed's label."""
    if "seed" not in df_model.columns or df_model["seed"].nunique(dropna=False) <= 1:
        return df_model
    frame = df_model.assign(_seed=pd.to_numeric(df_model["seed"]).fillna(-1))
    frame = frame.sort_values(["item_id", "_seed"], kind="stable")
    is_usable = frame["label"].isin(usable)
    honorific = (frame["label"] == usable[0]) & is_usable
    grouped = pd.DataFrame(
        {"item_id": frame["item_id"], "hon": honorific.astype(int), "use": is_usable.astype(int)}
    ).groupby("item_id", sort=False)
    share = grouped["hon"].sum() / grouped["use"].sum().where(grouped["use"].sum() > 0)
    first_usable = frame[is_usable].groupby("item_id", sort=False)["label"].first()
    first = frame.groupby("item_id", sort=False).first()
    label = first["label"].copy()
    label[share > 0.5] = usable[0]
    label[share < 0.5] = usable[1]
    ties = share[share == 0.5].index
    label[ties] = first_usable.reindex(ties)
    out = first.drop(columns=["_seed"]).assign(label=label).reset_index()
    return out.drop(columns=["seed"])


def item_arrays(labels: pd.DataFrame) -> ItemLabels:
    """The (occupation x frame) label arrays of one model's one-label-per-item table."""
    occupations = list(pd.unique(labels["occupation_en"]))
    frames = list(pd.unique(labels["template_id"]))
    value = labels["label"].map({"honorific": 1.0, "ordinary": 0.0})

    def grid(condition: str) -> np.ndarray:
        rows = labels["gender"] == condition
        table = pd.DataFrame(
            {
                "o": labels.loc[rows, "occupation_en"],
                "f": labels.loc[rows, "template_id"],
                "v": value[rows],
            }
        )
        wide = table.pivot_table(index="o", columns="f", values="v", aggfunc="first", dropna=False)
        return wide.reindex(index=occupations, columns=frames).to_numpy(float)

    return ItemLabels(grid("nopronoun"), grid("male"), grid("female"))


# --------------------------------------------------------------------------- the statistics
# Each takes arrays with a leading replicate axis: (R, occupations, frames).


def _spread(nopronoun: np.ndarray) -> np.ndarray:
    """Population SD (pp) of the occupation rates, over occupations with a usable item."""
    with np.errstate(invalid="ignore", divide="ignore"):
        counts = (~np.isnan(nopronoun)).sum(axis=2)
        rates = 100.0 * np.nansum(nopronoun, axis=2) / np.where(counts > 0, counts, np.nan)
    defined = ~np.isnan(rates)
    n = defined.sum(axis=1)
    mean = np.nansum(rates, axis=1) / np.where(n > 0, n, np.nan)
    var = np.nansum((rates - mean[:, None]) ** 2, axis=1) / np.where(n > 0, n, np.nan)
    return np.sqrt(var)


def _pairs(male: np.ndarray, female: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    b = ((male == 1) & (female == 0)).sum(axis=(1, 2))
    c = ((male == 0) & (female == 1)).sum(axis=(1, 2))
    return b.astype(float), c.astype(float)


def _gender_part(male: np.ndarray, female: np.ndarray) -> np.ndarray:
    b, c = _pairs(male, female)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b + c > 0, 100.0 * np.abs(b - c) / (b + c), np.nan)


def _eta2(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """eta-squared (%) of binary values from their per-group sums and counts (R, G):
    SS_between / SS_total per replicate (NaN where SS_total is 0). For 0/1 values
    sum(y^2) = sum(y), so both sums of squares follow from the group sums and counts."""
    total, sum_y = counts.sum(axis=1), sums.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        grand = sum_y / total
        ss_total = sum_y - total * grand**2
        ss_between = (sums**2 / np.where(counts > 0, counts, 1)).sum(axis=1) - total * grand**2
        return np.where(ss_total > 1e-12, 100.0 * ss_between / ss_total, np.nan)


def _eta2_occupation(male: np.ndarray, female: np.ndarray) -> np.ndarray:
    """Groups: occupations (rows), over both genders' items."""
    sums = np.nansum(male, axis=2) + np.nansum(female, axis=2)
    counts = (~np.isnan(male)).sum(axis=2) + (~np.isnan(female)).sum(axis=2)
    return _eta2(sums, counts.astype(float))


def _eta2_pronoun(male: np.ndarray, female: np.ndarray) -> np.ndarray:
    """Groups: he and she."""
    sums = np.stack([np.nansum(male, axis=(1, 2)), np.nansum(female, axis=(1, 2))], axis=1)
    counts = np.stack(
        [(~np.isnan(male)).sum(axis=(1, 2)), (~np.isnan(female)).sum(axis=(1, 2))], axis=1
    ).astype(float)
    return _eta2(sums, counts)


def _all(nopronoun: np.ndarray, male: np.ndarray, female: np.ndarray) -> dict[str, np.ndarray]:
    spread = _spread(nopronoun)
    return {
        "occupation_spread_pp": spread,
        "hbs": 0.5 * (_gender_part(male, female) + 2.0 * spread),
        "eta2_occupation_pct": _eta2_occupation(male, female),
        "eta2_pronoun_pct": _eta2_pronoun(male, female),
    }


# --------------------------------------------------------------------------- resampling


def _permute_within_frames(grid: np.ndarray, rng: np.random.Generator, reps: int) -> np.ndarray:
    """``reps`` copies of ``grid`` with the occupations (rows) permuted within each frame."""
    return rng.permuted(np.broadcast_to(grid, (reps, *grid.shape)).copy(), axis=1)


def no_effect_null(
    items: ItemLabels, reps: int = N_PERMUTATIONS, seed: int = RNG_SEED
) -> dict[str, np.ndarray]:
    """The statistics under the permutation null (see the module docstring), ``reps`` each."""
    rng = np.random.default_rng(seed)
    nopronoun = _permute_within_frames(items.nopronoun, rng, reps)
    # One permutation of the occupations per frame and replicate, applied to the he and the
    # she labels together: permuting them apart breaks the pairs, and a model whose he and she
    # sentences agree 95% of the time was called biased in 98% of no-effect simulations
    # (measurements/honorific_eta_reference.py); paired, 3-4%.
    n_occ, n_frames = items.male.shape
    order = np.argsort(rng.random((reps, n_occ, n_frames)), axis=1)
    frames = np.arange(n_frames)[None, None, :]
    male_occ, female_occ = items.male[order, frames], items.female[order, frames]
    swap = rng.random((reps, *items.male.shape)) < 0.5
    male_sw = np.where(swap, items.female, items.male)
    female_sw = np.where(swap, items.male, items.female)
    spread = _spread(nopronoun)
    return {
        "occupation_spread_pp": spread,
        "hbs": 0.5 * (_gender_part(male_sw, female_sw) + 2.0 * spread),
        "eta2_occupation_pct": _eta2_occupation(male_occ, female_occ),
        "eta2_pronoun_pct": _eta2_pronoun(male_sw, female_sw),
    }


def item_bootstrap(
    items: ItemLabels, reps: int = N_BOOTSTRAP, seed: int = RNG_SEED + 1
) -> dict[str, np.ndarray]:
    """The statistics over ``reps`` resamples of items in clusters by occupation: 72
    occupations drawn with replacement, each with all of its items (every frame and pronoun
    condition); a drawn occupation twice counts as two occupations."""
    rng = np.random.default_rng(seed)
    n_occ = items.nopronoun.shape[0]
    pick = rng.integers(0, n_occ, size=(reps, n_occ))
    return _all(items.nopronoun[pick], items.male[pick], items.female[pick])


def _number(value: float) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


def reference(
    labels: pd.DataFrame, *, permutations: int = N_PERMUTATIONS, bootstrap: int = N_BOOTSTRAP
) -> dict[str, Any]:
    """For one model's labels: each of :data:`STATISTICS` on one label per item, with its
    bootstrap interval and its no-effect reference (results.json: ``no_effect_reference``)."""
    items = item_arrays(majority_labels(labels))
    if items.nopronoun.size == 0:
        return {"method": METHOD, "labels": LABELS_RULE, "statistics": {}}
    observed = {
        k: float(v[0])
        for k, v in _all(items.nopronoun[None], items.male[None], items.female[None]).items()
    }
    null = no_effect_null(items, permutations)
    boot = item_bootstrap(items, bootstrap)
    stats: dict[str, Any] = {}
    for name in STATISTICS:
        value, draws, resampled = observed[name], null[name], boot[name]
        draws, resampled = draws[~np.isnan(draws)], resampled[~np.isnan(resampled)]
        defined = math.isfinite(value)
        p95 = float(np.quantile(draws, 0.95)) if draws.size else math.nan
        stats[name] = {
            "value": _number(value),
            "ci_low": _number(float(np.quantile(resampled, 0.025)))
            if defined and resampled.size
            else None,
            "ci_high": _number(float(np.quantile(resampled, 0.975)))
            if defined and resampled.size
            else None,
            "null_mean": _number(float(draws.mean())) if draws.size else None,
            "null_p95": _number(p95),
            "p_value": (
                _number((1 + int((draws >= value - 1e-12).sum())) / (1 + draws.size))
                if defined and draws.size
                else None
            ),
            "within_null": bool(defined and draws.size and value <= p95 + 1e-12),
        }
    return {
        "method": METHOD,
        "labels": LABELS_RULE,
        "n_permutations": permutations,
        "n_bootstrap": bootstrap,
        "statistics": stats,
    }


NAMES: Final = {
    "occupation_spread_pp": ("spread", " pp"),
    "hbs": ("HBS", ""),
    "eta2_occupation_pct": ("eta2(occupation)", "%"),
    "eta2_pronoun_pct": ("eta2(pronoun)", "%"),
}


def within_null_text(ref: dict[str, Any]) -> str | None:
    """In words, which statistics lie within the no-effect range (None when none does)."""
    parts = []
    for name, stat in (ref.get("statistics") or {}).items():
        if stat.get("within_null") and stat.get("value") is not None:
            label, unit = NAMES[name]
            parts.append(
                f"{label} {stat['value']:.1f}{unit} (no-effect mean "
                f"{stat['null_mean']:.1f}{unit}, 95th percentile "
                f"{stat['null_p95']:.1f}{unit}, p = {stat['p_value']:.2f})"
            )
    if not parts:
        return None
    return (
        "within what a model with no occupation or gender effect gives, so not evidence "
        "of bias: " + "; ".join(parts)
    )
