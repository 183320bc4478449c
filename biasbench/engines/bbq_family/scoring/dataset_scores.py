"""A BBQ-family dataset's own metrics beside BBQ's s_AMB / s_DIS, in one shape for every dataset.

KoBBQ's diff-bias, CBBQ's bias score and EsBBQ's / CaBBQ's bias scores are declared as data, a
:class:`DatasetScores` in the benchmark's folder (the dataset's own name and definition, each
:class:`Metric` with its name and range, the function that computes them from the answers the
engine parsed, one row per model, seed and group: a category, or :data:`ALL`, and the form of
their summary lines) and set as the benchmark's ``dataset_scores``. From there everything is the
engine's: the summary over seeds and the ``dataset_scores`` entry of results.json here; the
tables, the summary lines and the report's table in
:mod:`biasbench.engines.bbq_family.presenting.dataset_scores`; its tidy export rows.

``results["dataset_scores"]``::

    {"name": "KoBBQ scores (evaluation/5_evaluation.py)",   # in the dataset's words
     "definition": "...",                                    # one line: how they are computed
     "metrics": {"acc_amb": "accuracy in ambiguous contexts", ...},   # key -> the paper's name
     "models": {MODEL: {GROUP: {METRIC: {"mean", "ci_low", "ci_high", "n_seeds", "ci_status",
                                         "ci_reason"},
                                COUNT: int, ...}}},
     ...}                                                    # the dataset's own extras

GROUP is a category or ``"all"`` (every category; how "all" pools them is the dataset's rule,
stated in the definition), or another slice the dataset reports (KoBBQ: ``annotation:ST``).
Each metric is summarised across seeds like BBQ's scores: the mean over the seeds where it is
defined, a Student-t interval across seeds cut to the metric's range, none with fewer than 3
seeds (``ci_status`` says which); counts (responses, unparsed...) are summed over seeds.
Tables: ``tables/dataset_scores_per_seed.csv`` and ``tables/dataset_scores.{md,csv,tex}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.scoring.multi_seed import sampling_units
from biasbench.stats.intervals import (
    ITEMS_SEEDS,
    MIN_SEEDS_FOR_INTERVAL,
    IntervalStatus,
    ReasonWords,
    bounded_t_intervals,
    interval_reason,
    status_reason,
)

ALL: Final = "all"
"""The group of every category."""
KEY: Final = "dataset_scores"
"""Where results.json holds them."""
UNIT: Final = (0.0, 1.0)
SIGNED: Final = (-1.0, 1.0)
JACKKNIFE_GROUPS: Final = 20
"""Item groups of the delete-a-group jackknife (Kott 2001): 20 recomputations of a dataset's
metrics, each without one twentieth of the items (and all their seeds)."""
JACKKNIFE_METHOD: Final = (
    f"ci_low/ci_high (interval: {ITEMS_SEEDS!r}): delete-a-group jackknife over items "
    f"({JACKKNIFE_GROUPS} groups, every item in one, taken round-robin in item order so each "
    "group holds a share of every category; the items asked from one sample, KoBBQ's three "
    "choice orders, are one unit and leave together): the metrics are recomputed without "
    "each group (an item leaves with all its seeds), the variance is (G - 1) / G x the sum of squared "
    "deviations of the G replicate means over seeds, and the interval is the mean +- t_{G-1} "
    "SE cut to the metric's range (G: the groups whose removal touched the slice); it covers "
    "the metric over items like these under fresh seeds and exists with one seed. "
    "seeds_ci_low/seeds_ci_high (interval: 'seeds'): the Student-t interval across seeds cut to "
    f"the range, for these items only, none with fewer than {MIN_SEEDS_FOR_INTERVAL} seeds"
)
"""What the datasets' own metrics' intervals are, for their ``interval_method``."""

JACKKNIFE_WORDS: Final = ReasonWords(
    lambda g: f"every one of the {g} item groups left the metric unchanged: no spread across items",
    lambda g: f"{g} item group(s) carry the metric",
    "no seed defines the metric",
)
"""What the jackknife's interval rests on: item groups (:func:`jackknife_intervals`)."""

