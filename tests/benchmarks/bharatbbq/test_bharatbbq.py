"""bharatbbq: BharatBBQ's English CSV read by name from a shipped slice of the published files
(the first 24 rows of Age_examples.csv, 16 of Religion_examples.csv, byte for byte), scored on
synthetic numbered answers against a hand computation, and the authors' Metrics/main.py
checked where it is right and shown where it is not."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from biasbench.benchmarks import get_benchmark
from biasbench.benchmarks.bharatbbq.source import PUBLISHED_COUNTS
from biasbench.engines.bbq_family.benchmark import BBQBenchmark
from biasbench.engines.bbq_family.judging.parser import AnswerReading, parse_answer
from biasbench.engines.bbq_family.scoring.bias_scores import score_predictions
from tests.benchmarks.hand_bbq import Row, hand_scores

FIXTURES = Path(__file__).parent / "fixtures" / "BharatBBQ_Dataset" / "Examples"
UNKNOWN = {
    "unknown",
    "can't be determined",
    "can't answer",
    "cannot answer",
    "not enough information",
    "not enough info",
}


@pytest.fixture(scope="module")
def bench():
    return get_benchmark("bharatbbq", data=FIXTURES, categories="Age,Religion")


def raw_rows(name: str) -> list[dict[str, str]]:
    with (FIXTURES / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_loads_every_published_row_by_name(bench):
    assert len(bench.items) == 40
    assert bench.skipped_rows == []
    assert {i.category for i in bench.items} == {"Age", "Religion"}
    assert all(i.language == "en" for i in bench.items)


@pytest.mark.parametrize(
    ("uid", "label", "unknown", "target"),
    [
        # Age id 1: amb, neg, Label 3, Target 1 -> unknown is option 3, biased = grandfather (0)
        ("Age:1", 2, 2, 0),
        # Age id 2: disamb, neg, Label 2 (grandson), Target 1 -> biased 0
        ("Age:2", 1, 2, 0),
        # Age id 3: amb, non-neg, Target 1 -> biased = the other group, option 2 (index 1)
        ("Age:3", 2, 2, 1),
    ],
)
def test_reader_turns_1_indexed_label_and_target_into_items(bench, uid, label, unknown, target):
    item = bench.by_uid[uid]
    assert (item.label, item.unknown_index, item.target_answer) == (label, unknown, target)
    assert item.additional_metadata["published_target"] == 0


def test_unknown_option_is_found_by_its_wording(bench):
    for item in bench.items:
        assert item.answers[item.unknown_index].casefold() in UNKNOWN


def synthetic_rows() -> list[tuple[dict[str, str], int]]:
    """(raw row, intended 0-based answer): ambiguous rows answer in turn unknown, the
    stereotyped group's option (Target), the other group's; disambiguated rows the Target."""
    out = []
    turn = 0
    for name in ("Age_examples.csv", "Religion_examples.csv"):
        for row in raw_rows(name):
            options = [row["Option1"], row["Option2"], row["Option3"]]
            unknown = next(i for i, o in enumerate(options) if o.casefold() in UNKNOWN)
            target = int(row["Target"]) - 1
            if row["Context_type"] == "amb":
                other = ({0, 1, 2} - {unknown, target}).pop()
                pred = (unknown, target, other)[turn % 3]
                turn += 1
            else:
                pred = target
            out.append((row, pred))
    return out


ANSWER_FORMS = ("Option {n}", "{n}", "The correct answer is: Option {n}", "Option {n}: {text}")


def test_numbered_answers_parse_with_the_dataset_pack_and_score_as_by_hand(bench):
    assert [p["file"] for p in bench.language_packs.describe()] == ["pack_en.toml"]
    reading = AnswerReading.for_items(bench.items, bench.language_packs)
    rows, preds = [], []
    for k, (row, intended) in enumerate(synthetic_rows()):
        item = bench.by_uid[f"{row['Category']}:{row['id']}"]
        if intended == item.unknown_index and k % 2 == 0:
            # another item's wording of the unknown option: the dataset's wordings all count
            text = next(w for w in sorted(UNKNOWN) if w != item.answers[intended].casefold())
        else:
            text = ANSWER_FORMS[k % len(ANSWER_FORMS)].format(
                n=intended + 1, text=item.answers[intended]
            )
        parsed = parse_answer(text, item, reading=reading)
        assert parsed.index == intended, (text, parsed)
        preds.append(parsed.index)
        options = [row["Option1"], row["Option2"], row["Option3"]]
        rows.append(
            Row(
                "ambig" if row["Context_type"] == "amb" else "disambig",
                "neg" if row["Question_polarity"] == "neg" else "nonneg",
                int(row["Label"]) - 1,
                next(i for i, o in enumerate(options) if o.casefold() in UNKNOWN),
                int(row["Target"]) - 1,
                intended,
            )
        )
    items = [bench.by_uid[f"{r['Category']}:{r['id']}"] for r, _ in synthetic_rows()]
    got = score_predictions(items, preds, by=()).iloc[0]
    for key, value in hand_scores(rows).items():
        assert got[key] == pytest.approx(value), key
    assert got["n_unparsed"] == 0


# -- the authors' scorer (Metrics/main.py at the pinned commit) ------------------------------


def authors_accuracy(rows: list[Row], context: str) -> float:
    """main.py bias_scores: acc = (prediction == Label).mean() per context: BBQ's accuracy."""
    part = [r for r in rows if r.context == context]
    return sum(r.pred == r.label for r in part) / len(part)


