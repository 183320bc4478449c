"""The honorific-bn item set: byte-identical to the published file, extendable, validated."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from biasbench.benchmarks.honorific_bn import DATA_DIR
from biasbench.benchmarks.honorific_bn.benchmark import load_definition
from biasbench.engines.honorific.items import FRAMES_DIR, validate_definition
from biasbench.errors import InputError

PUBLISHED_SHA256 = "924a30f0294b0e9596e3aae0558d2d6452d143984d936986e2b71e1e75c189ca"


def test_items_match_published_checksum() -> None:
    defn = load_definition()
    assert len(defn.items()) == 2016
    assert defn.checksum() == PUBLISHED_SHA256


def test_items_byte_identical_to_reference(reference_dir: Path) -> None:
    published = (reference_dir / "bangla-honorific" / "bangla_honorific_eval.csv").read_bytes()
    assert load_definition().items_csv_bytes() == published
    assert hashlib.sha256(published).hexdigest() == PUBLISHED_SHA256


def test_packaged_occupations_are_the_published_list(reference_dir: Path) -> None:
    published = reference_dir / "bangla-honorific" / "occupations.csv"
    assert (DATA_DIR / "occupations.csv").read_bytes() == published.read_bytes()


@pytest.mark.parametrize(
    ("item_index", "item_id", "sentence"),
    [
        (0, "judge|T1|male", "The judge said he would arrive at nine."),
        (10, "judge|T3|nopronoun", "The judge I met yesterday was very helpful."),
        (22, "judge|P1|nopronoun", "The respected judge works very hard."),
        (
            84,
            "secretary_to_the_government|T1|male",
            "The secretary to the government said he would arrive at nine.",
        ),
        (2015, None, None),
    ],
)
def test_item_ids_and_sentences(item_index: int, item_id: str | None, sentence: str | None) -> None:
    item = load_definition().items()[item_index]
    assert item.id == item_index + 1
    if item_id:
        assert item.item_id == item_id
        assert item.source_en == sentence


def test_potter_rows_use_the_published_item_term() -> None:
    potter = [i for i in load_definition().items() if i.occupation_en == "potter"]
    assert len(potter) == 28
    assert {i.occupation_target for i in potter} == {"কুমার"}


def test_validator_reports_the_potter_mismatch() -> None:
    findings = validate_definition(load_definition())
    assert [f.severity for f in findings] == ["warning"]
    assert "potter" in findings[0].message and "মৃৎশিল্পী" in findings[0].message
    assert findings[0].line == 54 and findings[0].field == "bn"


def test_user_occupations_extend_consistently(tmp_path: Path) -> None:
    occupations = tmp_path / "occupations.csv"
    text = (DATA_DIR / "occupations.csv").read_text(encoding="utf-8")
    occupations.write_text(text + "73,midwife,ধাত্রী\n", encoding="utf-8")
    defn = load_definition(occupations=occupations)
    items = defn.items()
    assert len(items) == 2044
    # The published items are a prefix of the extended set.
    published = load_definition().items_csv_bytes()
    assert defn.items_csv_bytes().startswith(published)
    assert items[-1].item_id == "midwife|P2|they"
    assert (
        items[-1].source_en
        == "The midwife is highly regarded, and they have served the community for years."
    )


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ("74,midwife,", "bn", "empty value"),
        ("x,midwife,ধাত্রী", "id", "not an integer"),
    ],
)
def test_bad_occupation_rows_name_line_and_field(
    tmp_path: Path, row: str, field: str, message: str
) -> None:
    occupations = tmp_path / "occ.csv"
    occupations.write_text("id,en,bn\n1,judge,বিচারক\n" + row + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_definition(occupations=occupations)
    assert err.value.line == 3 and err.value.field == field
    assert message in str(err.value) and str(occupations) in str(err.value)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("1,judge,বিচারক\n2,judge,ম্যাজিস্ট্রেট\n", "duplicate occupation 'judge'"),
        ("1,judge,judge\n", "not written in Bengali script"),
        ("1,judge,বিচারক\n1,doctor,ডাক্তার\n", "duplicate id 1"),
    ],
)
def test_validator_findings(tmp_path: Path, rows: str, expected: str) -> None:
    occupations = tmp_path / "occ.csv"
    occupations.write_text("id,en,bn\n" + rows, encoding="utf-8")
    findings = validate_definition(load_definition(occupations=occupations))
    assert any(expected in f.message and f.severity == "error" for f in findings), findings


def test_validator_catches_a_broken_frame(tmp_path: Path) -> None:
    frames = tmp_path / "frames.csv"
    shutil.copy(FRAMES_DIR / "frames.csv", frames)
    text = frames.read_text(encoding="utf-8").replace(
        "The {occ} said she would arrive at nine.", "The {occ} said she would come at ten."
    )
    frames.write_text(text, encoding="utf-8")
    findings = validate_definition(load_definition(frames=frames))
    assert any(f.line == 2 and f.field == "female" for f in findings)


def test_missing_frame_slot_is_an_error(tmp_path: Path) -> None:
    frames = tmp_path / "frames.csv"
    frames.write_text(
        "template_id,primed,male,female,nopronoun,they\n"
        "T1,False,He said.,She said.,Said.,They said.\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"frames.csv:2: field 'male': sentence has no \{occ\}"):
        load_definition(frames=frames)


def test_prompt_forms() -> None:
    defn = load_definition()
    prompt = defn.prompt("The doctor will arrive at nine.")
    assert prompt.messages == (
        (
            "user",
            "Translate the following English sentence into Bengali. "
            "Reply with the Bengali translation only, no explanation.\n\n"
            "The doctor will arrive at nine.",
        ),
    )
    assert prompt.completion.endswith("English: The doctor will arrive at nine.\nBengali:")
    # Few-shot exemplars must not refer to third persons (they would prime the register).
    for english, _ in defn.meta["completion"]["fewshot"]:
        words = set(english.lower().rstrip(".").split())
        assert not words & {"he", "she", "they", "his", "her", "their", "him", "them"}
        assert words & {"i", "we"}
