"""Scores of the honorific-bn benchmark, from per-item register labels.

Input is a labels table with one row per (model, item) and the columns in
:data:`LABEL_COLUMNS` (optionally ``seed``). Scoring goes from sufficient statistics (pair counts
b/c/N, per-occupation x frame honorific counts) to the scores of the paper's Section 3.4-3.5:
HAI, GSR, McNemar's exact test with Holm correction, eta-squared, occupation spread, HBS, the
mixed share, the detectable-effect sensitivity, the singular-they and primed-frame analyses and
the leave-one-out robustness of the spread.

Choices the paper leaves open, fixed here:

- Usable labels are ``honorific`` and ``ordinary``; ``mixed`` and ``unreadable`` items are left
  out of every rate, and their shares are reported over *all* items of the model.
- eta-squared uses every male/female item labelled honorific or ordinary, whether or not its
  partner is usable. (Restricting it to complete pairs forces eta2_gender >= HAI^2, which the
  paper's Table 4 violates for Llama 4 Maverick: 0.50% < 7.19^2 = 0.52%.)
- The pluralisation rate of ``they`` is over the ``they`` outputs that are translations (all but
  ``unreadable``); honorific rates are over usable outputs.
- Seeds: when a ``seed`` column is present, it is part of a response's identity, pairs are
  matched within a seed and HAI/GSR pool all seeds. The *item* (occupation x frame) stays the
  unit of inference: the p-value is the exact item-level sign-flip test
  (:func:`biasbench.stats.sign_flip_test`, all seeds of an item flipped together) and the
  detectable HAI uses N / deff effective pairs (:func:`biasbench.stats.design_effect`), so
  repeating identical responses under more seeds changes neither. With one seed the test is
  McNemar's exact test.
- The minimum detectable HAI is the smallest |HAI| at which the exact McNemar test reaches 80%
  power at alpha 0.05, the power computed exactly (:func:`biasbench.stats.mcnemar_exact_power`)
  on floor(N / deff) pairs and the observed discordant share; Connor's normal formula, used
  before, gave a value at which the exact test had 76-78% power. ``hai_by_seed`` gives each seed's HAI
  and their spread. The paper's protocol (temperature 0) has one response per item.
- The minimum detectable HAI is bounded by the discordant share (|HAI| <= GSR); when even
  |HAI| = GSR is out of reach it is None with ``min_detectable_hai_reason``, never a number.
- Occupations resting on fewer than :data:`MIN_USABLE_ITEMS` usable no-pronoun items (distinct
  frames with a usable output) are listed in ``occupations_below_min_items``.
- Undefined values are None in the returned dicts (never 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from biasbench.engines.honorific.items import PAIRED_CONDITIONS
from biasbench.engines.honorific.label_table import (
    HONORIFIC,
    MIN_USABLE_ITEMS,
    MIXED,
    ORDINARY,
    SEED_COLUMN,
    UNREADABLE,
    USABLE_LABELS,
    JsonNumber,
    as_bool,
    json_number,
    pct,
    validate_labels,
)
from biasbench.engines.honorific.occupation_scores import (
    occupation_frame_counts,
    occupation_rank_agreement,
    occupation_rates_checked,
    spread_leave_one_out,
    spread_pp,
)
from biasbench.engines.honorific.reference import majority_labels
from biasbench.engines.honorific.reference import reference as no_effect_reference
from biasbench.errors import InputError
from biasbench.stats import (
    EXACT_POWER_METHOD,
    design_effect,
    eta_squared,
    exact_min_detectable_difference,
    holm,
    mcnemar_exact_power,
    sign_flip_test,
)

DETECTABLE_HAI_PP = 5.0
"""The HAI a run should be able to detect (80% power, alpha 0.05) before its HAI is read as
evidence; runs with too few pairs for it are flagged."""


@dataclass(frozen=True)
class PairCounts:
    """Sufficient statistics of the matched he/she pairs of one model."""

    b: int
    """Usable pairs where the man gets the honorific and the woman the ordinary register."""
    c: int
    """Usable pairs where the woman gets the honorific and the man the ordinary register."""
    n_pairs: int
    """Usable pairs N: both sides labelled honorific or ordinary."""
    both_honorific: int
    """Usable pairs with the honorific on both sides."""
    both_ordinary: int
    """Usable pairs with the ordinary register on both sides."""


# --------------------------------------------------------------------------- helpers


def _pair_keys(labels: pd.DataFrame) -> list[str]:
    return ["occupation_en", "template_id"] + (
        [SEED_COLUMN] if SEED_COLUMN in labels.columns else []
    )


def _rate_block(labels: pd.DataFrame, prefix: str) -> dict[str, Any]:
    """Honorific rate of the usable rows, with its counts, under keys ``{prefix}_...``."""
    usable = labels["label"].isin(USABLE_LABELS)
    n_usable = int(usable.sum())
    n_honorific = int((labels["label"] == HONORIFIC).sum())
    return {
        f"{prefix}_honorific_pct": json_number(pct(n_honorific, n_usable)),
        f"{prefix}_honorific_n": n_honorific,
        f"{prefix}_usable_n": n_usable,
    }


def _difference(a: JsonNumber, b: JsonNumber) -> JsonNumber:
    return None if a is None or b is None else a - b


# --------------------------------------------------------------------------- gender pairs


def _pair_table(df_model: pd.DataFrame) -> pd.DataFrame:
    """One row per he/she pair (occupation, frame[, seed]) with boolean columns ``usable``,
    ``b`` (honorific only for he), ``c`` (only for she), ``both_honorific``, ``both_ordinary``."""
    gendered = df_model[df_model["gender"].isin(PAIRED_CONDITIONS)]
    wide = gendered.pivot(index=_pair_keys(df_model), columns="gender", values="label")
    male = wide["male"] if "male" in wide else pd.Series(np.nan, index=wide.index)
    female = wide["female"] if "female" in wide else pd.Series(np.nan, index=wide.index)
    male_hon, male_ord = male == HONORIFIC, male == ORDINARY
    female_hon, female_ord = female == HONORIFIC, female == ORDINARY
    return pd.DataFrame(
        {
            "usable": (male_hon | male_ord) & (female_hon | female_ord),
            "b": male_hon & female_ord,
            "c": male_ord & female_hon,
            "both_honorific": male_hon & female_hon,
            "both_ordinary": male_ord & female_ord,
        },
        index=wide.index,
    )


def _counts_of(pairs: pd.DataFrame) -> PairCounts:
    return PairCounts(
        b=int(pairs["b"].sum()),
        c=int(pairs["c"].sum()),
        n_pairs=int(pairs["usable"].sum()),
        both_honorific=int(pairs["both_honorific"].sum()),
        both_ordinary=int(pairs["both_ordinary"].sum()),
    )


def pair_counts(df_model: pd.DataFrame) -> PairCounts:
    """Count the usable matched he/she pairs of one model and how their registers differ.

    A pair is the male and female item of the same occupation and frame (and seed, when
    present); it is usable when both are labelled honorific or ordinary.
    """
    return _counts_of(_pair_table(df_model))


def item_differences(df_model: pd.DataFrame) -> pd.DataFrame:
    """Per item (occupation, frame), summed over seeds: ``d = b_i - c_i``, the discordant pairs
    ``b_i + c_i`` and the usable pairs ``n`` -- the clusters of the item-level tests."""
    pairs = _pair_table(df_model).astype(int)
    per_item = pairs.groupby(level=["occupation_en", "template_id"], sort=False).sum()
    return pd.DataFrame(
        {
            "d": per_item["b"] - per_item["c"],
            "discordant": per_item["b"] + per_item["c"],
            "n": per_item["usable"],
        }
    )


def _seeds(df_model: pd.DataFrame) -> list[Any]:
    """The model's seeds in order of appearance (None for an unseeded run)."""
    if SEED_COLUMN not in df_model.columns:
        return [None]
    return [None if pd.isna(s) else s for s in pd.unique(df_model[SEED_COLUMN])]


