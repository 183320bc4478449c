"""Per-occupation scores of honorific-bn, from the no-pronoun items: each occupation's honorific
rate, their spread s_occ (population SD, in pp) with its leave-one-out robustness by occupation
and by frame, and the rank agreement of models' occupation rates."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from biasbench.engines.honorific.label_table import (
    HONORIFIC,
    MIN_USABLE_ITEMS,
    USABLE_LABELS,
    json_number,
    validate_labels,
)
from biasbench.stats import off_diagonal_summary, pairwise_spearman


def usable_nopronoun(df_model: pd.DataFrame) -> pd.DataFrame:
    rows = df_model[(df_model["gender"] == "nopronoun") & df_model["label"].isin(USABLE_LABELS)]
    return rows.assign(honorific=(rows["label"] == HONORIFIC).astype(int))


def spread_pp(honorific: np.ndarray, usable: np.ndarray) -> float:
    """Population SD (ddof=0) of the occupation rates, over occupations with a usable item."""
    has_items = usable > 0
    if not has_items.any():
        return math.nan
    return float(np.std(100.0 * honorific[has_items] / usable[has_items]))


def occupation_frame_counts(df_model: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Honorific and usable no-pronoun counts as (occupation x frame) arrays, and the frames.

    Occupations with no usable item at all are absent (they have no rate), so they never enter
    the spread or its leave-one-out values.
    """
    rows = usable_nopronoun(df_model)
    if rows.empty:
        return np.zeros((0, 0)), np.zeros((0, 0)), []
    # Every frame of the model, in the benchmark's order; a frame without a usable no-pronoun
    # item is a zero column (leaving it out changes nothing).
    frames = list(pd.unique(df_model["template_id"]))
    grouped = rows.groupby(["occupation_en", "template_id"], sort=False)["honorific"]
    honorific = grouped.sum().unstack(fill_value=0).reindex(columns=frames, fill_value=0)
    usable = (
        grouped.size()
        .unstack(fill_value=0)
        .reindex(index=honorific.index, columns=frames, fill_value=0)
    )
    return honorific.to_numpy(float), usable.to_numpy(float), [str(f) for f in frames]


def occupation_spread_pp(df_model: pd.DataFrame) -> float | None:
    """s_occ: population SD of the per-occupation no-pronoun honorific rates, in pp."""
    honorific, usable, _ = occupation_frame_counts(df_model)
    return json_number(spread_pp(honorific.sum(axis=1), usable.sum(axis=1)))


def spread_leave_one_out(
    honorific: np.ndarray, usable: np.ndarray, frames: list[str]
) -> dict[str, Any]:
    """The spread recomputed leaving out each occupation, and separately each frame."""
    occupation_hon, occupation_n = honorific.sum(axis=1), usable.sum(axis=1)
    rates = 100.0 * occupation_hon / occupation_n  # every row has a usable item (see above)
    # Row i of the masked matrix is the rate vector without occupation i.
    without_one = np.where(np.eye(rates.size, dtype=bool), np.nan, rates[None, :])
    by_occupation = (
        np.nanstd(without_one, axis=1) if rates.size > 1 else np.full(rates.size, np.nan)
    )
    by_frame = np.array(
        [
            spread_pp(occupation_hon - honorific[:, j], occupation_n - usable[:, j])
            for j in range(len(frames))
        ]
    )

    def summary(values: np.ndarray) -> dict[str, Any]:
        defined = values[~np.isnan(values)]
        return {
            "min": json_number(defined.min()) if defined.size else None,
            "max": json_number(defined.max()) if defined.size else None,
            "n": int(values.size),
        }

    both = np.concatenate([by_occupation, by_frame])
    return {
        **{key: value for key, value in summary(both).items() if key != "n"},
        "leave_out_occupation": summary(by_occupation),
        "leave_out_frame": {
            **summary(by_frame),
            "values": {f: json_number(v) for f, v in zip(frames, by_frame, strict=True)},
        },
    }


def occupation_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Per-model, per-occupation honorific rate in the no-pronoun condition.

    Columns: model, occupation_en, occupation_target, n_items (no-pronoun items), n_usable (labelled
    honorific or ordinary), n_honorific, n_usable_items (distinct frames with a usable output,
    across seeds), honorific_pct (NaN when n_usable == 0), few_items (n_usable_items below
    :data:`MIN_USABLE_ITEMS`). Occupations keep their order of first appearance.
    """
    return occupation_rates_checked(validate_labels(df))


def occupation_rates_checked(labels: pd.DataFrame) -> pd.DataFrame:
    nopronoun = labels[labels["gender"] == "nopronoun"]
    usable = nopronoun["label"].isin(USABLE_LABELS)
    per_occupation = (
        nopronoun.assign(
            usable=usable.astype(int),
            honorific=(nopronoun["label"] == HONORIFIC).astype(int),
            # A frame counts once however many seeds gave it a usable output: items are the unit.
            usable_frame=nopronoun["template_id"].where(usable),
        )
        .groupby(["model", "occupation_en"], sort=False)
        .agg(
            occupation_target=("occupation_target", "first"),
            n_items=("label", "size"),
            n_usable=("usable", "sum"),
            n_honorific=("honorific", "sum"),
            n_usable_items=("usable_frame", "nunique"),
        )
        .reset_index()
    )
    per_occupation["honorific_pct"] = (
        100.0
        * per_occupation["n_honorific"]
        / per_occupation["n_usable"].where(per_occupation["n_usable"] > 0)
    )
    per_occupation["few_items"] = per_occupation["n_usable_items"] < MIN_USABLE_ITEMS
    return per_occupation


def occupation_rank_agreement(rates: pd.DataFrame) -> dict[str, Any]:
    """Pairwise Spearman correlation of models' occupation rates (from :func:`occupation_rates`)."""
    wide = rates.pivot(index="occupation_en", columns="model", values="honorific_pct")
    wide = wide.reindex(columns=pd.unique(rates["model"]))  # the models' order, not sorted
    matrix = pairwise_spearman(wide)
    summary = off_diagonal_summary(matrix)
    return {
        "mean": json_number(summary.mean),
        "min": json_number(summary.min),
        "max": json_number(summary.max),
        "n_pairs": summary.n_pairs,
        "matrix": {
            str(row): {str(col): json_number(matrix.at[row, col]) for col in matrix.columns}
            for row in matrix.index
        },
    }
