"""The BBQ engine's analyses, listed once (the interface: :mod:`.analysis`), in the order of
evaluation and of results.json. ``BBQBenchmark.evaluate``, ``BBQBenchmark.summary`` and the
report's section loop over :data:`ANALYSES`; they import this module when they run, so loading
a benchmark loads no analysis."""

from __future__ import annotations

from typing import Final

from biasbench.engines.bbq_family.analysis import Analysis
from biasbench.engines.bbq_family.presenting.by_language import ByLanguage
from biasbench.engines.bbq_family.presenting.cross_language import CrossLanguage
from biasbench.engines.bbq_family.presenting.dataset_scores import OwnScores
from biasbench.engines.bbq_family.presenting.option_scoring import OptionScoring
from biasbench.engines.bbq_family.presenting.refusals import Refusals
from biasbench.engines.bbq_family.presenting.reliability import Reliability, TargetRules
from biasbench.engines.bbq_family.presenting.robustness import Robustness

ANALYSES: Final[tuple[Analysis, ...]] = (
    OptionScoring(),
    ByLanguage(),
    Robustness(),
    CrossLanguage(),
    Refusals(),
    OwnScores(),
    Reliability(),
    TargetRules(),
)
"""Every analysis of the engine: option scoring, by language, the robustness grid,
cross-language, refusals, the dataset's own scores, the reliability of the scores (unparsed
answers per context) and the two target rules."""
