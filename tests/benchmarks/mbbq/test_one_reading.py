"""One reader: the two documented ways to score MBBQ answers, ``biasbench score mbbq`` and
``biasbench score bbq --items mbbq/es=FILE``, read the files by one function holding mbbq.py's
rules (:func:`biasbench.benchmarks.mbbq.source.load_mbbq_file`), so they exclude the same items
and give the same scores; a ``score bbq --items`` run whose answers nearly all matched no option
says in one line what may be wrong and how to fix it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from biasbench.benchmarks.mbbq.source import (
    DATA_DIGESTS,
    MAIN,
    MBBQ_REPOSITORY,
    load_mbbq_file,
    load_namespaced_file,
)
from biasbench.engines.bbq_family.items.items import load_bbq_jsonl
from biasbench.engines.bbq_family.scoring.bias_scores import exclusion_reason
from biasbench.errors import InputError
from tests.published_files import published_folder

FIXTURE = Path(__file__).parent / "fixtures" / "data"
CATEGORIES = ("SES", "Gender_identity")


def _cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )


def _reading(items: list) -> list[tuple[str, int | None, str | None]]:
    return [(i.uid, i.target_answer, exclusion_reason(i)) for i in items]


@pytest.mark.parametrize(("category", "excluded"), [("Gender_identity", 6), ("SES", 0)])
def test_items_files_in_an_mbbq_namespace_are_read_by_mbbqs_rules(
    category: str, excluded: int
) -> None:
    path = FIXTURE / f"{category}_es.jsonl"
    by_mbbq = load_mbbq_file(path, category, "es", MAIN).items
    by_items = load_bbq_jsonl([f"mbbq/es={path}"])
    assert _reading(by_items) == _reading(by_mbbq)
    assert sum(reason is not None for *_, reason in _reading(by_items)) == excluded
    assert {i.language for i in by_items} == {"es"}
    # The engine's own label reading (no namespace) knows no Spanish words: more excluded.
    plain = load_bbq_jsonl([path])
    assert sum(exclusion_reason(i) is not None for i in plain) > excluded or category == "SES"


def test_a_namespace_outside_mbbqs_languages_is_one_error() -> None:
    with pytest.raises(InputError, match="no MBBQ namespace"):
        load_namespaced_file(FIXTURE / "SES_es.jsonl", "mbbq/fr")
    with pytest.raises(InputError, match="category 'SES' in the Age file"):
        load_mbbq_file(FIXTURE / "SES_es.jsonl", "Age", "es", MAIN)


def _answers(folder: Path, path: Path) -> None:
    """A fixed pseudo-random option per item of the Spanish SES and Gender_identity files."""
    rows = []
    for category in CATEGORIES:
        for line in (folder / f"{category}_es.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            key = f"{category}:{row['example_id']}".encode()
            rows.append(
                {
                    "example_id": row["example_id"],
                    "category": category,
                    "model": "m",
                    "pred": int(hashlib.sha256(key).hexdigest(), 16) % 3,
                }
            )
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _both_paths(folder: Path, tmp_path: Path) -> tuple[dict, dict]:
    responses = tmp_path / "responses.jsonl"
    _answers(folder, responses)
    by_mbbq = _cli(
        "score",
        "mbbq",
        "--responses",
        responses,
        "--languages",
        "es",
        "--set",
        "main",
        "--categories",
        ",".join(CATEGORIES),
        "--data",
        folder,
        "--out",
        tmp_path / "mbbq",
    )
    assert by_mbbq.returncode == 0, by_mbbq.stderr
    items = ",".join(f"mbbq/es={folder / f'{c}_es.jsonl'}" for c in CATEGORIES)
    by_items = _cli(
        "score", "bbq", "--responses", responses, "--items", items, "--out", tmp_path / "bbq"
    )
    assert by_items.returncode == 0, by_items.stderr
    return tuple(
        json.loads((tmp_path / name / "results.json").read_text()) for name in ("mbbq", "bbq")
    )  # type: ignore[return-value]


def _compare(by_mbbq: dict, by_items: dict, excluded: int) -> None:
    assert by_items["excluded_by_reason"] == by_mbbq["excluded_by_reason"]
    assert sum(by_items["excluded_by_reason"]["Gender_identity"].values()) == excluded
    for category in CATEGORIES:
        mine, theirs = by_items["models"]["m"][category], by_mbbq["models"]["m"][category]
        for score in ("s_amb", "s_dis", "acc_ambig", "acc_disambig"):
            assert mine[score]["mean"] == theirs[score]["mean"], (category, score)
            assert mine[score]["ci_low"] == theirs[score]["ci_low"], (category, score)


def test_score_mbbq_and_score_bbq_items_agree_on_the_fixture(tmp_path: Path) -> None:
    _compare(*_both_paths(FIXTURE, tmp_path), excluded=6)


def test_score_mbbq_and_score_bbq_items_agree_on_the_published_files(tmp_path: Path) -> None:
    names = [f"data/{c}_es.jsonl" for c in CATEGORIES]
    folder = (
        published_folder(MBBQ_REPOSITORY, names, tmp_path / "published", "BIASBENCH_MBBQ_CHECKOUT")
        / "data"
    )
    assert {f"{c}_es.jsonl" for c in CATEGORIES} <= set(DATA_DIGESTS)
    _compare(*_both_paths(folder, tmp_path), excluded=28)  # mbbq.py's own 28, not 192


@pytest.mark.parametrize(
    ("namespace", "said"),
    [
        ("", "the items name no language, so the answers were read with the English"),
        ("mbbq/es=", "the items were read as es; if the answers are in another language"),
    ],
)
def test_nearly_all_unparsed_says_what_may_be_wrong(
    tmp_path: Path, namespace: str, said: str
) -> None:
    path = FIXTURE / "SES_es.jsonl"
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {
                    "example_id": r["example_id"],
                    "category": "SES",
                    "model": "m",
                    "output": "Bu soruyu cevaplayamam",
                }
            )
            + "\n"
            for r in rows
        ),
        encoding="utf-8",
    )
    done = _cli(
        "score",
        "bbq",
        "--responses",
        responses,
        "--items",
        f"{namespace}{path}",
        "--out",
        tmp_path / "out",
    )
    assert done.returncode == 0, done.stderr
    hint = [line for line in done.stdout.splitlines() if "matched no option" in line]
    assert len(hint) == 1 and f"{len(rows)} of {len(rows)} answers" in hint[0]
    assert said in hint[0] and "--items mbbq/es=SES_es.jsonl" in hint[0]
    # the routes it suggests work: a built-in pack by namespace, or the user's own pack
    assert "--language-rules FILE" in hint[0] and "ur" in hint[0]
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["unparsed_hint"] == hint[0]


def test_parsed_answers_get_no_hint(tmp_path: Path) -> None:
    path = FIXTURE / "SES_es.jsonl"
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {"example_id": r["example_id"], "category": "SES", "model": "m", "output": "A"}
            )
            + "\n"
            for r in rows
        ),
        encoding="utf-8",
    )
    done = _cli(
        "score",
        "bbq",
        "--responses",
        responses,
        "--items",
        f"mbbq/es={path}",
        "--out",
        tmp_path / "out",
    )
    assert done.returncode == 0, done.stderr
    assert "matched no option" not in done.stdout
    assert "unparsed_hint" not in json.loads((tmp_path / "out" / "results.json").read_text())
