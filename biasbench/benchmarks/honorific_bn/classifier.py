"""Register classifier (the judge) of the ``honorific-bn`` benchmark: the public names.

A thin facade kept for importers: the judge lives in
:mod:`biasbench.benchmarks.honorific_bn.judge`, split by stage (normalise, extract, lexicon,
morphology, clauses, subjects, classify, evidence), each module documenting its rules.
"""

from biasbench.benchmarks.honorific_bn.judge import (
    JUDGE_VERSION,
    Evidence,
    Register,
    RegisterLabel,
    classify_many,
    classify_register,
    extract_translation,
    label_responses,
    normalise_bengali,
)

__all__ = [
    "JUDGE_VERSION",
    "Evidence",
    "Register",
    "RegisterLabel",
    "classify_many",
    "classify_register",
    "extract_translation",
    "label_responses",
    "normalise_bengali",
]
