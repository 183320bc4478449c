"""Empty, truncated and unclosed-reasoning outputs are counted per model."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from biasbench.output_health import health_cell, health_line, output_health, unclosed_reasoning


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<think>still thinking", True),
        ("<THINK>x", True),
        ("<think>a</think> answer", False),
        ("<think>a</think><think>b", True),
        ("answer", False),
        ("</think> stray close", False),
        (None, False),
    ],
)
def test_unclosed_reasoning(text: str | None, expected: bool) -> None:
    assert unclosed_reasoning(text) is expected


def test_counts_per_model() -> None:
    frame = pd.DataFrame(
        {
            "model": ["a"] * 4 + ["b"] * 2,
            "output": ["", "  \n", "<think>x", "ok", "ok", "cut off mid"],
            "finish_reason": ["stop", "length", "length", "stop", "stop", "length"],
        }
    )
    health = output_health(frame)
    assert health["a"] == {
        "n": 4,
        "empty": 2,
        "empty_pct": 50.0,
        "truncated": 2,
        "truncated_pct": 50.0,
        "unclosed_reasoning": 1,
        "unclosed_reasoning_pct": 25.0,
    }
    assert health["b"]["truncated"] == 1 and health["b"]["empty"] == 0
    assert health_line("a", health["a"]) == (
        "a: of 4 outputs, 2 (50.0%) empty, 2 (50.0%) cut at max_tokens, 1 (25.0%) inside an "
        "unclosed <think> block (judged as they are; see output_health in results.json)"
    )
    assert health_cell(health["b"]) == "50.0% truncated"
    # Outputs produced elsewhere carry no finish reason: truncation is unknown, not zero.
    unknown = output_health(frame.drop(columns="finish_reason"))["a"]
    assert unknown["truncated"] is None and unknown["truncated_pct"] is None
    assert health_cell(output_health(frame[frame.output == "ok"])["a"]) == "ok (1)"


def test_a_run_reports_output_health_everywhere(tmp_path: Path) -> None:
    from biasbench.models.openai_compat import OpenAIBackend
    from biasbench.pipeline import run_benchmark
    from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule

    # Three kinds of bad answer by prompt, the rest fine.
    config = MockConfig(
        rules=[
            ReplyRule(contains="judge", reply=" "),
            ReplyRule(contains="magistrate", reply="<think>hmm, the", finish_reason="length"),
            ReplyRule(contains="", reply="তিনি নয়টায় আসবেন।"),
        ]
    )
    with MockServerThread(config) as server:
        result = run_benchmark(
            "honorific-bn",
            out=tmp_path,
            limit=56,
            progress=False,
            backend=OpenAIBackend("served", server.base_url),
        )
    expected = {
        "n": 56,
        "empty": 28,
        "empty_pct": 50.0,
        "truncated": 28,
        "truncated_pct": 50.0,
        "unclosed_reasoning": 28,
        "unclosed_reasoning_pct": 50.0,
    }
    assert result.results["output_health"] == {"served": expected}
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["output_health"]["served"] == expected
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["counts"]["output_health"]["served"] == expected
    assert (
        "served: of 56 outputs, 28 (50.0%) empty, 28 (50.0%) cut at max_tokens, 28 (50.0%) "
        "inside an unclosed <think> block (judged as they are; see output_health in "
        "results.json)"
    ) in result.summary
    labels = [json.loads(line) for line in (tmp_path / "labels.jsonl").open(encoding="utf-8")]
    assert {r["occupation_en"] for r in labels if r["truncated"]} == {"magistrate"}
    assert sum(r["truncated"] for r in labels) == 28
    from biasbench.report.html import build_report

    page = build_report([tmp_path], tmp_path / "report").read_text(encoding="utf-8")
    assert "50.0% empty, 50.0% truncated, 50.0% unclosed &lt;think&gt;" in page


def test_truncated_outputs_are_flagged_on_their_labels(tmp_path: Path) -> None:
    from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark

    bench = HonorificBenchmark()
    items = [i.item_id for i in bench.items[:4]]
    frame = pd.DataFrame(
        {
            "model": "m",
            "item_id": items,
            "seed": None,
            "output": ["তিনি নয়টায় আসবেন।", "সে নয়টায়", "তিনি", "সে আসবে।"],
            "finish_reason": ["stop", "length", "length", "stop"],
            "truncated": [False, True, True, False],
        }
    )
    bench.evaluate(frame, tmp_path, {"m": bench.signature({"kind": "x"}, None, None)})
    labels = [json.loads(line) for line in (tmp_path / "labels.jsonl").open(encoding="utf-8")]
    assert [row["truncated"] for row in labels] == [False, True, True, False]
