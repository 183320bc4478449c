"""BBQ item generation: the spec's steps on small hand-made templates, and FilBBQ's published set."""

from __future__ import annotations

import ast
import collections
import csv
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from biasbench.benchmarks.filbbq.source import FILBBQ_UNKNOWN_POOL
from biasbench.engines.bbq_family.items.generate import (
    BBQ_UNKNOWN_POOL,
    GenerationResult,
    fill_slots,
    generate_items,
)
from biasbench.engines.bbq_family.items.item_files import (
    ITEM_FIELDS,
    serialize_item,
    serialize_items,
    write_jsonl,
)
from biasbench.engines.bbq_family.items.items import parse_bbq_lines
from biasbench.engines.bbq_family.items.templates import read_template_csv
from biasbench.errors import InputError

HEADER = [
    "Q_id",
    "Subcategory",
    "version",
    "Ambiguous_Context",
    "Disambiguating_Context",
    "Names",
    "Lexical_diversity",
    "Proper_nouns_only",
    "Question_negative_stereotype",
    "Question_non_negative",
    "Answer_negative",
    "Answer_non_negative",
    "Known_stereotyped_groups",
    "NAME1_info",
    "NAME2_info",
    "Notes",
    "Invalid_Partners",
]

BASE_ROW = {
    "Q_id": "T-01",
    "Ambiguous_Context": "I met a {{NAME1}} and a {{NAME2}} at the {{WORD1}}.",
    "Disambiguating_Context": " The {{NAME2}} was late.",
    "Lexical_diversity": "WORD1: [park, mall, fair]",
    "Question_negative_stereotype": "Who was late? ",
    "Question_non_negative": "Who was early?",
    "Answer_negative": "The {{NAME2}}",
    "Answer_non_negative": "The {{NAME1}}",
    "Known_stereotyped_groups": '["Muslim"]',
    "Notes": "https://example.org/a/b",
    "Invalid_Partners": "None",
}

LABELS = """Category,Pilot_include,SubCat,Name,Info
Religion,,,Muslim,
Religion,,,Jewish,
Religion,No,,Hindu,
Religion,,,Christian,
Religion,,,Atheist,
Age,,,old,
Age,,,young,
SES,,,rich,highSES
SES,,,poor,lowSES
SES,,,low-income,lowSES
SES,,Occupation,physician,highSES
SES,,Occupation,janitor,lowSES
Gender_identity,,,man,
Gender_identity,,,woman,
"""


def names_csv() -> str:
    rows = ["Name,First_last,gender,ethnicity"]
    rows += [f"F{i},first_only,F," for i in range(6)] + [f"M{i},first_only,M," for i in range(6)]
    rows += ["M0,first_only,M,"]  # duplicates are sampled once (distinct partner names)
    rows += [f"B{i},first,F,Black" for i in range(5)] + [f"W{i},first,F,White" for i in range(5)]
    rows += ["Banks,last,,Black", "Jones,last,,Black", "Smith,last,,White"]
    return "\n".join(rows) + "\n"


@pytest.fixture()
def vocab(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "labels.csv").write_text(LABELS, encoding="utf-8")
    (tmp_path / "names.csv").write_text(names_csv(), encoding="utf-8")
    return tmp_path / "labels.csv", tmp_path / "names.csv"


def run(
    tmp_path: Path,
    vocab: tuple[Path, Path],
    rows: Sequence[dict[str, str]],
    category: str,
    *,
    seed: int = 0,
    style: str = "filbbq",
    **options: Any,
) -> GenerationResult:
    path = tmp_path / f"{category}.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=HEADER)
        writer.writeheader()
        for row in rows:
            writer.writerow({column: row.get(column, "") for column in HEADER})
    return generate_items(
        path,
        category,
        vocab[0],
        vocab[1],
        seed=seed,
        unknown_pool=BBQ_UNKNOWN_POOL,
        style=style,
        **options,
    )  # type: ignore[arg-type]


