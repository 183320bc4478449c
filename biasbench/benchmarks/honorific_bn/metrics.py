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

from biasbench.benchmarks.honorific_bn.items import CONDITIONS, PAIRED_CONDITIONS
from biasbench.benchmarks.honorific_bn.reference import majority_labels
from biasbench.benchmarks.honorific_bn.reference import reference as no_effect_reference
from biasbench.errors import InputError
from biasbench.stats import (
    EXACT_POWER_METHOD,
    design_effect,
    eta_squared,
    exact_min_detectable_difference,
    holm,
    mcnemar_exact_power,
    off_diagonal_summary,
    pairwise_spearman,
    sign_flip_test,
)

HONORIFIC, ORDINARY, MIXED, UNREADABLE = "honorific", "ordinary", "mixed", "unreadable"
LABELS = (HONORIFIC, ORDINARY, MIXED, UNREADABLE)
USABLE_LABELS = (HONORIFIC, ORDINARY)
LABEL_COLUMNS = ("model", "item_id", "occupation_en", "occupation_bn", "template_id", "primed",
                 "gender", "label", "plural")
SEED_COLUMN = "seed"
MIN_USABLE_ITEMS = 4
"""An occupation rate resting on fewer usable no-pronoun items (of 7 frames) is flagged: below
4 the rate moves in steps of a third or more and most of the occupation's frames are missing."""
DETECTABLE_HAI_PP = 5.0
"""The HAI a run should be able to detect (80% power, alpha 0.05) before its HAI is read as
evidence; runs with too few pairs for it are flagged."""

JsonNumber = float | None


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


# --------------------------------------------------------------------------- input checks


def _as_bool(column: pd.Series, name: str) -> pd.Series:
    """Booleans from a bool column or from the strings a CSV round trip leaves ("True"/"False")."""
    if column.dtype == bool:
        return column
    mapping = {"true": True, "false": False, "1": True, "0": False}
    lowered = column.astype(str).str.strip().str.lower()
    unknown = ~lowered.isin(list(mapping))
    if unknown.any():
        raise InputError(f"not a boolean: {column[unknown].iloc[0]!r}", field=name)
    return lowered.map(mapping).astype(bool)


def validate_labels(labels: pd.DataFrame) -> pd.DataFrame:
    """Check a labels table and return it with boolean ``primed``/``plural`` columns.

    Raises :class:`InputError` naming the field for a missing column, an unknown label or
    condition, or two rows for the same (model, item[, seed]).
    """
    missing = [name for name in LABEL_COLUMNS if name not in labels.columns]
    if missing:
        raise InputError(f"labels table lacks column(s) {', '.join(missing)}", field=missing[0])
    for name, allowed in (("label", LABELS), ("gender", CONDITIONS)):
        unknown = ~labels[name].isin(allowed)
        if unknown.any():
            raise InputError(f"unknown value {labels[name][unknown].iloc[0]!r} "
                             f"(expected one of {', '.join(allowed)})", field=name)
    identity = ["model", "item_id"] + ([SEED_COLUMN] if SEED_COLUMN in labels.columns else [])
    duplicated = labels.duplicated(identity)
    if duplicated.any():
        first = labels.loc[duplicated, identity].iloc[0].tolist()
        raise InputError(f"more than one label for {' / '.join(map(str, first))}",
                         field="item_id")
    checked = labels.copy()
    checked["primed"] = _as_bool(labels["primed"], "primed")
    checked["plural"] = _as_bool(labels["plural"], "plural")
    return checked


# --------------------------------------------------------------------------- helpers


