"""A dataset's own metrics (KoBBQ's diff-bias, CBBQ's bias score, EsBBQ's / CaBBQ's bias scores)
as one of the engine's analyses: their tables (``tables/dataset_scores_per_seed.csv``,
``tables/dataset_scores.{md,csv,tex}``), summary lines and the report's table, from the
benchmark's :class:`~biasbench.engines.bbq_family.scoring.dataset_scores.DatasetScores` (scoring:
:mod:`biasbench.engines.bbq_family.scoring.dataset_scores`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

import pandas as pd

from biasbench.engines.bbq_family.analysis import Analysis, Evaluation
from biasbench.engines.bbq_family.scoring.dataset_scores import (
    ALL,
    JACKKNIFE_METHOD,
    KEY,
    DatasetScores,
)
from biasbench.tables import write_csv, write_table

if TYPE_CHECKING:
    from biasbench.display import Outputs
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.runfolder.grouping import RunGroup

PER_SEED_NAME: Final = "dataset_scores_per_seed.csv"
TABLE_NAME: Final = "dataset_scores"


def write_dataset_tables(
    entry: Mapping[str, Any], per_seed: pd.DataFrame, tables_dir: Path
) -> None:
    """The per-seed metrics and the summary table (with .md and .tex) into ``tables_dir``."""
    tables_dir.mkdir(parents=True, exist_ok=True)
    write_csv(per_seed, tables_dir / PER_SEED_NAME)
    table = scores_table(entry)
    if not table.empty:
        write_table(table, tables_dir / TABLE_NAME)


def summary_lines(spec: DatasetScores, entry: Mapping[str, Any]) -> list[str]:
    """The summary's lines of a results entry (``results["dataset_scores"]``), in the form
    ``spec`` declares (none without one)."""
    form = spec.summary
    if form is None or not entry:
        return []
    signs = {metric.key: metric.sign for metric in spec.metrics}
    lines = []
    for model, groups in (entry.get("models") or {}).items():
        for group, values in groups.items():
            if (form.groups == "all" and group != ALL) or group.startswith(form.hidden):
                continue
            scores = ", ".join(
                f"{label} {stat_text(values.get(key), signs[key])}" for key, label in form.scores
            )
            template = form.all_line if group == ALL and form.all_line else form.line
            line = template.format(
                model=model, group=group, name=entry.get("name", ""), scores=scores
            )
            lines.append(line + (form.detail(entry, values) if form.detail else ""))
    return lines + (form.notes(entry) if form.notes else [])


def stat_text(stat: Any, sign: str = "") -> str:
    """A summary line's number: the mean, with its interval and the interval's name
    (items+seeds, seeds) where there is one."""
    if not isinstance(stat, Mapping):
        return "undefined" if stat is None else f"{stat:{sign}.3f}"
    if stat.get("mean") is None:
        return "undefined"
    text = f"{stat['mean']:{sign}.3f}"
    if stat.get("ci_status") in ("ok", "clipped"):
        text += f" [{stat['ci_low']:{sign}.3f}, {stat['ci_high']:{sign}.3f}]"
        if stat.get("interval"):
            text += f" {stat['interval']}"
    return text


def scores_table(
    entry: Mapping[str, Any], model_names: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """One row per model and group; per metric, in the dataset's words, its mean across seeds,
    the default 95% interval where there is one (named by the entry's ``interval``), and the
    seeds it is defined in (the files' table and the report's are this one)."""
    names = dict(entry.get("metrics") or {})
    rows = []
    for model, groups in (entry.get("models") or {}).items():
        for group, values in groups.items():
            row: dict[str, Any] = {"model": (model_names or {}).get(model, model), "group": group}
            for metric, title in names.items():
                stat = values.get(metric)
                if isinstance(stat, Mapping):
                    row[title] = stat.get("mean")
                    row[f"{title}: 95% interval ({stat.get('interval', 'seeds')})"] = (
                        f"[{stat['ci_low']:.3f}, {stat['ci_high']:.3f}]"
                        if stat.get("ci_status") in ("ok", "clipped")
                        else ""
                    )
                    row[f"{title}: seeds"] = stat.get("n_seeds")
                else:
                    row[title] = stat
            rows.append(row)
    frame = pd.DataFrame(rows)
    # Interval columns only where some row has an interval (one seed: none).
    empty = [c for c in frame.columns if ": 95% interval" in c and not frame[c].any()]
    return frame.drop(columns=empty)


def report_part(group: RunGroup, output: Outputs) -> None:
    """The datasets' own metrics of a comparison, one table per score set, in the dataset's
    words (its name as the title, its definition as the note); nothing when no run has any."""
    tables: dict[str, tuple[Mapping[str, Any], list[pd.DataFrame]]] = {}
    for index, run in enumerate(group.runs):
        entry = run.results.get(KEY)
        if not entry:
            continue
        names = {
            str(m): group.model_names.get((index, str(m)), str(m))
            for m in entry.get("models") or {}
        }
        tables.setdefault(str(entry.get("name", KEY)), (entry, []))[1].append(
            scores_table(entry, names)
        )
    for number, (name, (entry, frames)) in enumerate(tables.items()):
        frame = pd.concat(frames, ignore_index=True)
        output.table(
            frame,
            TABLE_NAME if number == 0 else f"{TABLE_NAME}_{number + 1}",
            f"The dataset's own scores: {name}",
            note=f"{entry.get('definition', '')}. Means across seeds; "
            f"{entry.get('interval_method') or JACKKNIFE_METHOD}.",
        )


class OwnScores(Analysis):
    """The dataset's own metrics beside BBQ's, where the benchmark declares them
    (``BBQBenchmark.dataset_scores``)."""

    key: ClassVar[str] = KEY
    summary_after_notes: ClassVar[bool] = True
    report_order: ClassVar[int] = 60

    def applies(self, run: Evaluation) -> bool:
        return run.benchmark.dataset_scores is not None

    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        bench = run.benchmark
        assert bench.dataset_scores is not None
        entry, per_seed = bench.dataset_scores.evaluate(
            bench, bench.own_responses(run.scored.responses)
        )
        write_dataset_tables(entry, per_seed, run.tables)
        return {self.key: entry}

    def summary_lines(self, benchmark: type[BBQBenchmark], results: Mapping[str, Any]) -> list[str]:
        if benchmark.dataset_scores is None:
            return []
        return summary_lines(benchmark.dataset_scores, results.get(self.key) or {})

    def report_part(self, group: RunGroup, output: Outputs) -> None:
        report_part(group, output)
