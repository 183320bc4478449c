"""FilBBQ's commands as a user meets them: `data filbbq` flags and outputs,
templates remembered once given, one warning line, one-line errors, and `plot jitter` refusing
runs whose signatures disagree."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from biasbench.pipeline import run_benchmark
from tests.running import run_biasbench


def _cli(*args: str | Path | int, cache: Path) -> subprocess.CompletedProcess[str]:
    """``biasbench ARGS`` offline: an empty cache, and a download host that answers nothing,
    so only what is given is used."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BIASBENCH_FILBBQ")}
    env |= {"BIASBENCH_CACHE": str(cache), "BIASBENCH_FILBBQ_BASE_URL": "http://127.0.0.1:9"}
    return run_biasbench(*args, env=env)


@pytest.fixture(scope="module")
def templates(reference_dir: Path) -> Path:
    return reference_dir / "filbbq" / "templates"


def test_data_filbbq_remembers_the_templates_and_warns_in_one_line(
    templates: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    done = _cli(
        "data",
        "filbbq",
        "--out",
        tmp_path / "a",
        "--templates",
        templates,
        "--seed",
        3,
        cache=cache,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        f"Gender_identity: 7,952 items -> {tmp_path / 'a' / 'FilBBQ_Gender_identity.jsonl'}",
        f"Sexual_orientation: 2,624 items -> {tmp_path / 'a' / 'FilBBQ_Sexual_orientation.jsonl'}",
        "total: 10,576 items (seed 3; 17 warnings: biasbench -v shows each)",
    ]
    assert any(line.startswith("remembered ") and "templates" in line for line in lines[3:])
    # 17 warnings of ~330 characters each used to fill the terminal: now one line with a count
    assert done.stderr.splitlines() == [
        "WARNING: gender_identity.csv: 17 generator warnings; 17 template rows yield no items "
        "(ENBBQ_01, ENBBQ_02, ENBBQ_03, ENBBQ_04, ENBBQ_05 and 12 more); biasbench -v shows each"
    ]
    # No --templates: the remembered copy is found (the download host answers nothing).
    again = _cli(
        "data",
        "filbbq",
        "--out",
        tmp_path / "b",
        "--seed",
        3,
        "--no-subcategory-filter",
        cache=cache,
    )
    assert again.returncode == 0, again.stderr
    assert "Gender_identity: 8,088 items" in again.stdout  # the old flag spelling still works
    verbose = _cli("-v", "data", "filbbq", "--out", tmp_path / "c", "--seed", 3, cache=cache)
    shown = verbose.stderr.splitlines()
    assert sum(line.startswith("INFO: ") and "yields no items" in line for line in shown) == 17
    assert (tmp_path / "c" / "FilBBQ_Gender_identity.jsonl").read_bytes() == (
        tmp_path / "a" / "FilBBQ_Gender_identity.jsonl"
    ).read_bytes()


def test_run_with_missing_items_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.jsonl"
    done = _cli(
        "run",
        "filbbq",
        "--items",
        missing,
        "--model",
        "mock:hashed-letter",
        "--out",
        tmp_path / "run",
        "--no-progress",
        cache=tmp_path / "cache",
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"error: {missing}: file not found"]


@pytest.fixture(scope="module")
def runs(templates: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("filbbq-runs")
    made = {}
    for name, script, temperature in (
        ("letter", "hashed-letter", None),
        ("echo", "echo", None),
        ("greedy", "hashed-letter", 0.0),
    ):
        made[name] = base / name
        run_benchmark(
            "filbbq",
            f"mock:{script}",
            out=made[name],
            limit=104,
            seeds=[0, 1, 2],
            temperature=temperature,
            progress=False,
            benchmark_options={"templates": templates},
        )
    return made


def test_annotate_export_on_a_filbbq_run_is_one_line(runs: dict[str, Path], tmp_path: Path) -> None:
    done = _cli(
        "annotate",
        "export",
        runs["letter"],
        "--out",
        tmp_path / "s.csv",
        "--key",
        tmp_path / "k.csv",
        cache=tmp_path / "cache",
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"error: {runs['letter']}: a filbbq run; annotate export samples the outputs of an "
        "honorific benchmark for its register judge"
    ]


def test_plot_jitter_refuses_runs_whose_signatures_disagree(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "jitter.png"
    done = _cli(
        "plot",
        "jitter",
        runs["letter"],
        runs["greedy"],
        "--template",
        "ENBBQ-01",
        "--out",
        out,
        cache=tmp_path / "cache",
    )
    assert done.returncode == 2 and not out.exists()
    assert done.stderr.splitlines() == [
        "error: runs whose signatures disagree are not drawn on one figure (report keeps them "
        "apart too): greedy vs letter differ in decoding parameters: temperature 1.0 vs 0.0; "
        "plot each set separately"
    ]
    # runs that differ only in the model share one figure, one row per model
    same = _cli(
        "plot",
        "jitter",
        runs["letter"],
        runs["echo"],
        "--template",
        "ENBBQ-01",
        "--out",
        out,
        cache=tmp_path / "cache",
    )
    assert same.returncode == 0, same.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_score_filbbq_is_built_from_the_registry(
    runs: dict[str, Path], templates: Path, tmp_path: Path
) -> None:
    """`score NAME` exists for every benchmark (it used to be honorific-bn and bbq only): the
    stored outputs of a run, scored as if produced elsewhere, give the run's numbers."""
    import json

    labels = [json.loads(line) for line in (runs["letter"] / "labels.jsonl").open()]
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {
                    "example_id": int(r["uid"].split(":")[1]),
                    "category": r["category"],
                    "model": r["model"],
                    "seed": r["seed"],
                    "output": r["output"],
                }
            )
            + "\n"
            for r in labels
        )
    )
    done = _cli(
        "score",
        "filbbq",
        "--responses",
        responses,
        "--out",
        tmp_path / "scored",
        "--templates",
        templates,
        cache=tmp_path / "cache",
    )
    assert done.returncode == 0, done.stderr
    # the run answered a --limit subset, so the scored responses cover part of the items
    assert "mock-hashed-letter [PARTIAL] / Gender_identity: s_AMB " in done.stdout
    assert "mock-hashed-letter: partial run (" in done.stdout
    scored = json.loads((tmp_path / "scored" / "results.json").read_text())
    run = json.loads((runs["letter"] / "results.json").read_text())
    assert scored["models"] == run["models"]
    assert scored["signature"]["model"]["mock-hashed-letter"]["kind"] == "external"
    assert scored["signature"]["seeds"] == [0, 1, 2]
