"""The toy language as an honorific benchmark: its folder, code, judge and readings."""

from pathlib import Path

from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.readings import ReadingSpec
from tests.engines.honorific.toy_language.declaration import DECLARATION, DECLARATION_72


class ToyBenchmark(HonorificEngineBenchmark, declaration=DECLARATION):
    language = "zz"
    data_dir = Path(__file__).with_name("data")
    judge_target = "tests.engines.honorific.toy_language.judge:JUDGE"
    reading_specs = (
        ReadingSpec("gender", "gender", ("masculine", "feminine", "none")),
        ReadingSpec("level", "categorical", ("0", "1", "2"), title="register level"),
        ReadingSpec("respect_floor", "split", singular_only=True, title="respect floor"),
    )


class Toy72Benchmark(ToyBenchmark, declaration=DECLARATION_72):
    """The toy language with all 72 occupations of honorific-bn (terms पेशा १ ... पेशा ७२):
    the same 2,016 items, for the side-by-side tests."""

    language = "zy"
    data_dir = Path(__file__).with_name("data72")
    judge_target = "tests.engines.honorific.toy_language.judge:JUDGE"