Recompute = Callable[[pd.DataFrame], pd.DataFrame]
"""A dataset's per-seed metrics from parsed responses (model, seed, uid, pred_index)."""
Compute = Callable[[Any, pd.DataFrame], pd.DataFrame]
"""(the benchmark, its parsed responses) -> the per-seed frame: model, seed, group, every
metric and every count (the benchmark gives what the dataset's rule needs: its items, its
options)."""


def _number(value: Any) -> float | int | None:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    number: float | int = value.item() if hasattr(value, "item") else value
    return number


@dataclass(frozen=True)
class Metric:
    """One of a dataset's own metrics."""

    key: str
    """Its column in the per-seed frame and its key in results.json."""
    name: str
    """The dataset's own name for it (results.json ``metrics``, the tables' columns)."""
    bounds: tuple[float, float] = UNIT
    """Its range: intervals are cut to it. A signed range (from below 0) shows the sign in the
    summary lines (+0.250)."""

    @property
    def sign(self) -> str:
        return "+" if self.bounds[0] < 0 else ""


@dataclass(frozen=True)
class SummaryLines:
    """How the run's summary shows a dataset's metrics: one line per model and group, after the
    engine's lines. A line is :attr:`line` (or :attr:`all_line` for group ``all``) with
    ``{model}``, ``{group}``, ``{name}`` (the metrics' name) and ``{scores}`` filled in;
    ``{scores}`` is "label value, label value" over :attr:`scores` (:func:`stat_text`)."""

    scores: tuple[tuple[str, str], ...]
    """(metric key, its label in the line), in the line's order."""
    line: str = "{model} / {group}: {scores}"
    all_line: str | None = None
    """The line of group ``all``; None: :attr:`line`."""
    groups: Literal["every", "all"] = "every"
    """``every``: a line per group (but those starting with one of :attr:`hidden`); ``all``:
    group ``all`` only."""
    hidden: tuple[str, ...] = ()
    detail: Callable[[Mapping[str, Any], Mapping[str, Any]], str] | None = None
    """Text added to a group's line, from the whole results entry and the group's values (CBBQ:
    S_amb and S_total over the other denominator where it differs)."""
    notes: Callable[[Mapping[str, Any]], list[str]] | None = None
    """Lines after the groups' lines, from the whole results entry (CBBQ's target check)."""


