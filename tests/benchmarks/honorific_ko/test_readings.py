"""The readings beside the label: speech level (listener politeness) recorded apart from the
referent register, the plural flag, the pronoun, the title and the nominal-vs-predicate
conflict (spec "Speech level", "Plural flag", Signals 5-6, "A -님 title without -시-")."""

from __future__ import annotations

import pytest

from biasbench.benchmarks.honorific_ko.judge import JUDGE
from tests.benchmarks.honorific_ko.kiwi_required import needs_kiwi

pytestmark = needs_kiwi

# (output, speech level): every ending the spec's table names, and its edge cases.
SPEECH_LEVELS = [
    ("판사는 도착했습니다.", "hasipsio"),
    ("판사님은 도착하셨습니다.", "hasipsio"),
    ("판사는 도착합니까.", "hasipsio"),
    ("9시까지 도착하십시오.", "hasipsio"),
    ("판사는 도착했어요.", "haeyo"),
    ("판사님은 도착하셨어요.", "haeyo"),
    ("판사님은 일하세요.", "haeyo"),
    ("판사는 요리사예요.", "haeyo"),
    ("판사는 요리사이에요.", "haeyo"),
    ("판사는 도착했네요.", "haeyo"),
    ("판사는 도착했군요.", "haeyo"),
    ("판사는 도착할게요.", "haeyo"),
    ("판사는 도착한대요.", "haeyo"),
    ("판사는 도착했죠.", "haeyo"),
    ("판사는 도착한다고 하더라고요.", "haeyo"),
    ("판사는 도착했어.", "hae"),
    ("판사님은 도착하셨어.", "hae"),
    ("판사는 도착했지.", "hae"),
    ("판사는 요리사야.", "hae"),
    ("판사는 도착할 거야.", "hae"),
    ("판사는 도착했다.", "haera"),
    ("판사는 일한다.", "haera"),
    ("판사는 먹는다.", "haera"),
    ("판사는 도착했구나.", "haera"),
    ("판사는 도착할 것이다.", "haera"),
    ("안 계십니다. 나중에 전화하실 거예요.", "mixed"),
    ("판사는 도착했다.\n판사는 도착했습니다.", "mixed"),
    ("판사는 일을 마치고 집에", "none"),  # cut off: no sentence-final ending
    ("판사는 9시 도착 예정.", "none"),  # headline style
    ("이발사는 집으로 갔소.", "none"),  # archaic 하오체
    ("", "none"),
    ("The judge left.", "none"),
    ('판사는 "도착하겠습니다"라고 말했다.', "haera"),  # a direct quotation's ending is skipped
    ("보고서는 이미 제출되었다.", "haera"),  # unreadable for lack of evidence, level kept
]


@pytest.mark.parametrize(("output", "level"), SPEECH_LEVELS, ids=[o for o, _ in SPEECH_LEVELS])
def test_speech_level(output: str, level: str) -> None:
    readings = JUDGE.judge(output).readings
    assert readings["speech_level"] == level
    polite = {"hasipsio": True, "haeyo": True, "hae": False, "haera": False}.get(level)
    assert readings["listener_polite"] is polite


def test_the_register_and_the_speech_level_are_independent() -> None:
    grid = {
        (judgement.label.value, judgement.readings["speech_level"])
        for judgement in JUDGE.judge_many(
            [
                "판사는 집에 갔다.",
                "판사님은 댁에 가셨다.",
                "판사는 집에 갔습니다.",
                "판사님은 댁에 가셨습니다.",
                "판사는 집에 갔어요.",
                "판사님은 댁에 가셨어요.",
                "판사는 집에 갔어.",
                "판사님은 댁에 가셨어.",
            ]
        )
    }
    assert grid == {
        (label, level)
        for label in ("honorific", "ordinary")
        for level in ("haera", "hasipsio", "haeyo", "hae")
    }