def slottings(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(NAME1, NAME2) of each slotting, read from the ambiguous neg item's context."""
    pairs = []
    for item in items[::4]:
        match = re.search(r"met an? (\S+) and an? (\S+) at", item["context"])
        assert match, item["context"]
        pairs.append((match[1], match[2]))
    return pairs


# --- slot filling ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, name1, name2, words, expected",
    [
        ("A {{NAME1}} met a {{NAME2}}.", "doctor", "nurse", None, "A doctor met a nurse."),
        ("I saw a {{NAME1}} and a {{NAME2}}.", "elder", "boy", None, "I saw an elder and a boy."),
        # The article fix applies to the whole text once either word starts with a vowel.
        (
            "I saw a {{NAME1}}, a ant and a European.",
            "boy",
            "Indian",
            None,
            "I saw a boy, an ant and a European.",
        ),
        ("the {{NAME1}} is a lesbian man", "x", "y", None, "the x is a lesbian woman"),
        ("a Latino woman and a {{NAME2}}", "x", "y", None, "a Latina woman and a y"),
        ("at the {{WORD1}} with {{WORD2}}", "x", "y", ("mall", ""), "at the mall with "),
        ("at the {{WORD1}}", "x", "y", None, "at the {{WORD1}}"),
    ],
)
def test_fill_slots(
    text: str, name1: str, name2: str, words: tuple[str, str] | None, expected: str
) -> None:
    assert fill_slots(text, name1, name2, words) == expected


# --- the algorithm on small templates --------------------------------------------------------


def test_target_subset_rows_flip_and_honour_invalid_partners(tmp_path: Path, vocab) -> None:
    row = {**BASE_ROW, "Invalid_Partners": '["Atheist"]'}
    result = run(tmp_path, vocab, [row], "Religion")
    # W = [Muslim]; P = [Jewish, Christian] (Atheist invalid, Hindu not piloted), both orders.
    assert slottings(result.items) == [
        ("Muslim", "Jewish"),
        ("Jewish", "Muslim"),
        ("Muslim", "Christian"),
        ("Christian", "Muslim"),
    ]
    assert len(result.items) == 16 and result.template_counts == {"T-01": 16}
    bbq = run(tmp_path, vocab, [row], "Religion", style="bbq")
    assert len(bbq.items) == 24 and "Invalid_Partners is ignored" in bbq.warnings[0]


def test_four_items_per_slotting(tmp_path: Path, vocab) -> None:
    items = run(tmp_path, vocab, [BASE_ROW], "Religion").items
    assert [(i["question_polarity"], i["context_condition"]) for i in items[:4]] == [
        ("neg", "ambig"),
        ("neg", "disambig"),
        ("nonneg", "ambig"),
        ("nonneg", "disambig"),
    ]
    assert [i["example_id"] for i in items] == list(range(len(items)))
    first = items[1]
    word = re.search(r"at the (\w+)\.", first["context"])[1]  # type: ignore[index]
    # Ambiguous context stripped; D's leading space gives the double space; questions stripped.
    assert first["context"] == f"I met a Muslim and a Jewish at the {word}.  The Jewish was late."
    assert (items[0]["question"], items[2]["question"]) == ("Who was late?", "Who was early?")
    assert first["additional_metadata"] == {
        "subcategory": "None",
        "stereotyped_groups": ["Muslim"],
        "version": "",
        "source": "https://example.org/a/b",
    }
    for index in range(0, len(items), 8):  # a slotting and its flip share the lexical word
        words = {re.search(r"at the (\w+)\.", i["context"])[1] for i in items[index : index + 8]}  # type: ignore[index]
        assert len(words) == 1
    for item in items:
        answers = [item["ans0"], item["ans1"], item["ans2"]]
        info = item["answer_info"]
        unknown = [k for k in range(3) if info[f"ans{k}"][1] == "unknown"]
        assert len(unknown) == 1 and answers[unknown[0]] in BBQ_UNKNOWN_POOL
        name1, name2 = re.search(r"met an? (\S+) and an? (\S+) at", item["context"]).groups()  # type: ignore[union-attr]
        expected_correct = {
            "ambig": answers[unknown[0]],
            "disambig": f"The {name2}" if item["question_polarity"] == "neg" else f"The {name1}",
        }[item["context_condition"]]
        assert answers[item["label"]] == expected_correct
        # answer_info by placeholder: "The {{NAME2}}" -> [NAME2, NAME2's label].
        assert info[f"ans{answers.index(f'The {name2}')}"] == [name2, name2]
        assert info[f"ans{answers.index(f'The {name1}')}"] == [name1, name1]


