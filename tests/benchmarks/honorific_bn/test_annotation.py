"""Tests of the annotation workflow: stratified blind sample, sheets on disk, agreement."""

from __future__ import annotations

import csv
import itertools
import math
from pathlib import Path

import pandas as pd
import pytest

from biasbench.engines.honorific.annotation import (
    ANNOTATION_LABELS,
    KEY_COLUMNS,
    SHEET_COLUMNS,
    AnnotationSample,
    agreement_report,
    draw_annotation_sample,
    export_annotation_sample,
    kappa_from_confusion,
    read_annotation_sheet,
    rule_labels_for,
    write_annotation_sheet,
)
from biasbench.errors import InputError

MODELS = ("gemma", "llama", "qwen")
OCCUPATIONS = ("judge", "doctor", "porter", "tailor", "nurse", "barber")
FRAMES = ("T1", "T2", "T3", "T4", "T5", "P1", "P2")
CONDITIONS = ("male", "female", "they", "nopronoun")
LABEL_CYCLE = ("honorific", "ordinary", "ordinary", "mixed", "honorific", "unreadable")


def _labels(models=MODELS, occupations=OCCUPATIONS) -> pd.DataFrame:
    rows = []
    for i, (model, occupation, frame, condition) in enumerate(
        itertools.product(models, occupations, FRAMES, CONDITIONS)
    ):
        rows.append(
            {
                "response_id": f"{model}|{occupation}|{frame}|{condition}",
                "model": model,
                "item_id": f"{occupation}|{frame}|{condition}",
                "occupation_en": occupation,
                "template_id": frame,
                "gender": condition,
                "output": f"বিচারক নয়টায় আসবেন, {i}",
                "label": LABEL_CYCLE[i % len(LABEL_CYCLE)],
            }
        )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def labels() -> pd.DataFrame:
    return _labels()


# ---------------------------------------------------------------------------------------
# Sampling
# ---------------------------------------------------------------------------------------


def test_sheet_is_blind_and_key_is_separate(labels: pd.DataFrame) -> None:
    sample = draw_annotation_sample(labels, n=60, seed=1)
    assert tuple(sample.sheet.columns) == SHEET_COLUMNS
    assert tuple(sample.key.columns) == KEY_COLUMNS
    assert "label" not in sample.sheet.columns and "rule_label" not in sample.sheet.columns
    assert (sample.sheet["annotator_label"] == "").all()
    assert sample.sheet["sample_id"].tolist() == sample.key["sample_id"].tolist()
    truth = labels.set_index("response_id")["label"]
    assert sample.key["rule_label"].tolist() == truth.loc[sample.key["response_id"]].tolist()
    assert sample.sheet["response_id"].is_unique and len(sample.sheet) == 60
    assert sample.sheet["sample_id"].iloc[0] == "S001"


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_stratification_covers_and_balances_models_conditions_frames(
    labels: pd.DataFrame, seed: int
) -> None:
    sheet = export_annotation_sample(labels, n=60, seed=seed)
    for column, levels in (("model", MODELS), ("gender", CONDITIONS), ("template_id", FRAMES)):
        counts = sheet[column].value_counts()
        assert set(counts.index) == set(levels)
        assert counts.max() - counts.min() <= 1, column


@pytest.mark.parametrize(
    ("n", "pair_share", "pairs"), [(60, 1 / 3, 10), (40, 0.5, 10), (30, 0.0, 0)]
)
def test_pair_share_is_respected_with_no_accidental_pairs(
    labels: pd.DataFrame, n: int, pair_share: float, pairs: int
) -> None:
    sample = draw_annotation_sample(labels, n=n, pair_share=pair_share, seed=7)
    merged = sample.sheet.merge(sample.key[["sample_id", "pair_id"]], on="sample_id").merge(
        labels[["response_id", "occupation_en"]], on="response_id"
    )
    in_pairs = merged[merged["pair_id"] != ""]
    assert in_pairs["pair_id"].nunique() == pairs and len(in_pairs) == 2 * pairs
    for _, pair in in_pairs.groupby("pair_id"):
        assert sorted(pair["gender"]) == ["female", "male"]
        assert pair[["model", "occupation_en", "template_id"]].nunique().max() == 1
    # no other male/female pair of the same model, occupation and frame slipped in
    gendered = merged[merged["gender"].isin(["male", "female"])]
    complete = gendered.groupby(["model", "occupation_en", "template_id"])["gender"].nunique()
    assert int((complete == 2).sum()) == pairs


