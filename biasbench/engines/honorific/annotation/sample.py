"""Drawing the annotation sample: a stratified sample of labelled responses (models, pronoun
conditions, frames; a share of complete male/female matched pairs), split into the blind sheet
for annotators and the key that keeps the rule label aside."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from biasbench.engines.honorific.items import PAIRED_CONDITIONS
from biasbench.errors import InputError

LABEL_COLUMNS: tuple[str, ...] = (
    "response_id",
    "model",
    "item_id",
    "occupation_en",
    "template_id",
    "gender",
    "output",
    "label",
)
"""Columns the labelled responses given to the sampler must have (``gender`` is the condition)."""

SHEET_COLUMNS: tuple[str, ...] = (
    "sample_id",
    "response_id",
    "model",
    "item_id",
    "gender",
    "template_id",
    "output",
    "annotator_label",
)
"""Columns of the blind annotation sheet; it never holds the rule's label."""

KEY_COLUMNS: tuple[str, ...] = ("sample_id", "response_id", "rule_label", "pair_id")
"""Columns of the hidden key: the rule's label and, for matched-pair rows, the pair id."""


@dataclass(frozen=True)
class AnnotationSample:
    """A drawn sample: the blind sheet for annotators and the key kept away from them."""

    sheet: pd.DataFrame
    """SHEET_COLUMNS, rows in a shuffled order, ``annotator_label`` empty."""
    key: pd.DataFrame
    """KEY_COLUMNS, same rows and order as the sheet; ``pair_id`` is "" outside pairs."""


def _check_label_table(labels: pd.DataFrame) -> pd.DataFrame:
    missing = [name for name in LABEL_COLUMNS if name not in labels.columns]
    if missing:
        raise InputError(
            f"labelled responses lack column(s) {', '.join(missing)}", field=missing[0]
        )
    table = labels.loc[:, list(LABEL_COLUMNS)].copy()
    for name in LABEL_COLUMNS:
        if name != "output":
            table[name] = table[name].astype(str)
    table["output"] = table["output"].fillna("").astype(str)
    duplicated = table["response_id"].duplicated()
    if duplicated.any():
        first = table.loc[duplicated, "response_id"].iloc[0]
        raise InputError(f"response_id {first!r} occurs more than once", field="response_id")
    # Sorting first makes the draw depend on the data and the seed, not on row order.
    return table.sort_values("response_id", kind="stable").reset_index(drop=True)


def _pick_cell(
    cells: dict[Hashable, list[int]],
    score: dict[Hashable, float],
    tiebreak: dict[Hashable, float],
) -> Hashable | None:
    """The non-empty cell with the lowest (score, tiebreak)."""
    best, best_key = None, None
    for cell, rows in cells.items():
        if not rows:
            continue
        key = (score[cell], tiebreak[cell])
        if best_key is None or key < best_key:
            best, best_key = cell, key
    return best


