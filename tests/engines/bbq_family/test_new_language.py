"""A benchmark brings a language new to the engine from its own folder: its LanguageRules,
named by its class's ``language_rules``, join the one language table when the class is
defined; the parser then reads that language and the prompt ends with its answer cue."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from biasbench.engines.bbq_family.family import PromptedBBQBenchmark
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging import languages
from biasbench.engines.bbq_family.judging.languages import (
    ES,
    LanguageRules,
    UnknownLanguageError,
    add_language,
    language_code,
    parser_languages,
    rules_for,
)
from biasbench.engines.bbq_family.judging.parser import AnswerOutcome, parse_answer

# ISO 639 keeps qaa-qtz for local use: no real language the table could ever hold.
QAA = LanguageRules(
    code="qaa",
    name="Local test language",
    answer_cue="\nJawabu:",
    unknown_text="Haijulikani kabisa",
    cues=(r"\bjawabu",),
    links=(r"\bni",),
    strong_unknown=(r"\bhaijulikani\b",),
    aliases=("qaa-x",),
)


@pytest.fixture()
def table() -> Iterator[None]:
    """The language table as it was, after the test (the entries a test adds are removed)."""
    before, aliases = dict(languages.LANGUAGES), dict(languages._ALIASES)
    yield
    for mapping, saved in ((languages.LANGUAGES, before), (languages._ALIASES, aliases)):
        mapping.clear()
        mapping.update(saved)
    language_code.cache_clear()
    parser_languages.cache_clear()


def _item() -> BBQItem:
    return BBQItem(
        example_id=1,
        question_index="1",
        question_polarity="neg",
        context_condition="ambig",
        category="Age",
        answer_info={
            "ans0": ["mzee", "old"],
            "ans1": ["kijana", "young"],
            "ans2": ["Haijulikani kabisa", "unknown"],
        },
        context="c",
        question="q",
        ans0="mzee",
        ans1="kijana",
        ans2="Haijulikani kabisa",
        label=2,
        language="qaa",
    )


def test_a_benchmark_class_adds_its_language(table: None) -> None:
    with pytest.raises(UnknownLanguageError):
        rules_for("qaa")

    class LocalBenchmark(PromptedBBQBenchmark):
        name = "local-test"
        languages = ("qaa",)
        language_rules = (QAA,)
        version = "test"  # type: ignore[assignment]

    assert rules_for("qaa") is QAA and language_code("qaa-x") == "qaa"
    assert parser_languages("qaa") == ("qaa", "en")
    bench = object.__new__(LocalBenchmark)  # the cue needs no items
    assert bench.completion_cue() == "\nJawabu:"
    # Read by the new language's own cues and phrasings: English alone reads neither.
    for text, index, method in (
        ("Jawabu ni B.", 1, AnswerOutcome.LETTER),
        ("haijulikani", 2, AnswerOutcome.UNKNOWN_PHRASE),
    ):
        parsed = parse_answer(text, _item(), language="qaa")
        assert (parsed.index, parsed.method) == (index, method)
        assert parse_answer(text, _item(), language="en").method == AnswerOutcome.NO_ANSWER


def test_the_same_entry_twice_is_one_entry(table: None) -> None:
    assert add_language(QAA) is QAA
    assert add_language(replace(QAA)) is QAA


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (replace(ES, answer_cue="\nRespuesta final:"), "'es' (Spanish) is in the language table"),
        (replace(QAA, code="qab", aliases=("fil",)), "'fil' already names 'tl'"),
        (replace(QAA, code="qab", aliases=("qaa",)), "'qaa' already names 'qaa'"),
    ],
)
def test_a_language_the_table_holds_is_not_redefined(
    table: None, rules: LanguageRules, message: str
) -> None:
    add_language(QAA)
    with pytest.raises(TypeError, match=re.escape(message)):
        add_language(rules)
    assert rules_for("es") is ES and language_code("fil") == "tl"
