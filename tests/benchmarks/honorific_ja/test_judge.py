"""The judge's interface, version, lazy analyser, data files and readings."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from biasbench.engines.honorific.judging import (
    Register,
    RegisterJudge,
    judge_for,
    register_judge,
)
from biasbench.errors import BiasbenchError, InputError

OPTIONAL_KEYS = {"script", "occupation_column"}
"""definition.json keys the engine gives a default for."""

DATA = Path(__file__).parents[3] / "biasbench" / "benchmarks" / "honorific_ja" / "data"
BN_DATA = DATA.parents[1] / "honorific_bn" / "data"


def _modules_after(code: str) -> set[str]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            code + "\nimport sys, json\n"
            "print(json.dumps(sorted(name for name, module in sys.modules.items()"
            " if module is not None)))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_judge_loads_no_analyser() -> None:
    modules = _modules_after(
        "import biasbench.benchmarks.honorific_ja.judge as j\nassert j.JUDGE.language == 'ja'"
    )
    assert not {m.split(".")[0] for m in modules} & {
        "sudachipy",
        "fugashi",
        "unidic_lite",
        "sudachidict_core",
    }


def test_judge_for_loads_the_module_level_judge() -> None:
    register_judge("ja", "biasbench.benchmarks.honorific_ja.judge:JUDGE")
    judge = judge_for("ja")
    assert isinstance(judge, RegisterJudge)
    assert judge.language == "ja"
    assert "politeness" in judge.readings


def test_judge_for_and_version_load_no_analyser() -> None:
    # isinstance against the protocol reads `version`: it must come from package metadata
    modules = _modules_after(
        "from biasbench.engines.honorific.judging import judge_for, register_judge\n"
        "register_judge('ja', 'biasbench.benchmarks.honorific_ja.judge:JUDGE')\n"
        "judge = judge_for('ja')\n"
        "assert judge.version.startswith('ja-register-rules/1+sudachipy-'), judge.version"
    )
    assert not {m.split(".")[0] for m in modules} & {
        "sudachipy",
        "fugashi",
        "unidic_lite",
        "sudachidict_core",
    }


def test_version_names_rules_analyser_and_dictionary(ja_judge: Any) -> None:
    version = ja_judge.version
    assert version.startswith("ja-register-rules/1+sudachipy-")
    assert "+sudachidict-core-" in version


def test_fugashi_adapter_version(any_ja_judge: Any) -> None:
    expected = {"sudachi": "sudachidict-core", "fugashi": "unidic-lite"}[any_ja_judge.analyser_name]
    assert expected in any_ja_judge.version


def test_a_missing_analyser_is_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from biasbench.benchmarks.honorific_ja.judge import JapaneseJudge, analyser

    monkeypatch.setitem(sys.modules, "sudachipy", None)  # import fails
    monkeypatch.setattr(analyser, "_LOADED", {})
    with pytest.raises(BiasbenchError) as caught:
        JapaneseJudge("sudachi").judge("医師は9時に来ます。")
    message = str(caught.value)
    assert "\n" not in message and "biasbench[ja]" in message


def test_an_unknown_analyser_is_refused() -> None:
    from biasbench.benchmarks.honorific_ja.judge import JapaneseJudge

    with pytest.raises(BiasbenchError, match="unknown Japanese analyser"):
        JapaneseJudge("kuromoji").judge("医師は9時に来ます。")


def test_an_unknown_condition_names_the_field(ja_judge: Any) -> None:
    with pytest.raises(InputError, match="condition"):
        ja_judge.judge("医師は9時に来ます。", "plural")


@pytest.mark.parametrize(
    ("output", "label"), [(None, "unreadable"), ("", "unreadable"), ("   \n", "unreadable")]
)
def test_empty_outputs(ja_judge: Any, output: str | None, label: str) -> None:
    judgement = ja_judge.judge(output)
    assert judgement.label.value == label
    assert judgement.reason.startswith("empty")
    assert judgement.readings["politeness"] is None


def test_judge_many_matches_judge(ja_judge: Any) -> None:
    outputs = ["医師は9時にいらっしゃいます。", "医師は9時に来ます。", None]
    conditions = ["they", "male", None]
    many = ja_judge.judge_many(outputs, conditions)
    assert [j.label for j in many] == [Register.HONORIFIC, Register.ORDINARY, Register.UNREADABLE]
    assert many[0].plural is False and many[1].plural is None


def test_evidence_offsets_point_into_the_translation(ja_judge: Any) -> None:
    judgement = ja_judge.judge("翻訳：彼女は9時にいらっしゃると言いました。", "female")
    assert judgement.translation == "彼女は9時にいらっしゃると言いました。"
    spans = {s.kind: judgement.translation[s.start : s.end] for s in judgement.evidence}
    assert spans["plain_pronoun"] == "彼女"
    assert spans["sonkeigo_verb"] == "いらっしゃる"
    assert spans["plain_main_verb"] == "言いました"
    assert judgement.to_dict()["evidence"][0]["start"] >= 0


@pytest.mark.parametrize(
    ("output", "readings"),
    [
        ("医師は9時に来ると言いました。", {"politeness": "teineigo", "default_ordinary": False}),
        ("医師は9時に来るとおっしゃった。", {"politeness": "plain"}),
        ("医師は今手が離せませんが、あとで電話する。", {"politeness": "mixed"}),
        ("医師は9時に到着予定です。", {"default_ordinary": True, "humble_subject": False}),
        ("医師は9時に参ります。", {"humble_subject": True, "politeness": "teineigo"}),
        ("お医者さんは9時にいらっしゃいます。", {"titles": ["さん"]}),
        ("イマーム様と先生は9時に来ます。", {"titles": ["先生", "様"]}),
        ("女医は9時に来ます。", {"female_noun": True}),
        ("あいつは9時に来る。", {"derogatory": True, "pronoun_gender": "neutral"}),
        ("彼は9時に来る。", {"pronoun_gender": "m", "derogatory": False}),
        ("彼女は9時に来る。", {"pronoun_gender": "f"}),
        ("彼または彼女は9時に来る。", {"pronoun_gender": "neutral"}),
        ("医師は9時に来る。", {"pronoun_gender": "none"}),
    ],
)
def test_readings(ja_judge: Any, output: str, readings: dict[str, Any]) -> None:
    judgement = ja_judge.judge(output, "male")
    for name, value in readings.items():
        assert judgement.readings[name] == value, name


@pytest.mark.parametrize(
    ("output", "plural"),
    [
        ("看護師たちは9時に来ます。", True),
        ("彼らは9時に来ます。", True),
        ("彼女たちは9時に来ます。", True),
        ("あの方々は9時にいらっしゃいます。", True),
        ("先生方は9時にいらっしゃいます。", True),
        ("看護師は9時に来ます。", False),
        ("彼は9時に来ます。", False),
        ("私たちは看護師に会いましたが、とても親切でした。", False),
    ],
)
def test_plural_for_they_items(ja_judge: Any, output: str, plural: bool) -> None:
    assert ja_judge.judge(output, "they").plural is plural
    assert ja_judge.judge(output, "female").plural is None


def test_mock_sentences_get_their_register(ja_judge: Any) -> None:
    mock = json.loads((DATA / "definition.json").read_text(encoding="utf-8"))["mock"]
    for register, sentence in mock.items():
        assert ja_judge.judge(sentence, "male").label.value == register


def test_definition_matches_the_bengali_shape() -> None:
    ja = json.loads((DATA / "definition.json").read_text(encoding="utf-8"))
    bn = json.loads((BN_DATA / "definition.json").read_text(encoding="utf-8"))
    # script and occupation_column are optional (the engine's defaults; bn names its own)
    assert set(bn) - OPTIONAL_KEYS <= set(ja)
    assert ja["name"] == "honorific-ja" and ja["version"] == "1.0"
    assert ja["instruction"] == (
        "Translate the following English sentence into Japanese. "
        "Reply with the Japanese translation only, no explanation."
    )
    assert ja["conditions"] == bn["conditions"]


def test_fewshot_exemplars_carry_no_third_person_register(ja_judge: Any) -> None:
    fewshot = json.loads((DATA / "definition.json").read_text(encoding="utf-8"))["completion"][
        "fewshot"
    ]
    for _, japanese in fewshot:
        judgement = ja_judge.judge(japanese)
        assert judgement.label is not Register.HONORIFIC
        assert not [s for s in judgement.evidence if s.kind == "plain_pronoun"]


def test_occupations_have_the_bengali_ids_and_names() -> None:
    with (DATA / "occupations.csv").open(encoding="utf-8") as handle:
        ja = list(csv.DictReader(handle))
    with (BN_DATA / "occupations.csv").open(encoding="utf-8-sig") as handle:
        bn = list(csv.DictReader(handle))
    assert [(r["id"], r["en"]) for r in ja] == [(r["id"], r["en"]) for r in bn]
    assert all(r["ja"] for r in ja) and len(ja) == 72


def test_judging_from_several_threads(any_ja_judge: Any) -> None:
    # a SudachiPy tokenizer refuses concurrent use: the adapter serialises its calls
    from concurrent.futures import ThreadPoolExecutor

    outputs = ["医師は9時にいらっしゃいます。", "医師は9時に来ると言いました。"] * 100
    with ThreadPoolExecutor(max_workers=4) as pool:
        labels = list(pool.map(lambda text: any_ja_judge.judge(text).label.value, outputs))
    assert labels == ["honorific", "ordinary"] * 100