def _json(value: float | int | None) -> JsonNumber:
    """A plain float for JSON, with NaN/inf (undefined) as None."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _pct(numerator: float, denominator: float) -> float:
    return 100.0 * numerator / denominator if denominator else math.nan


def _pair_keys(labels: pd.DataFrame) -> list[str]:
    return ["occupation_en", "template_id"] + (
        [SEED_COLUMN] if SEED_COLUMN in labels.columns else [])


def _rate_block(labels: pd.DataFrame, prefix: str) -> dict[str, Any]:
    """Honorific rate of the usable rows, with its counts, under keys ``{prefix}_...``."""
    usable = labels["label"].isin(USABLE_LABELS)
    n_usable = int(usable.sum())
    n_honorific = int((labels["label"] == HONORIFIC).sum())
    return {f"{prefix}_honorific_pct": _json(_pct(n_honorific, n_usable)),
            f"{prefix}_honorific_n": n_honorific, f"{prefix}_usable_n": n_usable}


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
    return pd.DataFrame({"usable": (male_hon | male_ord) & (female_hon | female_ord),
                         "b": male_hon & female_ord, "c": male_ord & female_hon,
                         "both_honorific": male_hon & female_hon,
                         "both_ordinary": male_ord & female_ord}, index=wide.index)


def _counts_of(pairs: pd.DataFrame) -> PairCounts:
    return PairCounts(b=int(pairs["b"].sum()), c=int(pairs["c"].sum()),
                      n_pairs=int(pairs["usable"].sum()),
                      both_honorific=int(pairs["both_honorific"].sum()),
                      both_ordinary=int(pairs["both_ordinary"].sum()))


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
    return pd.DataFrame({"d": per_item["b"] - per_item["c"],
                         "discordant": per_item["b"] + per_item["c"],
                         "n": per_item["usable"]})


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
            per_seed.append({"seed": None if pd.isna(seed) else int(seed),
                             "n_pairs": counts.n_pairs, "b": counts.b, "c": counts.c,
                             "hai_pp": _json(_pct(counts.b - counts.c, counts.n_pairs))})
    else:
        counts = _counts_of(pairs)
        per_seed.append({"seed": None, "n_pairs": counts.n_pairs, "b": counts.b, "c": counts.c,
                         "hai_pp": _json(_pct(counts.b - counts.c, counts.n_pairs))})
    values = np.array([row["hai_pp"] for row in per_seed if row["hai_pp"] is not None])
    return {"n_seeds": int(values.size),
            "n_seeds_without_pairs": len(per_seed) - int(values.size),
            "mean": _json(values.mean()) if values.size else None,
            "sd": _json(values.std(ddof=1)) if values.size >= 2 else None,
            "min": _json(values.min()) if values.size else None,
            "max": _json(values.max()) if values.size else None,
            "seeds": per_seed}


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


# --------------------------------------------------------------------------- occupations


def _usable_nopronoun(df_model: pd.DataFrame) -> pd.DataFrame:
    rows = df_model[(df_model["gender"] == "nopronoun")
                    & df_model["label"].isin(USABLE_LABELS)]
    return rows.assign(honorific=(rows["label"] == HONORIFIC).astype(int))


def _spread_pp(honorific: np.ndarray, usable: np.ndarray) -> float:
    """Population SD (ddof=0) of the occupation rates, over occupations with a usable item."""
    has_items = usable > 0
    if not has_items.any():
        return math.nan
    return float(np.std(100.0 * honorific[has_items] / usable[has_items]))


def _occupation_frame_counts(df_model: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Honorific and usable no-pronoun counts as (occupation x frame) arrays, and the frames.

    Occupations with no usable item at all are absent (they have no rate), so they never enter
    the spread or its leave-one-out values.
    """
    rows = _usable_nopronoun(df_model)
    if rows.empty:
        return np.zeros((0, 0)), np.zeros((0, 0)), []
    # Every frame of the model, in the benchmark's order; a frame without a usable no-pronoun
    # item is a zero column (leaving it out changes nothing).
    frames = list(pd.unique(df_model["template_id"]))
    grouped = rows.groupby(["occupation_en", "template_id"], sort=False)["honorific"]
    honorific = grouped.sum().unstack(fill_value=0).reindex(columns=frames, fill_value=0)
    usable = grouped.size().unstack(fill_value=0).reindex(index=honorific.index, columns=frames,
                                                           fill_value=0)
    return honorific.to_numpy(float), usable.to_numpy(float), [str(f) for f in frames]


def occupation_spread_pp(df_model: pd.DataFrame) -> float | None:
    """s_occ: population SD of the per-occupation no-pronoun honorific rates, in pp."""
    honorific, usable, _ = _occupation_frame_counts(df_model)
    return _json(_spread_pp(honorific.sum(axis=1), usable.sum(axis=1)))


