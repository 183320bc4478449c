"""Human validation of the register judge (spec "Validation", paper section 3.3).

The workflow the paper used, as library calls:

1. :func:`draw_annotation_sample` (or :func:`export_annotation_sample` for the sheet
   alone) draws a stratified sample of labelled responses -- spread over models, pronoun
   conditions and frames, a share of it as complete male/female matched pairs -- and
   splits it into a *blind sheet* for the annotators (no rule label) and a *key* that
   keeps the rule label aside.
2. :func:`write_annotation_sheet` writes the sheet as CSV (UTF-8 with BOM, so spreadsheet
   programs show Bengali); each annotator fills ``annotator_label`` in a copy.
3. :func:`read_annotation_sheet` reads a filled copy back, naming file, line and field of
   any unknown label or missing column.
4. :func:`agreement_report` computes inter-annotator agreement and Cohen's kappa, and the
   rule's agreement and kappa against the adjudicated labels (or, without them, against
   the items on which both annotators agree), with confusion matrices in a fixed label
   order. The paper reports 178/180 agreement, kappa 0.98.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from statsmodels.stats.inter_rater import cohens_kappa

from biasbench.benchmarks.honorific_bn.classifier import Register
from biasbench.benchmarks.honorific_bn.items import PAIRED_CONDITIONS
from biasbench.errors import InputError
from biasbench.responses import read_text
from biasbench.tables import restore_formula, write_csv

ANNOTATION_LABELS: tuple[str, ...] = tuple(label.value for label in Register)
"""The four labels, in the fixed order used by every confusion matrix."""

LABEL_COLUMNS: tuple[str, ...] = (
    "response_id", "model", "item_id", "occupation_en", "template_id", "gender", "output", "label",
)
"""Columns the labelled responses given to the sampler must have (``gender`` is the condition)."""

SHEET_COLUMNS: tuple[str, ...] = (
    "sample_id", "response_id", "model", "item_id", "gender", "template_id", "output",
    "annotator_label",
)
"""Columns of the blind annotation sheet; it never holds the rule's label."""

KEY_COLUMNS: tuple[str, ...] = ("sample_id", "response_id", "rule_label", "pair_id")
"""Columns of the hidden key: the rule's label and, for matched-pair rows, the pair id."""

LABEL_ALIASES: dict[str, str] = {"h": "honorific", "o": "ordinary", "m": "mixed", "u": "unreadable"}
"""Shorthands an annotator may type instead of the full label (case-insensitive)."""



@dataclass(frozen=True)
class AnnotationSample:
    """A drawn sample: the blind sheet for annotators and the key kept away from them."""

    sheet: pd.DataFrame
    """SHEET_COLUMNS, rows in a shuffled order, ``annotator_label`` empty."""
    key: pd.DataFrame
    """KEY_COLUMNS, same rows and order as the sheet; ``pair_id`` is "" outside pairs."""


# ---------------------------------------------------------------------------------------
# Sampling
# ---------------------------------------------------------------------------------------


def _check_label_table(labels: pd.DataFrame) -> pd.DataFrame:
    missing = [name for name in LABEL_COLUMNS if name not in labels.columns]
    if missing:
        raise InputError(f"labelled responses lack column(s) {', '.join(missing)}", field=missing[0])
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
        paired.index, paired["model"], paired["occupation_en"], paired["template_id"],
        paired["gender"], strict=True,
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
        score = {cell: model_count[cell[0]] + frame_count[cell[1]] + used[cell] / 1000
                 for cell in pair_cells}
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
            cell: model_count[cell[0]] + gender_count[cell[1]] + frame_count[cell[2]]
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
    sheet = pd.DataFrame({
        "sample_id": sample_ids,
        "response_id": picked["response_id"],
        "model": picked["model"],
        "item_id": picked["item_id"],
        "gender": picked["gender"],
        "template_id": picked["template_id"],
        "output": picked["output"],
        "annotator_label": "",
    })
    key = pd.DataFrame({
        "sample_id": sample_ids,
        "response_id": picked["response_id"],
        "rule_label": picked["label"],
        "pair_id": [pair_of_row.get(row, "") for row in order],
    })
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
    by_response = dict(zip(labels["response_id"].astype(str), labels["label"].astype(str), strict=True))
    missing = [rid for rid in sheet["response_id"].astype(str) if rid not in by_response]
    if missing:
        raise InputError(f"response_id {missing[0]!r} of the sheet has no rule label", field="response_id")
    return pd.Series(
        [by_response[rid] for rid in sheet["response_id"].astype(str)],
        index=pd.Index(sheet["sample_id"].astype(str), name="sample_id"),
        name="rule_label",
    )