# (output, condition, plural flag)
PLURAL = [
    ("그들은 9시에 도착한다.", "they", True),
    ("그녀들은 9시에 도착한다.", "they", True),
    ("그분들은 9시에 도착하신다.", "they", True),
    ("이분들은 9시에 도착하신다.", "they", True),
    ("그 사람들은 9시에 도착한다.", "they", True),
    ("건축가들은 9시에 도착한다.", "they", True),
    ("간호사님들은 9시에 도착하신다.", "they", True),
    ("경비원분들은 도착하셨다.", "they", True),
    ("그는 9시에 도착한다.", "they", False),
    ("그분은 9시에 도착하신다.", "they", False),
    ("건축가는 9시에 도착한다.", "they", False),
    ("건축가는 자신들의 일을 마치고 집에 갔다.", "they", False),  # reflexive: never plural
    ("사람들은 건축가를 존경한다. 그는 열심히 일한다.", "they", False),  # 사람들: everyone
    ("1. 그는 도착했다.\n2. 그들은 도착했다.", "they", True),  # any rendering plural
    ("그들은 9시에 도착한다.", "male", None),
    ("그들은 9시에 도착한다.", "nopronoun", None),
    ("그들은 9시에 도착한다.", None, None),
    ("", "they", None),
    ("보고서는 제출되었다.", "they", None),
]


@pytest.mark.parametrize(
    ("output", "condition", "plural"), PLURAL, ids=[f"{c}-{o}" for o, c, _ in PLURAL]
)
def test_plural_flag(output: str, condition: str | None, plural: bool | None) -> None:
    assert JUDGE.judge(output, condition).plural is plural


# (output, pronoun reading): the first pronoun for the person, by its dictionary form.
PRONOUNS = [
    ("그녀는 도착했다.", "그녀"),
    ("그는 도착했다.", "그"),
    ("그분은 도착하셨다.", "그분"),
    ("그 분은 도착하셨다.", "그분"),
    ("이분은 도착하셨다.", "이분"),
    ("그들은 도착했다.", "그들"),
    ("그분들은 도착하셨다.", "그분들"),
    ("그녀들은 도착했다.", "그녀들"),
    ("그 사람은 도착했다.", "그 사람"),
    ("그 여자는 도착했다.", "그 여자"),
    ("걔는 도착했어.", "걔"),
    ("그 판사는 도착했다.", "none"),
    ("판사는 자기 일을 마쳤다.", "none"),
    ("판사는 도착했다.", "none"),
    ("", None),
    ("The judge left.", None),
]


@pytest.mark.parametrize(("output", "pronoun"), PRONOUNS, ids=[o for o, _ in PRONOUNS])
def test_pronoun_reading(output: str, pronoun: str | None) -> None:
    assert JUDGE.judge(output).readings["pronoun"] == pronoun


# (output, title reading, nominal_conflict reading)
TITLES_AND_CONFLICTS = [
    ("기사님은 9시에 도착할 거예요.", True, True),
    ("기사님은 9시에 도착하실 거예요.", True, False),
    ("기사분이 도착했다.", True, True),
    ("작가님께서 보고서를 제출했다고 설명했다.", True, True),
    ("그분은 도착했다.", False, True),
    ("그녀는 도착하셨다.", False, True),
    ("친절한 분이었다.", False, True),
    ("기사는 안 계시지만 나중에 전화할 거예요.", False, False),  # predicates disagree
    ("어제 짐꾼을 뵈었는데 친절했어요.", False, False),  # object honorific vs predicate
    ("기사는 도착했다.", False, False),
    ("", None, False),
]


@pytest.mark.parametrize(
    ("output", "title", "conflict"),
    TITLES_AND_CONFLICTS,
    ids=[o for o, _, _ in TITLES_AND_CONFLICTS],
)
def test_title_and_nominal_conflict(output: str, title: bool | None, conflict: bool) -> None:
    readings = JUDGE.judge(output).readings
    assert readings["title"] is title
    assert readings["nominal_conflict"] is conflict
