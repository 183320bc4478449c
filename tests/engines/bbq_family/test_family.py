"""What the BBQ family shares: one resolver of a pinned dataset folder, one prompted base, one
shape of a dataset's own scores."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from biasbench.engines.bbq_family.family import PromptedBBQBenchmark, choose_categories
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.source import (
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)
from biasbench.engines.bbq_family.presenting.dataset_scores import (
    scores_table,
    summary_lines,
    write_dataset_tables,
)
from biasbench.engines.bbq_family.scoring.dataset_scores import (
    SIGNED,
    UNIT,
    DatasetScores,
    Metric,
    SummaryLines,
)
from biasbench.errors import BiasbenchError

REPO = PinnedRepository("someone/data", "c" * 40, "BIASBENCH_T_BASE_URL", "t")
ENV = "BIASBENCH_T_DATA"
FILES = {"a.jsonl": b"one\n", "sub/b.json": b"[2]\n"}
SPEC = PinnedFolder(
    REPO,
    "data",
    {n: hashlib.sha256(d).hexdigest() for n, d in FILES.items()},
    "TBBQ",
    env=ENV,
    alternatives={"a.jsonl": ("a.csv", hashlib.sha256(b"x\n").hexdigest())},
    hint="choose with --categories",
)


def _copy(folder: Path, files: dict[str, bytes] = FILES) -> Path:
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)


def test_an_explicit_folder_wins_and_the_environment_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = _copy(tmp_path / "given")
    other = _copy(tmp_path / "other")
    monkeypatch.setenv(ENV, str(other))
    assert resolve_pinned_folder(SPEC, given, download=False) == given
    assert resolve_pinned_folder(SPEC, download=False) == other


def test_a_checkout_holding_the_folder_is_accepted(tmp_path: Path) -> None:
    _copy(tmp_path / "checkout" / "data")
    assert resolve_pinned_folder(SPEC, tmp_path / "checkout") == tmp_path / "checkout" / "data"


@pytest.mark.parametrize(
    ("present", "origin", "fragment"),
    [
        (None, "--data", "does not exist"),
        (
            {"a.jsonl": b"one\n"},
            "--data",
            "lacks sub/b.json; expected the files of data/ in "
            f"someone/data at commit {'c' * 40} (choose with "
            "--categories)",
        ),
        ({}, ENV, "lacks a.jsonl, sub/b.json"),
    ],
)
def test_a_missing_file_is_one_line_naming_folder_origin_and_files(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    present: dict[str, bytes] | None,
    origin: str,
    fragment: str,
) -> None:
    folder = tmp_path / "copy"
    if present is not None:
        folder.mkdir()
        _copy(folder, present)
    explicit = folder if origin == "--data" else None
    if origin == ENV:
        monkeypatch.setenv(ENV, str(folder))
    with pytest.raises(BiasbenchError) as caught:
        resolve_pinned_folder(SPEC, explicit)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"TBBQ data folder {folder} (from {origin}) ")
    assert fragment in message


def test_a_changed_file_is_one_warning_or_an_error_when_strict(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _copy(tmp_path / "copy", {**FILES, "a.jsonl": b"edited\n"})
    with caplog.at_level(logging.WARNING):
        assert resolve_pinned_folder(SPEC, folder) == folder
    assert [r.message for r in caplog.records] == [
        f"TBBQ data in {folder} differ from someone/data@{'c' * 12} (sha256 mismatch: "
        "a.jsonl); results will not be comparable with the paper's"
    ]
    with pytest.raises(BiasbenchError, match="sha256 mismatch: a.jsonl"):
        resolve_pinned_folder(SPEC, folder, strict=True)


def test_an_alternative_file_stands_in_for_a_missing_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _copy(tmp_path / "copy", {"a.csv": b"x\n", "sub/b.json": FILES["sub/b.json"]})
    with caplog.at_level(logging.WARNING):
        assert resolve_pinned_folder(SPEC, folder) == folder
    assert caplog.records == []


def test_beside_is_used_only_when_every_file_matches(tmp_path: Path) -> None:
    beside = _copy(tmp_path / "beside")
    assert resolve_pinned_folder(SPEC, beside=beside, cache_dir=tmp_path / "c") == beside
    (beside / "a.jsonl").write_bytes(b"edited\n")
    with pytest.raises(BiasbenchError, match="download disabled"):
        resolve_pinned_folder(SPEC, beside=beside, cache_dir=tmp_path / "c", download=False)


def test_the_cache_is_read_folder_by_folder_and_the_offline_error_says_what_to_fetch(
    tmp_path: Path,
) -> None:
    root = tmp_path / "c" / "t" / ("c" * 40) / "data"
    _copy(root)
    assert resolve_pinned_folder(SPEC, cache_dir=tmp_path / "c", download=False) == root
    (root / "sub" / "b.json").unlink()
    with pytest.raises(BiasbenchError) as caught:
        resolve_pinned_folder(SPEC, cache_dir=tmp_path / "c", download=False)
    message = str(caught.value)
    assert message.startswith("TBBQ data (sub) not found (no usable copy in the cache")
    assert (
        f"download data/sub/b.json from the GitHub repository someone/data at commit {'c' * 40}"
    ) in message
    assert f"put them in {root / 'sub'}, or pass --data DIR (or set {ENV}=DIR)" in message


def test_choose_categories() -> None:
    assert choose_categories(None, ("a", "b"), "X") == ("a", "b")
    assert choose_categories(" b ,a", ("a", "b"), "X") == ("b", "a")
    with pytest.raises(BiasbenchError, match=r"unknown X categories c \(known: a, b\)"):
        choose_categories("a,c", ("a", "b"), "X")


# ------------------------------------------------------------------------ the prompted base


class _Prompted(PromptedBBQBenchmark):
    name = "t"
    version = "1"
    languages = ("ja",)


@pytest.mark.parametrize(
    ("answer_cue", "base_cue", "chat", "completion"),
    [
        ("", "\nAnswer:", "C Q A B U", "C Q A B U\nAnswer:"),  # a cue set by hand
        ("。答案：", "", "C Q A B U。答案：", "C Q A B U。答案："),  # CBBQ, KoBBQ: both end in it
        # none set (BBQ, FilBBQ, EsBBQ, JBBQ): the language's answer cue, from the language table
        ("", None, "C Q A B U", "C Q A B U\n答え："),
        (
            "。答案：",
            None,
            "C Q A B U。答案：",
            "C Q A B U。答案：",
        ),  # an answer cue: no second one
    ],
)
def test_prompt_cues(
    tmp_path: Path, answer_cue: str, base_cue: str | None, chat: str, completion: str
) -> None:
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_text(
        'row["context"] + " " + row["question"] + " " + row["ans0"] + " " '
        '+ row["ans1"] + " " + row["ans2"]',
        encoding="utf-8",
    )
    item = BBQItem(
        example_id=0,
        question_index="1",
        question_polarity="neg",
        context_condition="ambig",
        category="Age",
        answer_info={"ans0": ["A", "a"], "ans1": ["B", "b"], "ans2": ["U", "unknown"]},
        additional_metadata={"stereotyped_groups": ["a"]},
        context="C",
        question="Q",
        ans0="A",
        ans1="B",
        ans2="U",
        label=2,
    )
    bench = _Prompted([item], source="t", data_source={})
    bench.use_prompt(prompt_file)
    bench.answer_cue, bench.base_model_cue = answer_cue, base_cue
    prompt = bench.prompt(item)
    assert prompt.messages == (("user", chat),) and prompt.completion == completion
    assert bench.prompt_hash == hashlib.sha256(prompt_file.read_bytes()).hexdigest()[:12]
    assert (_Prompted.default_seed_count, _Prompted.default_temperature) == (1, 0.0)


# ------------------------------------------------------------------------ a dataset's own scores

SCORES = DatasetScores(
    "T scores",
    "t = ...",
    (Metric("acc", "accuracy", UNIT), Metric("bias", "bias score", SIGNED)),
    lambda benchmark, responses: pd.DataFrame(),
    ("n",),
)


def _as_seeds(stat: dict) -> dict:
    """Without responses to resample there is only the interval across seeds: the default
    ci_* are it (interval "seeds"), and seeds_ci_* say the same."""
    assert stat["interval"] == "seeds"
    for part in ("low", "high", "status", "reason"):
        assert stat[f"ci_{part}"] == stat[f"seeds_ci_{part}"]
    return {k: v for k, v in stat.items() if k != "interval" and not k.startswith("seeds_ci")}


def test_dataset_scores_summarise_across_seeds_with_intervals() -> None:
    per_seed = pd.DataFrame(
        {
            "model": "m",
            "seed": [0, 1, 2, 0],
            "group": ["all", "all", "all", "Age"],
            "acc": [0.5, 0.6, 0.7, 1.0],
            "bias": [0.2, 0.2, 0.2, float("nan")],
            "n": [10, 10, 10, 4],
        }
    )
    models = {
        m: {
            g: {k: (_as_seeds(v) if isinstance(v, dict) else v) for k, v in e.items()}
            for g, e in groups.items()
        }
        for m, groups in SCORES.summarise(per_seed).items()
    }
    acc = models["m"]["all"]["acc"]
    half = stats.t.ppf(0.975, 2) * 0.1 / 3**0.5  # sd of 0.5, 0.6, 0.7 is 0.1
    assert acc["mean"] == pytest.approx(0.6) and acc["n_seeds"] == 3
    assert acc["ci_low"] == pytest.approx(0.6 - half) and acc["ci_status"] == "ok"
    assert acc["ci_high"] == pytest.approx(min(1.0, 0.6 + half))
    # every seed equal: no interval (round 3: it was written as 0.2..0.2), with its reason
    assert models["m"]["all"]["bias"] == {
        "mean": pytest.approx(0.2),
        "ci_low": None,
        "ci_high": None,
        "n_seeds": 3,
        "ci_status": "degenerate",
        "ci_reason": "every one of the 3 seeds gave the same value: no spread across seeds, "
        "not certainty (no interval)",
    }
    assert models["m"]["all"]["n"] == 30
    age = models["m"]["Age"]
    assert age["acc"] == {
        "mean": 1.0,
        "ci_low": None,
        "ci_high": None,
        "n_seeds": 1,
        "ci_status": "too_few_seeds",
        "ci_reason": "1 seed defines the score: fewer than 3",
    }
    assert age["bias"]["mean"] is None and age["bias"]["ci_status"] == "undefined"


def test_dataset_scores_jackknife_over_items_by_hand() -> None:
    """With the responses and the function that scores them, a dataset's
    metric gets the delete-a-group jackknife interval over items (one item per group when
    there are fewer than 20), which exists with one seed."""
    picks = [1, 1, 0, 1, 0, 1, 1, 1]  # 8 items, one seed: acc = 6/8

    def recompute(responses: pd.DataFrame) -> pd.DataFrame:
        return (
            responses.assign(acc=responses["pred_index"].eq(1).astype(float), n=1)
            .groupby(["model", "seed"], as_index=False)
            .agg(acc=("acc", "mean"), n=("n", "sum"))
            .assign(group="all", bias=0.0)
        )

    responses = pd.DataFrame(
        {"model": "m", "seed": 0, "uid": [f"i{k}" for k in range(8)], "pred_index": picks}
    )
    acc = SCORES.summarise(recompute(responses), responses, recompute)["m"]["all"]["acc"]
    leave_one_out = np.array([(6 - p) / 7 for p in picks])
    se = np.sqrt(7 / 8 * ((leave_one_out - leave_one_out.mean()) ** 2).sum())
    half = stats.t.ppf(0.975, 7) * se
    assert 0.75 + half > 1  # reaches past the range: cut at 1
    assert (acc["interval"], acc["n_groups"], acc["ci_status"]) == ("items+seeds", 8, "clipped")
    assert acc["ci_low"] == pytest.approx(0.75 - half) and acc["ci_high"] == 1.0
    assert acc["seeds_ci_status"] == "too_few_seeds" and acc["seeds_ci_low"] is None
    # the same on every item: no spread, so no interval (never a zero-width one)
    bias = SCORES.summarise(recompute(responses), responses, recompute)["m"]["all"]["bias"]
    assert bias["ci_status"] == "degenerate" and bias["ci_low"] is None


def test_dataset_scores_results_and_table(tmp_path: Path) -> None:
    per_seed = pd.DataFrame(
        {"model": "m", "seed": [0], "group": ["all"], "acc": [0.5], "bias": [-0.25], "n": [8]}
    )
    entry = SCORES.results(per_seed, rule="x")
    write_dataset_tables(entry, per_seed, tmp_path)
    assert (entry["name"], entry["definition"], entry["rule"]) == ("T scores", "t = ...", "x")
    assert entry["metrics"] == {"acc": "accuracy", "bias": "bias score"}
    assert (tmp_path / "dataset_scores_per_seed.csv").is_file()
    table = pd.read_csv(tmp_path / "dataset_scores.csv")
    assert list(table.columns) == [
        "model",
        "group",
        "accuracy",
        "accuracy: seeds",
        "bias score",
        "bias score: seeds",
    ]
    assert table.iloc[0]["bias score"] == -0.25
    assert scores_table(entry, {"m": "model m"})["model"].tolist() == ["model m"]


ENTRY = {
    "name": "T scores",
    "models": {
        "m": {
            "all": {
                "acc": {"mean": 0.5},
                "bias": {
                    "mean": -0.25,
                    "ci_status": "ok",
                    "ci_low": -0.5,
                    "ci_high": 0.0,
                    "interval": "items+seeds",
                },
            },
            "Age": {"acc": {"mean": 1.0}, "bias": {"mean": None}},
            "slice:x": {"acc": {"mean": 0.0}, "bias": {"mean": 0.0}},
        }
    },
}


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        # a line per group but the hidden slices; the all group's own line; signed bias shows "+"
        (
            SummaryLines(
                (("bias", "b"), ("acc", "a")),
                "{model} / {group}: {scores}",
                "{model} / {group}: {scores} [all]",
                hidden=("slice:",),
            ),
            [
                "m / all: b -0.250 [-0.500, +0.000] items+seeds, a 0.500 [all]",
                "m / Age: b undefined, a 1.000",
            ],
        ),
        # the all group only, named by the metrics' name; detail and notes from the entry
        (
            SummaryLines(
                (("acc", "acc"),),
                "{model} / {name}: {scores}",
                groups="all",
                detail=lambda entry, values: f" ({len(values)} metrics)",
                notes=lambda entry: [f"{len(entry['models'])} model(s)"],
            ),
            ["m / T scores: acc 0.500 (2 metrics)", "1 model(s)"],
        ),
    ],
)
def test_dataset_scores_summary_lines_follow_their_declaration(
    form: SummaryLines, expected: list[str]
) -> None:
    assert summary_lines(dataclasses.replace(SCORES, summary=form), ENTRY) == expected
    assert summary_lines(SCORES, ENTRY) == []  # declared without summary lines: none
