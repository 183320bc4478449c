"""Deciding which runs may be compared in one table.

Runs of the same benchmark whose signatures agree on every comparable field
(:data:`biasbench.signature.COMPARABLE_FIELDS`) are merged into one comparison (a benchmark's
report section may re-score the union of their labels, so that e.g. Holm's correction spans
every model of the report). Runs that differ are kept apart, and the report
says which fields differ.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.errors import InputError
from biasbench.runfolder import LABELS_NAME
from biasbench.runfolder.reading import RunFolder, load_run
from biasbench.signature import Signature

FIELD_LABELS = {
    "benchmark": "benchmark",
    "benchmark_version": "benchmark version",
    "data_sha256": "item set (data checksum)",
    "prompt_hash": "prompt",
    "decoding": "decoding parameters",
    "seeds": "seeds",
    "judge_version": "judge version",
    "items": "items answered",
}
"""Plain words for the comparable signature fields, for the report's explanations."""


@dataclass(frozen=True)
class FieldDifference:
    """One comparable signature field on which two groups of runs disagree."""

    field: str
    first: Any
    other: Any

    @property
    def description(self) -> str:
        """E.g. ``decoding parameters: max_tokens 96 vs 32``."""
        label = FIELD_LABELS.get(self.field, self.field)
        if isinstance(self.first, dict) and isinstance(self.other, dict):
            keys = sorted(set(self.first) | set(self.other))
            changed = [
                f"{k} {self.first.get(k)!r} vs {self.other.get(k)!r}"
                for k in keys
                if self.first.get(k) != self.other.get(k)
            ]
            return f"{label}: {'; '.join(changed)}"
        return f"{label}: {_short(self.first)} vs {_short(self.other)}"


def _short(value: Any) -> str:
    if isinstance(value, str) and len(value) > 16 and all(c in "0123456789abcdef" for c in value):
        return value[:12]  # a checksum: its head is enough to tell them apart
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) > 6:
        return f"{len(value)} seeds ({value[0]}..{value[-1]})"
    return repr(value)


@dataclass
class RunGroup:
    """Runs of one benchmark whose signatures are comparable: reported as one comparison."""

    benchmark: str
    runs: list[RunFolder]
    slug: str
    """File-name prefix of the group's tables and figures (the benchmark name, numbered)."""
    differences: list[FieldDifference] = field(default_factory=list)
    """How this group differs from the first group of the same benchmark (empty for that one)."""
    compared_with: str | None = None
    """Slug of the group the differences are measured against."""

    @property
    def signature(self) -> Signature:
        return self.runs[0].signature

    @cached_property
    def model_names(self) -> dict[tuple[int, str], str]:
        """(run index, model name in the run) -> the name shown in the report.

        A model name found in two runs of the group (the same model run twice) gets the run
        folder's name appended, so that the two never merge into one model.
        """
        seen: dict[str, int] = {}
        for run in self.runs:
            for model in run.models:
                seen[model] = seen.get(model, 0) + 1
        names: dict[tuple[int, str], str] = {}
        used: set[str] = set()
        for index, run in enumerate(self.runs):
            for model in run.models:
                name = model if seen[model] == 1 else f"{model} [{run.name}]"
                while name in used:
                    name = f"{name} #{index + 1}"
                used.add(name)
                names[(index, model)] = name
        return names

    @property
    def models(self) -> list[str]:
        return list(self.model_names.values())

    def rename(self, index: int, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` of run ``index`` with its ``model`` column mapped to report names."""
        out = frame.copy()
        out["model"] = out["model"].astype(str).map(lambda m: self.model_names.get((index, m), m))
        return out

    def results_frame(
        self,
        key: str,
        to_frame: Callable[[Any], pd.DataFrame],
    ) -> pd.DataFrame | None:
        """``to_frame`` of every run's ``results.json[key]`` (runs without one, or with an empty
        one, add nothing), models under their report names, concatenated; None when no run has
        one."""
        frames = []
        for index, run in enumerate(self.runs):
            block = run.results.get(key)
            if block:
                frames.append(self.rename(index, to_frame(block)))
        return pd.concat(frames, ignore_index=True) if frames else None

    def labelled_runs(self) -> Iterator[tuple[int, pd.DataFrame]]:
        """(run index, labels with report model names) of every run that has labels."""
        for index, run in enumerate(self.runs):
            labels = run.labels
            if labels is not None:
                yield index, self.rename(index, labels)

    def concat(self, getter: str) -> pd.DataFrame | None:
        """The named table of every run (``labels`` or a CSV name), renamed and concatenated."""
        frames = []
        for index, run in enumerate(self.runs):
            frame = run.labels if getter == LABELS_NAME else run.table(getter)
            if frame is not None and not frame.empty:
                frames.append(self.rename(index, frame) if "model" in frame.columns else frame)
        return pd.concat(frames, ignore_index=True) if frames else None


@dataclass
class ReportPlan:
    """The runs of a report, grouped into comparisons (runs of one group answered the same
    items under comparable signatures)."""

    runs: list[RunFolder]
    groups: list[RunGroup]


def _comparable(run: RunFolder) -> tuple[Any, ...]:
    answered = run.items_answered
    return (*run.signature.comparable_key(), answered[1] if answered else None)


def _differences(reference: RunFolder, run: RunFolder) -> list[FieldDifference]:
    mine, theirs = reference.signature.model_dump(), run.signature.model_dump()
    found = [
        FieldDifference(name, mine[name], theirs[name])
        for name in reference.signature.differences(run.signature)
    ]
    first, other = reference.items_answered, run.items_answered
    if first != other:
        found.append(FieldDifference("items", _answered(first), _answered(other)))
    return found


def _answered(answered: tuple[int, str] | None) -> str:
    return f"{answered[0]:,} items ({answered[1][:8]})" if answered else "no labelled responses"


def group_runs(runs: Sequence[RunFolder]) -> ReportPlan:
    """Group runs by benchmark and comparable signature fields, keeping the runs' order.

    The first group of each benchmark is the reference; every later group of the same
    benchmark records the fields on which its signature differs from it.
    """
    groups: list[RunGroup] = []
    by_key: dict[tuple[str, ...], RunGroup] = {}
    for run in runs:
        key = _comparable(run)
        if key in by_key:
            by_key[key].runs.append(run)
            continue
        same_benchmark = [g for g in groups if g.benchmark == run.benchmark]
        slug = run.benchmark if not same_benchmark else f"{run.benchmark}-{len(same_benchmark) + 1}"
        group = RunGroup(benchmark=run.benchmark, runs=[run], slug=slug)
        if same_benchmark:
            reference = same_benchmark[0]
            group.differences = _differences(reference.runs[0], run)
            group.compared_with = reference.slug
        by_key[key] = group
        groups.append(group)
    return ReportPlan(runs=list(runs), groups=groups)


def load_runs(paths: Sequence[Path | str]) -> ReportPlan:
    """Read every folder and group them (an empty list or a repeated folder is an input error)."""
    if not paths:
        raise InputError("no run folders given")
    resolved = [Path(p).resolve() for p in paths]
    repeated = {str(p) for p in resolved if resolved.count(p) > 1}
    if repeated:
        raise InputError(f"run folder given twice: {sorted(repeated)[0]}")
    return group_runs([load_run(p) for p in paths])
