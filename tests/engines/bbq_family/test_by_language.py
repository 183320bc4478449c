"""Several languages (namespaces) in one BBQ run: the engine scores per (model, namespace,
category) only when items carry more than one namespace; runs with one are unchanged. Uses
the MBBQ fixture slices (tests/benchmarks/mbbq/fixtures)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from biasbench.engines.bbq_family.items.items import load_bbq_jsonl
from biasbench.engines.bbq_family.items.sample import stratified_sample
from biasbench.engines.bbq_family.judging.labels import read_bbq_responses
from biasbench.engines.bbq_family.scoring.bias_scores import item_table, target_index
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
from biasbench.errors import InputError

MBBQ = Path(__file__).parents[2] / "benchmarks" / "mbbq" / "fixtures" / "data"


def _items(*entries: str) -> list:
    return load_bbq_jsonl(",".join(entries))


def test_one_namespace_keeps_plain_categories() -> None:
    plain = _items(str(MBBQ / "Age_en.jsonl"))
    one = _items(f"mbbq/en={MBBQ / 'Age_en.jsonl'}")
    assert plain[0].uid == "Age:0" and one[0].uid == "mbbq/en/Age:0"
    assert one[0].language == "en"  # the namespace's last part is a language code
    assert _items(f"bbq={MBBQ / 'Age_en.jsonl'}")[0].language is None  # no "/": no language
    for items in (plain, one):
        assert set(item_table(items)["category"]) == {"Age"}


def test_several_namespaces_are_scored_apart() -> None:
    items = _items(f"mbbq/en={MBBQ / 'Age_en.jsonl'}", f"mbbq/es={MBBQ / 'Age_es.jsonl'}")
    assert set(item_table(items)["category"]) == {"mbbq/en/Age", "mbbq/es/Age"}
    # stereotyped in English, always unknown in Spanish: the two must not be pooled
    rows = [
        {
            "model": "m",
            "seed": 0,
            "uid": i.uid,
            "pred": target_index(i) if i.language == "en" else i.unknown_index,
        }
        for i in items
    ]
    scored = score_responses(items, pd.DataFrame(rows)).by_category.set_index("category")
    assert scored.loc["mbbq/en/Age", "s_dis_mean"] == 1.0
    assert scored.loc["mbbq/es/Age", "acc_ambig_mean"] == 1.0
    assert pd.isna(scored.loc["mbbq/es/Age", "s_dis_mean"])


def test_limit_takes_parallel_items_in_every_namespace() -> None:
    items = _items(
        f"mbbq/en={MBBQ / 'Age_en.jsonl'}",
        f"mbbq/es={MBBQ / 'Age_es.jsonl'}",
        f"mbbq/en={MBBQ / 'SES_en.jsonl'}",
        f"mbbq/es={MBBQ / 'SES_es.jsonl'}",
    )
    chosen = stratified_sample(items, 4)
    assert sorted(i.uid for i in chosen) == [
        "mbbq/en/Age:0",
        "mbbq/en/SES:3",
        "mbbq/es/Age:0",
        "mbbq/es/SES:3",
    ]
    # the same items in both languages; each language has both context conditions
    for code in ("en", "es"):
        assert {i.context_condition for i in chosen if i.language == code} == {"ambig", "disambig"}


@pytest.mark.parametrize(
    ("extra", "uid"),
    [
        ({"namespace": "mbbq/es"}, "mbbq/es/Age:1"),
        ({"language": "es"}, "mbbq/es/Age:1"),
    ],
)
def test_responses_name_their_language(tmp_path: Path, extra: dict[str, str], uid: str) -> None:
    items = _items(f"mbbq/en={MBBQ / 'Age_en.jsonl'}", f"mbbq/es={MBBQ / 'Age_es.jsonl'}")
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps({"example_id": 1, "category": "Age", "model": "m", "pred": 0, **extra}) + "\n"
    )
    frame = read_bbq_responses(path, {i.uid: i for i in items})
    assert frame["uid"].tolist() == [uid]


@pytest.mark.parametrize(
    ("entries", "uid", "error"),
    [
        # one namespace (a one-language run): a response that does not name it is unambiguous
        (("mbbq/es",), "mbbq/es/Age:1", None),
        # two: it must say which (found live: the error named neither field)
        (("mbbq/en", "mbbq/es"), None, "2 items are Age:1 .*give namespace or language"),
    ],
)
def test_a_response_without_namespace(
    tmp_path: Path, entries: tuple[str, ...], uid: str | None, error: str | None
) -> None:
    files = {"mbbq/en": MBBQ / "Age_en.jsonl", "mbbq/es": MBBQ / "Age_es.jsonl"}
    items = _items(*(f"{name}={files[name]}" for name in entries))
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps({"example_id": 1, "category": "Age", "model": "m", "pred": 0}) + "\n"
    )
    if error:
        with pytest.raises(InputError, match=error):
            read_bbq_responses(path, {i.uid: i for i in items})
    else:
        assert read_bbq_responses(path, {i.uid: i for i in items})["uid"].tolist() == [uid]


def test_a_language_two_namespaces_share_needs_the_namespace(tmp_path: Path) -> None:
    items = _items(
        f"mbbq/es={MBBQ / 'Age_es.jsonl'}", f"mbbq-control/es={MBBQ / 'Age_control_es.jsonl'}"
    )
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps({"example_id": 1, "category": "Age", "model": "m", "pred": 0, "language": "es"})
        + "\n"
    )
    with pytest.raises(InputError, match="give namespace"):
        read_bbq_responses(path, {i.uid: i for i in items})


def test_score_bbq_over_files_of_several_languages(tmp_path: Path) -> None:
    entries = [f"mbbq/{code}={MBBQ / f'SES_{code}.jsonl'}" for code in ("en", "es", "nl", "tr")]
    items = _items(*entries)
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {
                    "example_id": i.example_id,
                    "category": i.category,
                    "language": i.language,
                    "model": "m",
                    "pred": i.label,
                }
            )
            + "\n"
            for i in items
        )
    )
    out = tmp_path / "scored"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "score",
            "bbq",
            "--items",
            ",".join(entries),
            "--responses",
            str(responses),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    assert set(results["by_language"]["m"]) == {f"mbbq/{c}" for c in ("en", "es", "nl", "tr")}
    for space in results["by_language"]["m"].values():
        assert space["categories"]["all"]["acc_disambig"]["mean"] == 1.0
    table = pd.read_csv(out / "tables" / "by_language.csv")  # score folders keep tables/
    assert table["language"].tolist() == ["en", "en", "es", "es", "nl", "nl", "tr", "tr"]


def test_one_namespace_writes_no_language_view(tmp_path: Path) -> None:
    from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
    from biasbench.runfolder.derived import write_results

    items = _items(str(MBBQ / "SES_en.jsonl"))
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {"example_id": i.example_id, "category": i.category, "model": "m", "pred": i.label}
            )
            + "\n"
            for i in items
        )
    )
    # `score bbq --items`
    bench = OriginalBBQBenchmark.with_options(items=str(MBBQ / "SES_en.jsonl"))
    write_results(
        bench.score(bench.read_responses(responses), tmp_path / "out", source=str(responses)),
        tmp_path / "out",
    )
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert "by_language" not in results
    assert not list((tmp_path / "out").rglob("by_language*"))
    labels = json.loads((tmp_path / "out" / "labels.jsonl").read_text().splitlines()[0])
    assert "namespace" not in labels and "language" not in labels
