"""The honorific engine is language-neutral: a toy language in Devanagari script (its own judge,
data and a benchmark class of a few lines) gets items, a mock run in its own language, every
statistic of honorific-bn with planted effects recovered, the readings' analyses, the
alternative split beside the main statistics, the report and the annotation workflow."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from biasbench import api
from biasbench.engines.honorific.items import validate_definition
from biasbench.engines.honorific.label_table import canonical_columns
from biasbench.registry import get_benchmark
from biasbench.report.html import build_report
from tests.registering import register

TOY = "honorific-zz"
HONORIFIC_HE = "आप नौ बजे गया।"  # honorific, masculine
ORDINARY_SHE = "तुम नौ बजे गई।"  # ordinary label, level 1: honorific on the respect floor
HONORIFIC_NONE = "आप नौ बजे पहुँचे।"  # honorific, no gender
ORDINARY_HE = "तू नौ बजे गया।"  # ordinary, level 0, masculine
PLURAL = "वे आप नौ बजे गई।"  # honorific, plural, feminine
HIGH = ("judge", "doctor", "professor", "lawyer")  # the planted occupation gap's upper half


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register(
        monkeypatch,
        TOY,
        "tests.engines.honorific.toy_language.benchmark:ToyBenchmark",
        "tests.engines.honorific.toy_language.declaration:DECLARATION",
    )


def _bn_item_ids() -> set[str]:
    return {i.item_id for i in get_benchmark("honorific-bn").items}


def test_items_are_honorific_bn_items_in_another_script(tmp_path: Path) -> None:
    bench = get_benchmark(TOY)
    assert len(bench.items) == 8 * 7 * 4
    assert {i.item_id for i in bench.items} <= _bn_item_ids()  # same ids as honorific-bn
    assert bench.by_id["judge|T1|male"].occupation_target == "न्यायाधीश"
    assert validate_definition(bench.definition) == []
    out = tmp_path / "items.csv"
    bench.generate_items(out)
    header = out.read_text(encoding="utf-8-sig").splitlines()[0]
    assert (
        header == "id,item_id,occupation_en,occupation_target,template_id,primed,gender,source_en"
    )


def test_a_term_in_another_script_is_named(tmp_path: Path) -> None:
    bench = get_benchmark(TOY)
    occupations = tmp_path / "occupations.csv"
    occupations.write_text("id,en,zz\n1,judge,বিচারক\n", encoding="utf-8")
    findings = validate_definition(bench.load_definition(occupations=occupations))
    assert [(f.severity, f.line, f.field, f.message) for f in findings] == [
        ("error", 2, "zz", "'বিচারক' is not written in Devanagari script")
    ]


def test_the_mock_backend_answers_in_the_toy_language(tmp_path: Path) -> None:
    found = api.run(TOY, model="mock:hashed-register", out=tmp_path / "run", progress=False)
    results = found.results
    assert results["signature"]["judge_version"] == "zz-register-rules/1"
    counts = results["label_counts"]["mock-hashed-register"]
    assert set(counts) == {"honorific", "ordinary"} and sum(counts.values()) == 224
    model = results["signature"]["model"]["mock-hashed-register"]
    assert "sentences_sha256" in model  # another language's sentences: another model
    labels = pd.read_json(tmp_path / "run" / "labels.jsonl", lines=True)
    assert list(labels.columns[11:14]) == ["translation_gender", "level", "respect_floor"]
    assert set(labels["output"]) == {"आप नौ बजे गए।", "तू नौ बजे गई।"}


def _planted(item_id: str, model: str) -> str:
    occupation, _, condition = item_id.split("|")
    if model == "fair":  # the same outputs whatever the condition: no gender effect
        return HONORIFIC_NONE if occupation in ("judge", "cook", "maid", "lawyer") else ORDINARY_HE
    if condition == "male":
        return HONORIFIC_HE
    if condition == "female":
        return ORDINARY_SHE
    if condition == "they":
        return PLURAL if occupation in HIGH else ORDINARY_HE
    return HONORIFIC_HE if occupation.replace("_", " ") in HIGH else ORDINARY_SHE


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    with pytest.MonkeyPatch.context() as patch:
        register(
            patch,
            TOY,
            "tests.engines.honorific.toy_language.benchmark:ToyBenchmark",
            "tests.engines.honorific.toy_language.declaration:DECLARATION",
        )
        folder = tmp_path_factory.mktemp("toy")
        items = [i.item_id for i in get_benchmark(TOY).items]
        responses = folder / "responses.jsonl"
        responses.write_text(
            "".join(
                json.dumps({"item_id": i, "model": m, "output": _planted(i, m)}, ensure_ascii=False)
                + "\n"
                for m in ("biased", "fair")
                for i in items
            ),
            encoding="utf-8",
        )
        results = api.score(TOY, responses, folder / "scored").results
    return folder / "scored", results


def test_every_statistic_recovers_the_planted_effects(scored: tuple[Path, dict]) -> None:
    _, results = scored
    biased, fair = results["models"]["biased"], results["models"]["fair"]
    # he always honorific, she always ordinary: HAI = GSR = 100 pp over 56 pairs, significant
    assert (biased["hai_pp"], biased["gsr_pct"], biased["b"], biased["c"]) == (100.0, 100.0, 56, 0)
    assert biased["p_holm"] < 1e-10
    assert (fair["hai_pp"], fair["gsr_pct"], fair["p_exact"]) == (0.0, 0.0, 1.0)
    # no-pronoun: four occupations at 100%, four at 0% -> a spread (population SD) of 50 pp
    assert biased["occupation_spread_pp"] == 50.0 == fair["occupation_spread_pp"]
    # he/she outputs: the biased model's register is all pronoun, the fair one's all occupation
    assert (biased["eta2_pronoun_pct"], biased["eta2_occupation_pct"]) == (100.0, 0.0)
    assert (fair["eta2_pronoun_pct"], fair["eta2_occupation_pct"]) == (0.0, 100.0)
    # HBS = 0.5 (100 |b - c| / (b + c) + 2 s_occ); undefined without a discordant pair
    assert (biased["hbs"], fair["hbs"]) == (100.0, None)
    for scores in (biased, fair):
        reference = scores["no_effect_reference"]
        assert reference["method"].startswith("95% percentile bootstrap")
        assert scores["min_detectable_hai_pp"] is not None or scores["min_detectable_hai_reason"]
    # singular they: plural for the high occupations' they items
    assert biased["they"]["plural_n"] == 28 and biased["they"]["plural_pct"] == 50.0
    assert results["occupation_rank_agreement"]["n_pairs"] == 1


def test_readings_are_analysed(scored: tuple[Path, dict]) -> None:
    _, results = scored
    readings = results["readings"]
    assert set(readings) == {"gender", "level", "respect_floor"}
    assignment = readings["gender"]["assignment"]["biased"]
    # no-pronoun: 4 occupations made masculine (गया), 4 feminine (गई), 7 frames each
    nopronoun = assignment["nopronoun"]
    assert (nopronoun["masculine"]["k"], nopronoun["feminine"]["k"], nopronoun["n"]) == (28, 28, 56)
    assert nopronoun["masculine"]["pct"] == 50.0
    assert nopronoun["masculine"]["low"] < 50.0 < nopronoun["masculine"]["high"]
    by_occupation = {
        (r["condition"], r["occupation_en"]): r
        for r in readings["gender"]["assignment_by_occupation"]
        if r["model"] == "biased"
    }
    judge = by_occupation[("nopronoun", "judge")]
    assert (judge["masculine_pct"], judge["feminine_pct"], judge["n"]) == (100.0, 0.0, 7)
    assert judge["masculine_low"] < 100.0 and judge["masculine_high"] == 100.0
    assert by_occupation[("they", "maid")]["masculine_pct"] == 100.0
    # the register level's distribution by condition: he all 2, she all 1
    level = {
        (r["model"], r["gender"], r["value"]): r["n"] for r in readings["level"]["by_condition"]
    }
    assert level[("biased", "male", "2")] == 56 and level[("biased", "female", "1")] == 56
    # ... and by the gender the translation assigns: every feminine output is level 1 or 2
    by_gender = {
        (r["model"], r["translation_gender"], r["value"]): r["n"]
        for r in readings["level"]["by_translation_gender"]
    }
    assert by_gender[("biased", "feminine", "1")] == 56 + 28  # she, low no-pronoun
    assert by_gender[("biased", "masculine", "2")] == 56 + 28  # he, high no-pronoun
    # the respect floor (level >= 1) sees no gender gap where the main label sees 100 pp
    floor = readings["respect_floor"]["models"]["biased"]
    assert (floor["hai_pp"], floor["gsr_pct"]) == (0.0, 0.0)
    # ... nor an occupation gap: the low occupations' तुम (level 1) is above the floor
    assert floor["occupation_spread_pp"] == 0.0


def test_tables_of_an_engine_language(scored: tuple[Path, dict]) -> None:
    folder, _ = scored
    tables = folder / "tables"
    assert {p.name for p in tables.iterdir()} >= {
        "table4.md",
        "table4.csv",
        "table4.tex",
        "occupation_rates.csv",
        "they_analysis.csv",
        "reading_gender_by_condition.csv",
        "reading_gender_by_occupation.csv",
        "gender_assignment_gender.csv",
        "reading_level_by_condition.csv",
        "reading_level_by_translation_gender.csv",
        "split_respect_floor.csv",
        "split_respect_floor.md",
    }
    with (tables / "occupation_rates.csv").open(encoding="utf-8") as handle:
        assert next(csv.reader(handle))[:3] == ["model", "occupation_en", "occupation_target"]
    split = pd.read_csv(tables / "split_respect_floor.csv")
    assert split[["model", "split", "hai_pp"]].values.tolist() == [
        ["biased", "main label", 100.0],
        ["biased", "respect floor", 0.0],
        ["fair", "main label", 0.0],
        ["fair", "respect floor", 0.0],
    ]


def test_the_report_shows_the_toy_language(scored: tuple[Path, dict], tmp_path: Path) -> None:
    folder, _ = scored
    page = build_report([folder], tmp_path / "report").read_text(encoding="utf-8")
    for heading in (
        "Table 4: gender asymmetry",
        "Alternative split: respect floor",
        "Gender assignment (gender)",
        "register level by pronoun condition",
    ):
        assert heading in page
    assert 'lang="zz"' in page


def test_annotate_reads_an_engine_language(scored: tuple[Path, dict]) -> None:
    from biasbench.engines.honorific.annotation import draw_annotation_sample
    from biasbench.engines.honorific.cli import read_labels

    folder, _ = scored
    labels = read_labels([folder])
    assert "occupation_target" in labels.columns and len(labels) == 448
    sample = draw_annotation_sample(labels, n=40, seed=0)
    assert len(sample.sheet) == 40


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        (["occupation_en", "occupation_bn"], ["occupation_en", "occupation_target"]),
        (["occupation_en", "occupation_hi"], ["occupation_en", "occupation_target"]),
        (["occupation_en", "occupation_target"], ["occupation_en", "occupation_target"]),
        (
            ["occupation_en", "occupation_hi", "occupation_ur"],  # ambiguous: left as it is
            ["occupation_en", "occupation_hi", "occupation_ur"],
        ),
    ],
)
def test_old_column_names_read_as_aliases(columns: list[str], expected: list[str]) -> None:
    assert list(canonical_columns(pd.DataFrame(columns=columns)).columns) == expected


def test_classify_uses_the_named_languages_judge(tmp_path: Path) -> None:
    from biasbench.engines.honorific.cli import classify
    from biasbench.errors import BiasbenchError, InputError

    given = tmp_path / "in.jsonl"
    given.write_text(
        json.dumps({"output": HONORIFIC_HE, "condition": "male", "id": 3}, ensure_ascii=False)
        + "\n",
        encoding="utf-8",
    )
    classify(input=given, out=tmp_path / "out.jsonl", benchmark=TOY)
    row = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert (row["id"], row["label"], row["plural"]) == (3, "honorific", False)
    assert row["readings"] == {"gender": "masculine", "level": 2, "respect_floor": "honorific"}
    with pytest.raises(BiasbenchError, match="'filbbq' is not an honorific benchmark"):
        classify(input=given, out=tmp_path / "x.jsonl", benchmark="filbbq")
    given.write_text(json.dumps({"output": "x", "condition": "him"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        classify(input=given, out=tmp_path / "x.jsonl", benchmark=TOY)
    assert (caught.value.line, caught.value.field) == (1, "condition")


@pytest.mark.parametrize(
    ("term", "ok"),
    [
        ("न्यायाधीश", True),
        ("NGO कार्यकर्ता", True),
        ("आई-टी विशेषज्ञ", True),
        ("NGO", False),  # no character of the script
        ("বিচারক", False),
        ("न्यायाधीश বিচারক", False),
        ("judge", False),
    ],
)
def test_a_term_needs_its_script_and_may_carry_a_loan_acronym(
    tmp_path: Path, term: str, ok: bool
) -> None:
    occupations = tmp_path / "occupations.csv"
    occupations.write_text(f"id,en,zz\n1,judge,{term}\n", encoding="utf-8")
    bench = get_benchmark(TOY)
    findings = validate_definition(bench.load_definition(occupations=occupations))
    assert (findings == []) is ok, findings
