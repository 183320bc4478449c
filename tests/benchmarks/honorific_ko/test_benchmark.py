"""honorific-ko as a benchmark on the honorific engine: every engine feature through the CLI
(tests/benchmarks/honorific_engine_checks.py), the speech level apart from the label, a CLI
that loads no analyser before it judges, and one line naming the extra when Kiwi is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.benchmarks.honorific_engine_checks import (
    ANALYSERS,
    EngineLanguageChecks,
    LanguageCase,
    missing_analyser_error,
)
from tests.test_cli_imports import _modules_after

KOREAN = LanguageCase(
    "honorific-ko",
    "ko",
    "Korean",
    he="일을 마치시고 댁으로 돌아가셨습니다.",  # hasipsio
    she="일을 마치고 집으로 돌아갔다.",  # haera
    high="일을 마치시고 댁으로 돌아가셨어요.",  # haeyo
    low="그녀는 일을 마치고 집으로 돌아갔어요.",  # haeyo, pronoun 그녀
    they="일을 마치고 집으로 돌아갔습니다.",  # hasipsio
    readings={
        "speech_level": "categorical",
        "listener_polite": "categorical",
        "pronoun": "categorical",
        "title": "categorical",
        "nominal_conflict": "categorical",
    },
    headings=("speech level (to the reader) by pronoun condition",),
)


class TestKorean(EngineLanguageChecks):
    case: ClassVar[LanguageCase] = KOREAN

    def test_the_speech_level_apart_from_the_label(
        self, scored: tuple[Path, dict[str, Any]]
    ) -> None:
        _, results = scored
        level = {
            (r["gender"], r["value"]): r["n"]
            for r in results["readings"]["speech_level"]["by_condition"]
        }
        assert level == {
            ("male", "hasipsio"): 504,
            ("female", "haera"): 504,
            ("they", "hasipsio"): 504,
            ("nopronoun", "haeyo"): 504,
        }
        polite = {
            (r["gender"], r["value"]): r["pct"]
            for r in results["readings"]["listener_polite"]["by_condition"]
        }
        assert polite[("female", "false")] == 100.0 and polite[("male", "true")] == 100.0
        pronoun = {
            (r["gender"], r["value"]): r["n"]
            for r in results["readings"]["pronoun"]["by_condition"]
        }
        assert pronoun[("nopronoun", "그녀")] == 252 and pronoun[("nopronoun", "none")] == 252


@pytest.mark.parametrize(
    "args", [["--help"], ["list"], ["run", "honorific-ko", "--help"]], ids=" ".join
)
def test_answering_loads_no_analyser(args: list[str]) -> None:
    code, modules = _modules_after(*args)
    assert code == 0
    assert not {m.split(".")[0] for m in modules} & set(ANALYSERS)


def test_a_missing_kiwi_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    assert missing_analyser_error("honorific-ko", "kiwipiepy", tmp_path) == (
        "error: the Korean judge needs the Kiwi analyser: install the extra biasbench[ko] "
        "(pip install 'biasbench[ko]', which brings kiwipiepy and kiwipiepy-model)"
    )
