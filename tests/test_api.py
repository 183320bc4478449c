"""The Python API: ``biasbench.run``/``score``/``load`` return typed results with DataFrames of
responses, labels and scores; ``import biasbench`` stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import biasbench
from biasbench.api import Results
from biasbench.errors import BiasbenchError
from biasbench.export import SIGNATURE_COLUMNS


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Results:
    out = tmp_path_factory.mktemp("api") / "run"
    return biasbench.run("honorific-bn", model="mock:hashed-register", limit=40, out=out)


def test_import_is_light() -> None:
    code = (
        "import sys, biasbench; print(sorted(m for m in ('pandas', 'biasbench.api', "
        "'biasbench.pipeline', 'typer') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_run_returns_typed_results(result: Results) -> None:
    assert isinstance(result, biasbench.Results)
    assert result.complete and result.stats is not None
    assert (result.stats.total, result.stats.completed, result.stats.failed) == (40, 40, 0)
    saved = json.loads((result.run_dir / "results.json").read_text())
    assert result.results == saved
    assert result.signature.benchmark == "honorific-bn"
    assert result.signature.short() == saved["signature"]["short"]
    assert result.summary[0].startswith("mock-hashed-register [PARTIAL]: HAI -20.00 pp")


def test_dataframes(result: Results) -> None:
    responses, labels, scores = result.responses, result.labels, result.scores
    assert all(isinstance(f, pd.DataFrame) for f in (responses, labels, scores))
    assert len(responses) == 40 and set(responses["status"]) == {"ok"}
    assert responses["prompt"].str.contains("Translate the following English").all()
    assert len(labels) == 40
    assert labels["label"].value_counts().to_dict() == {"ordinary": 27, "honorific": 13}
    hai = scores[scores["statistic"] == "hai_pp"].iloc[0]
    assert (hai["model"], hai["group"], hai["value"]) == ("mock-hashed-register", "", -20.0)
    for frame in (responses, labels, scores):
        assert list(frame.columns[: len(SIGNATURE_COLUMNS)]) == list(SIGNATURE_COLUMNS)
        assert (frame["signature"] == result.results["signature"]["short"]).all()
        assert (frame["limit"] == 40).all()


def test_load_and_rerun_resume(result: Results) -> None:
    loaded = biasbench.load(result.run_dir)
    assert loaded.stats is None and loaded.results == result.results
    pd.testing.assert_frame_equal(loaded.scores, result.scores)
    again = biasbench.run(
        "honorific-bn", model="mock:hashed-register", limit=40, out=result.run_dir
    )
    assert again.stats is not None and (again.stats.cached, again.stats.completed) == (40, 0)


def test_score_outputs_produced_elsewhere(tmp_path: Path, result: Results) -> None:
    outputs = tmp_path / "outputs.jsonl"
    rows = result.labels[["item_id", "model", "output"]].to_dict("records")
    rows += [{**r, "model": "other"} for r in rows]
    outputs.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    scored = biasbench.score("honorific-bn", responses=outputs, out=tmp_path / "scored")
    assert scored.run_dir == tmp_path / "scored" and scored.stats is None
    assert sorted(scored.results["models"]) == ["mock-hashed-register", "other"]
    assert scored.responses.empty  # no store: the outputs are in the labels
    assert len(scored.labels) == 80
    hai = scored.scores[scored.scores["statistic"] == "hai_pp"].set_index("model")["value"]
    assert hai.to_dict() == {"mock-hashed-register": -20.0, "other": -20.0}


def test_dry_run_through_the_api(tmp_path: Path) -> None:
    plan = biasbench.dry_run("honorific-bn", model="mock:honorific", limit=3, out=tmp_path / "x")
    assert (plan.requests, plan.stored) == (3, 0) and not (tmp_path / "x").exists()


def test_seeds_as_a_count_or_a_list(tmp_path: Path) -> None:
    with pytest.raises(BiasbenchError, match="--seeds must be at least 1, not 0"):
        biasbench.run("honorific-bn", model="mock:honorific", seeds=0, out=tmp_path / "r")
    plan = biasbench.dry_run(
        "honorific-bn", model="mock:hashed-register", limit=2, seeds=[3, 4], temperature=0.7
    )
    assert plan.signature.seeds == [3, 4] and plan.requests == 4
