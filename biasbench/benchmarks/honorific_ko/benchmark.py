"""honorific-ko on the honorific engine: the Korean judge (Kiwi, loaded on the first judgement)
and its readings, the speech level (politeness to the reader) apart from the label."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.honorific_ko.declaration import DECLARATION
from biasbench.benchmarks.honorific_ko.judge.classify import RULES_VERSION
from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.readings import ReadingSpec


class KoreanBenchmark(HonorificEngineBenchmark, declaration=DECLARATION):
    """honorific-bn's items translated into Korean (docs/benchmarks/honorific-ko.md)."""

    language = "ko"
    data_dir = Path(__file__).with_name("data")
    judge_target = "biasbench.benchmarks.honorific_ko.judge:JUDGE"
    # the rules' version; the signature's (the judge's) adds Kiwi's and its model's
    judge_version: ClassVar[str] = RULES_VERSION
    reading_specs = (
        ReadingSpec(
            "speech_level",
            "categorical",
            ("hasipsio", "haeyo", "hae", "haera", "mixed", "none"),
            title="speech level (to the reader)",
        ),
        ReadingSpec(
            "listener_polite", "categorical", ("true", "false"), title="polite to the reader"
        ),
        ReadingSpec(
            "pronoun",
            "categorical",
            ("그", "그녀", "그분", "그 사람", "그들", "none"),
            title="pronoun for the person",
        ),
        ReadingSpec("title", "categorical", ("true", "false"), title="-님/-분 title"),
        ReadingSpec(
            "nominal_conflict",
            "categorical",
            ("false", "true"),
            title="mixed only from a nominal against the predicates",
        ),
    )