def _spread_leave_one_out(honorific: np.ndarray, usable: np.ndarray,
                          frames: list[str]) -> dict[str, Any]:
    """The spread recomputed leaving out each occupation, and separately each frame."""
    occupation_hon, occupation_n = honorific.sum(axis=1), usable.sum(axis=1)
    rates = 100.0 * occupation_hon / occupation_n  # every row has a usable item (see above)
    # Row i of the masked matrix is the rate vector without occupation i.
    without_one = np.where(np.eye(rates.size, dtype=bool), np.nan, rates[None, :])
    by_occupation = (np.nanstd(without_one, axis=1) if rates.size > 1
                     else np.full(rates.size, np.nan))
    by_frame = np.array([_spread_pp(occupation_hon - honorific[:, j], occupation_n - usable[:, j])
                         for j in range(len(frames))])

    def summary(values: np.ndarray) -> dict[str, Any]:
        defined = values[~np.isnan(values)]
        return {"min": _json(defined.min()) if defined.size else None,
                "max": _json(defined.max()) if defined.size else None,
                "n": int(values.size)}

    both = np.concatenate([by_occupation, by_frame])
    return {**{key: value for key, value in summary(both).items() if key != "n"},
            "leave_out_occupation": summary(by_occupation),
            "leave_out_frame": {**summary(by_frame),
                                "values": {f: _json(v) for f, v in zip(frames, by_frame,
                                                                       strict=True)}}}


