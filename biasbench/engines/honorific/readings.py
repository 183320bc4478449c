"""The engine's analyses of a judge's readings (the values a judge returns beside the label).

A language folder declares which readings get which analysis (:class:`ReadingSpec`); the engine
does the rest, in results.json (``readings`` -> name), in tables/ and in the report:

- ``categorical`` (a speech level, a politeness, a register level 0-3...): the distribution of
  the reading's values by pronoun condition and by occupation, per model;
- ``gender`` (masculine / feminine / none...): the same distribution, and the gender the
  translation assigns to each occupation where the English gives none (``nopronoun``) or a
  neutral one (``they``): the share made masculine and feminine per occupation with Wilson
  intervals on counts deflated by the items' design effect (seeds repeat an item), and the
  overall share with the occupations' design effect (WinoMT-style gender assignment);
- ``split``: a reading whose values are register labels (``honorific``/``ordinary``; None:
  not usable) is an alternative binary split of the same outputs; every main statistic (HAI,
  GSR, McNemar with Holm, spread, eta-squared, HBS) is computed on it too and always reported
  beside the main one.

Undefined readings (None, NaN) are counted as ``undefined`` in distributions and left out of
shares. A reading whose value is a list (the titles found) counts as its items joined with
``+`` in sorted order (an empty list: ``none``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.engines.honorific.label_table import (
    HONORIFIC,
    ORDINARY,
    UNREADABLE,
    json_number,
    reading_column,
)
from biasbench.fsutil import write_text_atomically
from biasbench.stats import proportion_design_effect, wilson_interval
from biasbench.tables import csv_text, to_markdown

KINDS = ("categorical", "gender", "split")
UNDEFINED = "undefined"
ASSIGNMENT_CONDITIONS = ("nopronoun", "they")
"""The conditions whose English leaves the person's gender open: what a translation assigns
there is the model's choice."""
SPLIT_STATISTICS = (
    "hai_pp",
    "gsr_pct",
    "b",
    "c",
    "n_pairs",
    "p_exact",
    "p_holm",
    "occupation_spread_pp",
    "eta2_occupation_pct",
    "eta2_pronoun_pct",
    "hbs",
    "unreadable_pct",
)
"""The main statistics recomputed on an alternative split, in the order tables show them."""


