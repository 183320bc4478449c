"""Agreement: inter-annotator agreement and Cohen's kappa, and the rule's agreement and kappa
against the adjudicated labels (or the items both annotators agree on), with confusion
matrices in a fixed label order."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from statsmodels.stats.inter_rater import cohens_kappa

from biasbench.engines.honorific.annotation.sheets import ANNOTATION_LABELS, normalise_label
from biasbench.errors import InputError

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
        raise InputError(
            f"{what}: sample id {series.index[series.index.duplicated()][0]!r} repeats"
        )
    labels = []
    for sample_id, value in series.items():
        label = normalise_label(str(value)) if isinstance(value, str) else None
        if label is None:
            raise InputError(f"{what}: unknown label {value!r} for sample {sample_id!r}")
        labels.append(label)
    return pd.Series(labels, index=series.index, name=what, dtype=object)


def confusion_matrix(
    rows: pd.Series, columns: pd.Series, row_name: str, column_name: str
) -> pd.DataFrame:
    """Counts of label pairs, 4 x 4 in :data:`ANNOTATION_LABELS` order (zeros kept)."""
    table = pd.crosstab(
        pd.Categorical(rows.to_numpy(), categories=ANNOTATION_LABELS),
        pd.Categorical(columns.to_numpy(), categories=ANNOTATION_LABELS),
        dropna=False,
    )
    table = table.reindex(
        index=list(ANNOTATION_LABELS), columns=list(ANNOTATION_LABELS), fill_value=0
    )
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