# ---------------------------------------------------------------------------------------
# Sheets on disk
# ---------------------------------------------------------------------------------------


def write_annotation_sheet(sample: pd.DataFrame | AnnotationSample, path: str | PathLike[str]) -> None:
    """Write the blind sheet as CSV (UTF-8 with BOM); only :data:`SHEET_COLUMNS` are written."""
    sheet = sample.sheet if isinstance(sample, AnnotationSample) else sample
    missing = [name for name in SHEET_COLUMNS if name not in sheet.columns]
    if missing:
        raise InputError(f"sheet lacks column(s) {', '.join(missing)}", field=missing[0])
    out = sheet.loc[:, list(SHEET_COLUMNS)].astype(object)
    out = out.where(out.notna(), "")  # a missing output is written as an empty cell
    # Annotators open it in a spreadsheet: model outputs must not run as formulas.
    write_csv(out, Path(path), encoding="utf-8-sig")


def read_annotation_key(path: str | PathLike[str]) -> pd.DataFrame:
    """The key written by ``annotate export`` (:data:`KEY_COLUMNS`, as text); an empty,
    non-UTF-8 or incomplete key is an InputError naming the file, line and field."""
    file = str(path)
    text = read_text(path)
    if not text.strip():
        raise InputError("empty annotation key (no header, no rows)", file=file, line=1)
    key = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    key.columns = [restore_formula(c) for c in key.columns]
    key = key.map(restore_formula)  # the key is written with formula cells neutralised
    missing = [name for name in ("sample_id", "rule_label") if name not in key.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", file=file, line=1,
                         field=missing[0])
    if key.empty:
        raise InputError("annotation key has a header but no rows", file=file, line=2)
    return key


def normalise_label(value: str) -> str | None:
    """A label as typed by an annotator -> one of :data:`ANNOTATION_LABELS`, or None if unknown."""
    text = value.strip().lower()
    text = LABEL_ALIASES.get(text, text)
    return text if text in ANNOTATION_LABELS else None


def read_annotation_sheet(path: str | PathLike[str], *, allow_blank: bool = False) -> pd.DataFrame:
    """Read a filled annotation sheet; labels normalised to :data:`ANNOTATION_LABELS`.

    Raises InputError naming the file, the (1-based, physical) line and the field for a
    missing column, a duplicate sample_id, an unknown label, or a blank label (unless
    ``allow_blank``, which keeps blanks as "").
    """
    file = str(path)
    with io.StringIO(read_text(path), newline="") as handle:  # UTF-8 checked, line by line
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            raise InputError("empty annotation sheet", file=file, line=1) from None
        header = [name.strip() for name in header]
        missing = [name for name in SHEET_COLUMNS if name not in header]
        if missing:
            raise InputError(
                f"missing column(s) {', '.join(missing)}", file=file, line=1, field=missing[0]
            )
        column = {name: header.index(name) for name in SHEET_COLUMNS}
        records: list[dict[str, str]] = []
        seen: set[str] = set()
        line = reader.line_num + 1  # physical line where the next record starts
        for values in reader:
            start, line = line, reader.line_num + 1
            if not any(value.strip() for value in values):
                continue
            if len(values) < len(header):
                values = values + [""] * (len(header) - len(values))
            record = {name: values[index] for name, index in column.items()}
            sample_id = record["sample_id"].strip()
            if not sample_id:
                raise InputError("empty sample_id", file=file, line=start, field="sample_id")
            if sample_id in seen:
                raise InputError(
                    f"sample_id {sample_id!r} occurs twice", file=file, line=start, field="sample_id"
                )
            seen.add(sample_id)
            record["sample_id"] = sample_id
            raw_label = record["annotator_label"]
            if not raw_label.strip():
                if not allow_blank:
                    raise InputError("no label given", file=file, line=start, field="annotator_label")
                record["annotator_label"] = ""
            else:
                label = normalise_label(raw_label)
                if label is None:
                    raise InputError(
                        f"unknown label {raw_label.strip()!r}; expected one of "
                        f"{', '.join(ANNOTATION_LABELS)} (or h/o/m/u)",
                        file=file, line=start, field="annotator_label",
                    )
                record["annotator_label"] = label
            records.append(record)
    return pd.DataFrame(records, columns=list(SHEET_COLUMNS)).astype(object)


# ---------------------------------------------------------------------------------------
# Agreement
# ---------------------------------------------------------------------------------------

