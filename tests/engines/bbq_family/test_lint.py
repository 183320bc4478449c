"""The data lint: every finding on real published rows (shipped slices), the readers' format
sniffing, and ``biasbench lint``."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasbench.engines.bbq_family.items.lint import (
    POSITION_MIN_ITEMS,
    POSITION_SHARE_LIMIT,
    lint_files,
    lint_items,
)
from biasbench.engines.bbq_family.items.published import read_bbq_jsonl, read_published_file
from biasbench.errors import InputError

TESTS = Path(__file__).parents[2]
BENCH = TESTS / "benchmarks"
BASQ_NATIONALITY = BENCH / "basqbbq/fixtures/data/BasqBBQ/Nazionalitate.jsonl"
PAK_RELIGION = BENCH / "pakbbq/fixtures/PakBBQ/PakBBQ_ENG/Religion.jsonl"
PAK_DUPLICATES = Path(__file__).parent / "fixtures/lint/pakbbq_eng_religion_321-324.jsonl"
GG_AMB = BENCH / "ggbbq/fixtures/data/subset-1/bbq_de_amb_test.jsonl"
GG_DISAMB = BENCH / "ggbbq/fixtures/data/subset-1/bbq_de_disamb_test.jsonl"
GG_NAMES = sorted((BENCH / "ggbbq/fixtures/data/subset-2").glob("*.jsonl"))
GBFA = BENCH / "gbfa/fixtures/BBQ-Fa.csv"
BHARAT = BENCH / "bharatbbq/fixtures/BharatBBQ_Dataset/Examples/Age_examples.csv"


@pytest.mark.parametrize(
    ("files", "kind", "count"),
    [
        # BasqBBQ Nationality: 8 rows with a literal NaN label, each listed
        ([BASQ_NATIONALITY], "invalid_row", 8),
        # PakBBQ Religion template 21: "The Deobandi organizer" twice (its ans1 is empty in
        # answer_info, its text a copy of ans0)
        ([PAK_DUPLICATES], "duplicate_options", 4),
        # GG-BBQ: "keine Antwort" is option C in every item (32 items of both subsets)
        # (flagged over all items; each file, read as a category of 8, is too small alone)
        ([GG_AMB, GG_DISAMB, *GG_NAMES], "unknown_position", 1),
        # GBFA rows 33 and 35: the published target is the unknown option
        ([GBFA], "target_is_unknown", 2),
        # GG-BBQ's ambiguous file alone: every item lacks its disambiguated counterpart
        ([GG_AMB], "missing_context_pair", 8),
    ],
)
def test_each_finding_on_real_rows(files, kind, count):
    report = lint_files(files)
    finding = report.finding(kind)
    assert finding is not None, report.lines()
    assert finding.count == count


def test_missing_polarity_pair_on_three_rows_of_a_quad(tmp_path):
    # PakBBQ Religion's first template instance is 4 rows (ambig/disambig x neg/nonneg); its
    # first three rows leave the disambiguated negative question without its nonneg pair.
    lines = PAK_RELIGION.read_text("utf-8").splitlines()[:3]
    part = tmp_path / "three.jsonl"
    part.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = lint_files([part])
    assert report.finding("missing_polarity_pair").where == ("Religion:1",)
    assert report.finding("missing_context_pair").where == ("Religion:2",)


def test_complete_pairs_have_no_findings():
    report = lint_files([PAK_RELIGION])
    assert report.findings == ()
    assert report.unknown_positions == {1: 12, 2: 4}  # 16 items: too few to flag


def test_position_balance_needs_enough_items():
    # 8 GG-BBQ items, all with the unknown option third: too few to flag; 32: flagged.
    assert read_bbq_jsonl(GG_AMB).items == []  # BBQ's reader cannot read GG-BBQ's schema
    few = lint_items(read_published_file(GG_AMB).items)
    assert few.unknown_positions == {2: 8} and few.finding("unknown_position") is None
    many = lint_files([GG_AMB, GG_DISAMB, *GG_NAMES])
    assert many.n_items >= POSITION_MIN_ITEMS
    assert many.finding("unknown_position").details["positions"]["all items"] == [0, 0, 32]
    assert 1.0 > POSITION_SHARE_LIMIT


def test_a_lopsided_category_is_flagged_inside_a_balanced_whole(tmp_path):
    # 30 GG-BBQ items (unknown third) and 30 with the unknown moved first: balanced overall
    # (50% third), each category lopsided.
    import json

    rows = [
        json.loads(line)
        for path in (GG_AMB, GG_DISAMB, *GG_NAMES)
        for line in path.read_text("utf-8").splitlines()
    ][:30]
    moved = []
    for row in rows:
        row = dict(row)
        row["choice_0"], row["choice_2"] = row["choice_2"], row["choice_0"]
        info = row["choice_info"].replace("0:", "X:").replace("2:", "0:").replace("X:", "2:")
        row["choice_info"], row["label"] = info, {0: 2, 2: 0}.get(row["label"], row["label"])
        moved.append(row)
    first, third = tmp_path / "first.jsonl", tmp_path / "third.jsonl"
    first.write_text("\n".join(json.dumps(r) for r in moved), encoding="utf-8")
    third.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    finding = lint_files([first, third]).finding("unknown_position")
    assert finding.where == ("first", "third")
    assert finding.details["positions"] == {"first": [30, 0, 0], "third": [0, 0, 30]}


def test_invalid_rows_list_file_line_field_and_reason():
    finding = lint_files([BASQ_NATIONALITY]).finding("invalid_row")
    first = finding.details["rows"][0]
    assert first == {
        "file": str(BASQ_NATIONALITY),
        "line": 9,
        "field": "answer_info.ans1",
        "reason": "the group label is NaN, not text",
    }


@pytest.mark.parametrize(
    ("path", "category"),
    [
        (BHARAT, "Age"),
        (GBFA, "Gender_identity"),
        (GG_AMB, "bbq_de_amb_test"),
        (PAK_RELIGION, "Religion"),
    ],
)
def test_published_formats_are_told_apart(path, category):
    result = read_published_file(path)
    assert result.items and {i.category for i in result.items} == {category}


def test_an_unknown_csv_is_one_line(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match="a CSV in no format biasbench reads"):
        read_published_file(path)


def test_lint_command(tmp_path):
    from typer.testing import CliRunner

    from biasbench.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["lint", "basqbbq", "--items", str(BASQ_NATIONALITY), "--strict"])
    assert result.exit_code == 1
    assert "invalid_row: 8 row(s) skipped" in result.output
    result = runner.invoke(app, ["lint", "pakbbq", "--items", str(PAK_RELIGION)])
    assert result.exit_code == 0 and "no findings" in result.output
    result = runner.invoke(app, ["lint"])
    assert result.exit_code != 0 and "give a benchmark NAME" in result.output


def test_the_api_lints_a_benchmark_or_files():
    from biasbench import api
    from biasbench.errors import BiasbenchError

    report = api.lint(
        "basqbbq", data=BENCH / "basqbbq/fixtures/data/BasqBBQ", categories="Nazionalitate"
    )
    assert report.kinds() == ["invalid_row"]
    assert api.lint("gbfa", items=[GBFA]).kinds() == ["target_is_unknown"]
    with pytest.raises(BiasbenchError, match="honorific-bn has no data lint"):
        api.lint("honorific-bn")
    with pytest.raises(BiasbenchError, match="honorific-bn has no data lint"):
        api.lint("honorific-bn", items=[GBFA])
    with pytest.raises(BiasbenchError, match="name the benchmark"):
        api.lint()