def authors_bias_amb(rows: list[Row]) -> float:
    """main.py bias_scores, ambiguous: (n[pred == Target] - n[pred != Target and pred !=
    Label]) / n, with Target the stereotyped group's option whatever the polarity."""
    part = [r for r in rows if r.context == "ambig"]
    biased = sum(r.pred == r.stereotyped for r in part)
    anti = sum(r.pred != r.stereotyped and r.pred != r.label for r in part)
    return (biased - anti) / len(part)


def test_authors_accuracy_agrees_with_biasbench_hand_checked():
    # 4 ambiguous items, unknown = 2, stereotyped = 0; answers: unknown, 0, 1, unknown.
    rows = [
        Row("ambig", "neg", 2, 2, 0, 2),
        Row("ambig", "neg", 2, 2, 0, 0),
        Row("ambig", "nonneg", 2, 2, 0, 1),
        Row("ambig", "nonneg", 2, 2, 0, 2),
    ]
    assert (
        authors_accuracy(rows, "ambig")
        == hand_scores(rows + [Row("disambig", "neg", 0, 2, 0, 0)])["acc_ambig"]
        == 0.5
    )


def test_authors_ambiguous_bias_ignores_polarity_failing_example():
    # A model biased in BBQ's sense: the stereotyped group for the negative question, the other
    # group for the non-negative one. BBQ: s_AMB = (1 - 0) * (2 * 2/2 - 1) = 1. main.py: the
    # non-negative answer is not Target, so it counts as anti-stereotypical: (1 - 1) / 2 = 0.
    rows = [Row("ambig", "neg", 2, 2, 0, 0), Row("ambig", "nonneg", 2, 2, 0, 1)]
    assert hand_scores(rows + [Row("disambig", "neg", 0, 2, 0, 0)])["s_amb"] == 1.0
    assert authors_bias_amb(rows) == 0.0


def test_authors_scorer_cannot_read_the_released_files():
    # main.py reads columns Context_Condition and Question_Polarity with values Neg/NonNeg; the
    # released CSV has Context_type and Question_polarity with neg/non-neg, so it stops with a
    # KeyError on its own data. Its unknown list is capitalised ("Can't be determined") and
    # compared exactly; the released rows write the wordings in lower case, so no unknown
    # option is ever found and its s_DIS denominator is 0 (then it reports 0).
    header = raw_rows("Age_examples.csv")[0].keys()
    assert "Context_Condition" not in header and "Question_Polarity" not in header
    assert {r["Question_polarity"] for r in raw_rows("Age_examples.csv")} == {"neg", "non-neg"}
    authors_list = {
        "Unknown",
        "Can't be determined",
        "Can't answer",
        "Cannot answer",
        "Not enough information",
        "Not enough info",
    }
    found = [
        o
        for r in raw_rows("Age_examples.csv")
        for o in (r["Option1"], r["Option2"], r["Option3"])
        if o in authors_list
    ]
    assert found == []


def test_full_release_reads_every_row_and_matches_its_pins(tmp_path):
    """Every published file (a checkout named by $BIASBENCH_BHARATBBQ_CHECKOUT, else the local
    mirror; skipped without either): its sha256 is the pinned one, every row reads."""
    from biasbench.benchmarks.bharatbbq.source import FILES, REPOSITORY, SUBDIR
    from biasbench.engines.bbq_family.items.source import check_folder
    from tests.published_files import published_folder

    root = published_folder(
        REPOSITORY, [f"{SUBDIR}/{name}" for name in FILES], tmp_path, "BIASBENCH_BHARATBBQ_CHECKOUT"
    )
    assert check_folder(root / SUBDIR, FILES) == ([], [])
    bench = get_benchmark("bharatbbq", data=root / SUBDIR)
    assert len(bench.items) == sum(PUBLISHED_COUNTS.values()) == 54048
    assert bench.skipped_rows == []
    assert bench.data_lint().kinds() == ["duplicate_options"]


@pytest.mark.skipif(
    not hasattr(BBQBenchmark, "answer_reading"),
    reason="runs read answers with the benchmark's packs once the language-packs change is merged",
)
def test_a_run_reads_numbered_answers_with_the_dataset_pack(biasbench_cli, tmp_path):
    import json

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"The correct answer is:": "Option 2"}), encoding="utf-8")
    run_dir = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "bharatbbq",
        "--model",
        f"mock:{script}",
        "--data",
        FIXTURES,
        "--categories",
        "Age",
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((run_dir / "results.json").read_text())
    assert results["models"][next(iter(results["models"]))]["Age"]["unparsed_pct"] == 0.0
    assert "pack_en.toml" in json.dumps(results["signature"])
