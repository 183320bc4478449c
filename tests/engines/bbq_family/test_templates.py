"""Reading and validating BBQ template CSVs and vocabularies."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from biasbench.engines.bbq_family.items.templates import (
    TEMPLATE_REQUIRED_COLUMNS,
    SlotLists,
    parse_group_list,
    parse_slot_lists,
    read_csv_records,
    read_template_csv,
)
from biasbench.engines.bbq_family.items.vocabularies import (
    read_label_vocabulary,
    read_name_vocabulary,
)
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
]

GOOD_ROW = {
    "Q_id": "T-01",
    "Ambiguous_Context": "A {{NAME1}} and a {{NAME2}} met at the {{WORD1}}.",
    "Disambiguating_Context": "The {{NAME2}} left.",
    "Lexical_diversity": "WORD1: [park, mall]",
    "Question_negative_stereotype": "Who left?",
    "Question_non_negative": "Who stayed?",
    "Answer_negative": "The {{NAME2}}",
    "Answer_non_negative": "The {{NAME1}}",
    "Known_stereotyped_groups": '["x"]',
    "Notes": "src",
}


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=header)
        writer.writeheader()
        for row in rows:
            writer.writerow({column: row.get(column, "") for column in header})
    return path


# --- cell parsers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell, first, second, dropped",
    [
        (
            "WORD1: [center, opisina, hall]; WORD2: [kapitan, kagawad, officer]",
            ("center", "opisina", "hall"),
            ("kapitan", "kagawad", "officer"),
            False,
        ),
        (
            "{{WORD1}}: [bar, club]; {{WORD2}}: [bote, baso, lata, inumin]",
            ("bar", "club"),
            ("bote", "baso", "lata", "inumin"),
            False,
        ),
        (
            "WORD1: [negosyo niyang malaki ang kinikita, biyahe]",
            ("negosyo niyang malaki ang kinikita", "biyahe"),
            (),
            False,
        ),
        ("NAME1: [babae]; NAME2: [lalaki]", ("babae",), ("lalaki",), False),
        ("WORD1: [Christmas, Teacher's Day]", ("Christmas", "Teacher's Day"), (), False),
        # The reference parser keeps list 2 only when its part is the last one.
        ("WORD2: [c, d]; WORD1: [a, b]", ("a", "b"), (), True),
        ("WORD1: [a, b]; WORD2: [c, d];", ("a", "b"), (), True),
    ],
)
def test_parse_slot_lists(
    cell: str, first: tuple[str, ...], second: tuple[str, ...], dropped: bool
) -> None:
    assert parse_slot_lists(cell, file="t.csv", line=5, field="Lexical_diversity") == SlotLists(
        first, second, dropped
    )


@pytest.mark.parametrize(
    "cell, message",
    [
        ("WORD1 [a, b]", "malformed part"),
        ("WORD1: a, b", "malformed part"),
        ("WORD1: [a, , b]", "empty item"),
        ("WORD2: [a, b]", "no list for slot 1"),
        ("WORD3: [a]", "malformed part"),
    ],
)
def test_parse_slot_lists_errors(cell: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_slot_lists(cell, file="t.csv", line=7, field="Lexical_diversity")
    assert (info.value.file, info.value.line, info.value.field) == ("t.csv", 7, "Lexical_diversity")
    assert message in str(info.value)


@pytest.mark.parametrize(
    "cell, allow_none, expected",
    [
        ('["F"]', False, ("F",)),
        ('["bakla", "bading"]', False, ("bakla", "bading")),
        ("['lesbiyana', 'tomboy']", False, ("lesbiyana", "tomboy")),
        ("None", True, None),
        ("", True, None),
        ('["babae"]', True, ("babae",)),
    ],
)
def test_parse_group_list(cell: str, allow_none: bool, expected: tuple[str, ...] | None) -> None:
    assert (
        parse_group_list(cell, file="t.csv", line=2, field="f", allow_none=allow_none) == expected
    )


@pytest.mark.parametrize(
    "cell, message",
    [
        ("", "empty"),
        ("F", "not a list literal"),
        ("[]", "empty list"),
        ("[1, 2]", "must be strings"),
        ("{'a': 1}", "not a list literal"),
        ("__import__('os').getcwd()", "not a list literal"),
    ],
)
def test_parse_group_list_errors(cell: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_group_list(cell, file="t.csv", line=3, field="Known_stereotyped_groups")
    assert info.value.field == "Known_stereotyped_groups" and info.value.line == 3
    assert message in str(info.value)


# --- raw CSV -----------------------------------------------------------------------------------


def test_read_csv_records_bom_and_physical_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes('\ufeffa,b\n1,"two\nlines"\n\n3,4\n5\n'.encode())
    header, records = read_csv_records(path)
    assert header == ["a", "b"]  # BOM stripped
    assert [(r.line, r.cells) for r in records] == [
        (2, {"a": "1", "b": "two\nlines"}),
        (5, {"a": "3", "b": "4"}),
        (6, {"a": "5", "b": ""}),
    ]


def test_read_csv_records_too_many_cells(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("a,b\n1,2\n1,2,3\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_csv_records(path)
    assert info.value.line == 3 and "has 3 cells but the header has 2" in str(info.value)


# --- template files ----------------------------------------------------------------------------


def test_read_template_csv_good_row(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "t.csv",
        HEADER,
        [GOOD_ROW, {**GOOD_ROW, "Q_id": "T-02", "Subcategory": "b", "Proper_nouns_only": "true"}],
    )
    parsed = read_template_csv(path)
    first, second = parsed.rows
    assert (first.line, first.q_id, first.stereotyped_groups) == (2, "T-01", ("x",))
    assert first.lexical == SlotLists(("park", "mall"), ())
    assert (first.names, first.subcategory, first.version) == (None, None, "")
    # Subcategory must be longer than one character; Proper_nouns_only exactly "TRUE".
    assert (second.subcategory, second.proper_nouns_only) == (None, False)
    assert first.invalid_partners is None and parsed.warnings == []


def test_missing_version_column_reads_as_None(tmp_path: Path) -> None:
    header = [column for column in HEADER if column != "version"]
    row = read_template_csv(write_csv(tmp_path / "t.csv", header, [GOOD_ROW])).rows[0]
    assert row.version == "None"


@pytest.mark.parametrize("column", TEMPLATE_REQUIRED_COLUMNS)
def test_missing_required_column(tmp_path: Path, column: str) -> None:
    path = write_csv(tmp_path / "t.csv", [c for c in HEADER if c != column], [GOOD_ROW])
    with pytest.raises(InputError) as info:
        read_template_csv(path)
    assert (info.value.file, info.value.line, info.value.field) == (str(path), 1, column)
    assert "missing required column" in str(info.value)


@pytest.mark.parametrize(
    "column, value, message",
    [
        ("Ambiguous_Context", "A {{NAME3}} and a {{NAME2}}.", "unknown slot {{NAME3}}"),
        ("Answer_negative", "The {{FOO}}", "unknown slot {{FOO}}"),
        ("Question_non_negative", "Who is {{GEN1}}?", "unknown slot {{GEN1}}"),
        ("Disambiguating_Context", "The {{NAME2} left.", "malformed slot"),
        ("Known_stereotyped_groups", "", "empty"),
        ("Known_stereotyped_groups", "F", "not a list literal"),
        ("Lexical_diversity", "WORD1 = park, mall", "malformed part"),
        ("Names", "NAME1: [a]", "no NAME2 list"),
        ("Names", "NAME2: [b]; NAME1: [a]", "no NAME2 list"),
    ],
)
def test_template_errors_name_file_line_field(
    tmp_path: Path, column: str, value: str, message: str
) -> None:
    rows = [GOOD_ROW, GOOD_ROW, {**GOOD_ROW, column: value}]
    path = write_csv(tmp_path / "t.csv", HEADER, rows)
    with pytest.raises(InputError) as info:
        read_template_csv(path)
    assert (info.value.file, info.value.line, info.value.field) == (str(path), 4, column)
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}:4: field '{column}': ")


def test_word_slot_without_lexical_diversity_is_an_error(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "t.csv", HEADER, [{**GOOD_ROW, "Lexical_diversity": ""}])
    with pytest.raises(InputError) as info:
        read_template_csv(path)
    assert (info.value.line, info.value.field) == (2, "Ambiguous_Context")
    assert "{{WORD1}}" in str(info.value)


@pytest.mark.parametrize(
    "lexical, why",
    [
        ("WORD1: [a, b]; WORD2: [c]", "single item"),
        ("WORD1: [a, b]", "no WORD2 list"),
        ("WORD2: [c, d]; WORD1: [a, b]", "not the cell's last part"),
    ],
)
def test_word2_that_would_be_empty_warns(tmp_path: Path, lexical: str, why: str) -> None:
    row = {
        **GOOD_ROW,
        "Disambiguating_Context": "The {{NAME2}} left the {{WORD2}}.",
        "Lexical_diversity": lexical,
    }
    parsed = read_template_csv(write_csv(tmp_path / "t.csv", HEADER, [row]))
    assert len(parsed.warnings) == 1 and why in parsed.warnings[0]
    assert parsed.warnings[0].startswith(f"{tmp_path / 't.csv'}:2: template T-01")


def test_answer_without_placeholder_warns(tmp_path: Path) -> None:
    parsed = read_template_csv(
        write_csv(tmp_path / "t.csv", HEADER, [{**GOOD_ROW, "Answer_negative": "Nobody"}])
    )
    assert ["Answer_negative contains neither" in w for w in parsed.warnings] == [True]


def test_row_without_ambiguous_context_is_skipped_with_warning(tmp_path: Path) -> None:
    rows = [GOOD_ROW, {**GOOD_ROW, "Q_id": "T-09", "Ambiguous_Context": ""}]
    parsed = read_template_csv(write_csv(tmp_path / "t.csv", HEADER, rows))
    assert [row.q_id for row in parsed.rows] == ["T-01"]
    assert parsed.warnings == [
        f"{tmp_path / 't.csv'}:3: row T-09 skipped: Ambiguous_Context is empty"
    ]


# --- vocabularies ------------------------------------------------------------------------------


def test_label_vocabulary(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text(
        "Category,Pilot_include,SubCat,Name,Info\nAge,,old,grandfather,old\n"
        "Age,No,,skipped,\nAge,,,boy,nonOld\nSES,,,rich,highSES\n",
        encoding="utf-8",
    )
    vocabulary = read_label_vocabulary(path)
    assert [(e.line, e.name, e.subcat, e.info) for e in vocabulary.for_category("Age")] == [
        (2, "grandfather", "old", "old"),
        (4, "boy", None, "nonOld"),
    ]
    with pytest.raises(InputError) as info:
        vocabulary.for_category("Religion")
    assert (info.value.file, info.value.field) == (str(path), "Category")
    assert "no vocabulary rows for category 'Religion'" in str(info.value)


def test_label_vocabulary_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("Category,Label\nAge,old\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_label_vocabulary(path)
    assert (info.value.line, info.value.field) == (1, "Name")


def test_filbbq_reference_files(reference_dir: Path) -> None:
    templates = reference_dir / "filbbq" / "templates"
    gender = read_template_csv(templates / "gender_identity.csv")
    orientation = read_template_csv(templates / "sexual_orientation.csv")
    assert (len(gender.rows), len(orientation.rows)) == (77, 46)
    assert gender.warnings == [] and orientation.warnings == []
    names_row = gender.rows[6]  # the first of the two ENBBQ_07 rows, on CSV line 8
    assert (names_row.q_id, names_row.line, names_row.subcategory) == ("ENBBQ_07", 8, "adult")
    assert names_row.names == SlotLists(("babae",), ("lalaki",))
    assert (names_row.name1_info, names_row.name2_info) == ("F", "M")
    so_row = orientation.rows[5]
    assert (so_row.q_id, so_row.invalid_partners, so_row.version) == (
        "ENBBQ-06",
        ("babae",),
        "None",
    )
    labels = read_label_vocabulary(templates / "vocabulary_labels.csv")
    assert [e.name for e in labels.for_category("Sexual_orientation")] == [
        "bakla",
        "tomboy",
        "bading",
        "lesbiyana",
        "lalaki",
        "babae",
    ]
    names = read_name_vocabulary(templates / "vocabulary_proper_names.csv")
    assert len(names.select(first_last="first_only", gender="F")) == 30