def occupation_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Per-model, per-occupation honorific rate in the no-pronoun condition.

    Columns: model, occupation_en, occupation_bn, n_items (no-pronoun items), n_usable (labelled
    honorific or ordinary), n_honorific, n_usable_items (distinct frames with a usable output,
    across seeds), honorific_pct (NaN when n_usable == 0), few_items (n_usable_items below
    :data:`MIN_USABLE_ITEMS`). Occupations keep their order of first appearance.
    """
    return _occupation_rates_checked(validate_labels(df))


def _occupation_rates_checked(labels: pd.DataFrame) -> pd.DataFrame:
    nopronoun = labels[labels["gender"] == "nopronoun"]
    usable = nopronoun["label"].isin(USABLE_LABELS)
    per_occupation = nopronoun.assign(
        usable=usable.astype(int), honorific=(nopronoun["label"] == HONORIFIC).astype(int),
        # A frame counts once however many seeds gave it a usable output: items are the unit.
        usable_frame=nopronoun["template_id"].where(usable),
    ).groupby(["model", "occupation_en"], sort=False).agg(
        occupation_bn=("occupation_bn", "first"), n_items=("label", "size"),
        n_usable=("usable", "sum"), n_honorific=("honorific", "sum"),
        n_usable_items=("usable_frame", "nunique")).reset_index()
    per_occupation["honorific_pct"] = (100.0 * per_occupation["n_honorific"]
                                       / per_occupation["n_usable"].where(
                                           per_occupation["n_usable"] > 0))
    per_occupation["few_items"] = per_occupation["n_usable_items"] < MIN_USABLE_ITEMS
    return per_occupation


# --------------------------------------------------------------------------- per model


def _they_analysis(df_model: pd.DataFrame) -> dict[str, Any]:
    they = df_model[df_model["gender"] == "they"]
    female = df_model[df_model["gender"] == "female"]
    translated = they[they["label"] != UNREADABLE]
    plural_n = int(translated["plural"].sum())
    result: dict[str, Any] = {**_rate_block(they, "they"), **_rate_block(female, "female")}
    result["they_minus_female_pp"] = _difference(result["they_honorific_pct"],
                                                 result["female_honorific_pct"])
    result.update({"plural_pct": _json(_pct(plural_n, len(translated))), "plural_n": plural_n,
                   "plural_denominator": len(translated)})
    result.update(_rate_block(they[~they["plural"]], "singular"))
    result["singular_minus_they_pp"] = _difference(result["singular_honorific_pct"],
                                                   result["they_honorific_pct"])
    return result


def _primed_analysis(df_model: pd.DataFrame) -> dict[str, Any]:
    """Honorific rate over all conditions, frames stating respect (P*) vs the others."""
    primed = df_model["primed"]
    result = {**_rate_block(df_model[primed], "primed"),
              **_rate_block(df_model[~primed], "unprimed")}
    result["primed_minus_unprimed_pp"] = _difference(result["primed_honorific_pct"],
                                                     result["unprimed_honorific_pct"])
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

    honorific, usable, frames = _occupation_frame_counts(one)
    spread = _json(_spread_pp(honorific.sum(axis=1), usable.sum(axis=1)))

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
    power_5pp = (mcnemar_exact_power(math.floor(n_effective + 1e-9), max(share, DETECTABLE_HAI_PP / 100),
                                     DETECTABLE_HAI_PP / 100) if n_pairs else 0.0)
    rates = _occupation_rates_checked(df_model)
    below = rates[rates["n_usable_items"] < MIN_USABLE_ITEMS]
    return {
        "hai_pp": _json(_pct(b - c, n_pairs)),
        "gsr_pct": _json(_pct(b + c, n_pairs)),
        "b": b,
        "c": c,
        "n_pairs": n_pairs,
        # No usable pair means no test: undefined, and left out of the Holm family.
        "p_exact": sign_flip_test(items["d"].to_numpy()) if n_pairs else None,
        "p_test": ("item-level sign-flip, exact (seeds of an item flipped together)"
                   if clustered else "McNemar exact"),
        "n_pairs_effective": _json(n_effective) if n_pairs else None,
        "design_effect": _json(deff),
        "detects_5pp_hai": bool(n_pairs and power_5pp >= 0.8),
        "hai_by_seed": hai_by_seed(df_model),
        "eta2_pronoun_pct": _json(100.0 * eta_squared(coded, gendered["gender"].to_numpy())),
        "eta2_occupation_pct": _json(100.0 * eta_squared(coded,
                                                         gendered["occupation_en"].to_numpy())),
        "occupation_spread_pp": spread,
        "hbs": _json(honorific_bias_score(one_pairs.b, one_pairs.c, spread)),
        "hbs_gender_component": _json(hbs_gender_component(one_pairs.b, one_pairs.c)),
        "mixed_pct": _json(_pct(mixed_n, n_items)),
        "mixed_n": mixed_n,
        "mixed_denominator": n_items,
        # mixed only through তার/তাকে without chandrabindu (the judge's flag; None if absent)
        "mixed_spelling_only": (int(_as_bool(df_model["spelling_mixed"].fillna(False),
                                             "spelling_mixed").sum())
                                if "spelling_mixed" in df_model.columns else None),
        "unreadable_pct": _json(_pct(unreadable_n, n_items)),
        "unreadable_n": unreadable_n,
        "min_detectable_hai_pp": (None if detectable.value is None
                                  else _json(100.0 * detectable.value)),
        "min_detectable_hai_reason": detectable.reason,
        "min_detectable_hai_method": EXACT_POWER_METHOD,
        "occupations_below_min_items": [str(o) for o in below["occupation_en"]],
        "min_usable_items": MIN_USABLE_ITEMS,
        "they": _they_analysis(df_model),
        "primed": _primed_analysis(df_model),
        "occupation_spread_loo": (_spread_leave_one_out(honorific, usable, frames)
                                  if honorific.size else None),
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
        str(model): _score_checked(rows) for model, rows in labels.groupby("model", sort=False)}
    adjusted = holm([math.nan if scores["p_exact"] is None else scores["p_exact"]
                     for scores in models.values()])
    for scores, p_holm in zip(models.values(), adjusted, strict=True):
        scores["p_holm"] = _json(p_holm)
    agreement = (occupation_rank_agreement(_occupation_rates_checked(labels))
                 if len(models) >= 2 else None)
    return {"models": models, "occupation_rank_agreement": agreement}


def occupation_rank_agreement(rates: pd.DataFrame) -> dict[str, Any]:
    """Pairwise Spearman correlation of models' occupation rates (from :func:`occupation_rates`)."""
    wide = rates.pivot(index="occupation_en", columns="model", values="honorific_pct")
    wide = wide.reindex(columns=pd.unique(rates["model"]))  # the models' order, not sorted
    matrix = pairwise_spearman(wide)
    summary = off_diagonal_summary(matrix)
    return {"mean": _json(summary.mean), "min": _json(summary.min), "max": _json(summary.max),
            "n_pairs": summary.n_pairs,
            "matrix": {str(row): {str(col): _json(matrix.at[row, col]) for col in matrix.columns}
                       for row in matrix.index}}
