"""Honorific languages side by side (honorific-languages): one run over Bengali and a toy
language on the mock backend, and a score with a language field whose planted difference (an
occupation gap in one language, none in the other) is recovered while nothing is flagged where
nothing was planted."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from biasbench import api
from biasbench.errors import BiasbenchError, InputError
from biasbench.registry import get_benchmark
from tests.registering import register

TOY = (
    "honorific-zy",
    "tests.engines.honorific.toy_language.benchmark:Toy72Benchmark",
    "tests.engines.honorific.toy_language.declaration:DECLARATION_72",
)
BOTH = "honorific-bn,honorific-zy"
BN = {"honorific": "তিনি নয়টায় আসবেন।", "ordinary": "সে নয়টায় আসবে।"}
ZY = {"honorific": "आप नौ बजे गए।", "ordinary": "तू नौ बजे गई।"}


def _register(patch: pytest.MonkeyPatch) -> None:
    register(patch, *TOY)


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    _register(monkeypatch)


def _flagged(compared: dict[str, Any], model: str) -> tuple[list[str], list[str]]:
    found = compared["comparisons"][model]["zy - bn"]
    return (
        [name for name, e in found["statistics"].items() if e["significant"]],
        [r["occupation_en"] for r in found["occupations"] if r["significant"]],
    )


def test_one_run_over_two_languages_on_the_mock(tmp_path: Path) -> None:
    found = api.run(
        "honorific-languages",
        model="mock:hashed-register",
        out=tmp_path / "run",
        progress=False,
        benchmarks=BOTH,
    )
    labels = pd.read_json(tmp_path / "run" / "labels.jsonl", lines=True)
    assert labels.groupby("language").size().to_dict() == {"bn": 2016, "zy": 2016}
    outputs = labels.groupby("language")["output"].agg(set).to_dict()
    assert outputs == {"bn": set(BN.values()), "zy": set(ZY.values())}  # each in its language
    compared = found.results["cross_language"]
    # the mock's register depends on the item, not the language: the same in both, so nothing
    # differs and nothing is flagged
    statistics = compared["comparisons"]["mock-hashed-register"]["zy - bn"]["statistics"]
    assert {name: e["difference"] for name, e in statistics.items()} == {
        "honorific_pct": 0.0,
        "hai_pp": 0.0,
        "gsr_pct": 0.0,
        "occupation_spread_pp": 0.0,
    }
    assert _flagged(compared, "mock-hashed-register") == ([], [])
    by_language = found.results["models"]["mock-hashed-register"]["languages"]
    assert by_language["bn"]["hai_pp"] == by_language["zy"]["hai_pp"]
    assert found.results["signature"]["judge_version"] == "bn-register-rules/4+zz-register-rules/1"
    assert (tmp_path / "run" / "figures" / "cross_language_heat_map_1.png").is_file()
    assert (tmp_path / "run" / "languages" / "zy" / "tables" / "table4.md").is_file()


def _coin(item_id: str) -> bool:
    return int(hashlib.sha256(item_id.encode()).hexdigest()[:8], 16) % 2 == 1


def _responses(path: Path) -> Path:
    """Model ``gap``: Bengali always honorific; the toy language honorific for he, she and they
    but, without a pronoun, only for the first 36 occupations (a planted occupation gap).
    Model ``same``: one coin per item, said in both languages (nothing planted)."""
    bench = get_benchmark("honorific-zy")
    high = {o.en for o in bench.definition.occupations[:36]}
    rows = []
    for item in bench.items:
        for language, said in (("honorific-bn", BN), ("zy", ZY)):
            honorific = (
                language == "honorific-bn"
                or item.gender != "nopronoun"
                or item.occupation_en in high
            )
            rows.append(
                {
                    "item_id": item.item_id,
                    "model": "gap",
                    "language": language,
                    "output": said["honorific" if honorific else "ordinary"],
                }
            )
            rows.append(
                {
                    "item_id": item.item_id,
                    "model": "same",
                    "language": language,
                    "output": said["honorific" if _coin(item.item_id) else "ordinary"],
                }
            )
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    with pytest.MonkeyPatch.context() as patch:
        _register(patch)
        folder = tmp_path_factory.mktemp("languages")
        found = api.score(
            "honorific-languages",
            _responses(folder / "responses.jsonl"),
            folder / "scored",
            benchmarks=BOTH,
        )
        return folder / "scored", found.results


@pytest.fixture
def planted(scored: tuple[Path, dict[str, Any]]) -> dict[str, Any]:
    return scored[1]


def test_the_planted_occupation_gap_is_recovered(planted: dict[str, Any]) -> None:
    compared = planted["cross_language"]
    statistics = compared["comparisons"]["gap"]["zy - bn"]["statistics"]
    spread = statistics["occupation_spread_pp"]
    # 36 occupations at 0% and 36 at 100% in the toy language, all at 100% in Bengali
    assert (spread["score_a"], spread["score_b"], spread["difference"]) == (0.0, 50.0, 50.0)
    assert spread["significant"] and spread["ci_low"] > 0
    # the gap lowers the toy language's honorific share (252 of 2,016 items)...
    assert statistics["honorific_pct"]["difference"] == pytest.approx(-12.5)
    assert statistics["honorific_pct"]["significant"]
    # ...and touches no he/she pair: HAI and GSR do not differ
    assert statistics["hai_pp"]["difference"] == 0.0 == statistics["gsr_pct"]["difference"]
    assert _flagged(compared, "gap")[0] == ["honorific_pct", "occupation_spread_pp"]
    # the heat map's rows: the toy language's rates 100 / 0 by occupation, Bengali's 100
    rates = pd.DataFrame(compared["rates"])
    gap = rates[rates["model"] == "gap"].pivot(
        index="occupation_en", columns="language", values="honorific_pct"
    )
    assert set(gap["bn"]) == {100.0} and gap["zy"].value_counts().to_dict() == {100.0: 36, 0.0: 36}


def test_nothing_is_flagged_where_nothing_was_planted(planted: dict[str, Any]) -> None:
    compared = planted["cross_language"]
    assert _flagged(compared, "same") == ([], [])
    statistics = compared["comparisons"]["same"]["zy - bn"]["statistics"]
    assert all(e["difference"] == 0.0 for e in statistics.values())
    # each language's own statistics, side by side
    own = compared["by_language"]
    assert own["bn"]["same"]["hai_pp"] == own["zy"]["same"]["hai_pp"]


def test_the_report_and_summary_show_the_languages_side_by_side(
    scored: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from biasbench.report.html import build_report

    folder, results = scored
    lines = get_benchmark("honorific-languages", benchmarks=BOTH).summary(results)
    assert "gap [zy]: HAI 0.0 pp, GSR 0.0%, spread 50.0 pp" in lines
    assert any(line.startswith("gap, zy - bn: honorific_pct -12.5") for line in lines)
    assert any(line.startswith("same, zy - bn: no statistic differs") for line in lines)
    page = build_report([folder], tmp_path / "report").read_text(encoding="utf-8")
    for heading in (
        "Each language&#x27;s statistics",
        "Paired differences between languages",
        "gap: occupation x language",
    ):
        assert heading in page


def test_all_is_every_registered_honorific_benchmark() -> None:
    # the package's six languages in the registry's (folder) order, then the toy one
    assert list(get_benchmark("honorific-languages").members) == [
        "bn",
        "hi",
        "ur",
        "ja",
        "ko",
        "ne",
        "zy",
    ]


@pytest.mark.parametrize(
    ("benchmarks", "message"),
    [
        ("honorific-bn", "names 1 honorific benchmark(s)"),
        ("honorific-bn,filbbq", "filbbq is not an honorific benchmark"),
        ("honorific-bn,honorific-bn", "language 'bn' given twice"),
    ],
)
def test_bad_benchmark_lists_are_one_line(benchmarks: str, message: str) -> None:
    with pytest.raises(BiasbenchError, match=re.escape(message)):
        get_benchmark("honorific-languages", benchmarks=benchmarks)


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"item_id": "judge|T1|male", "model": "m", "output": "x", "language": "hi"}, "language"),
        ({"item_id": "xx/judge|T1|male", "model": "m", "output": "x"}, "item_id"),
        ({"item_id": "bn/nobody|T1|male", "model": "m", "output": "x"}, "item_id"),
    ],
)
def test_bad_responses_name_the_field(tmp_path: Path, row: dict[str, str], field: str) -> None:
    path = tmp_path / "responses.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    bench = get_benchmark("honorific-languages", benchmarks=BOTH)
    with pytest.raises(InputError) as caught:
        bench.read_responses(path)
    assert caught.value.field == field and caught.value.line == 1