_VALUE_COLUMNS = ("annotator_label", "adjudicated_label", "rule_label", "label")


def _as_labels(data: pd.Series | pd.DataFrame, what: str) -> pd.Series:
    """Labels indexed by sample id, from a Series or a sheet/key-like DataFrame."""
    if isinstance(data, pd.DataFrame):
        value_column = next((name for name in _VALUE_COLUMNS if name in data.columns), None)
        if value_column is None:
            raise InputError(f"{what}: no label column (one of {', '.join(_VALUE_COLUMNS)})")
        index = data["sample_id"] if "sample_id" in data.columns else data.index
        series = pd.Series(data[value_column].to_numpy(), index=pd.Index(index).astype(str))
    else:
        series = pd.Series(data.to_numpy(), index=data.index.astype(str))
    if series.index.duplicated().any():
        raise InputError(f"{what}: sample id {series.index[series.index.duplicated()][0]!r} repeats")
    labels = []
    for sample_id, value in series.items():
        label = normalise_label(str(value)) if isinstance(value, str) else None
        if label is None:
            raise InputError(f"{what}: unknown label {value!r} for sample {sample_id!r}")
        labels.append(label)
    return pd.Series(labels, index=series.index, name=what, dtype=object)


def confusion_matrix(rows: pd.Series, columns: pd.Series, row_name: str, column_name: str) -> pd.DataFrame:
    """Counts of label pairs, 4 x 4 in :data:`ANNOTATION_LABELS` order (zeros kept)."""
    table = pd.crosstab(
        pd.Categorical(rows.to_numpy(), categories=ANNOTATION_LABELS),
        pd.Categorical(columns.to_numpy(), categories=ANNOTATION_LABELS),
        dropna=False,
    )
    table = table.reindex(index=list(ANNOTATION_LABELS), columns=list(ANNOTATION_LABELS), fill_value=0)
    table.index.name, table.columns.name = row_name, column_name
    return table.astype(int)


def kappa_from_confusion(table: pd.DataFrame) -> float:
    """Cohen's kappa of a square confusion matrix (statsmodels); NaN when undefined.

    Undefined means no items, or chance agreement of 1 (both raters used one and the same
    label throughout), where kappa is 0/0.
    """
    counts = table.to_numpy(dtype=float)
    total = counts.sum()
    if total == 0:
        return math.nan
    expected = float((counts.sum(axis=1) @ counts.sum(axis=0)) / total**2)
    if math.isclose(expected, 1.0):
        return math.nan
    return float(cohens_kappa(counts).kappa)


@dataclass(frozen=True)
class AgreementReport:
    """Inter-annotator and rule-vs-human agreement on an annotated sample."""

    n_items: int
    """Items labelled by both annotators."""
    annotators_agree: int
    """Items on which the two annotators gave the same label."""
    annotator_agreement: float
    """annotators_agree / n_items."""
    annotator_kappa: float
    """Cohen's kappa between the annotators (NaN when undefined)."""
    annotator_confusion: pd.DataFrame
    """Annotator A (rows) x annotator B (columns), fixed label order."""
    reference: str
    """``"adjudicated"`` or ``"annotator consensus"``: what the rule was compared with."""
    n_compared: int
    """Items in the rule comparison (all, or those the annotators agree on)."""
    rule_agree: int
    """Items where the rule's label equals the reference."""
    rule_agreement: float
    """rule_agree / n_compared (NaN when nothing was compared)."""
    rule_kappa: float
    """Cohen's kappa between rule and reference (NaN when undefined)."""
    rule_confusion: pd.DataFrame
    """Human reference (rows) x rule (columns), fixed label order."""
    rule_disagreements: tuple[str, ...] = field(default=())
    """Sample ids where the rule differs from the reference, for review."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable summary (NaN as None; matrices as nested dicts)."""
        def number(value: float) -> float | None:
            return None if math.isnan(value) else value

        return {
            "n_items": self.n_items,
            "annotators_agree": self.annotators_agree,
            "annotator_agreement": number(self.annotator_agreement),
            "annotator_kappa": number(self.annotator_kappa),
            "annotator_confusion": self.annotator_confusion.to_dict(orient="index"),
            "reference": self.reference,
            "n_compared": self.n_compared,
            "rule_agree": self.rule_agree,
            "rule_agreement": number(self.rule_agreement),
            "rule_kappa": number(self.rule_kappa),
            "rule_confusion": self.rule_confusion.to_dict(orient="index"),
            "rule_disagreements": list(self.rule_disagreements),
        }

    def to_markdown(self) -> str:
        """A short Markdown report: summary table and both confusion matrices."""
        def fmt(value: float, digits: int = 3) -> str:
            return "undefined" if math.isnan(value) else f"{value:.{digits}f}"

        lines = [
            "| measure | value |",
            "| --- | --- |",
            f"| items annotated | {self.n_items} |",
            f"| annotators agree | {self.annotators_agree}/{self.n_items} ({fmt(100 * self.annotator_agreement, 1)}%) |",
            f"| inter-annotator Cohen's kappa | {fmt(self.annotator_kappa)} |",
            f"| rule vs {self.reference} | {self.rule_agree}/{self.n_compared} ({fmt(100 * self.rule_agreement, 1)}%) |",
            f"| rule vs human Cohen's kappa | {fmt(self.rule_kappa)} |",
            "",
            "Annotator A (rows) by annotator B (columns):",
            "",
            _markdown_matrix(self.annotator_confusion),
            "",
            f"Human {self.reference} label (rows) by rule label (columns):",
            "",
            _markdown_matrix(self.rule_confusion),
        ]
        if self.rule_disagreements:
            lines += ["", "Rule disagrees with humans on: " + ", ".join(self.rule_disagreements)]
        return "\n".join(lines) + "\n"


