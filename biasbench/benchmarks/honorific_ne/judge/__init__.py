"""Register judge of the ``honorific-ne`` benchmark (spec ``honorific-ne.md``), by stage:

* :mod:`.normalise`: Unicode normalised once, and the match key of a token;
* :mod:`.extract`: cutting the Nepali translation out of a model output;
* :mod:`.lexicon`: pronoun, verb-ending, subject and other-language tables, and the analysis
  of one token;
* :mod:`.classify`: clauses, which tokens count, the label, ``level``, ``gender``,
  ``respect_floor`` and ``plural``; :data:`JUDGE`, the instance the engine's registry loads as
  ``"biasbench.benchmarks.honorific_ne.judge:JUDGE"``.
"""

from biasbench.benchmarks.honorific_ne.judge.classify import (
    JUDGE,
    JUDGE_VERSION,
    READINGS,
    NepaliJudge,
    split_clauses,
)
from biasbench.benchmarks.honorific_ne.judge.extract import extract_translation
from biasbench.benchmarks.honorific_ne.judge.normalise import match_key, normalise_nepali

__all__ = [
    "JUDGE",
    "JUDGE_VERSION",
    "READINGS",
    "NepaliJudge",
    "extract_translation",
    "match_key",
    "normalise_nepali",
    "split_clauses",
]
