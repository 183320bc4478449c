"""biasbench's reading of MBBQ answers beside the authors' own ``detect_answer`` (mbbq.py of
Veranep/MBBQ, read from ``$BIASBENCH_MBBQ_CHECKOUT`` or the local mirror and run, never
copied; skipped without either): on the shipped fixture's items, every language and category,
answered with each option's exact text, letters and a free-text sentence, the two readings
agree on every answer except the documented bug classes (docs/benchmarks/mbbq.md, "Where mbbq.py
is wrong"): an option whose published text ends in a space or a full stop, which mbbq.py misses,
and its rule that an answer's first word equal an option's last word, capitalised (Turkish)."""

from __future__ import annotations

import ast
import importlib.util
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from biasbench.benchmarks.mbbq.source import (
    CATEGORIES,
    LANGUAGES,
    MAIN,
    MBBQ_REPOSITORY,
    data_file,
    load_mbbq_file,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.parser import parse_answer
from tests.published_files import published_file

FIXTURE = Path(__file__).parent / "fixtures" / "data"
ENV = "BIASBENCH_MBBQ_CHECKOUT"

#: Answers beside the options' own texts, each with the option it means: letters in three
#: shapes and a sentence.
LETTER_AND_FREE_ANSWERS = {"A": 0, "(B)": 1, "c)": 2, "The correct answer is C": 2}

#: (language, category, option whose text is altered, ending appended to it): fixture items
#: given the trailing space / full stop published MBBQ options carry (84 English
#: Disability_status options end in a space, 168 Spanish SES ones, 112 Turkish ones in a full
#: stop); each is read as a further item, "<category>+" below.
ALTERED_OPTIONS = (
    ("en", "Disability_status", 1, " "),
    ("es", "SES", 0, " "),
    ("tr", "Physical_appearance", 0, "."),
    ("tr", "Disability_status", 1, "."),
)

#: Every answer the two readings differ on: (language, category, answer) -> (mbbq.py's option,
#: biasbench's option); None is "no answer detected".
EXPECTED_DIFFERENCES: dict[tuple[str, str, str], tuple[int | None, int | None]] = {
    # an option ending in a space or a full stop: mbbq.py strips the answer and misses it
    ("en", "Disability_status+", "The man with the wheelchair "): (None, 1),
    ("es", "SES+", "Personas pobres "): (None, 0),
    ("tr", "Physical_appearance+", "Şişman adam."): (None, 0),
    ("tr", "Disability_status+", "Tekerlekli sandalyeli adam."): (None, 1),
    # Turkish: the answer's first word "Adam" is option 1's last word "adam", capitalised
    # (not in "Disability_status+", whose option 1 then ends in "adam.")
    ("tr", "Disability_status", "Adam bir yığın kağıt taşıyan"): (1, 2),
}


def _authors_detect_answer(tmp_path: Path) -> Callable[..., Any]:
    """mbbq.py's ``detect_answer`` with ``auto_detect`` and ``check_all``, taken out of its
    syntax tree (its imports of transformers etc. are not run) and given answer_detection.py's
    phrase lists, as its ``from answer_detection import *`` does."""
    lists_path = published_file(MBBQ_REPOSITORY, "answer_detection.py", tmp_path, ENV)
    mbbq_path = published_file(MBBQ_REPOSITORY, "mbbq.py", tmp_path, ENV)
    spec = importlib.util.spec_from_file_location("mbbq_answer_detection", lists_path)
    assert spec is not None and spec.loader is not None
    lists = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lists)
    tree = ast.parse(mbbq_path.read_text(encoding="utf-8"))
    wanted = {"auto_detect", "check_all", "detect_answer"}
    body = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in wanted]
    assert {node.name for node in body} == wanted, "mbbq.py no longer defines these functions"
    namespace: dict[str, Any] = {**vars(lists), "string": string}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(mbbq_path), "exec"), namespace)
    return namespace["detect_answer"]


@pytest.fixture(scope="module")
def detect_answer(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    return _authors_detect_answer(tmp_path_factory.mktemp("mbbq"))


def _first_item(language: str, category: str) -> BBQItem:
    path = FIXTURE / data_file(category, language, MAIN)
    return load_mbbq_file(path, category, language, MAIN).items[0]


def _altered(item: BBQItem, option: int, ending: str) -> BBQItem:
    text = item.answers[option] + ending
    return item.model_copy(update={f"ans{option}": text})


def _answers_of(item: BBQItem) -> tuple[str, ...]:
    return (*item.answers, *LETTER_AND_FREE_ANSWERS)


def _readings(detect_answer: Callable[..., Any]) -> dict[tuple[str, str, str], tuple[Any, Any]]:
    """(language, category, answer) -> (mbbq.py's option, biasbench's option), every answer;
    an altered item's category is suffixed "+"."""
    items = [
        (language, category, _first_item(language, category))
        for language in LANGUAGES
        for category in CATEGORIES
    ]
    items += [
        (language, f"{category}+", _altered(_first_item(language, category), option, ending))
        for language, category, option, ending in ALTERED_OPTIONS
    ]
    readings = {}
    for language, category, item in items:
        options = list(item.answers)
        for answer in _answers_of(item):
            theirs = detect_answer(options, answer, item.unknown_index, language)
            theirs = None if theirs in (None, "all") else int(theirs)
            readings[(language, category, answer)] = (theirs, parse_answer(answer, item).index)
    return readings


def test_the_altered_options_end_as_published_ones_do() -> None:
    for language, category, option, ending in ALTERED_OPTIONS:
        original = _first_item(language, category).answers[option]
        assert not original.endswith((" ", "."))
        assert (
            _altered(_first_item(language, category), option, ending).answers[option]
            == original + ending
        )


def test_readings_agree_except_the_documented_bugs(detect_answer: Callable[..., Any]) -> None:
    readings = _readings(detect_answer)
    items = len(LANGUAGES) * len(CATEGORIES) + len(ALTERED_OPTIONS)
    assert len(readings) == items * (3 + len(LETTER_AND_FREE_ANSWERS))
    differing = {key: value for key, value in readings.items() if value[0] != value[1]}
    assert differing == EXPECTED_DIFFERENCES


@pytest.mark.parametrize(("answer", "meant"), LETTER_AND_FREE_ANSWERS.items())
def test_letters_and_free_text_are_read_alike(
    detect_answer: Callable[..., Any], answer: str, meant: int
) -> None:
    for (language, category, given), (theirs, ours) in _readings(detect_answer).items():
        if given == answer:
            assert (theirs, ours) == (meant, meant), (language, category)
