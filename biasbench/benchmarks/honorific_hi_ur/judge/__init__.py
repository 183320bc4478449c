"""Register judges of ``honorific-hi`` and ``honorific-ur`` (spec ``honorific-hi-ur.md``).

One rule set with two lexicons, by stage: :mod:`.normalise` (Unicode, once), :mod:`.extract`
(the translation out of chatter), :mod:`.morphology` (verb forms: number and gender),
:mod:`.lexicon` (pronouns, conjunctions, subjects, group markers, titles, occupation nouns),
:mod:`.clauses` (tokens and clauses), :mod:`.rules` (which words are evidence),
:mod:`.judges` (the decision and the readings).

``JUDGE_HI`` / ``JUDGE_UR`` (also ``HINDI_JUDGE`` / ``URDU_JUDGE``) are the instances the
engine's registry loads (``"biasbench.benchmarks.honorific_hi_ur.judge:JUDGE_HI"``).
"""

from biasbench.benchmarks.honorific_hi_ur.judge.judges import (
    HINDI_JUDGE,
    NOT_A_TRANSLATION,
    READINGS,
    URDU_JUDGE,
    HindiUrduJudge,
)

JUDGE_HI = HINDI_JUDGE
JUDGE_UR = URDU_JUDGE

__all__ = [
    "HINDI_JUDGE",
    "JUDGE_HI",
    "JUDGE_UR",
    "NOT_A_TRANSLATION",
    "READINGS",
    "URDU_JUDGE",
    "HindiUrduJudge",
]
