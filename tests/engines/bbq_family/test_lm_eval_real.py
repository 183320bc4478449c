"""lm-evaluation-harness logs written by lm-eval 0.4.13 itself (its own bbq, bbq_generate, esbbq
and cabbq task configs, the datasets pointed at the fixture items;
tests/fixtures/harness_logs/lm_eval_real/make_lm_eval_logs.py) read as the tool wrote them."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from biasbench.engines.bbq_family.harness_logs.builtin import builtin_metrics
from biasbench.engines.bbq_family.harness_logs.lm_eval import read_lm_eval
from biasbench.engines.bbq_family.harness_logs.rescore import read_harness_log, score_harness_log
from tests.engines.bbq_family.test_harness_logs import bench

REAL = Path(__file__).parents[2] / "fixtures" / "harness_logs" / "lm_eval_real"


def _results(folder: Path) -> dict[str, Any]:
    [path] = sorted(folder.rglob("results_*.json"))[-1:]
    return json.loads(path.read_text(encoding="utf-8"))["results"]


def _scored(name: str, folder: Path, tmp_path: Path) -> dict[str, Any]:
    benchmark = bench(name)
    log = read_harness_log("lm-eval", folder, benchmark)
    return score_harness_log(benchmark, log, tmp_path / "scored", source=str(folder))


# (benchmark, folder, samples, tasks)
@pytest.mark.parametrize(
    ("name", "folder", "n_samples", "tasks"),
    [
        ("bbq", "bbq", 12, ["bbq"]),  # a rerun into one --output_path: the latest run only
        ("bbq", "bbq_both", 24, ["bbq", "bbq_generate"]),  # one run of both tasks
        ("bbq", "bbq_generate", 12, ["bbq_generate"]),
        ("esbbq", "esbbq", 12, ["esbbq_gender", "esbbq_ses"]),
        ("cabbq", "cabbq", 12, ["cabbq_age", "cabbq_lgbtqia"]),
    ],
)
def test_real_logs_are_read(name: str, folder: str, n_samples: int, tasks: list[str]) -> None:
    log = read_lm_eval(REAL / folder, bench(name).by_uid, benchmark=name)
    assert (len(log.samples), sorted(set(log.tasks))) == (n_samples, tasks)


@pytest.mark.parametrize(
    ("name", "folder"),
    [
        ("bbq", "bbq"),
        ("bbq", "bbq_both"),
        ("bbq", "bbq_generate"),
        ("esbbq", "esbbq"),
        ("cabbq", "cabbq"),
    ],
)
def test_builtin_metrics_equal_what_lm_eval_reported(name: str, folder: str) -> None:
    """Every metric lm-eval computed, recomputed from its per-sample fields: equal."""
    log = read_lm_eval(REAL / folder, bench(name).by_uid, benchmark=name)
    found = builtin_metrics(log)
    compared = 0
    for (model, task), reported in log.reported.items():
        for metric, value in reported.items():
            if value is None or (model, task) not in found or metric not in found[(model, task)]:
                continue
            assert found[(model, task)][metric].value == pytest.approx(value, abs=1e-12), (
                folder,
                task,
                metric,
            )
            compared += 1
    assert compared >= 4


@pytest.mark.parametrize("task", ["bbq", "bbq_generate"])
def test_accuracy_disamb_without_the_results_file_is_lm_evals(tmp_path: Path, task: str) -> None:
    """Without results_*.json, accuracy_disamb is lm-eval's agg_accuracy_disamb (the mean over
    the disambiguated samples), never the ambiguous accuracy."""
    source = REAL / ("bbq_generate" if task == "bbq_generate" else "bbq")
    samples = sorted(source.rglob(f"samples_{task}_*.jsonl"))[-1]
    shutil.copy(samples, tmp_path / samples.name)
    reported = _results(source)[task]
    log = read_lm_eval(tmp_path, bench("bbq").by_uid)
    [found] = builtin_metrics(log).values()
    assert reported["accuracy_disamb,none"] != reported["accuracy_amb,none"]
    assert found["accuracy_disamb"].value == pytest.approx(reported["accuracy_disamb,none"])
    assert found["accuracy_amb"].value == pytest.approx(reported["accuracy_amb,none"])


def test_one_run_of_bbq_and_bbq_generate_is_two_answerers(tmp_path: Path) -> None:
    results = _scored("bbq", REAL / "bbq_both", tmp_path)
    block = results["harness_log"]
    models = {r["model"] for r in block["comparison"]}
    assert {m.rsplit(" ", 1)[-1] for m in models} == {"[bbq]", "[bbq_generate]"}
    assert any("scored apart" in note for note in block["notes"])
    rows = {(r["task"], r["metric"]): r for r in block["comparison"]}
    reported = _results(REAL / "bbq_both")
    for task in ("bbq", "bbq_generate"):
        assert rows[(task, "acc")]["harness"] == pytest.approx(reported[task]["acc,none"])


def test_a_rerun_into_the_same_folder_reads_the_latest_run(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    shutil.copytree(REAL / "bbq", folder)
    [older, newer] = sorted(folder.rglob("samples_bbq_*.jsonl"))
    lines = older.read_text(encoding="utf-8").splitlines()
    older.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")  # the earlier run differs
    log = read_lm_eval(folder, bench("bbq").by_uid)
    assert len(log.samples) == 12
    assert log.files == [str(newer)]
    assert "2 runs of lm-eval task bbq; the latest" in log.notes[0]


def _with_nan(tmp_path: Path, dataset: str) -> Path:
    """The real log, with lm-eval's group and one subtask reporting bias_score_disambig NaN (as
    it does where a subtask has no pro- or anti-stereotypical question)."""
    folder = tmp_path / dataset
    shutil.copytree(REAL / dataset, folder)
    [path] = folder.rglob("results_*.json")
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    first = f"{dataset}_{'gender' if dataset == 'esbbq' else 'age'}"
    for task in (first, dataset):
        data["results"][task]["bias_score_disambig,none"] = math.nan
    path.write_text(json.dumps(data), encoding="utf-8")
    return folder


@pytest.mark.parametrize("dataset", ["esbbq", "cabbq"])
def test_rows_lm_eval_reports_as_nan_are_shown(tmp_path: Path, dataset: str) -> None:
    results = _scored(dataset, _with_nan(tmp_path, dataset), tmp_path)
    rows = {(r["task"], r["metric"]): r for r in results["harness_log"]["comparison"]}
    row = rows[(dataset, "bias_score_disambig")]
    assert row["harness"] is None and row["biasbench"] is not None
    assert row["differs"] is True and "NaN" in row["why"]


@pytest.mark.parametrize("dataset", ["esbbq", "cabbq"])
def test_group_rows_only_where_lm_eval_computed_the_group(tmp_path: Path, dataset: str) -> None:
    """Subtasks run alone (no group in results_*.json): no group row with a value lm-eval never
    computed; the group run: its four metrics, as reported."""
    folder = tmp_path / dataset
    shutil.copytree(REAL / dataset, folder)
    [path] = folder.rglob("results_*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    group = data["results"].pop(dataset)
    path.write_text(json.dumps(data), encoding="utf-8")
    alone = _scored(dataset, folder, tmp_path / "alone")["harness_log"]["comparison"]
    assert dataset not in {r["task"] for r in alone}
    together = _scored(dataset, REAL / dataset, tmp_path / "group")["harness_log"]["comparison"]
    rows = {r["metric"]: r["harness"] for r in together if r["task"] == dataset}
    assert rows == pytest.approx(
        {k.split(",")[0]: v for k, v in group.items() if k.endswith(",none") and "stderr" not in k}
    )