def test_draw_is_deterministic_and_independent_of_row_order(labels: pd.DataFrame) -> None:
    first = draw_annotation_sample(labels, n=50, seed=11)
    again = draw_annotation_sample(labels.sample(frac=1.0, random_state=3), n=50, seed=11)
    other = draw_annotation_sample(labels, n=50, seed=12)
    pd.testing.assert_frame_equal(first.sheet, again.sheet)
    pd.testing.assert_frame_equal(first.key, again.key)
    assert first.sheet["response_id"].tolist() != other.sheet["response_id"].tolist()


def test_paper_sized_sample_from_the_published_items(reference_dir: Path) -> None:
    items = pd.read_csv(
        reference_dir / "bangla-honorific" / "bangla_honorific_eval.csv",
        encoding="utf-8-sig",
        dtype=str,
    )
    frames = []
    for number in range(9):  # nine models, as in the paper
        frame = items.rename(columns={"id": "response_id"}).assign(
            model=f"model{number}", output="", label="honorific"
        )
        frame["response_id"] = f"model{number}-" + frame["response_id"]
        frames.append(frame)
    labels = pd.concat(frames, ignore_index=True)
    sample = draw_annotation_sample(labels, n=180, pair_share=1 / 3, seed=0)
    assert (sample.key["pair_id"] != "").sum() == 60  # the paper's 60 of 180
    assert sample.sheet["model"].nunique() == 9
    assert set(sample.sheet["gender"]) == set(CONDITIONS)
    assert set(sample.sheet["template_id"]) == set(FRAMES)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"n": 10_000}, ValueError), ({"n": 0}, ValueError), ({"pair_share": 1.5}, ValueError)],
)
def test_bad_sample_requests(labels: pd.DataFrame, kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        draw_annotation_sample(labels, **kwargs)


def test_missing_label_column_is_named(labels: pd.DataFrame) -> None:
    with pytest.raises(InputError) as caught:
        draw_annotation_sample(labels.drop(columns=["occupation_en"]), n=10)
    assert caught.value.field == "occupation_en"


def test_rule_labels_for_recovers_the_key(labels: pd.DataFrame) -> None:
    sample = draw_annotation_sample(labels, n=30, seed=5)
    recovered = rule_labels_for(sample.sheet, labels)
    assert recovered.tolist() == sample.key["rule_label"].tolist()
    assert recovered.index.tolist() == sample.key["sample_id"].tolist()


# ---------------------------------------------------------------------------------------
# Sheets on disk
# ---------------------------------------------------------------------------------------


def _fill(path: Path, labels_by_row: list[str]) -> None:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    column = rows[0].index("annotator_label")
    for row, label in zip(rows[1:], labels_by_row, strict=True):
        row[column] = label
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle).writerows(rows)