def draw_annotation_sample(
    labels: pd.DataFrame, n: int = 180, pair_share: float = 1 / 3, seed: int = 0
) -> AnnotationSample:
    """Draw a stratified, blind annotation sample and its key.

    ``labels`` holds one labelled response per row (:data:`LABEL_COLUMNS`). The sample has
    ``n`` rows; ``round(n * pair_share / 2)`` complete male/female matched pairs (same
    model, occupation and frame: the paper's 60 of 180), the rest single responses that
    never complete another pair. Every draw greedily takes the model x frame (pairs) or
    model x condition x frame (singles) cell whose model, condition and frame are least
    represented so far, ties broken at random, and a random response within it, so every
    model, condition and frame present appears as soon as ``n`` allows. The same data and
    seed give the same sample whatever the row order.
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    if not 0.0 <= pair_share <= 1.0:
        raise ValueError("pair_share must lie in [0, 1]")
    table = _check_label_table(labels)
    if n > len(table):
        raise ValueError(f"cannot draw {n} responses from {len(table)}")
    rng = np.random.default_rng(seed)
    n_pairs = int(round(n * pair_share / 2))

    model_count: Counter[str] = Counter()
    gender_count: Counter[str] = Counter()
    frame_count: Counter[str] = Counter()
    chosen: list[int] = []
    pair_of_row: dict[int, str] = {}

    # Matched pairs: one male and one female response of the same model/occupation/frame.
    paired = table[table["gender"].isin(PAIRED_CONDITIONS)]
    pair_rows: dict[tuple[str, str, str], dict[str, int]] = {}
    for row, model, occupation, frame, gender in zip(
        paired.index,
        paired["model"],
        paired["occupation_en"],
        paired["template_id"],
        paired["gender"],
        strict=True,
    ):
        pair_rows.setdefault((model, occupation, frame), {}).setdefault(gender, row)
    complete = [key for key, sides in pair_rows.items() if len(sides) == 2]
    if n_pairs > len(complete):
        raise ValueError(f"asked for {n_pairs} matched pairs, only {len(complete)} exist")
    pair_cells: dict[Hashable, list[int]] = {}
    for position in rng.permutation(len(complete)):
        model, _, frame = complete[position]
        pair_cells.setdefault((model, frame), []).append(int(position))
    tiebreak = {cell: float(rng.random()) for cell in sorted(pair_cells)}
    used: Counter[Hashable] = Counter()
    taken_pairs: set[tuple[str, str, str]] = set()
    for number in range(1, n_pairs + 1):
        score = {
            cell: model_count[cell[0]] + frame_count[cell[1]] + used[cell] / 1000
            for cell in pair_cells
        }
        cell = _pick_cell(pair_cells, score, tiebreak)
        assert cell is not None  # enough complete pairs was checked above
        key = complete[pair_cells[cell].pop()]
        taken_pairs.add(key)
        used[cell] += 1
        for gender in PAIRED_CONDITIONS:
            row = pair_rows[key][gender]
            chosen.append(row)
            pair_of_row[row] = f"P{number:0{len(str(max(n_pairs, 1)))}d}"
            gender_count[gender] += 1
        model_count[key[0]] += 2
        frame_count[key[2]] += 2

    # Single responses: never the other half of a pair already in the sample.
    n_single = n - len(chosen)
    chosen_set = set(chosen)
    models, genders = table["model"].tolist(), table["gender"].tolist()
    frames, occupations = table["template_id"].tolist(), table["occupation_en"].tolist()
    single_cells: dict[Hashable, list[int]] = {}
    for row in rng.permutation(len(table)).tolist():
        if row in chosen_set:
            continue
        single_cells.setdefault((models[row], genders[row], frames[row]), []).append(row)
    tiebreak = {cell: float(rng.random()) for cell in sorted(single_cells)}
    used = Counter()
    half_taken: set[tuple[str, str, str]] = set(taken_pairs)
    while len(chosen) < n:
        score = {
            cell: model_count[cell[0]]
            + gender_count[cell[1]]
            + frame_count[cell[2]]
            + used[cell] / 1000
            for cell in single_cells
        }
        cell = _pick_cell(single_cells, score, tiebreak)
        if cell is None:
            raise ValueError(
                f"only {len(chosen) - 2 * n_pairs} of {n_single} single responses could be drawn "
                "without completing extra matched pairs"
            )
        row = single_cells[cell].pop()
        model, gender, frame = cell
        if gender in PAIRED_CONDITIONS:
            pair_key = (model, occupations[row], frame)
            if pair_key in half_taken:
                continue  # its counterpart is in the sample: taking it would make a pair
            half_taken.add(pair_key)
        chosen.append(row)
        used[cell] += 1
        model_count[model] += 1
        gender_count[gender] += 1
        frame_count[frame] += 1

    order = [chosen[i] for i in rng.permutation(len(chosen))]
    width = max(3, len(str(n)))
    sample_ids = [f"S{i:0{width}d}" for i in range(1, n + 1)]
    picked = table.loc[order].reset_index(drop=True)
    sheet = pd.DataFrame(
        {
            "sample_id": sample_ids,
            "response_id": picked["response_id"],
            "model": picked["model"],
            "item_id": picked["item_id"],
            "gender": picked["gender"],
            "template_id": picked["template_id"],
            "output": picked["output"],
            "annotator_label": "",
        }
    )
    key = pd.DataFrame(
        {
            "sample_id": sample_ids,
            "response_id": picked["response_id"],
            "rule_label": picked["label"],
            "pair_id": [pair_of_row.get(row, "") for row in order],
        }
    )
    return AnnotationSample(sheet=sheet, key=key)


def export_annotation_sample(
    labels: pd.DataFrame, n: int = 180, pair_share: float = 1 / 3, seed: int = 0
) -> pd.DataFrame:
    """The blind sheet of :func:`draw_annotation_sample` (same arguments, same draw).

    Get the hidden key with :func:`draw_annotation_sample` (same seed) or, later, with
    :func:`rule_labels_for` from the sheet and the labelled responses.
    """
    return draw_annotation_sample(labels, n=n, pair_share=pair_share, seed=seed).sheet


def rule_labels_for(sheet: pd.DataFrame, labels: pd.DataFrame) -> pd.Series:
    """The rule's labels of a sheet's rows, indexed by sample_id (joined on response_id)."""
    by_response = dict(
        zip(labels["response_id"].astype(str), labels["label"].astype(str), strict=True)
    )
    missing = [rid for rid in sheet["response_id"].astype(str) if rid not in by_response]
    if missing:
        raise InputError(
            f"response_id {missing[0]!r} of the sheet has no rule label", field="response_id"
        )
    return pd.Series(
        [by_response[rid] for rid in sheet["response_id"].astype(str)],
        index=pd.Index(sheet["sample_id"].astype(str), name="sample_id"),
        name="rule_label",
    )
