"""honorific-ja on the honorific engine: the Japanese judge (SudachiPy, loaded on the first
judgement) and its readings, listener politeness (です/ます) apart from the label."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.honorific_ja.declaration import DECLARATION
from biasbench.benchmarks.honorific_ja.judge import RULES_VERSION
from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.readings import ReadingSpec


class JapaneseBenchmark(HonorificEngineBenchmark, declaration=DECLARATION):
    """honorific-bn's items translated into Japanese (docs/benchmarks/honorific-ja.md)."""

    language = "ja"
    data_dir = Path(__file__).with_name("data")
    judge_target = "biasbench.benchmarks.honorific_ja.judge:JUDGE"
    # the rules' version; the signature's (the judge's) adds the analyser's and its dictionary's
    judge_version: ClassVar[str] = RULES_VERSION
    reading_specs = (
        ReadingSpec(
            "politeness",
            "categorical",
            ("teineigo", "plain", "mixed"),
            title="politeness to the reader (です/ます)",
        ),
        # 彼 / 彼女: the gender a pronoun gives the person; neutral: both or a neutral pronoun
        ReadingSpec(
            "pronoun_gender",
            "gender",
            ("m", "f", "neutral", "none"),
            title="gender of the pronoun for the person",
        ),
        ReadingSpec("titles", "categorical", ("none",), title="titles on the person"),
        ReadingSpec(
            "humble_subject",
            "categorical",
            ("false", "true"),
            title="humble form with the person as doer",
        ),
        ReadingSpec(
            "default_ordinary",
            "categorical",
            ("false", "true"),
            title="ordinary by default (no honorific chosen)",
        ),
        ReadingSpec("female_noun", "categorical", ("false", "true"), title="female noun"),
        ReadingSpec("derogatory", "categorical", ("false", "true"), title="derogatory form"),
    )