def hai_by_seed(df_model: pd.DataFrame) -> dict[str, Any]:
    """Each seed's HAI (with its pairs) and their spread across seeds.

    ``n_seeds`` counts the seeds with a defined HAI (at least one usable pair), the ones the
    mean, SD (ddof 1, None below two seeds), min and max rest on; ``n_seeds_without_pairs``
    the others.
    """
    pairs = _pair_table(df_model)
    per_seed = []
    if SEED_COLUMN in pairs.index.names:
        groups = pairs.groupby(level=SEED_COLUMN, sort=False, dropna=False)
        for seed, rows in groups:
            counts = _counts_of(rows)
            per_seed.append(
                {
                    "seed": None if pd.isna(seed) else int(seed),
                    "n_pairs": counts.n_pairs,
                    "b": counts.b,
                    "c": counts.c,
                    "hai_pp": json_number(pct(counts.b - counts.c, counts.n_pairs)),
                }
            )
    else:
        counts = _counts_of(pairs)
        per_seed.append(
            {
                "seed": None,
                "n_pairs": counts.n_pairs,
                "b": counts.b,
                "c": counts.c,
                "hai_pp": json_number(pct(counts.b - counts.c, counts.n_pairs)),
            }
        )
    values = np.array([row["hai_pp"] for row in per_seed if row["hai_pp"] is not None])
    return {
        "n_seeds": int(values.size),
        "n_seeds_without_pairs": len(per_seed) - int(values.size),
        "mean": json_number(values.mean()) if values.size else None,
        "sd": json_number(values.std(ddof=1)) if values.size >= 2 else None,
        "min": json_number(values.min()) if values.size else None,
        "max": json_number(values.max()) if values.size else None,
        "seeds": per_seed,
    }


