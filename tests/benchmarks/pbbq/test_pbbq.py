"""pbbq: PBBQ from a local copy only (its reader is untested against the real files): no copy
is one line saying where to get it; a copy in a layout the reader takes is read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from biasbench.benchmarks import get_benchmark
from biasbench.engines.bbq_family.judging.languages import LANGUAGES, LanguagePacks, load_pack
from biasbench.errors import BiasbenchError

GBFA_SLICE = Path(__file__).parents[1] / "gbfa" / "fixtures" / "BBQ-Fa.csv"
PACK = Path(__file__).parents[3] / "biasbench" / "benchmarks" / "pbbq" / "data" / "pack_fa.toml"


def test_without_a_local_copy_says_where_to_get_it(monkeypatch):
    monkeypatch.delenv("BIASBENCH_PBBQ_DATA", raising=False)
    with pytest.raises(BiasbenchError, match=r"Hugging Face hub only \(abijari/PBBQ\).*--data"):
        get_benchmark("pbbq")


def test_an_empty_folder_is_one_line(tmp_path):
    with pytest.raises(BiasbenchError, match="no .jsonl or .csv file"):
        get_benchmark("pbbq", data=tmp_path)


def test_a_copy_in_the_persian_csv_layout_reads_marked_untested(tmp_path):
    shutil.copy(GBFA_SLICE, tmp_path / "pbbq.csv")
    bench = get_benchmark("pbbq", data=tmp_path)
    assert len(bench.items) == 40
    assert bench.data_source["untested"] is True
    assert all(i.language == "fa" for i in bench.items)


def test_the_persian_letters_pack_reads_with_a_persian_base():
    # extends 'fa': read against a stand-in base until the built-in Persian pack is here
    from dataclasses import replace

    from biasbench.engines.bbq_family.judging.languages import EN

    pack = load_pack(PACK, base={"fa": replace(EN, code="fa", name="Persian", aliases=())})
    assert pack.letter_sets == (("الف", "ب", "ج"),)
    assert LanguagePacks((pack,)).describe()[0]["code"] == "fa"


@pytest.mark.skipif(
    "fa" not in LANGUAGES,
    reason="the built-in Persian pack (another change) is not in this tree yet",
)
def test_persian_letters_read_with_the_dataset_pack(tmp_path):
    from biasbench.engines.bbq_family.judging.parser import AnswerReading, parse_answer

    shutil.copy(GBFA_SLICE, tmp_path / "pbbq.csv")
    bench = get_benchmark("pbbq", data=tmp_path)
    assert [p["file"] for p in bench.language_packs.describe()] == ["pack_fa.toml"]
    reading = AnswerReading.for_items(bench.items, bench.language_packs)
    for k, item in enumerate(bench.items):
        letter = ("الف", "ب", "ج")[k % 3]
        text = ("{L}", "پاسخ: {L}", "گزینه {L}")[k % 3].format(L=letter)
        assert parse_answer(text, item, reading=reading).index == k % 3, text
