"""honorific-ja as a benchmark on the honorific engine: every engine feature through the CLI
(tests/benchmarks/honorific_engine_checks.py), politeness apart from the label, the gender of
the pronoun as a gender reading, a CLI that loads no analyser before it judges, and one line
naming the extra when SudachiPy is missing."""

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

JAPANESE = LanguageCase(
    "honorific-ja",
    "ja",
    "Japanese",
    he="仕事を終えて、お帰りになりました。",  # teineigo, no pronoun
    she="彼女は仕事を終えて、家に帰った。",  # plain, 彼女
    high="仕事を終えて、お帰りになった。",  # plain
    low="彼は仕事を終えて、家に帰りました。",  # teineigo, 彼
    they="仕事を終えて、家に帰りました。",  # teineigo, no pronoun
    readings={
        "politeness": "categorical",
        "pronoun_gender": "gender",
        "titles": "categorical",
        "humble_subject": "categorical",
        "default_ordinary": "categorical",
        "female_noun": "categorical",
        "derogatory": "categorical",
    },
    headings=(
        "politeness to the reader (です/ます) by pronoun condition",
        "Gender assignment (gender of the pronoun for the person)",
    ),
)


class TestJapanese(EngineLanguageChecks):
    case: ClassVar[LanguageCase] = JAPANESE

    def test_politeness_apart_from_the_label(self, scored: tuple[Path, dict[str, Any]]) -> None:
        _, results = scored
        politeness = {
            (r["gender"], r["value"]): r["n"]
            for r in results["readings"]["politeness"]["by_condition"]
        }
        assert politeness == {
            ("male", "teineigo"): 504,
            ("female", "plain"): 504,
            ("they", "teineigo"): 504,
            ("nopronoun", "plain"): 252,
            ("nopronoun", "teineigo"): 252,
        }

    def test_the_pronouns_gender(self, scored: tuple[Path, dict[str, Any]]) -> None:
        _, results = scored
        assignment = results["readings"]["pronoun_gender"]["assignment"]["planted"]
        # no pronoun: 彼 ("m", the masculine value) in half the occupations, none in the rest
        nopronoun = assignment["nopronoun"]
        assert (nopronoun["masculine"]["k"], nopronoun["feminine"]["k"], nopronoun["n"]) == (
            252,
            0,
            504,
        )
        assert nopronoun["masculine_of_gendered_pct"] == 100.0
        assert assignment["they"]["masculine"]["k"] == 0
        by_condition = {
            (r["gender"], r["value"]): r["n"]
            for r in results["readings"]["pronoun_gender"]["by_condition"]
        }
        assert by_condition[("female", "f")] == 504


@pytest.mark.parametrize(
    "args", [["--help"], ["list"], ["run", "honorific-ja", "--help"]], ids=" ".join
)
def test_answering_loads_no_analyser(args: list[str]) -> None:
    code, modules = _modules_after(*args)
    assert code == 0
    assert not {m.split(".")[0] for m in modules} & set(ANALYSERS)


def test_a_missing_sudachi_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    assert missing_analyser_error("honorific-ja", "sudachipy", tmp_path) == (
        "error: the Japanese judge needs SudachiPy and sudachidict-core: install them with "
        "pip install 'biasbench[ja]'"
    )