@dataclass(frozen=True)
class DatasetScores:
    """A dataset's own metrics, declared as data: its name for them, their definition, each
    metric (its name, its range), how they are computed and how the summary shows them. The
    engine writes results.json's ``dataset_scores``, the tables, the summary lines, the export
    rows and the report's table from it (``BBQBenchmark.dataset_scores``)."""

    name: str
    definition: str | Callable[[Any], str]
    """One line: how they are computed; a function of the benchmark where its options change
    them (CBBQ's S_amb denominator and target rule)."""
    metrics: tuple[Metric, ...]
    compute: Compute
    counts: tuple[str, ...] = ()
    """Count columns of the per-seed frame, summed over seeds."""
    joint: tuple[str, ...] = ()
    """Metrics summarised over the same seeds: those where every one of them is defined (CBBQ's
    S_total = 0.4 S_amb + 0.6 S_disamb then holds for the means shown). A seed where one is
    undefined leaves all of them out; ``n_seeds`` says how many remain."""
    extras: Callable[[Any], Mapping[str, Any]] | None = None
    """The dataset's own keys of the results entry, from the benchmark (CBBQ: its target rule
    and the check of it)."""
    summary: SummaryLines | None = None
    """Its summary lines; None: none."""

    @property
    def names(self) -> dict[str, str]:
        """Metric key -> the dataset's own name for it."""
        return {metric.key: metric.name for metric in self.metrics}

    @property
    def bounds(self) -> dict[str, tuple[float, float]]:
        """Metric key -> its range."""
        return {metric.key: metric.bounds for metric in self.metrics}

    def evaluate(
        self, benchmark: Any, responses: pd.DataFrame
    ) -> tuple[dict[str, Any], pd.DataFrame]:
        """results.json's ``dataset_scores`` entry from ``benchmark``'s parsed ``responses``,
        with the intervals over items, and the per-seed frame it summarises."""

        def recompute(frame: pd.DataFrame) -> pd.DataFrame:
            return self.compute(benchmark, frame)

        definition = self.definition(benchmark) if callable(self.definition) else self.definition
        extras = dict(self.extras(benchmark)) if self.extras is not None else {}
        per_seed = recompute(responses)
        units = sampling_units(getattr(benchmark, "items", None) or ())
        return self.results(
            per_seed,
            responses=responses,
            recompute=recompute,
            definition=definition,
            units=units or None,
            **extras,
        ), per_seed

    def means(self, per_seed: pd.DataFrame) -> pd.DataFrame:
        """Each metric's mean over seeds per (model, group), over the joint seeds."""
        per_seed = same_seeds(per_seed, self.joint)
        return per_seed.groupby(["model", "group"], sort=False)[list(self.names)].mean()

    def summarise(
        self,
        per_seed: pd.DataFrame,
        responses: pd.DataFrame | None = None,
        recompute: Recompute | None = None,
        units: Mapping[str, str] | None = None,
    ) -> dict[str, dict[str, dict[str, Any]]]:
        """model -> group -> each metric across seeds, and the counts summed over seeds.
        ``per_seed``: columns model, seed, group, the metrics and the counts. Given the parsed
        ``responses`` and the function that made ``per_seed`` from them, each metric gets the
        default interval over items and seeds (:func:`jackknife_intervals`) as ``ci_*``; the
        interval across seeds is ``seeds_ci_*`` either way. ``units``: uid -> the sample it
        was drawn as (the jackknife's units; default every item its own)."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        if per_seed.empty:
            return out
        items = (
            jackknife_intervals(self, per_seed, responses, recompute, units=units)
            if responses is not None and recompute is not None
            else None
        )
        per_seed = same_seeds(per_seed, self.joint)
        grouped = per_seed.groupby(["model", "group"], sort=False)
        index = grouped.size().index  # (model, group) in order of appearance
        stats: dict[str, tuple[Any, ...]] = {}
        for metric in self.names:
            values = grouped[metric]
            mean = values.mean().reindex(index)
            sd, n = values.std(ddof=1).reindex(index), values.count().reindex(index)
            low, high, status = bounded_t_intervals(mean, sd, n, self.bounds[metric])
            stats[metric] = (mean.to_numpy(), low, high, n.to_numpy(), status)
        sums = grouped[list(self.counts)].sum().reindex(index) if self.counts else None
        for position, key in enumerate(index):
            entry: dict[str, Any] = {}
            for metric, (mean, low, high, n, status) in stats.items():
                seeds = {
                    "seeds_ci_low": _number(float(low[position])),
                    "seeds_ci_high": _number(float(high[position])),
                    "seeds_ci_status": str(status[position]),
                    "seeds_ci_reason": interval_reason(str(status[position]), int(n[position])),
                }
                if items is not None:
                    lo, hi, item_status, groups = items.get(
                        (str(key[0]), str(key[1]), metric),
                        (np.nan, np.nan, IntervalStatus.UNDEFINED.value, 0),
                    )
                    default = {
                        "ci_low": _number(float(lo)),
                        "ci_high": _number(float(hi)),
                        "ci_status": item_status,
                        "ci_reason": _jackknife_reason(item_status, groups),
                        "interval": ITEMS_SEEDS,
                        "n_groups": groups,
                    }
                else:
                    default = {
                        "ci_low": seeds["seeds_ci_low"],
                        "ci_high": seeds["seeds_ci_high"],
                        "ci_status": seeds["seeds_ci_status"],
                        "ci_reason": seeds["seeds_ci_reason"],
                        "interval": "seeds",
                    }
                entry[metric] = {
                    "mean": _number(float(mean[position])) if n[position] else None,
                    **default,
                    "n_seeds": int(n[position]),
                    **seeds,
                }
            if sums is not None:
                entry.update({c: int(sums.loc[key, c]) for c in self.counts})
            out.setdefault(str(key[0]), {})[str(key[1])] = entry
        return out

    def results(
        self,
        per_seed: pd.DataFrame,
        *,
        responses: pd.DataFrame | None = None,
        recompute: Recompute | None = None,
        definition: str | None = None,
        units: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        """results.json's ``dataset_scores`` entry (``extra``: the dataset's own keys) of the
        per-seed metrics. ``responses`` and ``recompute`` (how ``per_seed`` was made from them)
        give the intervals over items; ``definition``: the definition's text where it depends
        on the benchmark (:meth:`evaluate`); ``units``: uid -> sampling unit
        (:func:`jackknife_groups`)."""
        if definition is None:
            if callable(self.definition):
                raise TypeError(
                    f"{self.name}: the definition depends on the benchmark; "
                    "give its text (or call evaluate)"
                )
            definition = self.definition
        return {
            "name": self.name,
            "definition": definition,
            "metrics": self.names,
            **extra,
            "interval": ITEMS_SEEDS if recompute is not None else "seeds",
            "interval_method": JACKKNIFE_METHOD,
            "models": self.summarise(per_seed, responses, recompute, units),
        }


def scores_by_slice(
    predictions: pd.DataFrame,
    items: pd.DataFrame,
    slice_scores: Callable[[pd.DataFrame], Mapping[str, float | int]],
    extra_slices: Callable[[pd.DataFrame], list[tuple[str, pd.DataFrame]]] | None = None,
) -> pd.DataFrame:
    """One row per model, seed and group of ``slice_scores`` over that group's responses: the
    per-seed frame a :class:`DatasetScores` ``per_seed`` returns. ``predictions`` has model,
    seed, uid and pred_index (missing: -1, unparsed); ``items`` is indexed by uid and has a
    ``category``. The groups: :data:`ALL`, each category, then ``extra_slices`` of the seed's
    responses (KoBBQ: its annotation labels)."""
    merged = predictions[["model", "seed", "uid", "pred_index"]].join(items, on="uid")
    merged["pred_index"] = pd.to_numeric(merged["pred_index"]).fillna(-1).astype(np.int64)
    rows: list[dict[str, Any]] = []
    for (model, seed), run in merged.groupby(["model", "seed"], sort=True):
        slices = [(ALL, run)] + [(str(c), g) for c, g in run.groupby("category", sort=True)]
        if extra_slices is not None:
            slices += extra_slices(run)
        for name, part in slices:
            rows.append({"model": model, "seed": int(seed), "group": name, **slice_scores(part)})
    return pd.DataFrame(rows)


def jackknife_groups(
    uids: Sequence[str], groups: int = JACKKNIFE_GROUPS, units: Mapping[str, str] | None = None
) -> dict[str, int]:
    """Item -> its jackknife group: round-robin over the sampling units in sorted order (a
    uid starts with its namespace and category, so every group takes a share of each
    category). ``units``: uid -> the sample it was drawn as (KoBBQ: a sample's three choice
    orders are one unit and leave together); default: every item its own unit."""
    unit_of = {uid: str((units or {}).get(uid, uid)) for uid in map(str, uids)}
    ordered = sorted(set(unit_of.values()))
    size = min(groups, len(ordered))
    group_of_unit = {unit: position % size for position, unit in enumerate(ordered)}
    return {uid: group_of_unit[unit] for uid, unit in unit_of.items()}


def jackknife_intervals(
    spec: DatasetScores,
    per_seed: pd.DataFrame,
    responses: pd.DataFrame,
    recompute: Recompute,
    confidence: float = 0.95,
    units: Mapping[str, str] | None = None,
) -> dict[tuple[str, str, str], tuple[float, float, str, int]]:
    """(model, group, metric) -> (lo, hi, status, G): the delete-a-group jackknife interval
    over items (:data:`JACKKNIFE_METHOD`). A replicate counts for a slice only when removing
    its group changed the slice's counts (or, without counts, always); fewer than 2 such
    replicates: ``too_few_items``; no spread: ``degenerate`` (no interval)."""
    from scipy.stats import t

    full = spec.means(per_seed)
    group_of = jackknife_groups(responses["uid"].astype(str).unique(), units=units)
    membership = responses["uid"].astype(str).map(group_of).to_numpy()
    counts = list(spec.counts)
    full_counts = per_seed.groupby(["model", "group"], sort=False)[counts].sum() if counts else None
    replicates: list[pd.DataFrame] = []
    touched: list[pd.Series] = []
    for group in range(max(group_of.values(), default=-1) + 1):
        kept = responses[membership != group]
        again = recompute(kept)
        replicates.append(spec.means(again).reindex(full.index))
        if full_counts is not None and not again.empty:
            sums = (
                again.groupby(["model", "group"], sort=False)[counts]
                .sum()
                .reindex(full_counts.index)
            )
            touched.append((sums != full_counts).any(axis=1))
        else:
            touched.append(pd.Series(True, index=full.index))
    out: dict[tuple[str, str, str], tuple[float, float, str, int]] = {}
    for metric, (lower, upper) in spec.bounds.items():
        values = (
            np.column_stack([r[metric].to_numpy(float) for r in replicates])
            if replicates
            else np.empty((len(full), 0))
        )
        used = (
            np.column_stack([s.reindex(full.index).fillna(True).to_numpy(bool) for s in touched])
            if touched
            else np.empty((len(full), 0), bool)
        )
        for row, key in enumerate(full.index):
            centre = float(full.iloc[row][metric])
            chosen = values[row][used[row] & np.isfinite(values[row])]
            g = int(chosen.size)
            if not np.isfinite(centre):
                out[(str(key[0]), str(key[1]), metric)] = (np.nan, np.nan, "undefined", g)
                continue
            if g < 2:
                out[(str(key[0]), str(key[1]), metric)] = (np.nan, np.nan, "too_few_items", g)
                continue
            var = (g - 1) / g * float(((chosen - chosen.mean()) ** 2).sum())
            if var <= 1e-24:
                out[(str(key[0]), str(key[1]), metric)] = (np.nan, np.nan, "degenerate", g)
                continue
            half = float(t.ppf(0.5 + confidence / 2, g - 1)) * float(np.sqrt(var))
            raw_lo, raw_hi = centre - half, centre + half
            status = "clipped" if raw_lo < lower or raw_hi > upper else "ok"
            out[(str(key[0]), str(key[1]), metric)] = (
                max(lower, raw_lo),
                min(upper, raw_hi),
                status,
                g,
            )
    return out


def _jackknife_reason(status: str, groups: int) -> str | None:
    return status_reason(status, groups, JACKKNIFE_WORDS, 2)


def same_seeds(per_seed: pd.DataFrame, joint: Sequence[str]) -> pd.DataFrame:
    """``per_seed`` with the ``joint`` metrics set undefined (NaN) in every row where one of
    them is undefined, so their summaries rest on the same seeds."""
    if not joint:
        return per_seed
    out = per_seed.copy()
    incomplete = out[list(joint)].isna().any(axis=1)
    out.loc[incomplete, list(joint)] = np.nan
    return out
