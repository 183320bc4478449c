"""A run's scores as the exporters carry them: defined scores with their interval, undefined
ones with their reason (never 0), and counts apart.

Built on the tidy scores table (:func:`biasbench.export.scores_table`, the benchmark's own
``score_rows``), plus the statistics that table leaves out because their value is null.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from biasbench.exporting.metrics import OTHER, is_count, metric_facts
from biasbench.runfolder.reading import RunFolder

INTERVAL_METHODS: dict[str, str] = {
    "hai_pp": "Newcombe's interval for a difference of paired proportions (usable he/she pairs)",
    "gsr_pct": "Wilson score interval over usable he/she pairs",
}
"""The interval each honorific statistic's ``ci_low``/``ci_high`` comes from (score_rows)."""


@dataclass(frozen=True)
class Score:
    """One statistic of one model: defined (``value``) or undefined (``reason``)."""

    model: str
    group: str
    statistic: str
    value: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int | None = None
    ci_status: str | None = None
    reason: str | None = None
    """Why the value is undefined (None when it is defined)."""

    @property
    def key(self) -> str:
        return f"{self.group}/{self.statistic}" if self.group else self.statistic


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _node(results: Mapping[str, Any], model: str, group: str) -> Any:
    node: Any = (results.get("models") or {}).get(model) or {}
    for part in group.split("/") if group else ():
        node = node.get(part) if isinstance(node, dict) else None
    return node


def undefined_reason(results: Mapping[str, Any], model: str, group: str, statistic: str) -> str:
    """Why ``statistic`` is null, as results.json says it (its ``reason``/``ci_reason``, or a
    sibling ``<statistic>_reason``), else a plain statement."""
    node = _node(results, model, group)
    entry = node.get(statistic) if isinstance(node, dict) else None
    for holder, key in ((entry, "reason"), (entry, "ci_reason"), (node, f"{statistic}_reason")):
        if isinstance(holder, dict) and isinstance(holder.get(key), str) and holder[key]:
            return str(holder[key])
    return "undefined: results.json holds no value for it (null, shown as undefined, never 0)"


def _null_statistics(
    model: str, path: tuple[str, ...], node: Any, benchmark: str
) -> Iterator[tuple[str, str]]:
    """(group, statistic) of every null plain statistic under ``node`` that names a metric."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if isinstance(value, dict) and "mean" not in value:
            yield from _null_statistics(model, (*path, str(key)), value, benchmark)
        elif (
            value is None
            and not key.endswith(("_reason", "_method", "_status"))
            and metric_facts(benchmark, str(key)) is not OTHER
        ):
            yield "/".join(path), str(key)


def run_scores(run: RunFolder) -> list[Score]:
    """Every statistic of ``run``, counts included (:func:`is_count` tells them apart)."""
    from biasbench.export import scores_table

    rows = scores_table(run)
    found: list[Score] = []
    for row in rows.to_dict("records"):
        value = _number(row["value"])
        n = row.get("n")
        found.append(
            Score(
                str(row["model"]),
                str(row["group"] or ""),
                str(row["statistic"]),
                value,
                _number(row.get("ci_low")),
                _number(row.get("ci_high")),
                None if n is None or _missing(n) else int(n),
                row.get("ci_status") if isinstance(row.get("ci_status"), str) else None,
                None
                if value is not None
                else undefined_reason(
                    run.results, str(row["model"]), str(row["group"] or ""), str(row["statistic"])
                ),
            )
        )
    seen = {(s.model, s.group, s.statistic) for s in found}
    for model, node in (run.results.get("models") or {}).items():
        for group, statistic in _null_statistics(str(model), (), node, run.benchmark):
            if (str(model), group, statistic) not in seen:
                found.append(
                    Score(
                        str(model),
                        group,
                        statistic,
                        None,
                        reason=undefined_reason(run.results, str(model), group, statistic),
                    )
                )
    return found


def _missing(value: Any) -> bool:
    try:
        return bool(value != value)  # NaN and pandas' NA
    except TypeError:
        return True


def interval_method(run: RunFolder, statistic: str) -> str:
    """How ``statistic``'s interval was computed, in words."""
    if statistic in INTERVAL_METHODS:
        return INTERVAL_METHODS[statistic]
    kind = run.results.get("interval")
    if isinstance(kind, str):
        return f"biasbench '{kind}' interval (results.json interval_method; docs/bbq-engine/)"
    return "as biasbench's results.json gives it"


def scores_by_model(run: RunFolder) -> dict[str, list[Score]]:
    by_model: dict[str, list[Score]] = {}
    for score in run_scores(run):
        by_model.setdefault(score.model, []).append(score)
    return by_model


def counts_of(scores: list[Score]) -> dict[str, float]:
    """The counts among ``scores``, key -> value (defined ones only)."""
    return {s.key: s.value for s in scores if is_count(s.statistic) and s.value is not None}


def model_signature(run: RunFolder, model: str) -> str:
    """The signature of ``model``'s results in ``run``, in its short form."""
    entry = (run.results.get("models") or {}).get(model)
    if isinstance(entry, dict) and isinstance(entry.get("signature"), str):
        return str(entry["signature"])
    raw = run.results.get("signature")
    if isinstance(raw, dict) and isinstance(raw.get("short"), str):
        return str(raw["short"])
    return run.signature.short()
