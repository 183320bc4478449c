"""honorific-ne as a benchmark on the honorific engine: every engine feature through the CLI
(tests/benchmarks/honorific_engine_checks.py), the register level by condition, the gender
assignment and the pre-registered respect-floor split beside the main label."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from tests.benchmarks.honorific_engine_checks import EngineLanguageChecks, LanguageCase

NEPALI = LanguageCase(
    "honorific-ne",
    "ne",
    "Nepali",
    he="डाक्टरले भन्नुभयो कि उहाँ नौ बजे आइपुग्नुहुनेछ।",  # level 2
    she="डाक्टरले भनिन् कि उनी नौ बजे आइपुग्नेछिन्।",  # level 1, feminine
    high="मैले हिजो भेटेकी डाक्टर धेरै सहयोगी हुनुहुन्थ्यो।",  # level 2, feminine
    low="डाक्टरले भन्यो कि ऊ नौ बजे आइपुग्नेछ।",  # level 0, masculine
    they="डाक्टरले भने कि उनी नौ बजे आइपुग्नेछन्।",  # level 1, masculine
    readings={
        "level": "categorical",
        "gender": "gender",
        "respect_floor": "split",
        "noun_gender": "categorical",
        "titles": "categorical",
    },
    headings=(
        "Alternative split: respect floor (level &gt;= 1 against 0)",
        "register level by pronoun condition",
        "Gender assignment (gender of the person (verb agreement))",
    ),
)


class TestNepali(EngineLanguageChecks):
    case: ClassVar[LanguageCase] = NEPALI

    def test_the_level_by_condition(self, scored: tuple[Path, dict[str, Any]]) -> None:
        _, results = scored
        level = {
            (r["gender"], r["value"]): r["n"] for r in results["readings"]["level"]["by_condition"]
        }
        assert level == {
            ("male", "2"): 504,
            ("female", "1"): 504,
            ("they", "1"): 504,
            ("nopronoun", "2"): 252,
            ("nopronoun", "0"): 252,
        }
        by_gender = {
            (r["translation_gender"], r["value"]): r["n"]
            for r in results["readings"]["level"]["by_translation_gender"]
        }
        assert by_gender[("feminine", "1")] == 504 and by_gender[("feminine", "2")] == 252

    def test_the_gender_assignment(self, scored: tuple[Path, dict[str, Any]]) -> None:
        _, results = scored
        assignment = results["readings"]["gender"]["assignment"]["planted"]
        nopronoun = assignment["nopronoun"]
        assert (nopronoun["masculine"]["k"], nopronoun["feminine"]["k"], nopronoun["n"]) == (
            252,
            252,
            504,
        )
        assert assignment["they"]["masculine"]["pct"] == 100.0

    def test_the_respect_floor_beside_the_main_label(
        self, scored: tuple[Path, dict[str, Any]]
    ) -> None:
        folder, results = scored
        floor = results["readings"]["respect_floor"]["models"]["planted"]
        # उनी (level 1) is above the floor: no gender gap there, where the label has 100 pp
        assert (floor["hai_pp"], floor["gsr_pct"]) == (0.0, 0.0)
        # the no-pronoun level-0 occupations are below it: the occupation gap stays
        assert floor["occupation_spread_pp"] == 50.0
        split = (folder / "tables" / "split_respect_floor.csv").read_text(encoding="utf-8")
        assert "main label" in split and "respect floor" in split
