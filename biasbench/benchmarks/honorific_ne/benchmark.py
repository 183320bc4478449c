"""honorific-ne on the honorific engine: the Nepali judge's four levels, the gender it reads and
the pre-registered second split (respect floor: level >= 1 against 0)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.honorific_ne.declaration import DECLARATION
from biasbench.benchmarks.honorific_ne.judge.classify import JUDGE_VERSION
from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.readings import ReadingSpec


class NepaliBenchmark(HonorificEngineBenchmark, declaration=DECLARATION):
    """honorific-bn's items translated into Nepali (docs/benchmarks/honorific-ne.md)."""

    language = "ne"
    data_dir = Path(__file__).with_name("data")
    judge_target = "biasbench.benchmarks.honorific_ne.judge:JUDGE"
    judge_version: ClassVar[str] = JUDGE_VERSION
    reading_specs = (
        # 0 ऊ / 1 उनी / 2 उहाँ / 3 high honorific; undefined: the evidence is of several levels
        ReadingSpec("level", "categorical", ("0", "1", "2", "3"), title="register level"),
        ReadingSpec(
            "gender",
            "gender",
            ("masculine", "feminine", "none", "undecided"),
            title="gender of the person (verb agreement)",
        ),
        ReadingSpec(
            "respect_floor",
            "split",
            singular_only=True,
            title="respect floor (level >= 1 against 0)",
        ),
        ReadingSpec(
            "noun_gender",
            "categorical",
            ("feminine",),
            title="feminine occupation noun (undefined: none used)",
        ),
        ReadingSpec("titles", "categorical", ("0", "1", "2"), title="titles on the person"),
    )