def _markdown_matrix(table: pd.DataFrame) -> str:
    header = "| | " + " | ".join(str(c) for c in table.columns) + " |"
    rule = "| --- |" + " ---: |" * len(table.columns)
    body = [
        f"| {label} | " + " | ".join(str(int(v)) for v in row) + " |"
        for label, row in zip(table.index, table.to_numpy(), strict=True)
    ]
    return "\n".join([header, rule, *body])


def _same_ids(reference: pd.Series, other: pd.Series, what: str) -> pd.Series:
    missing = reference.index.difference(other.index)
    extra = other.index.difference(reference.index)
    if len(missing) or len(extra):
        detail = f"missing {list(missing[:3])}" if len(missing) else f"unexpected {list(extra[:3])}"
        raise InputError(f"{what} does not cover the same sample ids as annotator A: {detail}")
    return other.reindex(reference.index)


def agreement_report(
    rule: pd.Series | pd.DataFrame,
    annotator_a: pd.Series | pd.DataFrame,
    annotator_b: pd.Series | pd.DataFrame,
    adjudicated: pd.Series | pd.DataFrame | None = None,
) -> AgreementReport:
    """Agreement of two annotators with each other and of the rule with them.

    Each argument is a Series of labels indexed by sample id, or a DataFrame with a
    ``sample_id`` column and a label column (``annotator_label``, ``adjudicated_label``,
    ``rule_label`` or ``label``) -- e.g. what :func:`read_annotation_sheet` returns or the
    key of :func:`draw_annotation_sample`. All must cover the same sample ids. The rule is
    compared with ``adjudicated`` when given, else with the items the annotators agree on.
    """
    labels_a = _as_labels(annotator_a, "annotator_a")
    labels_b = _same_ids(labels_a, _as_labels(annotator_b, "annotator_b"), "annotator_b")
    rule_labels = _same_ids(labels_a, _as_labels(rule, "rule"), "rule")

    inter = confusion_matrix(labels_a, labels_b, "annotator_a", "annotator_b")
    agree_mask = labels_a.to_numpy() == labels_b.to_numpy()
    n_items = len(labels_a)

    if adjudicated is not None:
        reference = _same_ids(labels_a, _as_labels(adjudicated, "adjudicated"), "adjudicated")
        reference_name = "adjudicated"
        compared_rule = rule_labels
    else:
        reference = labels_a[agree_mask]
        reference_name = "annotator consensus"
        compared_rule = rule_labels[agree_mask]
    rule_table = confusion_matrix(reference, compared_rule, reference_name, "rule")
    rule_hits = reference.to_numpy() == compared_rule.to_numpy()
    n_compared = len(reference)
    return AgreementReport(
        n_items=n_items,
        annotators_agree=int(agree_mask.sum()),
        annotator_agreement=float(agree_mask.mean()) if n_items else math.nan,
        annotator_kappa=kappa_from_confusion(inter),
        annotator_confusion=inter,
        reference=reference_name,
        n_compared=n_compared,
        rule_agree=int(rule_hits.sum()),
        rule_agreement=float(rule_hits.mean()) if n_compared else math.nan,
        rule_kappa=kappa_from_confusion(rule_table),
        rule_confusion=rule_table,
        rule_disagreements=tuple(str(i) for i in reference.index[~rule_hits]),
    )

