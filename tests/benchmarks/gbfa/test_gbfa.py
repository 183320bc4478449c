"""gbfa: GBFA's Persian BBQ read by name from a shipped slice (the 40 rows of BBQ-Fa.csv's
templates 1-5, both contexts, each row byte for byte): the unknown option found by its English wording, the published 0-indexed target
with BBQ's polarity rule, Persian and English paired by item, scored as by hand."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from biasbench.benchmarks import get_benchmark
from biasbench.engines.bbq_family.judging.languages import LANGUAGES
from biasbench.engines.bbq_family.judging.parser import AnswerReading, parse_answer
from biasbench.engines.bbq_family.scoring.bias_scores import exclusion_reason, score_predictions
from tests.benchmarks.hand_bbq import Row, hand_scores

FIXTURES = Path(__file__).parent / "fixtures"
ENGLISH_UNKNOWN = {
    "unknown",
    "cannot be determined",
    "can't be determined",
    "not answerable",
    "not known",
    "not enough info",
    "not enough information",
    "cannot answer",
    "can't answer",
    "undetermined",
}


@pytest.fixture(scope="module")
def bench():
    return get_benchmark("gbfa", data=FIXTURES, languages="fa,en")


def raw() -> list[dict[str, str]]:
    with (FIXTURES / "BBQ-Fa.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def unknown_of(row: dict[str, str]) -> int:
    return next(i for i in range(3) if row[f"ans{i} - EN"].casefold() in ENGLISH_UNKNOWN)


def test_persian_and_english_rows_paired_by_item(bench):
    assert len(bench.items) == 80
    item = bench.by_uid["gbfa/fa/Gender_identity:1"]
    twin = bench.by_uid["gbfa/en/Gender_identity:1"]
    assert (item.ans0, twin.ans0) == ("مرد", "The man")
    assert (item.language, twin.language) == ("fa", "en")
    assert item.unknown_index == twin.unknown_index == 1
    # published target 2 (the woman) for a negative question: the biased answer is 2
    assert item.target_answer == 2


def test_published_target_equal_to_unknown_is_shown_and_excluded(bench):
    finding = bench.data_lint().finding("target_is_unknown")
    assert finding is not None
    assert sorted(finding.where) == [
        "gbfa/en/Gender_identity:33",
        "gbfa/en/Gender_identity:35",
        "gbfa/fa/Gender_identity:33",
        "gbfa/fa/Gender_identity:35",
    ]
    assert exclusion_reason(bench.by_uid["gbfa/fa/Gender_identity:33"]) is not None


def hand_rows() -> tuple[list[Row], list[str]]:
    """The Persian items with a usable target, answered in turn A, B, C."""
    rows, uids = [], []
    for k, r in enumerate(raw()):
        unknown, target = unknown_of(r), int(r["target"])
        if target == unknown:
            continue  # no biased answer: excluded from every score
        rows.append(
            Row(
                r["context_condition"],
                r["question_polarity"],
                int(r["label"]),
                unknown,
                target,
                k % 3,
            )
        )
        uids.append(f"gbfa/fa/Gender_identity:{r['example_id']}")
    return rows, uids


def test_scores_equal_a_hand_computation(bench):
    rows, uids = hand_rows()
    got = score_predictions([bench.by_uid[u] for u in uids], [r.pred for r in rows], by=()).iloc[0]
    for key, value in hand_scores(rows).items():
        assert got[key] == pytest.approx(value), key


PERSIAN = ("پاسخ: {L}", "{L}", "گزینه {L}")
PERSIAN_UNKNOWN = ("اطلاعات کافی نیست", "نامشخص", "قابل تعیین نیست")


@pytest.mark.skipif(
    "fa" not in LANGUAGES,
    reason="the built-in Persian pack (another change) is not in this tree yet",
)
def test_persian_answers_all_parse_and_score_as_by_hand(bench):
    reading = AnswerReading.for_items(bench.items)
    rows, uids = hand_rows()
    preds = []
    for k, (uid, row) in enumerate(zip(uids, rows, strict=True)):
        text = (
            PERSIAN_UNKNOWN[k % 3]
            if row.pred == row.unknown
            else PERSIAN[k % 3].format(L="ABC"[row.pred])
        )
        parsed = parse_answer(text, bench.by_uid[uid], reading=reading)
        assert parsed.index == row.pred, (text, parsed)
        preds.append(parsed.index)
    got = score_predictions([bench.by_uid[u] for u in uids], preds, by=()).iloc[0]
    for key, value in hand_scores(rows).items():
        assert got[key] == pytest.approx(value), key


def test_cli_run_shows_the_lint_in_summary_results_and_report(biasbench_cli, tmp_path):
    import json

    run_dir = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "gbfa",
        "--model",
        "mock:hashed-letter",
        "--data",
        FIXTURES,
        "--languages",
        "en",
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "target_is_unknown: the target is the unknown option (Gender_identity:33, "
        "Gender_identity:35)"
    ) in done.stdout
    results = json.loads((run_dir / "results.json").read_text())
    assert [f["kind"] for f in results["data_lint"]["findings"]] == ["target_is_unknown"]
    report = biasbench_cli("report", run_dir, "--out", tmp_path / "report")
    assert report.returncode == 0, report.stderr
    html = "".join(p.read_text("utf-8") for p in (tmp_path / "report").rglob("*.html"))
    assert "Data lint." in html and "target_is_unknown" in html


def test_full_file_matches_its_pin(tmp_path):
    from biasbench.benchmarks.gbfa.source import FILE, FILES, REPOSITORY
    from biasbench.engines.bbq_family.items.source import check_folder
    from tests.published_files import published_folder

    root = published_folder(REPOSITORY, [FILE], tmp_path, "BIASBENCH_GBFA_CHECKOUT")
    assert check_folder(root, FILES) == ([], [])
    bench = get_benchmark("gbfa", data=root)
    assert len(bench.items) == 208 and bench.skipped_rows == []
    assert bench.data_lint().finding("target_is_unknown").count == 2
