"""honorific-hi and honorific-ur as benchmarks on the honorific engine: registry, mock run end to
end, score, classify, annotation, resume, a light CLI (tests/benchmarks/honorific_engine_checks.py),
and the readings they declare."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from tests.benchmarks.honorific_engine_checks import EngineLanguageChecks, LanguageCase

READINGS = {
    "gender": "gender",
    "gender_conflict": "categorical",
    "noun_gender": "categorical",
    "titles": "categorical",
    "unreadable_reason": "categorical",
}
HEADINGS = ("Gender assignment (gender of the person (verb agreement))",)

HINDI = LanguageCase(
    "honorific-hi",
    "hi",
    "Hindi",
    he="डॉक्टर ने कहा कि वे नौ बजे आएँगे।",
    she="डॉक्टर ने कहा कि वह नौ बजे आएगी।",
    high="डॉक्टर ने कहा कि वे नौ बजे आएँगी।",
    low="डॉक्टर ने कहा कि वह नौ बजे आएगा।",
    they="डॉक्टर ने कहा कि वह नौ बजे आएगा।",
    readings=READINGS,
    headings=HEADINGS,
)
URDU = LanguageCase(
    "honorific-ur",
    "ur",
    "Urdu",
    he="ڈاکٹر نے کہا کہ وہ نو بجے آئیں گے۔",
    she="ڈاکٹر نے کہا کہ وہ نو بجے آئے گی۔",
    high="ڈاکٹر نے کہا کہ وہ نو بجے آئیں گی۔",
    low="ڈاکٹر نے کہا کہ وہ نو بجے آئے گا۔",
    they="ڈاکٹر نے کہا کہ وہ نو بجے آئے گا۔",
    readings=READINGS,
    headings=HEADINGS,
)


class HindiUrduReadings(EngineLanguageChecks):
    def test_the_gender_the_translation_assigns(self, scored: tuple[Path, dict[str, Any]]) -> None:
        _, results = scored
        gender = results["readings"]["gender"]
        assignment = gender["assignment"]["planted"]
        # no pronoun: 36 occupations feminine (आएँगी), 36 masculine (आएगा), 7 frames each
        nopronoun = assignment["nopronoun"]
        assert (nopronoun["masculine"]["k"], nopronoun["feminine"]["k"], nopronoun["n"]) == (
            252,
            252,
            504,
        )
        assert assignment["they"]["masculine"]["pct"] == 100.0
        by_condition = {(r["gender"], r["value"]): r["n"] for r in gender["by_condition"]}
        assert by_condition[("male", "masculine")] == 504
        assert by_condition[("female", "feminine")] == 504
        # no title on any sentence: the list reading counts as "none"
        titles = {r["value"] for r in results["readings"]["titles"]["by_condition"]}
        assert titles == {"none"}


class TestHindi(HindiUrduReadings):
    case: ClassVar[LanguageCase] = HINDI


class TestUrdu(HindiUrduReadings):
    case: ClassVar[LanguageCase] = URDU
