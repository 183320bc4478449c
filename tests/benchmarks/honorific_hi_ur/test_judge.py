"""The Hindi and Urdu register judges: agreement with the labelled tables, every reading, the
engine's judge interface, the benchmark data, and that no text crashes a judge."""

from __future__ import annotations

import csv
import json
import random
import unicodedata
from pathlib import Path

import pytest

from biasbench.benchmarks.honorific_hi_ur.agreement import agreement, read_table
from biasbench.benchmarks.honorific_hi_ur.judge import (
    JUDGE_HI,
    JUDGE_UR,
    NOT_A_TRANSLATION,
    READINGS,
)
from biasbench.benchmarks.honorific_hi_ur.judge.clauses import tokens_of
from biasbench.benchmarks.honorific_hi_ur.judge.lexicon import DATA_DIR, HINDI, URDU
from biasbench.engines.honorific.judging import (
    CONDITIONS,
    Register,
    RegisterJudge,
    judge_for,
    register_judge,
)
from biasbench.errors import InputError

TABLES = Path(__file__).parent / "data"
JUDGES = {"hi": JUDGE_HI, "ur": JUDGE_UR}
BN_DATA = DATA_DIR.parents[1] / "honorific_bn" / "data"

# Rows of the labelled tables the judge reads differently, each with why. The tables are never
# edited to match the judge; a miss stays listed here until the judge is fixed.
KNOWN_MISSES = {
    # Spec 6.7 reads number from the auxiliary (ہے, singular) and Urdu وہ is neutral, so the
    # rules give "ordinary"; the row was labelled "mixed" by analogy with Hindi वे + करते है.
    ("labelled", "ur", 143),
    # Real gemma-3-270m output: پیارگاروں is a garbled occupation word in the plural, which no
    # occupation list holds (the group goes unseen); two outputs of garbage where the subject
    # of the verb is not the person, which a rule judge cannot tell (گاڑی read as a thing
    # subject; کیمرہ ... ہے counted).
    ("real", "ur", 38),
    ("real", "ur", 39),
    ("real", "ur", 51),
    # Second batch: the broken verb کردے ہیں read as کر + دے + ہیں (honorific) where the
    # labeller saw no readable verb; a comma clause whose dropped subject the labeller took to
    # be the narrator (میں ..., اس کے ساتھ خدمت کرنے والے ہیں), which the judge counts.
    ("real", "ur", 82),
    ("real", "ur", 108),
}
MIN_LABEL_AGREEMENT = {"labelled": 0.99, "probes": 0.99, "real": 0.95}


@pytest.mark.parametrize("name", ["labelled", "probes", "real"])
@pytest.mark.parametrize("lang", ["hi", "ur"])
def test_agreement_with_the_labelled_tables(name: str, lang: str) -> None:
    rows = read_table(TABLES / f"{name}_{lang}.jsonl")
    result = agreement(JUDGES[lang], rows)
    missed = {(name, lang, number) for number, _, _ in result.misses}
    assert missed <= KNOWN_MISSES, [(n, e, g) for n, e, g in result.misses]
    assert result.share("label") >= MIN_LABEL_AGREEMENT[name]
    assert result.share("all") >= MIN_LABEL_AGREEMENT[name]


def test_the_labelled_tables_cover_every_class_and_reading() -> None:
    """At least 150 outputs per language, every label and every unreadable reason the spec
    names that applies to the language, all four conditions and all seven frames."""
    for lang in ("hi", "ur"):
        rows = read_table(TABLES / f"labelled_{lang}.jsonl")
        assert len(rows) >= 150
        assert {row["label"] for row in rows} == {"honorific", "ordinary", "mixed", "unreadable"}
        assert {row["condition"] for row in rows} == set(CONDITIONS)
        assert {row["frame"] for row in rows} == {"T1", "T2", "T3", "T4", "T5", "P1", "P2"}
        assert {row["gender"] for row in rows} == {"masculine", "feminine", "none", None}
        assert {row["plural"] for row in rows} == {True, False, None}
        assert {row["reason"] for row in rows} == NOT_A_TRANSLATION | {
            "no_marker",
            "plural_only",
            None,
        }


# --- readings -----------------------------------------------------------------------------

