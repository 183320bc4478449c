"""``biasbench export --format eee | hf-eval-results | inspect``: each format checked with the
real libraries (the JSON schemas every-eval-ever 0.3.0 ships, with jsonschema; inspect-ai's
``read_eval_log``; huggingface_hub's parser of ``.eval_results``), the round trips (``score NAME
--from inspect|eee`` gives the run's scores) and the refusal for request-only data (JBBQ).

Runs: honorific-bn (mock, 40 items), bbq on items generated from the template slices its tests
ship (3 seeds), jbbq on its SYNTHETIC fixture; nothing is downloaded."""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
from biasbench.errors import BiasbenchError
from biasbench.export import scores_table
from biasbench.exporting import export_travelling
from biasbench.exporting.eee import aggregate_record, load_schema
from biasbench.exporting.inspect_log import eval_log
from biasbench.exporting.metrics import is_count
from biasbench.exporting.provenance import provenance_of
from biasbench.exporting.scores import Score, run_scores
from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark
from biasbench.runfolder.reading import load_run

pytest.importorskip("inspect_ai")
HERE = Path(__file__).resolve().parents[1]
BBQ_TEMPLATES = HERE / "benchmarks" / "bbq" / "fixtures" / "bbq_templates"
JBBQ_SYNTHETIC = HERE / "benchmarks" / "jbbq" / "fixtures" / "synthetic"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("travel")
    run_benchmark(
        "honorific-bn",
        out=root / "hb",
        limit=40,
        progress=False,
        backend=MockBackend("hashed-register"),
    )
    items = root / "bbq_items"
    OriginalBBQBenchmark.generate_items(
        items, templates=BBQ_TEMPLATES, seed=3, categories="Disability_status,SES"
    )
    bbq_options = {
        "items": f"{items / 'Disability_status.jsonl'},{items / 'SES.jsonl'}",
        "templates": BBQ_TEMPLATES,
    }
    run_benchmark(
        "bbq",
        "mock:hashed-letter",
        out=root / "bq",
        limit=60,
        seeds=[0, 1, 2],
        progress=False,
        benchmark_options=bbq_options,
    )
    run_benchmark(
        "jbbq",
        "mock:hashed-letter",
        out=root / "jb",
        limit=20,
        progress=False,
        benchmark_options={"data": JBBQ_SYNTHETIC},
    )
    return {"hb": root / "hb", "bq": root / "bq", "jb": root / "jb", "bbq_options": bbq_options}


def _cli(*args: str) -> str:
    from biasbench.cli import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _same_scores(run: Path, rescored: Path) -> None:
    """Every score (not the counts, not the run's coverage: a rescoring has no --limit) equal,
    interval included."""

    def scores(folder: Path) -> pd.DataFrame:
        table = scores_table(load_run(folder))
        kept = ~table["statistic"].map(is_count) & ~table["group"].eq("coverage")
        return table[kept].set_index(["model", "group", "statistic"])

    before, after = scores(run), scores(rescored)
    assert len(before) > 5 and sorted(before.index) == sorted(after.index)
    for column in ("value", "ci_low", "ci_high"):
        for key, value in before[column].items():
            other = after.loc[key, column]
            assert (math.isnan(value) and math.isnan(other)) or value == pytest.approx(
                other, abs=1e-12
            ), (key, column)


@pytest.mark.parametrize("name", ["hb", "bq"])
def test_eee_records_validate_and_carry_every_score(
    runs: dict[str, Path], tmp_path: Path, name: str
) -> None:
    written, notes = export_travelling([runs[name]], "eee", tmp_path)
    assert notes == [] and len(written) == 2  # one model: its record and its instances
    record_path = next(p for p in written if p.suffix == ".json")
    samples_path = next(p for p in written if p.name.endswith("_samples.jsonl"))
    record = json.loads(record_path.read_text(encoding="utf-8"))
    jsonschema.validate(record, load_schema("aggregate"), cls=jsonschema.Draft7Validator)
    instances = [json.loads(line) for line in samples_path.read_text("utf-8").splitlines()]
    validator = jsonschema.Draft7Validator(load_schema("instance"))
    assert [e.message for r in instances for e in validator.iter_errors(r)] == []
    run = load_run(runs[name])
    wanted = {
        s.key: s for s in run_scores(run) if s.value is not None and not is_count(s.statistic)
    }
    results = {r["evaluation_result_id"]: r for r in record["evaluation_results"]}
    assert set(results) == set(wanted)
    for key, result in results.items():
        assert result["score_details"]["score"] == wanted[key].value
        assert result["score_details"]["details"]["biasbench_signature"].startswith(
            f"{run.benchmark}:"
        )
        assert result["source_data"]["additional_details"]["dataset_licence"] == (
            provenance_of(run.benchmark).licence
        )
    # the detailed file is named, counted and checksummed as the schema asks
    detail = record["detailed_evaluation_results"]
    assert (tmp_path / detail["file_path"]) == samples_path
    assert detail["total_rows"] == len(instances) == len(run.labels)
    assert all(i["metadata"]["biasbench_signature"] for i in instances)
    # two rules every-eval-ever's own validator adds to its schema (both once broken here)
    assert {i["model_id"] for i in instances} == {record["model_info"]["id"]}
    assert all(
        r["metric_config"]["min_score"] is not None and r["metric_config"]["max_score"] is not None
        for r in record["evaluation_results"]
    )


