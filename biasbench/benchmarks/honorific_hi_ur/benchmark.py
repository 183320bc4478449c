"""honorific-hi and honorific-ur on the honorific engine: one rule set, two lexicons, and the
data of each language in its own folder (``data/hi/``, ``data/ur/``)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.honorific_hi_ur.declaration import DECLARATIONS
from biasbench.benchmarks.honorific_hi_ur.judge.judges import RULES_VERSION
from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.readings import ReadingSpec

DATA_DIR = Path(__file__).with_name("data")
HINDI, URDU = DECLARATIONS

READING_SPECS = (
    # the gender the verb agreement gives the person; none: no gender-bearing evidence
    ReadingSpec(
        "gender",
        "gender",
        ("masculine", "feminine", "none"),
        title="gender of the person (verb agreement)",
    ),
    ReadingSpec(
        "gender_conflict", "categorical", ("false", "true"), title="conflicting gender evidence"
    ),
    ReadingSpec(
        "noun_gender",
        "categorical",
        ("feminine",),
        title="feminine occupation noun (undefined: none used)",
    ),
    ReadingSpec("titles", "categorical", ("none",), title="titles on the person"),
    ReadingSpec("unreadable_reason", "categorical", title="why unreadable (undefined: readable)"),
)


class HindiBenchmark(HonorificEngineBenchmark, declaration=HINDI):
    """honorific-bn's items translated into Hindi (docs/benchmarks/honorific-hi.md)."""

    language = "hi"
    data_dir = DATA_DIR / "hi"
    judge_target = "biasbench.benchmarks.honorific_hi_ur.judge:JUDGE_HI"
    judge_version: ClassVar[str] = f"hi-register-rules/{RULES_VERSION}"
    reading_specs = READING_SPECS


class UrduBenchmark(HonorificEngineBenchmark, declaration=URDU):
    """honorific-bn's items translated into Urdu (docs/benchmarks/honorific-ur.md)."""

    language = "ur"
    data_dir = DATA_DIR / "ur"
    judge_target = "biasbench.benchmarks.honorific_hi_ur.judge:JUDGE_UR"
    judge_version: ClassVar[str] = f"ur-register-rules/{RULES_VERSION}"
    reading_specs = READING_SPECS
