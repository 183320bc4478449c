"""The BBQ engine's analyses as plug-ins: the one small interface each implements.

Beside the per-category scores every run gets, the engine runs analyses that apply to some runs
only: scores by language (items of several namespaces), the cross-language comparison, the
robustness grid (``--vary``), refusals apart, a dataset's own scores (KoBBQ, CBBQ, EsBBQ) and
the option-scoring comparison (runs that answer by option scores), the reliability of the
scores (unparsed answers per context) and the two target rules (every run). Each is an
:class:`Analysis`: whether it applies to a run, what it adds to results.json (writing its own
tables and figures), its summary lines and its part of the HTML report.
:data:`biasbench.engines.bbq_family.analyses.ANALYSES` lists them once; ``BBQBenchmark.evaluate``, ``BBQBenchmark.summary`` and the report section loop over
that list. A new analysis is one class in its stage's module and one line in
:mod:`biasbench.engines.bbq_family.analyses`.

Where the parts go: evaluation and results.json follow the list's order; the summary puts an
analysis's lines beside the scores or, with :attr:`Analysis.summary_after_notes`, after the
engine's notes (intervals, decoding, exclusions); the report orders the parts by
:attr:`Analysis.report_order`, those below :data:`PROFILES` before the bias profiles and jitter
plots, the others after them. (Three orders because each place reads best in its own; they are
the orders the outputs had before the plug-ins, kept byte for byte.)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

if TYPE_CHECKING:
    import pandas as pd

    from biasbench.display import Outputs
    from biasbench.engines.bbq_family.benchmark import BBQBenchmark
    from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults
    from biasbench.runfolder.grouping import RunGroup
    from biasbench.signature import Signature

PROFILES: Final = 50
"""The report's place of the engine's bias profiles and jitter plots among the analyses' parts
(:attr:`Analysis.report_order`)."""


@dataclass(frozen=True)
class Evaluation:
    """One run being evaluated: what an analysis reads."""

    benchmark: BBQBenchmark
    """The benchmark evaluating (its items, var2, grid, options, dataset scores)."""
    scored: BBQResults
    """The engine's scores of the parsed answers."""
    responses: pd.DataFrame
    """The responses as evaluated (column ``uid``; a grid run's expanded per cell)."""
    signatures: Mapping[str, Signature]
    """Model label -> the signature of its responses."""
    results: Mapping[str, Any]
    """results.json so far (the engine's scores, the signature); read only."""
    tables: Path
    figures: Path

    @property
    def is_grid(self) -> bool:
        """Whether the run asked the robustness grid (``--vary``)."""
        return self.benchmark.grid is not None


class Analysis(ABC):
    """One of the engine's analyses (see the module's docstring)."""

    key: ClassVar[str]
    """Its entry in results.json."""
    summary_after_notes: ClassVar[bool] = False
    """Its summary lines come after the engine's notes rather than beside the scores."""
    report_order: ClassVar[int]
    """Its place in the report's section (see :data:`PROFILES`)."""

    @abstractmethod
    def applies(self, run: Evaluation) -> bool:
        """Whether the run gets this analysis at all."""

    @abstractmethod
    def evaluate(self, run: Evaluation) -> dict[str, Any]:
        """Its part of results.json (``{key: ...}``; empty where the data give nothing),
        with its tables and figures written into ``run.tables`` and ``run.figures``."""

    def summary_lines(self, benchmark: type[BBQBenchmark], results: Mapping[str, Any]) -> list[str]:
        """Its lines of the run's summary; none where results.json has no entry of it."""
        entry = results.get(self.key)
        return self.lines(entry, benchmark) if entry else []

    def lines(self, entry: Any, benchmark: type[BBQBenchmark]) -> list[str]:
        """The summary lines of its results entry (present and not empty)."""
        return []

    def report_part(self, group: RunGroup, output: Outputs) -> None:  # noqa: B027
        """Its tables and figures in the report (nothing where no run of ``group`` has its
        entry). By default none."""