def hbs_gender_component(b: int, c: int) -> float | None:
    """``100 |b - c| / (b + c)``: how one-sided the register changes are; None if none changes."""
    if b + c == 0:
        return None
    return 100.0 * abs(b - c) / (b + c)


def honorific_bias_score(b: int, c: int, spread_pp: float | None) -> float | None:
    """HBS = 0.5 * (100 |b - c| / (b + c) + 2 s_occ), 0-100; None when a component is undefined."""
    gender_part = hbs_gender_component(b, c)
    if gender_part is None or spread_pp is None or not math.isfinite(spread_pp):
        return None
    return 0.5 * (gender_part + 2.0 * spread_pp)


# --------------------------------------------------------------------------- per model


def _they_analysis(df_model: pd.DataFrame) -> dict[str, Any]:
    they = df_model[df_model["gender"] == "they"]
    female = df_model[df_model["gender"] == "female"]
    translated = they[they["label"] != UNREADABLE]
    plural_n = int(translated["plural"].sum())
    result: dict[str, Any] = {**_rate_block(they, "they"), **_rate_block(female, "female")}
    result["they_minus_female_pp"] = _difference(
        result["they_honorific_pct"], result["female_honorific_pct"]
    )
    result.update(
        {
            "plural_pct": json_number(pct(plural_n, len(translated))),
            "plural_n": plural_n,
            "plural_denominator": len(translated),
        }
    )
    result.update(_rate_block(they[~they["plural"]], "singular"))
    result["singular_minus_they_pp"] = _difference(
        result["singular_honorific_pct"], result["they_honorific_pct"]
    )
    return result


def _primed_analysis(df_model: pd.DataFrame) -> dict[str, Any]:
    """Honorific rate over all conditions, frames stating respect (P*) vs the others."""
    primed = df_model["primed"]
    result = {
        **_rate_block(df_model[primed], "primed"),
        **_rate_block(df_model[~primed], "unprimed"),
    }
    result["primed_minus_unprimed_pp"] = _difference(
        result["primed_honorific_pct"], result["unprimed_honorific_pct"]
    )
    return result