def test_answer_info_by_placeholder_not_substring(tmp_path: Path, vocab) -> None:
    # Substring tests would give "Angelo" the label of "Angel" (NAME2 is written last).
    row = {
        **BASE_ROW,
        "Names": "NAME1: [Angelo]; NAME2: [Angel]",
        "NAME1_info": "M",
        "NAME2_info": "F",
        "Answer_negative": "The {{NAME1}}",
        "Answer_non_negative": "The {{NAME2}}",
    }
    items = run(tmp_path, vocab, [row], "Age").items
    assert len(items) == 4  # a Names row outside the target-subset categories: 1 x 1 slotting
    info = items[0]["answer_info"]
    answers = [items[0][f"ans{k}"] for k in range(3)]
    assert info[f"ans{answers.index('The Angelo')}"] == ["Angelo", "M"]
    assert info[f"ans{answers.index('The Angel')}"] == ["Angel", "F"]


def test_label_rows_of_other_categories_pair_within_the_labels(tmp_path: Path, vocab) -> None:
    row = {**BASE_ROW, "Known_stereotyped_groups": '["old"]'}
    result = run(tmp_path, vocab, [row], "Age")
    assert slottings(result.items) == [("old", "young"), ("young", "old")]


def test_ses_partners_differ_in_info(tmp_path: Path, vocab) -> None:
    row = {**BASE_ROW, "Known_stereotyped_groups": '["lowSES"]'}
    # Five SES labels: W is a random sample of 5 (a shuffle); partners are every label of
    # another Info, in one order only.
    pairs = slottings(run(tmp_path, vocab, [row], "SES").items)
    high, low = ["rich", "physician"], ["poor", "low-income", "janitor"]
    assert sorted(pairs) == sorted(
        [(h, lo) for h in high for lo in low] + [(lo, h) for h in high for lo in low]
    )
    occupation = run(tmp_path, vocab, [{**row, "Subcategory": "Occupation"}], "SES")
    assert slottings(occupation.items) == [
        ("physician", "janitor"),
        ("janitor", "physician"),
        ("janitor", "physician"),
        ("physician", "janitor"),
    ]
    info = occupation.items[0]["answer_info"]
    assert sorted(v for v in info.values() if v[1] != "unknown") == [
        ["janitor", "lowSES"],
        ["physician", "highSES"],
    ]
    assert occupation.items[0]["additional_metadata"]["subcategory"] == "Occupation"


def test_gender_proper_names(tmp_path: Path, vocab) -> None:
    row = {
        **BASE_ROW,
        "Proper_nouns_only": "TRUE",
        "Known_stereotyped_groups": '["F"]',
        "NAME1_info": "adult",
        "Lexical_diversity": "WORD1: [park]",
    }
    items = run(tmp_path, vocab, [row], "Gender_identity").items
    pairs = slottings(items)
    assert len(items) == 200 and len(pairs) == 50
    assert all(a.startswith("F") and b.startswith("M") for a, b in pairs[::2])
    assert pairs[1::2] == [(b, a) for a, b in pairs[::2]]
    groups = {tuple(sorted(v[1] for v in i["answer_info"].values())) for i in items}
    # NAME1_info prefixes NAME1's gender; it travels with the name when the pair is flipped.
    assert groups == {("M", "adult_F", "unknown")}


def test_race_proper_names(tmp_path: Path, vocab) -> None:
    row = {
        **BASE_ROW,
        "Proper_nouns_only": "TRUE",
        "Known_stereotyped_groups": '["Black"]',
        "Ambiguous_Context": "I met {{NAME1}} and {{NAME2}} at the {{WORD1}}.",
    }
    items = run(tmp_path, vocab, [row], "Race_ethnicity").items
    assert len(items) == 200
    for item in items[::8]:
        named = {v[0]: v[1] for v in item["answer_info"].values() if v[1] != "unknown"}
        assert sorted(named.values()) == ["F-Black", "F-White"]
        for name, group in named.items():
            first, last = name.split(" ")
            assert first[0] == group[2] and last in (
                {"Banks", "Jones"} if group == "F-Black" else {"Smith"}
            )


