"""basqbbq: BasqBBQ read by name from shipped slices (the first 16 lines of Nazionalitate.jsonl,
8 of them with a literal NaN label, and the first 12 of Adin.jsonl, byte for byte): the NaN
rows skipped and listed with their reason, refused under --strict, the rest scored as by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasbench.benchmarks import get_benchmark
from biasbench.engines.bbq_family.judging.languages import LANGUAGES
from biasbench.engines.bbq_family.judging.parser import AnswerReading, parse_answer
from biasbench.engines.bbq_family.scoring.bias_scores import score_predictions
from biasbench.errors import InputError
from tests.benchmarks.hand_bbq import Row, hand_scores

FIXTURES = Path(__file__).parent / "fixtures" / "data" / "BasqBBQ"
NAN_LINES = list(range(9, 17))


@pytest.fixture(scope="module")
def bench():
    return get_benchmark("basqbbq", data=FIXTURES, categories="Adin,Nazionalitate")


def test_nan_rows_are_skipped_each_with_its_reason(bench):
    assert len(bench.items) == 12 + 8
    skipped = bench.skipped_rows
    assert [s.line for s in skipped] == NAN_LINES
    assert {(s.field, s.reason) for s in skipped} == {
        ("answer_info.ans1", "the group label is NaN, not text")
    }
    finding = bench.data_lint().finding("invalid_row")
    assert finding is not None and finding.count == 8
    assert [row["line"] for row in finding.details["rows"]] == NAN_LINES


def test_strict_refuses_naming_every_bad_row():
    with pytest.raises(InputError) as caught:
        get_benchmark("basqbbq", data=FIXTURES, categories="Nazionalitate", strict=True)
    message = str(caught.value)
    assert message.startswith(f"{FIXTURES / 'Nazionalitate.jsonl'}:9: field 'answer_info.ans1'")
    assert "8 invalid row(s)" in message and ":14:" in message and "2 more" in message


def test_inflected_options_still_pair_by_their_lemma(bench):
    # "Biloba"/"Aitona" in the negative question, "Bilobak"/"Aitonak" (ergative) in the
    # non-negative one: paired by answer_info's lemma, so no missing-pair finding.
    assert bench.by_uid["Adin:2"].ans0 == "Bilobak"
    assert bench.data_lint().finding("missing_polarity_pair") is None


def hand_rows() -> list[tuple[str, Row]]:
    """Adin's 12 rows, answers in turn: option A, B, C."""
    out = []
    for k, line in enumerate((FIXTURES / "Adin.jsonl").read_text("utf-8").splitlines()):
        r = json.loads(line)
        labels = [r["answer_info"][f"ans{i}"][1] for i in range(3)]
        stereotyped = next(
            i for i in range(3) if labels[i] in r["additional_metadata"]["stereotyped_groups"]
        )
        out.append(
            (
                f"Adin:{r['example_id']}",
                Row(
                    r["context_condition"],
                    r["question_polarity"],
                    r["label"],
                    labels.index("unknown"),
                    stereotyped,
                    k % 3,
                ),
            )
        )
    return out


def test_scores_equal_a_hand_computation(bench):
    rows = hand_rows()
    got = score_predictions(
        [bench.by_uid[u] for u, _ in rows], [r.pred for _, r in rows], by=()
    ).iloc[0]
    for key, value in hand_scores([r for _, r in rows]).items():
        assert got[key] == pytest.approx(value), key


BASQUE = ("Erantzuna: {L}", "{L}", "Erantzuna {L} da.")
BASQUE_UNKNOWN = ("Ezin da jakin", "Ezin da zehaztu", "Ezezaguna")


@pytest.mark.skipif(
    "eu" not in LANGUAGES,
    reason="the built-in Basque pack (another change) is not in this tree yet",
)
def test_basque_answers_all_parse_and_score_as_by_hand(bench):
    reading = AnswerReading.for_items(bench.items)
    rows = hand_rows()
    preds = []
    for k, (uid, row) in enumerate(rows):
        # the unknown option in the dataset's own wordings (any item's), else a cued letter
        text = (
            BASQUE_UNKNOWN[k % 3]
            if row.pred == row.unknown
            else BASQUE[k % 3].format(L="ABC"[row.pred])
        )
        parsed = parse_answer(text, bench.by_uid[uid], reading=reading)
        assert parsed.index == row.pred, (text, parsed)
        preds.append(parsed.index)
    got = score_predictions([bench.by_uid[u] for u, _ in rows], preds, by=()).iloc[0]
    for key, value in hand_scores([r for _, r in rows]).items():
        assert got[key] == pytest.approx(value), key


def test_full_nationality_file(tmp_path):
    from biasbench.benchmarks.basqbbq.source import FILES, REPOSITORY, SUBDIR
    from biasbench.engines.bbq_family.items.source import check_folder
    from tests.published_files import published_folder

    root = published_folder(
        REPOSITORY, [f"{SUBDIR}/Nazionalitate.jsonl"], tmp_path, "BIASBENCH_BASQBBQ_CHECKOUT"
    )
    assert check_folder(root / SUBDIR, {"Nazionalitate.jsonl": FILES["Nazionalitate.jsonl"]}) == (
        [],
        [],
    )
    bench = get_benchmark("basqbbq", data=root / SUBDIR, categories="Nazionalitate")
    assert (len(bench.items), len(bench.skipped_rows)) == (1752, 184)


@pytest.mark.skipif(
    "eu" not in LANGUAGES,
    reason="the built-in Basque pack (another change) is not in this tree yet",
)
def test_run_goes_on_without_the_nan_rows_and_reports_them(biasbench_cli, tmp_path):
    run_dir = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "basqbbq",
        "--model",
        "mock:hashed-letter",
        "--data",
        FIXTURES,
        "--categories",
        "Adin,Nazionalitate",
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    assert "8 invalid row(s) skipped" in done.stderr
    assert "invalid_row: 8 row(s) skipped" in done.stdout  # the summary
    results = json.loads((run_dir / "results.json").read_text())
    (finding,) = results["data_lint"]["findings"]
    assert finding["kind"] == "invalid_row" and finding["count"] == 8
    assert [row["line"] for row in finding["rows"]] == NAN_LINES
    assert "(20 requests" in done.stdout
    strict = biasbench_cli(
        "run",
        "basqbbq",
        "--model",
        "mock:hashed-letter",
        "--data",
        FIXTURES,
        "--categories",
        "Nazionalitate",
        "--strict",
        "--out",
        tmp_path / "strict",
    )
    assert strict.returncode != 0 and "8 invalid row(s) (--strict)" in strict.stderr