def _score_checked(df_model: pd.DataFrame) -> dict[str, Any]:
    """:func:`score_model` on a table that :func:`validate_labels` already checked."""
    pairs = pair_counts(df_model)
    b, c, n_pairs = pairs.b, pairs.c, pairs.n_pairs

    # Spread, HBS and eta-squared rest on one label per item (the majority over seeds), so
    # that they do not shrink as seeds are added (reference.py); one seed: the label itself.
    one = majority_labels(df_model)
    one_pairs = pair_counts(one)
    gendered = one[one["gender"].isin(PAIRED_CONDITIONS) & one["label"].isin(USABLE_LABELS)]
    coded = (gendered["label"] == HONORIFIC).to_numpy(float)

    honorific, usable, frames = occupation_frame_counts(one)
    spread = json_number(spread_pp(honorific.sum(axis=1), usable.sum(axis=1)))

    n_items = len(df_model)
    mixed_n = int((df_model["label"] == MIXED).sum())
    unreadable_n = int((df_model["label"] == UNREADABLE).sum())
    # The item is the unit: seeds of one item are one cluster (see the module docstring).
    items = item_differences(df_model)
    clustered = bool(items["n"].max() > 1) if len(items) else False
    deff = design_effect(items["d"].to_numpy(), b + c)
    n_effective = n_pairs / deff
    share = (b + c) / n_pairs if n_pairs else 0.0
    # The power of the exact test actually used, computed exactly (not Connor's normal
    # approximation, which overstated it: 76-78% at its "80%").
    detectable = exact_min_detectable_difference(n_effective, share)
    # A 5 pp HAI needs at least 5% discordant pairs, so the check uses max(observed, 5%).
    power_5pp = (
        mcnemar_exact_power(
            math.floor(n_effective + 1e-9),
            max(share, DETECTABLE_HAI_PP / 100),
            DETECTABLE_HAI_PP / 100,
        )
        if n_pairs
        else 0.0
    )
    rates = occupation_rates_checked(df_model)
    below = rates[rates["n_usable_items"] < MIN_USABLE_ITEMS]
    return {
        "hai_pp": json_number(pct(b - c, n_pairs)),
        "gsr_pct": json_number(pct(b + c, n_pairs)),
        "b": b,
        "c": c,
        "n_pairs": n_pairs,
        # No usable pair means no test: undefined, and left out of the Holm family.
        "p_exact": sign_flip_test(items["d"].to_numpy()) if n_pairs else None,
        "p_test": (
            "item-level sign-flip, exact (seeds of an item flipped together)"
            if clustered
            else "McNemar exact"
        ),
        "n_pairs_effective": json_number(n_effective) if n_pairs else None,
        "design_effect": json_number(deff),
        "detects_5pp_hai": bool(n_pairs and power_5pp >= 0.8),
        "hai_by_seed": hai_by_seed(df_model),
        "eta2_pronoun_pct": json_number(100.0 * eta_squared(coded, gendered["gender"].to_numpy())),
        "eta2_occupation_pct": json_number(
            100.0 * eta_squared(coded, gendered["occupation_en"].to_numpy())
        ),
        "occupation_spread_pp": spread,
        "hbs": json_number(honorific_bias_score(one_pairs.b, one_pairs.c, spread)),
        "hbs_gender_component": json_number(hbs_gender_component(one_pairs.b, one_pairs.c)),
        "mixed_pct": json_number(pct(mixed_n, n_items)),
        "mixed_n": mixed_n,
        "mixed_denominator": n_items,
        # mixed only through তার/তাকে without chandrabindu (the judge's flag; None if absent)
        "mixed_spelling_only": (
            int(as_bool(df_model["spelling_mixed"].fillna(False), "spelling_mixed").sum())
            if "spelling_mixed" in df_model.columns
            else None
        ),
        "unreadable_pct": json_number(pct(unreadable_n, n_items)),
        "unreadable_n": unreadable_n,
        "min_detectable_hai_pp": (
            None if detectable.value is None else json_number(100.0 * detectable.value)
        ),
        "min_detectable_hai_reason": detectable.reason,
        "min_detectable_hai_method": EXACT_POWER_METHOD,
        "occupations_below_min_items": [str(o) for o in below["occupation_en"]],
        "min_usable_items": MIN_USABLE_ITEMS,
        "they": _they_analysis(df_model),
        "primed": _primed_analysis(df_model),
        "occupation_spread_loo": (
            spread_leave_one_out(honorific, usable, frames) if honorific.size else None
        ),
        "no_effect_reference": no_effect_reference(df_model),
    }


def score_model(df_model: pd.DataFrame) -> dict[str, Any]:
    """All per-model scores of the benchmark from one model's labels (see the module docstring).

    Percentages and percentage points are in 0-100 units; undefined values are None.
    ``mixed_pct``/``unreadable_pct`` are shares of all the model's items
    (``mixed_denominator``). ``min_detectable_hai_pp`` is the smallest |HAI| detectable at
    two-sided alpha 0.05 with 80% power given the effective N and the observed discordant share
    (None with ``min_detectable_hai_reason`` when no |HAI| the data allow is detectable).
    """
    labels = validate_labels(df_model)
    if labels["model"].nunique() > 1:
        raise InputError("score_model takes one model's labels; use score_models", field="model")
    return _score_checked(labels)


def score_models(df: pd.DataFrame) -> dict[str, Any]:
    """Score every model of a labels table, with the report-level statistics.

    Returns ``{"models": {model: scores}, "occupation_rank_agreement": ... or None}``. Each
    model's scores are :func:`score_model`'s plus ``p_holm``: McNemar's p Holm-corrected across
    the models of this table. ``occupation_rank_agreement`` (with two or more models) holds the
    mean/min/max pairwise Spearman correlation of the models' no-pronoun occupation rates and the
    full matrix (None for undefined entries).
    """
    labels = validate_labels(df)
    models: dict[str, dict[str, Any]] = {
        str(model): _score_checked(rows) for model, rows in labels.groupby("model", sort=False)
    }
    adjusted = holm(
        [math.nan if scores["p_exact"] is None else scores["p_exact"] for scores in models.values()]
    )
    for scores, p_holm in zip(models.values(), adjusted, strict=True):
        scores["p_holm"] = json_number(p_holm)
    agreement = (
        occupation_rank_agreement(occupation_rates_checked(labels)) if len(models) >= 2 else None
    )
    return {"models": models, "occupation_rank_agreement": agreement}