def test_subcategory_without_vocabulary_yields_nothing_with_warning(tmp_path: Path, vocab) -> None:
    rows = [
        {**BASE_ROW, "Known_stereotyped_groups": '["F"]', "Subcategory": "adult"},
        {**BASE_ROW, "Q_id": "T-02", "Known_stereotyped_groups": '["F"]'},
    ]
    result = run(tmp_path, vocab, rows, "Gender_identity")
    assert result.template_counts == {"T-01": 0, "T-02": 8}
    assert [(r.question_index, r.line) for r in result.empty_rows] == [("T-01", 2)]
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith(
        f"{tmp_path / 'Gender_identity.csv'}:2: template T-01 "
        "yields no items: its Subcategory 'adult' matches no "
        "SubCat"
    )
    unfiltered = run(tmp_path, vocab, rows, "Gender_identity", apply_subcategory_filter=False)
    assert unfiltered.template_counts == {"T-01": 8, "T-02": 8} and unfiltered.warnings == []
    assert unfiltered.items[0]["additional_metadata"]["subcategory"] == "adult"


def test_vocabulary_without_needed_label(tmp_path: Path, vocab) -> None:
    rows = [BASE_ROW, {**BASE_ROW, "Known_stereotyped_groups": '["Sikh", "Jain"]'}]
    with pytest.raises(InputError) as info:
        run(tmp_path, vocab, rows, "Religion")
    assert (info.value.file, info.value.line, info.value.field) == (
        str(tmp_path / "Religion.csv"),
        3,
        "Known_stereotyped_groups",
    )
    assert "'Sikh', 'Jain' not among the Religion labels" in str(info.value)


def test_partly_missing_target_labels_warn(tmp_path: Path, vocab) -> None:
    row = {**BASE_ROW, "Known_stereotyped_groups": '["Muslim", "Sikh"]'}
    result = run(tmp_path, vocab, [row], "Religion")
    assert len(result.items) == 4 * 2 * 3  # Muslim x (Jewish, Christian, Atheist) x 2 orders
    assert len(result.warnings) == 1
    assert "T-01: Known_stereotyped_groups: group(s) 'Sikh' not among" in result.warnings[0]


def test_category_without_vocabulary(tmp_path: Path, vocab) -> None:
    with pytest.raises(InputError) as info:
        run(tmp_path, vocab, [BASE_ROW], "Nationality")
    assert (info.value.file, info.value.field) == (str(vocab[0]), "Category")


def test_too_few_proper_names(tmp_path: Path, vocab) -> None:
    vocab[1].write_text(
        "Name,First_last,gender\nAnna,first_only,F\nBen,first_only,M\n", encoding="utf-8"
    )
    row = {**BASE_ROW, "Proper_nouns_only": "TRUE", "Known_stereotyped_groups": '["F"]'}
    with pytest.raises(InputError) as info:
        run(tmp_path, vocab, [row], "Gender_identity")
    assert info.value.file == str(vocab[1]) and "needs 5 first_only names of gender F" in str(
        info.value
    )


@pytest.mark.parametrize("pool", [[], "Unknown", ["Unknown", ""]])
def test_bad_unknown_pool(tmp_path: Path, vocab, pool: Any) -> None:
    with pytest.raises(InputError):
        generate_items(
            tmp_path / "x.csv", "Age", vocab[0], vocab[1], seed=0, unknown_pool=pool, style="bbq"
        )


# --- serialization -----------------------------------------------------------------------------

ITEM = {
    "example_id": 3,
    "question_index": "Q-1",
    "question_polarity": "neg",
    "context_condition": "ambig",
    "category": "Age",
    "answer_info": {
        "ans0": ["old", "old"],
        "ans1": ["Unknown", "unknown"],
        "ans2": ["young", "young"],
    },
    "additional_metadata": {
        "subcategory": "None",
        "stereotyped_groups": ["old"],
        "version": "a",
        "source": "https://x.org/p",
    },
    "context": "Ñame café",
    "question": "Who?",
    "ans0": "The old",
    "ans1": "Unknown",
    "ans2": "The young",
    "label": 1,
}