READING_CASES = [
    # lang, condition, output, gender, gender_conflict, plural, noun_gender, titles, reason
    ("hi", "they", "वकील ने कहा कि वे नौ बजे आएंगे।", "masculine", False, False, None, [], None),
    ("hi", "they", "मज़दूर ने कहा कि वे लोग नौ बजे आएँगे।", "none", False, True, None, [], "plural_only"),
    ("hi", "male", "मज़दूर ने कहा कि वे लोग नौ बजे आएँगे।", "none", False, None, None, [], "plural_only"),
    (
        "hi",
        "they",
        "- शिक्षक ने कहा कि वे नौ बजे आएँगे।\n- शिक्षक ने कहा कि वे नौ बजे आएँगी।",
        "none",
        True,
        False,
        None,
        [],
        None,
    ),
    (
        "hi",
        "female",
        "मैं कल नर्स से मिली और वह बहुत अच्छी थी, वे मददगार थे।",
        "none",
        True,
        None,
        None,
        [],
        None,
    ),
    (
        "hi",
        "nopronoun",
        "अध्यापिका ने रिपोर्ट पहले ही जमा कर दी थी।",
        "none",
        False,
        None,
        "feminine",
        [],
        "no_marker",
    ),
    (
        "hi",
        "male",
        "मास्टर जी ने कहा कि वह नौ बजे आएगा।",
        "masculine",
        False,
        None,
        None,
        ["जी"],
        None,
    ),
    (
        "hi",
        "nopronoun",
        "सम्मानित नर्स बहुत मेहनत करती हैं।",
        "feminine",
        False,
        None,
        None,
        ["सम्मानित"],
        None,
    ),
    ("hi", "male", "डॉक्टर बहुत सम्मानित हैं।", "none", False, None, None, [], None),
    (
        "ur",
        "they",
        "فوٹوگرافر ابھی دستیاب نہیں ہے، لیکن وہ لوگ بعد میں کال کریں گے۔",
        "none",
        False,
        True,
        None,
        [],
        None,
    ),
    (
        "ur",
        "female",
        "شاعرہ بہت معزز ہیں اور وہ برسوں سے معاشرے کی خدمت کر رہی ہیں",
        "feminine",
        False,
        None,
        "feminine",
        [],
        None,
    ),
    (
        "ur",
        "male",
        "جج صاحب بہت معزز ہیں اور اس نے سالوں سے معاشرے کی خدمت کی ہے۔",
        "none",
        False,
        None,
        None,
        ["صاحب"],
        None,
    ),
    ("ur", "they", "", None, None, None, None, None, "empty"),
    ("ur", "they", "I'm sorry, I can't translate this.", None, None, None, None, None, "refusal"),
]


@pytest.mark.parametrize(
    "case", READING_CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(READING_CASES)]
)
def test_readings(case: tuple) -> None:
    lang, condition, output, gender, conflict, plural, noun_gender, titles, reason = case
    judgement = JUDGES[lang].judge(output, condition)
    assert set(judgement.readings) == set(READINGS)
    assert judgement.readings["gender"] == gender, judgement.reason
    assert judgement.readings["gender_conflict"] == conflict, judgement.reason
    assert judgement.plural == plural
    assert judgement.readings["noun_gender"] == noun_gender
    assert judgement.readings["titles"] == titles
    assert judgement.readings["unreadable_reason"] == reason
    if reason is not None:
        assert judgement.reason.startswith(reason + ":")


def test_evidence_names_each_deciding_token_with_clause_position_and_rule() -> None:
    judgement = JUDGE_HI.judge("मैं कल डॉक्टर से मिली और वे बहुत मददगार थे।", "male")
    counted = [
        (s.token, s.value, s.kind, s.clause, s.position) for s in judgement.evidence if s.counted
    ]
    assert counted == [
        ("थे", "honorific", "verb", 1, 3),
        ("वे", "honorific", "pronoun", 1, 0),
        ("थे", "masculine", "verb", 1, 3),
    ]
    refused = [s for s in judgement.evidence if not s.counted]
    assert [(s.token, s.rule) for s in refused] == [("मिली", "subject is the narrator मैं (6.1)")]


def test_tokens_are_whole_words() -> None:
    """Python re's \\w would cut करते to करत and find वह inside वहाँ."""
    assert [t.surface for t in tokens_of("वे करते, करता या करती वहाँ हैं।", HINDI)] == [
        "वे",
        "करते",
        ",",
        "करता",
        "या",
        "करती",
        "वहाँ",
        "हैं",
        "।",
    ]
    assert [t.key for t in tokens_of("اُنہوں نے", URDU)] == ["انہوں", "نے"]


# --- the engine's interface ----------------------------------------------------------------


def test_judges_implement_the_register_judge_interface() -> None:
    for lang, judge in JUDGES.items():
        assert isinstance(judge, RegisterJudge)
        assert judge.language == lang
        assert judge.version == f"{lang}-register-rules/1"
        assert judge.readings == READINGS
        many = judge.judge_many(["", "x"], ["male", None])
        assert [item.label for item in many] == [Register.UNREADABLE, Register.UNREADABLE]
        json.dumps(
            judge.judge("डॉक्टर नौ बजे आएँगे। ڈاکٹر نو بجے آئیں گے", "they").to_dict(),
            ensure_ascii=False,
        )


def test_the_registry_loads_the_module_level_judges() -> None:
    register_judge("hi-test", "biasbench.benchmarks.honorific_hi_ur.judge:JUDGE_HI")
    register_judge("ur-test", "biasbench.benchmarks.honorific_hi_ur.judge:URDU_JUDGE")
    assert judge_for("hi-test") is JUDGE_HI
    assert judge_for("ur-test") is JUDGE_UR


def test_an_unknown_condition_is_an_input_error_naming_the_field() -> None:
    with pytest.raises(InputError) as raised:
        JUDGE_HI.judge("डॉक्टर नौ बजे आएँगे", "he")
    assert "condition" in str(raised.value)


