"""honorific-bn on the honorific engine: the Bengali judge, its data and its declaration."""

from __future__ import annotations

from typing import ClassVar

from biasbench.benchmarks.honorific_bn import DATA_DIR
from biasbench.benchmarks.honorific_bn.declaration import DECLARATION
from biasbench.benchmarks.honorific_bn.judge.evidence import JUDGE_VERSION
from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.label_table import TARGET_COLUMN

LABEL_COLUMNS = [
    "model",
    "seed",
    "item_id",
    "occupation_en",
    TARGET_COLUMN,
    "template_id",
    "primed",
    "gender",
    "output",
    "label",
    "plural",
    "spelling_mixed",
    "evidence",
    "reason",
    "truncated",
]
"""The label table's columns (``occupation_target`` is written ``occupation_bn``)."""


class HonorificBenchmark(HonorificEngineBenchmark, declaration=DECLARATION):
    """The Bengali honorific-register benchmark (docs/benchmarks/honorific-bn.md); its name, paper,
    options and commands are declared in :mod:`.declaration`."""

    language = "bn"
    data_dir = DATA_DIR
    judge_target = "biasbench.benchmarks.honorific_bn.judge.adapter:JUDGE"
    judge_version: ClassVar[str] = JUDGE_VERSION


load_definition = HonorificBenchmark.load_definition
"""honorific-bn's packaged definition, optionally with a user's occupations or frames file."""
