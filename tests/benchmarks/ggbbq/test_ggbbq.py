"""ggbbq: GG-BBQ's two German subsets read by name from shipped slices (the first 8 lines of
each of its four files, byte for byte), its schema read (choice_0..2, choice_info, question_type,
index restarting per file), scored as by hand, and the lint's finding on its option order."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from biasbench.benchmarks import get_benchmark
from biasbench.benchmarks.ggbbq.source import PUBLISHED_COUNTS, SUBSETS
from biasbench.engines.bbq_family.judging.languages import LANGUAGES
from biasbench.engines.bbq_family.judging.parser import AnswerReading, parse_answer
from biasbench.engines.bbq_family.scoring.bias_scores import score_predictions, target_index
from tests.benchmarks.hand_bbq import Row, hand_scores

FIXTURES = Path(__file__).parent / "fixtures" / "data"


@pytest.fixture(scope="module")
def bench():
    return get_benchmark("ggbbq", data=FIXTURES)


def raw(subset: str) -> list[dict]:
    rows = []
    for name in SUBSETS[subset][1]:
        rows += [json.loads(line) for line in (FIXTURES / name).read_text("utf-8").splitlines()]
    return rows


def test_both_subsets_load_with_ids_running_across_files(bench):
    assert len(bench.items) == 32
    assert {i.category for i in bench.items} == {"Gender_identity", "Gender_identity_names"}
    ids = sorted(i.example_id for i in bench.items if i.category == "Gender_identity")
    assert ids == list(range(16))
    item = bench.by_uid["Gender_identity:8"]  # the disambiguated file's first row
    assert (item.context_condition, item.additional_metadata["index"]) == ("disambig", 0)
    assert item.additional_metadata["pair_id"] == "0"
    assert all(i.language == "de" for i in bench.items)


def test_schema_fields_become_bbq_fields(bench):
    item = bench.by_uid["Gender_identity:1"]
    assert item.question_polarity == "nonneg" and item.context_condition == "ambig"
    assert item.answer_info == {
        "ans0": ["Der Mann", "M"],
        "ans1": ["Die Frau", "F"],
        "ans2": ["keine Antwort", "unknown"],
    }
    assert item.stereotyped_groups == ["F"]
    # nonneg: the biased answer is the other group's, the man
    assert target_index(item) == 0


def test_lint_shows_the_unknown_option_always_third(bench):
    lint = bench.data_lint()
    position = lint.finding("unknown_position")
    assert position is not None
    # 16 items per subset: too few to flag one alone (30), flagged over the 32
    assert position.details["positions"] == {"all items": [0, 0, 32]}
    assert lint.finding("missing_polarity_pair") is None
    assert lint.finding("missing_context_pair") is None


def hand_rows() -> list[tuple[str, int, Row]]:
    """(category, running id, row): ambiguous items answered in turn unknown, the option
    labelled F, the option labelled M; disambiguated items the option labelled F."""
    out = []
    for subset in SUBSETS:
        category = SUBSETS[subset][0]
        for number, r in enumerate(raw(subset)):
            info = {int(k): v for k, v in ast.literal_eval(r["choice_info"]).items()}
            groups = json.loads(r["known_stereotyped_groups"])
            labels = [info[i][1] for i in range(3)]
            stereotyped = next(i for i in range(3) if labels[i] in groups)
            ambig = r["context_type"] == "ambiguous_context"
            turn = (labels.index("unknown"), labels.index("F"), labels.index("M"))[number % 3]
            out.append(
                (
                    category,
                    number,
                    Row(
                        "ambig" if ambig else "disambig",
                        "neg" if r["question_type"] == "negative" else "nonneg",
                        r["label"],
                        labels.index("unknown"),
                        stereotyped,
                        turn if ambig else labels.index("F"),
                    ),
                )
            )
    return out


def test_scores_equal_a_hand_computation(bench):
    rows = hand_rows()
    items = [bench.by_uid[f"{c}:{n}"] for c, n, _ in rows]
    got = score_predictions(items, [r.pred for _, _, r in rows], by=()).iloc[0]
    for key, value in hand_scores([r for _, _, r in rows]).items():
        assert got[key] == pytest.approx(value), key


GERMAN = ("Antwort: {L}", "{L}", "Die Antwort ist {L}.", "Ich wähle {L}.")
GERMAN_UNKNOWN = (
    "keine Antwort",
    "Antwort: C",
    "Das lässt sich nicht sagen.",
    "Es gibt nicht genug Informationen.",
)


@pytest.mark.skipif(
    "de" not in LANGUAGES,
    reason="the built-in German pack (another change) is not in this tree yet",
)
def test_german_answers_all_parse_and_score_as_by_hand(bench):
    reading = AnswerReading.for_items(bench.items)
    rows = hand_rows()
    items, preds = [], []
    for k, (category, number, row) in enumerate(rows):
        item = bench.by_uid[f"{category}:{number}"]
        text = (
            GERMAN_UNKNOWN[k % 4]
            if row.pred == row.unknown
            else GERMAN[k % 4].format(L="ABC"[row.pred])
        )
        parsed = parse_answer(text, item, reading=reading)
        assert parsed.index == row.pred, (text, parsed)
        items.append(item)
        preds.append(parsed.index)
    got = score_predictions(items, preds, by=()).iloc[0]
    for key, value in hand_scores([r for _, _, r in rows]).items():
        assert got[key] == pytest.approx(value), key
    assert got["n_unparsed"] == 0


def test_full_release(tmp_path):
    from biasbench.benchmarks.ggbbq.source import FILES, REPOSITORY, SUBDIR
    from biasbench.engines.bbq_family.items.source import check_folder
    from tests.published_files import published_folder

    root = published_folder(
        REPOSITORY, [f"{SUBDIR}/{n}" for n in FILES], tmp_path, "BIASBENCH_GGBBQ_CHECKOUT"
    )
    assert check_folder(root / SUBDIR, FILES) == ([], [])
    bench = get_benchmark("ggbbq", data=root / SUBDIR)
    assert len(bench.items) == sum(PUBLISHED_COUNTS.values())
    lint = bench.data_lint()
    assert lint.kinds() == ["unknown_position"]
    assert lint.finding("unknown_position").details["positions"] == {
        "all items": [0, 0, 11868],
        "Gender_identity": [0, 0, 968],
        "Gender_identity_names": [0, 0, 10900],
    }