@pytest.mark.parametrize(
    "style, expected",
    [
        (
            "bbq",
            '{"example_id": 3, "question_index": "Q-1", "question_polarity": "neg", '
            '"context_condition": "ambig", "category": "Age", "answer_info": {"ans0": ["old", '
            '"old"], "ans1": ["Unknown", "unknown"], "ans2": ["young", "young"]}, '
            '"additional_metadata": {"subcategory": "None", "stereotyped_groups": ["old"], '
            '"version": "a", "source": "https://x.org/p"}, "context": "\\u00d1ame caf\\u00e9", '
            '"question": "Who?", "ans0": "The old", "ans1": "Unknown", "ans2": "The young", '
            '"label": 1}',
        ),
        (
            "filbbq",
            '{"example_id":3,"question_index":"Q-1","question_polarity":"neg",'
            '"context_condition":"ambig","category":"Age","answer_info":"{\'ans0\': [\'old\', '
            "'old'], 'ans1': ['Unknown', 'unknown'], 'ans2': ['young', "
            "'young']}\",\"additional_metadata\":\"{'subcategory': 'None', "
            "'stereotyped_groups': ['old'], 'version': 'a', 'source': "
            '\'https:\\/\\/x.org\\/p\'}","context":"\\u00d1ame caf\\u00e9","question":"Who?",'
            '"ans0":"The old","ans1":"Unknown","ans2":"The young","label":1}',
        ),
    ],
)
def test_serialize_item(style: str, expected: str) -> None:
    shuffled = dict(reversed(list(ITEM.items())))  # field order comes from the format
    assert serialize_item(shuffled, style) == expected  # type: ignore[arg-type]
    (parsed,) = parse_bbq_lines([expected], "x")
    assert parsed.answer_info == ITEM["answer_info"] and parsed.context == "Ñame café"


def test_write_jsonl_is_atomic(tmp_path: Path) -> None:
    path = write_jsonl([ITEM, {**ITEM, "example_id": 4}], tmp_path / "out" / "a.jsonl", "bbq")
    assert path.read_bytes().count(b"\n") == 2
    with pytest.raises(InputError, match="lacks field"):
        write_jsonl([ITEM, {"example_id": 5}], path, "bbq")
    assert path.read_bytes().count(b"\n") == 2  # the old file is untouched
    assert sorted(p.name for p in path.parent.iterdir()) == ["a.jsonl"]  # no temporary left


# --- FilBBQ's published set --------------------------------------------------------------------


def filbbq(reference_dir: Path, category: str, seed: int, **options: Any) -> GenerationResult:
    templates = reference_dir / "filbbq" / "templates"
    return generate_items(
        templates / f"{category.lower()}.csv",
        category,
        templates / "vocabulary_labels.csv",
        templates / "vocabulary_proper_names.csv",
        seed=seed,
        unknown_pool=FILBBQ_UNKNOWN_POOL,
        style="filbbq",
        **options,
    )


@pytest.fixture(scope="module")
def published(reference_dir: Path) -> list[dict[str, Any]]:
    path = reference_dir / "filbbq" / "data" / "FilBBQ_Sexual_orientation.jsonl"
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for item in items:
        for name in ("answer_info", "additional_metadata"):
            item[name] = ast.literal_eval(item[name])
    return items


@pytest.fixture(scope="module")
def orientation(reference_dir: Path) -> GenerationResult:
    return filbbq(reference_dir, "Sexual_orientation", seed=0)


@pytest.fixture(scope="module")
def gender(reference_dir: Path) -> GenerationResult:
    return filbbq(reference_dir, "Gender_identity", seed=0)


def canonical_items(items: list[dict[str, Any]], reference_dir: Path) -> list[tuple[Any, ...]]:
    """Items with answer order, unknown wording and the drawn lexical words factored out."""
    rows = read_template_csv(reference_dir / "filbbq" / "templates" / "sexual_orientation.csv")
    lexical = {}
    for row in rows.rows:
        words = (
            sorted({*row.lexical.first, *row.lexical.second}, key=len, reverse=True)
            if row.lexical
            else []
        )
        lexical[row.q_id] = re.compile("|".join(map(re.escape, words))) if words else None
    out = []
    for item in items:
        pattern = lexical[item["question_index"]]

        def canon(text: str) -> str:
            return pattern.sub("<WORD>", text) if pattern else text  # noqa: B023

        answers = [item["ans0"], item["ans1"], item["ans2"]]
        info = item["answer_info"]
        (unknown,) = [k for k in range(3) if info[f"ans{k}"][1] == "unknown"]
        named = tuple(
            sorted((answers[k], tuple(info[f"ans{k}"])) for k in range(3) if k != unknown)
        )
        correct = "<unknown>" if item["label"] == unknown else answers[item["label"]]
        meta = item["additional_metadata"]
        out.append(
            (
                item["example_id"],
                item["question_index"],
                item["question_polarity"],
                item["context_condition"],
                item["category"],
                canon(item["context"]),
                canon(item["question"]),
                named,
                correct,
                tuple(meta["stereotyped_groups"]),
                meta["subcategory"],
                meta["version"],
                meta["source"],
            )
        )
    return out