@pytest.mark.skipif(
    not os.environ.get("BIASBENCH_EEE_VALIDATOR"),
    reason="set BIASBENCH_EEE_VALIDATOR to the every_eval_ever command of a "
    "Python 3.12 environment (docs/exporting.md)",
)
def test_every_eval_ever_own_validator_accepts_the_records(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    written, _ = export_travelling([runs["hb"], runs["bq"]], "eee", tmp_path)
    done = subprocess.run(
        [os.environ["BIASBENCH_EEE_VALIDATOR"], "validate", "--format", "json", *map(str, written)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    report = json.loads(done.stdout)
    assert [(f["file"], f["errors"]) for f in report if not f["valid"]] == []
    assert len(report) == len(written) == 4


def test_eee_bbq_intervals_direction_and_instances(runs: dict[str, Path], tmp_path: Path) -> None:
    written, _ = export_travelling([runs["bq"]], "eee", tmp_path)
    record = json.loads(next(p for p in written if p.suffix == ".json").read_text("utf-8"))
    by_id = {r["evaluation_result_id"]: r for r in record["evaluation_results"]}
    s_amb = by_id["SES/s_amb"]
    assert (
        s_amb["metric_config"]["min_score"] == -1.0 and s_amb["metric_config"]["max_score"] == 1.0
    )
    assert s_amb["metric_config"]["metric_parameters"] == {"optimum": 0.0, "direction": "zero"}
    interval = s_amb["score_details"]["uncertainty"]["confidence_interval"]
    assert interval["lower"] < s_amb["score_details"]["score"] < interval["upper"]
    assert "items+seeds" in interval["method"] and interval["confidence_level"] == 0.95
    accuracy = by_id["SES/acc_ambig"]["metric_config"]
    assert (accuracy["metric_id"], accuracy["lower_is_better"]) == ("accuracy", False)
    counts = json.loads(record["source_metadata"]["additional_details"]["counts"])
    labels = load_run(runs["bq"]).labels
    # counts travel apart from the scores: every SES response of the 3 seeds
    assert counts["SES/n_responses"] == float((labels["category"] == "SES").sum()) > 0
    instance = json.loads(
        next(p for p in written if p.suffix == ".jsonl").read_text("utf-8").splitlines()[0]
    )
    attribution = instance["answer_attribution"][0]
    assert attribution["extracted_value"] in ("A", "B", "C")
    assert "bbq-parser" in attribution["extraction_method"]
    assert instance["evaluation"]["is_correct"] == (
        instance["input"]["choices"]["ABC".index(attribution["extracted_value"])]
        == instance["input"]["reference"][0]
    )


def test_an_undefined_score_stays_null_with_its_reason(runs: dict[str, Path]) -> None:
    run = load_run(runs["bq"])
    model = run.models[0]
    scores = [
        *run_scores(run),
        Score(model, "SES", "s_dis", None, reason="no disambiguated item parsed"),
    ]
    record = aggregate_record(run, model, scores, provenance_of("bbq"), "0")
    jsonschema.validate(record, load_schema("aggregate"), cls=jsonschema.Draft7Validator)
    undefined = json.loads(record["source_metadata"]["additional_details"]["undefined_scores"])
    assert {
        "evaluation_result_id": "SES/s_dis",
        "value": None,
        "reason": "no disambiguated item parsed",
    } in undefined
    assert all(r["score_details"]["score"] is not None for r in record["evaluation_results"])


@pytest.mark.parametrize("name", ["hb", "bq"])
def test_inspect_log_reads_with_inspect_ai(
    runs: dict[str, Path], tmp_path: Path, name: str
) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    (path,), notes = export_travelling([runs[name]], "inspect", tmp_path)
    run = load_run(runs[name])
    log = read_eval_log(str(path))
    assert (log.status, log.eval.task, log.eval.model) == ("success", run.benchmark, run.models[0])
    assert len(log.samples or []) == len(run.labels)
    metrics = log.results.scores[0].metrics
    defined = {
        s.key: s.value for s in run_scores(run) if s.value is not None and not is_count(s.statistic)
    }
    assert {k: m.value for k, m in metrics.items()} == pytest.approx(defined)
    assert log.eval.metadata["dataset_licence"] == provenance_of(run.benchmark).licence
    sample = log.samples[0]
    assert sample.scores["biasbench"].metadata["evidence"]
    assert sample.output.completion == run.labels.iloc[0]["output"]
    # the JSON form too: inspect-ai writes and reads it
    json_path = tmp_path / "log.json"
    write_eval_log(eval_log(run, run.models[0], provenance_of(run.benchmark)), str(json_path))
    assert len(read_eval_log(str(json_path)).samples or []) == len(run.labels)


def test_round_trip_honorific_inspect_and_eee(runs: dict[str, Path], tmp_path: Path) -> None:
    (log,), _ = export_travelling([runs["hb"]], "inspect", tmp_path / "inspect")
    _cli(
        "score",
        "honorific-bn",
        "--from",
        "inspect",
        "--responses",
        str(log),
        "--out",
        str(tmp_path / "from_inspect"),
    )
    _same_scores(runs["hb"], tmp_path / "from_inspect")
    export_travelling([runs["hb"]], "eee", tmp_path / "eee")
    _cli(
        "score",
        "honorific-bn",
        "--from",
        "eee",
        "--responses",
        str(tmp_path / "eee" / "data"),
        "--out",
        str(tmp_path / "from_eee"),
    )
    _same_scores(runs["hb"], tmp_path / "from_eee")


def test_round_trip_bbq_inspect_and_eee(runs: dict[str, Path], tmp_path: Path) -> None:
    options = runs["bbq_options"]
    common = ("--items", str(options["items"]), "--templates", str(options["templates"]))
    (log,), _ = export_travelling([runs["bq"]], "inspect", tmp_path / "inspect")
    _cli(
        "score",
        "bbq",
        *common,
        "--from",
        "inspect",
        "--responses",
        str(log),
        "--out",
        str(tmp_path / "from_inspect"),
    )  # the BBQ engine's own inspect reader
    _same_scores(runs["bq"], tmp_path / "from_inspect")
    export_travelling([runs["bq"]], "eee", tmp_path / "eee")
    _cli(
        "score",
        "bbq",
        *common,
        "--from",
        "eee",
        "--responses",
        str(tmp_path / "eee"),
        "--out",
        str(tmp_path / "from_eee"),
    )
    _same_scores(runs["bq"], tmp_path / "from_eee")


def test_hf_eval_results_headlines_and_draft(runs: dict[str, Path], tmp_path: Path) -> None:
    from huggingface_hub import parse_eval_result_entries

    written, notes = export_travelling(
        [runs["bq"], runs["hb"]], "hf-eval-results", tmp_path, hf_dataset=None
    )
    assert notes == []
    bbq = parse_eval_result_entries(
        yaml.safe_load(
            (tmp_path / "mock-hashed-letter" / ".eval_results" / "bbq.yaml").read_text("utf-8")
        )
    )
    scores = {s.key: s.value for s in run_scores(load_run(runs["bq"]))}
    assert [(e.task_id, e.value) for e in bbq] == [
        ("bbq_disability_status", round(scores["Disability_status/s_amb"], 6)),
        ("bbq_ses", round(scores["SES/s_amb"], 6)),
    ]
    assert all(
        e.dataset_id == "biasbench/bbq" and "signature bbq:1.0" in (e.notes or "") for e in bbq
    )
    (honorific,) = parse_eval_result_entries(
        yaml.safe_load(
            (tmp_path / "mock-hashed-register" / ".eval_results" / "honorific-bn.yaml").read_text(
                "utf-8"
            )
        )
    )
    hb_scores = {s.key: s.value for s in run_scores(load_run(runs["hb"]))}
    assert (honorific.task_id, honorific.value) == ("honorific-bn", round(hb_scores["hai_pp"], 6))
    full = json.loads((tmp_path / "scores" / "hb--mock-hashed-register.json").read_text("utf-8"))
    assert full["signature"].startswith("honorific-bn:") and len(full["scores"]) == len(hb_scores)
    draft = yaml.safe_load((tmp_path / "eval.yaml.drafts" / "bbq.eval.yaml").read_text("utf-8"))
    assert [t["id"] for t in draft["tasks"]] == ["bbq_disability_status", "bbq_ses"]


@pytest.mark.parametrize("fmt", ["eee", "hf-eval-results"])
def test_request_only_data_is_refused_for_public_hubs(
    runs: dict[str, Path], tmp_path: Path, fmt: str
) -> None:
    with pytest.raises(BiasbenchError) as caught:
        export_travelling([runs["jb"]], fmt, tmp_path / "out")
    message = str(caught.value)
    assert "\n" not in message and "jbbq" in message and "redistribut" in message
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_request_only_data_in_an_inspect_log_leaves_the_items_out(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    from inspect_ai.log import read_eval_log

    (path,), notes = export_travelling([runs["jb"]], "inspect", tmp_path)
    assert notes == [
        "jb: jbbq's items may not be shared (request-only (a form); redistribution "
        "prohibited (its README); not shipped or downloaded): left out input, "
        "target, choices, item metadata text"
    ]
    log = read_eval_log(str(path))
    assert log.eval.metadata["left_out"] == ["input", "target", "choices", "item metadata text"]
    for sample in log.samples or []:
        assert sample.input.startswith("(item text left out") and sample.target == ""
        assert sample.choices in (None, [])
        assert not any(key.startswith("item.") for key in sample.metadata)


def test_the_command_refuses_in_one_line(
    runs: dict[str, Path], tmp_path: Path, biasbench_cli: Any
) -> None:
    done = biasbench_cli(
        "export", runs["jb"], "--format", "hf-eval-results", "--out", tmp_path / "hub"
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "may not be redistributed" in lines[0]
    assert not (tmp_path / "hub").exists()