@dataclass(frozen=True)
class ReadingSpec:
    """Which analysis one of the judge's readings gets."""

    name: str
    """The reading's name (a key of ``Judgement.readings``, a column of the label table)."""
    kind: str
    """``categorical``, ``gender`` or ``split`` (module docstring)."""
    values: tuple[str, ...] = ()
    """The values in display order (others found are appended); for ``gender`` the first two
    are the masculine and feminine values."""
    title: str = ""
    """How tables and the report name it (default: the name)."""
    singular_only: bool = False
    """``split`` only: outputs read as plural are not usable on this split."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"reading {self.name!r}: unknown kind {self.kind!r} (known: {', '.join(KINDS)})"
            )

    @property
    def heading(self) -> str:
        return self.title or self.name

    @property
    def column(self) -> str:
        """Its column in the label table (``translation_gender`` for ``gender``)."""
        return reading_column(self.name)


def _value(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if isinstance(value, (list, tuple)):  # a list reading (titles): its items, or none found
        return "+".join(sorted(str(v) for v in value)) or "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _values(spec: ReadingSpec, column: pd.Series) -> list[str]:
    found = [v for v in pd.unique(column) if v not in spec.values and v != UNDEFINED]
    order = [*spec.values, *sorted(found)]
    return order + ([UNDEFINED] if (column == UNDEFINED).any() else [])


def distribution(labels: pd.DataFrame, spec: ReadingSpec, by: str) -> pd.DataFrame:
    """Long table: model, ``by`` (``gender`` = the pronoun condition, ``occupation_en``, or
    another reading's column), value, n, pct (of the group's outputs, undefined included)."""
    values = labels[spec.column].map(_value)
    frame = labels.assign(value=values, **{by: labels[by].map(_value)})
    counts = frame.groupby(["model", by, "value"], sort=False).size().rename("n").reset_index()
    totals = counts.groupby(["model", by], sort=False)["n"].transform("sum")
    counts["pct"] = 100.0 * counts["n"] / totals
    order = {v: i for i, v in enumerate(_values(spec, values))}
    groups = {g: i for i, g in enumerate(pd.unique(frame[by]))}
    models = {m: i for i, m in enumerate(pd.unique(labels["model"]))}
    counts = counts.sort_values(
        ["model", by, "value"],
        key=lambda s: s.map(models if s.name == "model" else groups if s.name == by else order),
        kind="stable",
    )
    return counts.reset_index(drop=True)


def _share(k_by_cluster: Sequence[float], n_by_cluster: Sequence[float]) -> dict[str, Any]:
    """A clustered share in percent with a Wilson interval on counts deflated by Kish's design
    effect of the clusters."""
    k, n = float(sum(k_by_cluster)), float(sum(n_by_cluster))
    if n == 0:
        return {"pct": None, "low": None, "high": None, "k": 0, "n": 0}
    deff = proportion_design_effect(k_by_cluster, n_by_cluster)
    low, high = wilson_interval(int(round(k / deff)), max(1, int(round(n / deff))))
    return {
        "pct": json_number(100.0 * k / n),
        "low": json_number(100.0 * low),
        "high": json_number(100.0 * high),
        "k": int(k),
        "n": int(n),
    }


def gender_assignment(labels: pd.DataFrame, spec: ReadingSpec) -> pd.DataFrame:
    """Per model, condition (nopronoun, they) and occupation: the share of outputs with a
    defined gender reading made masculine and made feminine, with intervals; ``n`` counts the
    outputs with a defined reading (undefined ones are reported in ``n_undefined``)."""
    masculine, feminine = (spec.values + ("masculine", "feminine"))[:2]
    frame = labels[labels["gender"].isin(ASSIGNMENT_CONDITIONS)].assign(
        value=lambda f: f[spec.column].map(_value)
    )
    rows = []
    for (model, condition, occupation), group in frame.groupby(
        ["model", "gender", "occupation_en"], sort=False
    ):
        defined = group[group["value"] != UNDEFINED]
        per_item = defined.groupby("item_id")["value"]
        n_items = per_item.size()
        row: dict[str, Any] = {
            "model": model,
            "condition": condition,
            "occupation_en": occupation,
            "n": int(len(defined)),
            "n_undefined": int(len(group) - len(defined)),
        }
        for name, wanted in (("masculine", masculine), ("feminine", feminine)):
            share = _share(
                per_item.apply(lambda v, w=wanted: float((v == w).sum())).tolist(),
                n_items.astype(float).tolist(),
            )
            row.update(
                {
                    f"{name}_pct": share["pct"],
                    f"{name}_low": share["low"],
                    f"{name}_high": share["high"],
                    f"{name}_n": share["k"],
                }
            )
        rows.append(row)
    columns = [
        "model",
        "condition",
        "occupation_en",
        "n",
        "n_undefined",
        *(f"{g}_{s}" for g in ("masculine", "feminine") for s in ("pct", "low", "high", "n")),
    ]
    return pd.DataFrame(rows, columns=columns)


def overall_assignment(labels: pd.DataFrame, spec: ReadingSpec) -> dict[str, Any]:
    """Per model and condition: the overall masculine and feminine shares, their intervals
    clustered by occupation, and the masculine share among gendered outputs."""
    masculine, feminine = (spec.values + ("masculine", "feminine"))[:2]
    frame = labels[labels["gender"].isin(ASSIGNMENT_CONDITIONS)].assign(
        value=lambda f: f[spec.column].map(_value)
    )
    out: dict[str, Any] = {}
    for (model, condition), group in frame.groupby(["model", "gender"], sort=False):
        defined = group[group["value"] != UNDEFINED]
        per_occ = defined.groupby("occupation_en", sort=False)["value"]
        n = per_occ.size().astype(float).tolist()
        entry: dict[str, Any] = {
            "n": int(len(defined)),
            "n_undefined": int(len(group) - len(defined)),
        }
        for name, wanted in (("masculine", masculine), ("feminine", feminine)):
            k = per_occ.apply(lambda v, w=wanted: float((v == w).sum())).tolist()
            entry[name] = _share(k, n)
        gendered = entry["masculine"]["k"] + entry["feminine"]["k"]
        entry["masculine_of_gendered_pct"] = json_number(
            100.0 * entry["masculine"]["k"] / gendered if gendered else math.nan
        )
        out.setdefault(str(model), {})[str(condition)] = entry
    return out


def split_labels(labels: pd.DataFrame, spec: ReadingSpec) -> pd.DataFrame:
    """The labels table with ``label`` replaced by the split's reading (anything but honorific
    or ordinary -> unreadable; plural outputs too with ``singular_only``)."""
    label = labels[spec.column].map(lambda v: v if v in (HONORIFIC, ORDINARY) else UNREADABLE)
    if spec.singular_only:
        label = label.where(~labels["plural"].fillna(False).astype(bool), UNREADABLE)
    return labels.assign(label=label)


def split_scores(labels: pd.DataFrame, spec: ReadingSpec) -> dict[str, Any]:
    """The main statistics on the split, per model (and the main label's beside them)."""
    from biasbench.engines.honorific.metrics import score_models

    scored = score_models(split_labels(labels, spec))["models"]
    return {str(m): {k: scores.get(k) for k in SPLIT_STATISTICS} for m, scores in scored.items()}


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [
        {k: (json_number(v) if isinstance(v, float) else v) for k, v in row.items()}
        for row in frame.to_dict(orient="records")
    ]


def _gender_column(
    labels: pd.DataFrame, specs: Sequence[ReadingSpec], spec: ReadingSpec
) -> str | None:
    """The column of the gender reading a categorical reading is also broken down by (a
    register level by the gender the translation assigns); None for a gender reading itself or
    without one."""
    if spec.kind != "categorical":
        return None
    found = next(
        (s.column for s in specs if s.kind == "gender" and s.column in labels.columns), None
    )
    return found


def reading_results(labels: pd.DataFrame, specs: Sequence[ReadingSpec]) -> dict[str, Any]:
    """results.json's ``readings``: per declared reading, its analyses."""
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.column not in labels.columns:
            continue
        if spec.kind == "split":
            out[spec.name] = {
                "kind": spec.kind,
                "singular_only": spec.singular_only,
                "models": split_scores(labels, spec),
            }
            continue
        entry: dict[str, Any] = {
            "kind": spec.kind,
            "by_condition": _records(distribution(labels, spec, "gender")),
            "by_occupation": _records(distribution(labels, spec, "occupation_en")),
        }
        gender = _gender_column(labels, specs, spec)
        if gender:
            entry["by_translation_gender"] = _records(distribution(labels, spec, gender))
        if spec.kind == "gender":
            entry["assignment"] = overall_assignment(labels, spec)
            entry["assignment_by_occupation"] = _records(gender_assignment(labels, spec))
        out[spec.name] = entry
    return out


def split_table(
    results: Mapping[str, Any], readings: Mapping[str, Any], spec: ReadingSpec
) -> pd.DataFrame:
    """Main statistics and the split's side by side, one row per model and split."""
    rows = []
    split = readings.get(spec.name, {}).get("models", {})
    for model, scores in results.get("models", {}).items():
        for name, source in (("main label", scores), (spec.heading, split.get(model, {}))):
            rows.append(
                {"model": model, "split": name, **{k: source.get(k) for k in SPLIT_STATISTICS}}
            )
    table = pd.DataFrame(rows, columns=["model", "split", *SPLIT_STATISTICS])
    return table.astype({k: float for k in SPLIT_STATISTICS})


def reading_tables(
    labels: pd.DataFrame, results: Mapping[str, Any], specs: Sequence[ReadingSpec]
) -> list[tuple[str, ReadingSpec, str, pd.DataFrame]]:
    """(file stem, reading, table kind, table) for tables/ and the report; kinds: ``split``,
    ``by_condition``, ``by_occupation``, ``by_translation_gender``, ``assignment``."""
    readings = results.get("readings") or {}
    tables: list[tuple[str, ReadingSpec, str, pd.DataFrame]] = []
    for spec in specs:
        if spec.column not in labels.columns:
            continue
        if spec.kind == "split":
            tables.append(
                (f"split_{spec.name}", spec, "split", split_table(results, readings, spec))
            )
            continue
        gender = _gender_column(labels, specs, spec)
        for by, kind in (
            ("gender", "by_condition"),
            ("occupation_en", "by_occupation"),
            *([(gender, "by_translation_gender")] if gender else []),
        ):
            tables.append(
                (f"reading_{spec.name}_{kind}", spec, kind, distribution(labels, spec, by))
            )
        if spec.kind == "gender":
            tables.append(
                (
                    f"gender_assignment_{spec.name}",
                    spec,
                    "assignment",
                    gender_assignment(labels, spec),
                )
            )
    return tables


def write_reading_tables(
    labels: pd.DataFrame, results: Mapping[str, Any], specs: Sequence[ReadingSpec], out_dir: Path
) -> list[Path]:
    """Write each reading's tables as CSV (numbers) and the split tables as Markdown too."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, _, kind, table in reading_tables(labels, results, specs):
        path = out_dir / f"{stem}.csv"
        write_text_atomically(path, csv_text(table))
        written.append(path)
        if kind == "split":
            md = out_dir / f"{stem}.md"
            write_text_atomically(md, to_markdown(table))
            written.append(md)
    return written