def _tricky_sheet() -> pd.DataFrame:
    outputs = [
        "বিচারক বলেছেন যে তিনি নয়টায় আসবেন।",
        "**Translation:**\nকুলি নয়টায় আসবে।\n(Kuli noytay asbe.)",  # three physical lines
        'He said, "I can\'t", then: দর্জি নয়টায় আসবে।',
        "সবাই কৃষককে সম্মান করে কারণ সে খুব পরিশ্রম করে।",
    ]
    return pd.DataFrame(
        {
            "sample_id": ["S001", "S002", "S003", "S004"],
            "response_id": ["r1", "r2", "r3", "r4"],
            "model": ["m"] * 4,
            "item_id": [
                "judge|T1|male",
                "porter|T1|nopronoun",
                "tailor|T1|nopronoun",
                "farmer|P1|female",
            ],
            "gender": ["male", "nopronoun", "nopronoun", "female"],
            "template_id": ["T1", "T1", "T1", "P1"],
            "output": outputs,
            "annotator_label": [""] * 4,
        }
    )


def test_sheet_round_trip_keeps_bengali_newlines_and_quotes(tmp_path: Path) -> None:
    sheet = _tricky_sheet()
    path = tmp_path / "sheet.csv"
    write_annotation_sheet(AnnotationSample(sheet=sheet, key=pd.DataFrame()), path)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM for spreadsheet programs
    _fill(path, ["H", " ordinary ", "m", "Unreadable"])
    read = read_annotation_sheet(path)
    assert read["output"].tolist() == sheet["output"].tolist()
    assert read["annotator_label"].tolist() == ["honorific", "ordinary", "mixed", "unreadable"]
    assert tuple(read.columns) == SHEET_COLUMNS


def test_unknown_label_error_names_file_physical_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "annotator_b.csv"
    write_annotation_sheet(_tricky_sheet(), path)
    _fill(path, ["honorific", "ordinary", "polite", "ordinary"])
    with pytest.raises(InputError) as caught:
        read_annotation_sheet(path)
    error = caught.value
    # header is line 1, S001 line 2, S002 spans lines 3-5, so S003 starts on line 6
    assert (error.file, error.line, error.field) == (str(path), 6, "annotator_label")
    assert "'polite'" in str(error) and f"{path}:6" in str(error)


def test_missing_column_and_blank_label_errors(tmp_path: Path) -> None:
    path = tmp_path / "no_label.csv"
    _tricky_sheet().drop(columns=["annotator_label"]).to_csv(path, index=False)
    with pytest.raises(InputError) as caught:
        read_annotation_sheet(path)
    assert (caught.value.line, caught.value.field) == (1, "annotator_label")

    blank = tmp_path / "blank.csv"
    write_annotation_sheet(_tricky_sheet(), blank)
    with pytest.raises(InputError) as caught:
        read_annotation_sheet(blank)
    assert (caught.value.line, caught.value.field) == (2, "annotator_label")
    assert read_annotation_sheet(blank, allow_blank=True)["annotator_label"].tolist() == [""] * 4


# ---------------------------------------------------------------------------------------
# Agreement
# ---------------------------------------------------------------------------------------

IDS = [f"S{i:03d}" for i in range(1, 11)]
A = ["honorific"] * 5 + ["ordinary"] * 3 + ["mixed", "unreadable"]
B = ["honorific"] * 4 + ["ordinary", "ordinary", "ordinary", "honorific", "mixed", "unreadable"]
RULE = [
    "honorific",
    "honorific",
    "honorific",
    "ordinary",
    "ordinary",
    "ordinary",
    "ordinary",
    "honorific",
    "mixed",
    "honorific",
]


def _series(values: list[str]) -> pd.Series:
    return pd.Series(values, index=IDS)


def test_hand_computed_kappa_and_consensus_comparison() -> None:
    report = agreement_report(_series(RULE), _series(A), _series(B))
    # annotators: agree 8/10; marginals A = B = (5, 3, 1, 1): p_e = 36/100
    assert (report.n_items, report.annotators_agree) == (10, 8)
    assert report.annotator_kappa == pytest.approx((0.8 - 0.36) / (1 - 0.36))  # 0.6875
    # rule vs the 8 consensus items: 6 agree; reference (4, 2, 1, 1), rule (4, 3, 1, 0)
    assert report.reference == "annotator consensus"
    assert (report.n_compared, report.rule_agree) == (8, 6)
    assert report.rule_kappa == pytest.approx(25 / 41)  # (0.75 - 23/64) / (1 - 23/64)
    assert report.rule_disagreements == ("S004", "S010")
    matrix = report.rule_confusion
    assert list(matrix.index) == list(ANNOTATION_LABELS) == list(matrix.columns)
    assert matrix.loc["honorific", "honorific"] == 3 and matrix.loc["honorific", "ordinary"] == 1
    assert matrix.loc["unreadable", "honorific"] == 1 and int(matrix.to_numpy().sum()) == 8
    assert report.annotator_confusion.loc["ordinary", "honorific"] == 1


