"""A ``--limit`` BBQ-family run is partial everywhere a reader sees it, as an honorific-bn run
is: the signature records the limit, results.json carries ``limit`` and ``coverage``, the
summary says ``[PARTIAL]``, the report names the run partial and ``biasbench runs`` shows its
scope. A run of every item is ``full`` in each of those places."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasbench.pipeline import run_benchmark
from biasbench.report.html import build_report
from biasbench.runfolder.catalog import list_runs

FIXTURES = Path(__file__).parents[2] / "benchmarks" / "cbbq" / "fixtures" / "data"
CATEGORIES = "SES,disability"


@pytest.mark.parametrize(("limit", "partial"), [(12, True), (None, False)])
def test_limited_run_is_partial_everywhere(
    tmp_path: Path, limit: int | None, partial: bool
) -> None:
    run_dir = tmp_path / "runs" / "run"
    done = run_benchmark(
        "cbbq",
        "mock:hashed-letter",
        out=run_dir,
        limit=limit,
        progress=False,
        benchmark_options={"data": FIXTURES, "categories": CATEGORIES},
    )
    results = json.loads((run_dir / "results.json").read_text())
    n_items = 32  # the fixture: first and last 4 items of both files of two categories
    assert results["signature"]["limit"] == limit
    assert results["limit"] == limit
    coverage = results["coverage"]["mock-hashed-letter"]
    assert coverage == {
        "n_items_scored": limit or n_items,
        "n_items_expected": n_items,
        "limit": limit,
        "partial": partial,
        "reason": f"--limit {limit}, {limit} of {n_items} items" if partial else None,
    }
    text = "\n".join(done.summary)
    assert ("[PARTIAL]" in text) is partial
    assert ("partial run (--limit 12, 12 of 32 items)" in text) is partial
    scope = list_runs(tmp_path / "runs")["scope"].tolist()
    assert scope == (["partial: --limit 12"] if partial else ["full"])
    page = build_report([run_dir], tmp_path / "report").read_text()
    assert ("Partial runs." in page) is partial
    assert ("partial: --limit 12" in page) is partial