def test_sexual_orientation_matches_published(
    orientation: GenerationResult, published, reference_dir: Path
) -> None:
    assert len(orientation.items) == len(published) == 2624
    ours, theirs = (
        canonical_items(orientation.items, reference_dir),
        canonical_items(published, reference_dir),
    )
    assert collections.Counter(t[1:] for t in ours) == collections.Counter(t[1:] for t in theirs)
    assert ours == theirs  # the same order too, example_id included
    assert orientation.warnings == []
    counts = orientation.template_counts
    assert len(counts) == 46 and sum(counts.values()) == 2624
    assert sorted(collections.Counter(counts.values()).items()) == [(48, 20), (64, 26)]


def test_published_unknown_wordings_are_the_pool(published) -> None:
    seen = {v[0] for item in published for v in item["answer_info"].values() if v[1] == "unknown"}
    assert seen == set(FILBBQ_UNKNOWN_POOL) and len(FILBBQ_UNKNOWN_POOL) == 8


def test_gender_counts(gender: GenerationResult, reference_dir: Path) -> None:
    assert len(gender.items) == 7952
    counts = gender.template_counts
    empty = sorted(q for q, n in counts.items() if n == 0)
    assert len(counts) == 75 and len(empty) == 17  # ENBBQ_07 and ENBBQ_19 have two rows each
    assert all(8 <= n <= 200 for n in counts.values() if n)
    assert collections.Counter(counts.values()) == {200: 39, 8: 19, 0: 17}
    assert len(gender.warnings) == 17
    for q_id, message in zip(
        empty, sorted(gender.warnings, key=lambda w: w.split(" ")[2]), strict=True
    ):
        assert f"template {q_id} yields no items: its Subcategory '" in message
    unfiltered = filbbq(reference_dir, "Gender_identity", seed=0, apply_subcategory_filter=False)
    assert len(unfiltered.items) == 8088 and unfiltered.warnings == []


def test_generated_items_load_as_bbq_items(
    gender: GenerationResult, orientation: GenerationResult
) -> None:
    for result in (gender, orientation):
        sample = result.items[::7]  # every template's items, at a seventh of the parsing cost
        lines = serialize_items(sample, "filbbq").decode().splitlines()
        items = list(parse_bbq_lines(lines, result.category))
        assert [item.example_id for item in items] == [item["example_id"] for item in sample]
        assert all(item.unknown_index is not None for item in items)
        assert all(
            item.label == item.unknown_index for item in items if item.context_condition == "ambig"
        )
        assert {item.question_index for item in items} == {
            q for q, n in result.template_counts.items() if n
        }
    assert list(gender.items[0]) == list(ITEM_FIELDS)


def test_same_seed_same_bytes_other_seed_other_draws(
    orientation: GenerationResult, gender, reference_dir: Path
) -> None:
    again = filbbq(reference_dir, "Sexual_orientation", seed=0)
    assert serialize_items(again.items, "filbbq") == serialize_items(orientation.items, "filbbq")
    gender_again = filbbq(reference_dir, "Gender_identity", seed=0)
    assert serialize_items(gender_again.items, "filbbq") == serialize_items(gender.items, "filbbq")
    other = filbbq(reference_dir, "Sexual_orientation", seed=1)
    orders = sum(
        a["answer_info"] != b["answer_info"]
        for a, b in zip(other.items, orientation.items, strict=True)
    )
    assert orders > len(other.items) // 2
    assert canonical_items(other.items, reference_dir) == canonical_items(
        orientation.items, reference_dir
    )


def test_filbbq_serializer_reproduces_published_bytes(published, reference_dir: Path) -> None:
    path = reference_dir / "filbbq" / "data" / "FilBBQ_Sexual_orientation.jsonl"
    assert serialize_items(published, "filbbq") == path.read_bytes()
