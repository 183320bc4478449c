"""``biasbench export``: responses, labels and scores as tidy tables with the signature on every
row, as parquet, csv, jsonl or a ``datasets`` folder."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from biasbench.errors import BiasbenchError
from biasbench.export import SIGNATURE_COLUMNS, combined_tables, export_runs
from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark
from biasbench.registry.interface import SCORE_COLUMNS, tidy_scores
from biasbench.stats.intervals import wilson_interval
from tests.running import CliRun


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("export")
    for name, script in (("a", "hashed-register"), ("b", "honorific")):
        run_benchmark(
            "honorific-bn", out=root / name, limit=40, progress=False, backend=MockBackend(script)
        )
    return [root / "a", root / "b"]


def test_tidy_scores_reads_intervals_and_plain_numbers() -> None:
    results = {
        "models": {
            "m": {
                "SES": {
                    "s_amb": {
                        "mean": 0.25,
                        "sd": 0.1,
                        "ci_low": 0.1,
                        "ci_high": 0.4,
                        "n_seeds": 50,
                        "ci_status": "ok",
                    },
                    "n_responses": 800,
                    "parsed": True,
                    "note": "text is not a score",
                },
                "hai_pp": -20.0,
                "seeds": [{"seed": 0, "hai_pp": 1.0}],
            }
        }
    }
    rows = tidy_scores(results)
    assert list(rows.columns) == list(SCORE_COLUMNS)
    records = rows.astype(object).where(rows.notna(), None).to_dict("records")
    assert records == [
        {
            "model": "m",
            "group": "SES",
            "statistic": "s_amb",
            "value": 0.25,
            "ci_low": 0.1,
            "ci_high": 0.4,
            "n": 50,
            "ci_status": "ok",
        },
        {
            "model": "m",
            "group": "SES",
            "statistic": "n_responses",
            "value": 800.0,
            "ci_low": None,
            "ci_high": None,
            "n": None,
            "ci_status": None,
        },
        {
            "model": "m",
            "group": "",
            "statistic": "hai_pp",
            "value": -20.0,
            "ci_low": None,
            "ci_high": None,
            "n": None,
            "ci_status": None,
        },
    ]


def test_tables_carry_the_signature_and_honorific_intervals(runs: list[Path]) -> None:
    tables = combined_tables(runs)
    assert {name: len(frame) for name, frame in tables.items()} == {
        "responses": 80,
        "labels": 80,
        "scores": len(tables["scores"]),
    }
    for frame in tables.values():
        assert list(frame.columns[: len(SIGNATURE_COLUMNS)]) == list(SIGNATURE_COLUMNS)
        assert frame["run"].unique().tolist() == ["a", "b"]
        assert frame.groupby("run")["signature"].nunique().tolist() == [1, 1]
        assert frame["benchmark"].unique().tolist() == ["honorific-bn"]
    scores = tables["scores"].set_index(["run", "statistic"])
    gsr = scores.loc[("a", "gsr_pct")]
    low, high = wilson_interval(6, 10)  # 6 discordant of 10 pairs
    assert (gsr["value"], gsr["n"]) == (60.0, 10)
    assert math.isclose(gsr["ci_low"], 100 * low) and math.isclose(gsr["ci_high"], 100 * high)
    hai = scores.loc[("a", "hai_pp")]
    assert hai["value"] == -20.0 and hai["ci_low"] < -20.0 < hai["ci_high"]
    # nested values are JSON text: every format holds the same flat columns
    evidence = tables["labels"]["evidence"].iloc[0]
    assert isinstance(evidence, str) and json.loads(evidence)[0]["token"] == "সে"


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_file_formats_round_trip(runs: list[Path], tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    written = export_runs(runs, fmt, tmp_path / fmt)
    assert [p.name for p in written] == [f"responses.{fmt}", f"labels.{fmt}", f"scores.{fmt}"]
    read = {
        "csv": pd.read_csv,
        "parquet": pd.read_parquet,
        "jsonl": lambda p: pd.read_json(p, lines=True),
    }[fmt]
    scores = read(tmp_path / fmt / f"scores.{fmt}")
    assert len(scores) == len(combined_tables(runs)["scores"])
    row = scores[(scores["run"] == "a") & (scores["statistic"] == "gsr_pct")].iloc[0]
    assert (row["value"], row["n"], row["limit"]) == (60.0, 10, 40)
    assert row["signature"].startswith("honorific-bn:1.0|")
    labels = read(tmp_path / fmt / f"labels.{fmt}")
    assert len(labels) == 80 and set(labels["label"]) == {"honorific", "ordinary"}


def test_hf_dataset_loads_from_disk(runs: list[Path], tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    export_runs(runs, "hf", tmp_path / "hf")
    loaded = datasets.load_from_disk(str(tmp_path / "hf"))
    assert sorted(loaded) == ["labels", "responses", "scores"]
    assert (loaded["responses"].num_rows, loaded["labels"].num_rows) == (80, 80)
    first = loaded["responses"][0]
    assert first["run"] == "a" and first["status"] == "ok" and first["signature"]
    with pytest.raises(BiasbenchError, match="not empty"):
        export_runs(runs, "hf", tmp_path / "hf")


def test_cli_export(biasbench_cli: CliRun, runs: list[Path], tmp_path: Path) -> None:
    done = biasbench_cli("export", *runs, "--format", "csv", "--out", tmp_path / "x")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"wrote {tmp_path / 'x' / n}.csv" for n in ("responses", "labels", "scores")
    ]
    bad = biasbench_cli("export", runs[0], "--format", "xlsx", "--out", tmp_path / "y")
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "error: --format must be one of parquet, csv, jsonl, hf, not 'xlsx'"
    )
    missing = biasbench_cli("export", tmp_path / "none", "--out", tmp_path / "z")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def test_tidy_scores_walk_a_datasets_own_scores() -> None:
    # A BBQ-family dataset's own metrics (results["dataset_scores"], bbq_family/scoring/dataset_scores.py) are
    # rows too, their group prefixed by the dataset's name for them.
    results = {
        "models": {
            "m": {
                "Age": {
                    "s_amb": {
                        "mean": 0.5,
                        "ci_low": None,
                        "ci_high": None,
                        "n_seeds": 1,
                        "ci_status": "too_few_seeds",
                    }
                }
            }
        },
        "dataset_scores": {
            "name": "CBBQ bias score",
            "definition": "d",
            "metrics": {"s_amb": "S_amb"},
            "models": {
                "m": {
                    "all": {
                        "s_amb": {
                            "mean": 0.25,
                            "ci_low": 0.1,
                            "ci_high": 0.4,
                            "n_seeds": 3,
                            "ci_status": "ok",
                        },
                        "n_unparsed": 2,
                    }
                }
            },
        },
    }
    rows = tidy_scores(results).astype(object)
    records = rows.where(rows.notna(), None).to_dict("records")
    assert records[1:] == [
        {
            "model": "m",
            "group": "CBBQ bias score/all",
            "statistic": "s_amb",
            "value": 0.25,
            "ci_low": 0.1,
            "ci_high": 0.4,
            "n": 3,
            "ci_status": "ok",
        },
        {
            "model": "m",
            "group": "CBBQ bias score/all",
            "statistic": "n_unparsed",
            "value": 2.0,
            "ci_low": None,
            "ci_high": None,
            "n": None,
            "ci_status": None,
        },
    ]


def test_cli_export_csv_holds_a_datasets_own_scores(biasbench_cli: CliRun, tmp_path: Path) -> None:
    fixtures = Path(__file__).parent / "benchmarks" / "kobbq" / "fixtures"
    run_benchmark(
        "kobbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=48,
        progress=False,
        benchmark_options={"data": fixtures},
    )
    done = biasbench_cli("export", tmp_path / "run", "--format", "csv", "--out", tmp_path / "x")
    assert done.returncode == 0, done.stderr
    scores = pd.read_csv(tmp_path / "x" / "scores.csv")
    own = scores[scores["group"] == "KoBBQ scores (5_evaluation.py)/all"]
    assert set(own["statistic"]) >= {
        "acc_amb",
        "acc_dis",
        "diff_bias_amb",
        "diff_bias_dis",
        "ooc_ratio",
        "n_ooc",
    }
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    entry = results["dataset_scores"]["models"]["mock-hashed-letter"]["all"]
    row = own[own["statistic"] == "acc_amb"].iloc[0]
    assert row["value"] == pytest.approx(entry["acc_amb"]["mean"])
    # one seed: the default interval is over items and seeds
    assert row["n"] == 1 and row["ci_status"] == entry["acc_amb"]["ci_status"]
    assert entry["acc_amb"]["interval"] == "items+seeds"
    assert entry["acc_amb"]["seeds_ci_status"] == "too_few_seeds"
    assert set(scores["group"]) >= {"age", "KoBBQ scores (5_evaluation.py)/age"}