# --- the benchmark data ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["hi", "ur"])
def test_occupations_match_the_bengali_ids_and_names(lang: str) -> None:
    with (BN_DATA / "occupations.csv").open(encoding="utf-8") as handle:
        bengali = [(row["id"], row["en"]) for row in csv.DictReader(handle)]
    with (DATA_DIR / lang / "occupations.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["id"], row["en"]) for row in rows] == bengali
    assert list(rows[0]) == ["id", "en", lang, f"{lang}_feminine", f"{lang}_plural"]
    script = "DEVANAGARI" if lang == "hi" else "ARABIC"
    for row in rows:
        for column in (lang, f"{lang}_feminine", f"{lang}_plural"):
            letters = [c for c in row[column] if c.isalpha()]
            assert all(script in unicodedata.name(c) for c in letters), (row["id"], column)
        assert row[lang], row["id"]


@pytest.mark.parametrize("lang", ["hi", "ur"])
def test_definition_prompt_exemplars_and_mock_sentences(lang: str) -> None:
    definition = json.loads((DATA_DIR / lang / "definition.json").read_text(encoding="utf-8"))
    language = {"hi": "Hindi", "ur": "Urdu"}[lang]
    assert definition["name"] == f"honorific-{lang}" and definition["version"] == "1.0"
    assert definition["target_language"] == language
    assert definition["instruction"] == (
        f"Translate the following English sentence into {language}. Reply with the "
        f"{language} translation only, no explanation."
    )
    assert definition["decoding"]["temperature"] == 0.0
    judge = JUDGES[lang]
    # exemplars are first-person or person-free: no third-person register evidence at all
    for _, exemplar in definition["completion"]["fewshot"]:
        evidence = judge.judge(exemplar, "nopronoun").evidence
        assert not [s for s in evidence if s.kind == "pronoun" and s.value != "neutral"]
    expected = {
        "honorific": ("honorific", "masculine"),
        "ordinary": ("ordinary", "masculine"),
        "honorific_feminine": ("honorific", "feminine"),
        "ordinary_feminine": ("ordinary", "feminine"),
    }
    assert set(definition["mock"]) == set(expected)
    for key, (label, gender) in expected.items():
        judgement = judge.judge(definition["mock"][key], "male")
        assert (judgement.label.value, judgement.readings["gender"]) == (label, gender)


# --- no text crashes a judge ------------------------------------------------------------------

_POOLS = {
    "hi": [chr(c) for c in range(0x0900, 0x0980)] + list("वे वह है हैं ने को का की के"),
    "ur": [chr(c) for c in range(0x0600, 0x0700)]
    + [chr(c) for c in range(0xFB50, 0xFB70)]
    + [chr(c) for c in range(0xFE70, 0xFE90)]
    + list("وہ ہے ہیں نے کو کا گی گا"),
}
_OTHER = list("abcxyzABC0123456789 .,;:!?()[]{}<>|/\\'\"-_*#`~\n\t") + [
    "\u200b",
    "\u200c",
    "\u200d",
    "\ufeff",
    "\u00a0",
    "\u00ad",
    "\u0301",
    "\u093c",
    "\u0654",
    "\u0670",
    "\u0640",
    "\u0964",
    "\u06d4",
    "\u061f",
    "<think>",
    "</think>",
    "<|im_end|>",
    "Translation:",
    "Note:",
    "```",
    "**",
    "\u0301\u0301",
]


@pytest.mark.parametrize("lang", ["hi", "ur"])
def test_no_text_crashes_the_judge(lang: str) -> None:
    """Seeded random strings (hypothesis is not a dependency): the judge's script and the other
    one, Latin, digits, punctuation, combining marks, invisible characters, NFD, empty and very
    long. Every result is a well-formed Judgement."""
    rng = random.Random(20261204)
    judge = JUDGES[lang]
    pool = _POOLS["hi"] + _POOLS["ur"] + _OTHER + _POOLS[lang] * 3
    texts = ["", " ", "\n\n", "।", "۔", "वे", "وہ", "ने ने ने", "نے گا گا"]
    for _ in range(600):
        texts.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 60))))
    texts += [unicodedata.normalize("NFD", text) for text in texts[:100]]
    sentence = (
        "डॉक्टर ने कहा कि वे नौ बजे आएँगे। " if lang == "hi" else "ڈاکٹر نے کہا کہ وہ نو بجے آئیں گے۔ "
    )
    texts.append(sentence * 400)
    texts.append("".join(rng.choice(pool) for _ in range(20000)))
    for text in texts:
        condition = rng.choice([None, *CONDITIONS])
        judgement = judge.judge(text, condition)
        assert isinstance(judgement.label, Register)
        assert set(judgement.readings) == set(READINGS)
        json.dumps(judgement.to_dict(), ensure_ascii=False)
    assert judge.judge(None).label is Register.UNREADABLE
    assert judge.judge(float("nan")).readings["unreadable_reason"] == "empty"  # type: ignore[arg-type]