def test_adjudicated_labels_are_the_reference_when_given() -> None:
    adjudicated = A[:4] + ["ordinary", "ordinary", "ordinary", "ordinary", "mixed", "unreadable"]
    report = agreement_report(
        _series(RULE), _series(A), _series(B), adjudicated=_series(adjudicated)
    )
    assert report.reference == "adjudicated"
    assert (report.n_compared, report.rule_agree) == (10, 7)
    assert report.rule_disagreements == ("S004", "S008", "S010")


def test_paper_shape_178_of_180_gives_kappa_098() -> None:
    human = ["honorific"] * 90 + ["ordinary"] * 80 + ["mixed"] * 6 + ["unreadable"] * 4
    rule = list(human)
    rule[90] = rule[91] = "honorific"  # two ordinary translations the rule calls honorific
    ids = [f"S{i:03d}" for i in range(1, 181)]
    report = agreement_report(
        pd.Series(rule, index=ids),
        pd.Series(human, index=ids),
        pd.Series(human, index=ids),
        adjudicated=pd.Series(human, index=ids),
    )
    assert (report.rule_agree, report.n_compared) == (178, 180)
    # p_e = (90*92 + 80*78 + 6*6 + 4*4) / 180^2
    expected = (178 / 180 - 14572 / 32400) / (1 - 14572 / 32400)
    assert report.rule_kappa == pytest.approx(expected)
    assert round(report.rule_kappa, 2) == 0.98
    assert report.annotator_kappa == pytest.approx(1.0)
    text = report.to_markdown()
    assert "| rule vs adjudicated | 178/180 (98.9%) |" in text
    assert "| rule vs human Cohen's kappa | 0.980 |" in text
    assert "| | honorific | ordinary | mixed | unreadable |" in text


def test_kappa_is_undefined_when_everyone_uses_one_label() -> None:
    table = pd.DataFrame([[5, 0], [0, 0]])
    assert math.isnan(kappa_from_confusion(table))
    same = pd.Series(["ordinary"] * 3, index=["a", "b", "c"])
    report = agreement_report(same, same, same)
    assert math.isnan(report.annotator_kappa)
    assert "| inter-annotator Cohen's kappa | undefined |" in report.to_markdown()
    assert report.to_dict()["annotator_kappa"] is None


def test_agreement_from_sheets_and_key(tmp_path: Path, labels: pd.DataFrame) -> None:
    sample = draw_annotation_sample(labels, n=12, seed=2)
    paths = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.csv"
        write_annotation_sheet(sample, path)
        _fill(path, sample.key["rule_label"].tolist())
        paths.append(path)
    report = agreement_report(
        sample.key, read_annotation_sheet(paths[0]), read_annotation_sheet(paths[1])
    )
    assert (report.annotators_agree, report.rule_agree, report.n_compared) == (12, 12, 12)
    assert report.rule_disagreements == ()


def test_mismatched_ids_and_unknown_labels_are_rejected() -> None:
    with pytest.raises(InputError, match="same sample ids"):
        agreement_report(_series(RULE), _series(A), pd.Series(B[:9], index=IDS[:9]))
    with pytest.raises(InputError, match="unknown label"):
        agreement_report(_series(RULE), _series(A), _series(B[:9] + ["polite"]))
