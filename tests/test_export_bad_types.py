"""A score folder whose files hold the wrong JSON types (the digests updated to match, as a
folder written by another tool would be), exported: one line naming the file and field, never a
traceback or a silent table; ``biasbench.score`` with no responses path: one line."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import biasbench
from biasbench.errors import BiasbenchError
from tests.running import CliRun

FIXTURES = Path(__file__).parent / "fixtures" / "harness_logs"


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("typed") / "scored"
    from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
    from biasbench.engines.bbq_family.harness_logs.rescore import (
        read_harness_log,
        score_harness_log,
    )
    from biasbench.pipeline import score_into
    from biasbench.runfolder.derived import write_results

    bench = OriginalBBQBenchmark.with_options(items=str(FIXTURES / "bbq_items.jsonl"))
    log = read_harness_log("lm-eval", FIXTURES / "lm_eval_bbq", bench)

    def produce(folder: Path) -> dict[str, Any]:
        results = score_harness_log(bench, log, folder, source="fixture")
        write_results(results, folder)
        return results

    score_into(out, bench.name, produce)
    return out


def _edit(source: Path, target: Path, name: str, change: Callable[[Any], Any]) -> Path:
    shutil.copytree(source, target)
    path = target / name
    if name.endswith(".jsonl"):
        rows = [change(json.loads(line)) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    else:
        path.write_text(json.dumps(change(json.loads(path.read_text()))))
    manifest = json.loads((target / "manifest.json").read_text())
    for relative, entry in manifest["derived"]["files"].items():
        data = (target / relative).read_bytes()
        entry.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
        if "lines" in entry:
            entry["lines"] = data.count(b"\n")
    (target / "manifest.json").write_text(json.dumps(manifest))
    return target


def _models(change: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda r: {**r, "models": {k: change(v) for k, v in r["models"].items()}}


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("results.json", lambda r: [r], "results.json: expected a JSON object"),
        ("results.json", _models(lambda v: []), "field 'models.fixture-model': expected an object"),
        (
            "results.json",
            _models(lambda v: "x"),
            "field 'models.fixture-model': expected an object",
        ),
        ("results.json", lambda r: {**r, "signature": "x"}, "field 'signature'"),
        (
            "labels.jsonl",
            lambda r: {**r, "pred_index": "two"},
            "labels.jsonl:1: field 'pred_index': expected an integer",
        ),
        (
            "labels.jsonl",
            lambda r: {**r, "uid": {}},
            "labels.jsonl:1: field 'uid': expected a string",
        ),
        ("labels.jsonl", lambda r: {**r, "seed": [0]}, "labels.jsonl:1: field 'seed'"),
        ("labels.jsonl", lambda r: [r], "labels.jsonl:1: expected a JSON object"),
    ],
)
def test_wrong_json_types_are_one_line(
    biasbench_cli: CliRun,
    scored: Path,
    tmp_path: Path,
    name: str,
    change: Callable[[Any], Any],
    message: str,
) -> None:
    folder = _edit(scored, tmp_path / "edited", name, change)
    done = biasbench_cli("export", folder, "--out", tmp_path / "out", "--format", "csv")
    assert done.returncode == 2, done.stdout
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert message in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"responses": None, "out": "x"}, "--responses must be a path, not None"),
        ({"responses": "r.jsonl", "out": None}, "--out must be a path, not None"),
        ({"responses": 5, "out": "x"}, "--responses must be a path, not 5"),
    ],
)
def test_score_without_a_responses_path_is_one_line(
    tmp_path: Path, arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(BiasbenchError, match=message):
        biasbench.score("honorific-bn", **arguments)
