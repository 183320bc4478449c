"""The language table: the one source of each language's answer cue and unknown wording, and
its error for a language it lacks."""

from __future__ import annotations

import pytest

from biasbench.engines.bbq_family.family import PromptedBBQBenchmark
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.languages import (
    LANGUAGES,
    UnknownLanguageError,
    language_code,
    parser_languages,
    rules_for,
)
from biasbench.engines.bbq_family.judging.parser import AnswerOutcome, parse_answer
from biasbench.errors import BiasbenchError
from biasbench.registry import benchmark_classes


def _item(answers: tuple[str, str, str], unknown: int) -> BBQItem:
    groups = ["g0", "g1", "g2"]
    groups[unknown] = "unknown"
    return BBQItem(
        example_id=3,
        question_index="1",
        question_polarity="neg",
        context_condition="ambig",
        category="Age",
        answer_info={f"ans{i}": [answers[i], groups[i]] for i in range(3)},
        context="CONTEXT-TEXT.",
        question="QUESTION-TEXT?",
        ans0=answers[0],
        ans1=answers[1],
        ans2=answers[2],
        label=unknown,
    )


@pytest.mark.parametrize(
    ("language", "cue"),
    [
        ("en", "\nAnswer:"),
        ("tl", "\nSagot:"),
        ("es", "\nRespuesta:"),
        ("ca", "\nResposta:"),
        ("nl", "\nAntwoord:"),
        ("tr", "\nCevap:"),
        ("ko", "\n정답:"),
        ("zh", "答案："),
        ("ja", "\n答え："),
        ("es-ES", "\nRespuesta:"),
        ("fil", "\nSagot:"),
    ],
)
def test_answer_cue(language: str, cue: str) -> None:
    assert rules_for(language).answer_cue == cue


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("es", "No hay suficiente información"),
        ("ca", "No hi ha prou informació"),
        ("ko", "알 수 없음"),
        ("en", "Cannot be determined"),
    ],
)
def test_unknown_text(language: str, text: str) -> None:
    assert rules_for(language).unknown_text == text


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_canonical_unknown_wording_parses_as_unknown(language: str) -> None:
    """A model that answers with the wording a prompt shows (or another item's) is read as
    choosing the unknown option, whatever that option's own text."""
    item = _item(("OPTION-ZERO", "Something else entirely", "OPTION-TWO"), 1)
    parsed = parse_answer(rules_for(language).unknown_text, item, language=language)
    assert (parsed.index, parsed.method) == (1, AnswerOutcome.UNKNOWN_PHRASE)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_base_model_continuation_parses(language: str) -> None:
    """What a base model writes after the cue: the cue and a letter, as in the transcript."""
    item = _item(("OPTION-ZERO", "OPTION-ONE", "OPTION-TWO"), 2)
    transcript = rules_for(language).answer_cue.strip() + " B"
    assert parse_answer(transcript, item, language=language).index == 1


@pytest.mark.parametrize(
    ("lookup", "language"),
    [
        (rules_for, "xx"),
        (rules_for, "sw"),
        (rules_for, "fr-FR"),
        (rules_for, ""),
        (language_code, "klingon"),
        (parser_languages, "xx"),
    ],
)
def test_an_unknown_language_is_one_clear_error(lookup: object, language: str) -> None:
    assert callable(lookup)
    with pytest.raises(UnknownLanguageError) as caught:
        lookup(language)
    error = caught.value
    assert isinstance(error, BiasbenchError) and isinstance(error, ValueError)
    message = str(error)
    assert message.startswith(f"unknown language {language!r}: ")
    for code, rules in LANGUAGES.items():
        assert f"{code} ({rules.name})" in message
    # the route that works: a pack file of one's own, never an edit of the installed package
    assert "--language-rules FILE" in message and "judging/languages.py" not in message


def test_every_bbq_family_benchmark_speaks_a_language_of_the_table() -> None:
    """A benchmark's prompt language takes its answer cue from the table: each registered
    BBQ-family benchmark's languages are table entries (else the table needs one)."""
    family = [c for c in benchmark_classes() if issubclass(c, PromptedBBQBenchmark)]
    assert len(family) >= 8
    for cls in family:
        for language in cls.languages:
            assert language_code(language) in LANGUAGES, (cls.name, language)
