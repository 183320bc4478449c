"""Refusals apart end to end: a scripted model that refuses 40% of FilBBQ's
ambiguous items and 10% of its disambiguated ones, in Filipino and English, through the run,
results.json, tables/refusals.csv, the summary and the HTML report. These are the figures of
docs/benchmarks/filbbq.md's worked example."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark
from biasbench.engines.bbq_family.items.grid import decode_cell_id
from biasbench.engines.bbq_family.scoring.bias_scores import target_index
from biasbench.models.base import Generation, GenerationParams, Prompt
from biasbench.pipeline import RunResult, run_benchmark
from biasbench.report.html import build_report
from biasbench.testing.grid_effect import PlantedAnswerer, grid_items, write_items

REFUSE_TL = "Paumanhin, hindi ko masasagot ang tanong na ito."
REFUSE_EN = "I'm sorry, I cannot answer that."
LIMIT, SEEDS = 104, [0, 1, 2]
RefusingRun = tuple[Path, RunResult, dict[str, int], dict[str, int]]
"""The run folder, the run's result, refusals and items per context condition."""


def _script(bench: FilBBQBenchmark) -> tuple[dict[str, str], dict[str, int], dict[str, int]]:
    """Prompt -> answer: ambiguous items refused 2 in 5, else unknown 1 in 3, target 2 in 3;
    disambiguated refused 1 in 10, else target 2 in 9, correct 7 in 9."""
    answers: dict[str, str] = {}
    refused = {"ambig": 0, "disambig": 0}
    counters = {"ambig": 0, "disambig": 0}
    for item in bench.selected_items(LIMIT):
        k = counters[item.context_condition]
        counters[item.context_condition] += 1
        target = target_index(item)
        assert target is not None and item.unknown_index is not None
        if item.context_condition == "ambig":
            pick = None if k % 5 < 2 else (item.unknown_index if k % 5 == 2 else target)
            text = REFUSE_TL
        else:
            pick = None if k % 10 == 0 else (target if k % 10 < 3 else item.label)
            text = REFUSE_EN
        refused[item.context_condition] += pick is None
        answers[bench.prompt(item).text_for("chat")] = text if pick is None else "ABC"[pick]
    assert len(answers) == LIMIT
    return answers, refused, counters


@pytest.fixture(scope="module")
def refusing_run(reference_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> RefusingRun:
    templates = reference_dir / "filbbq" / "templates"
    bench = FilBBQBenchmark.with_options(templates=templates)
    answers, refused, items = _script(bench)
    tmp = tmp_path_factory.mktemp("refusals")
    script = tmp / "refuser.json"
    script.write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    run_dir = tmp / "run"
    done = run_benchmark(
        "filbbq",
        f"mock:{script}",
        out=run_dir,
        limit=LIMIT,
        seeds=SEEDS,
        progress=False,
        benchmark_options={"templates": templates},
    )
    return run_dir, done, refused, items


def test_results_json_has_the_refusals_block(refusing_run: RefusingRun) -> None:
    run_dir, _, refused, items = refusing_run
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    block = results["refusals"]
    assert block["headline"] == "excluded"
    overall = block["models"]["mock-refuser"]["all"]
    assert overall["n_responses"] == LIMIT * len(SEEDS)
    assert overall["n_refused"] == sum(refused.values()) * len(SEEDS)
    assert overall["refused_pct"] == pytest.approx(100.0 * sum(refused.values()) / LIMIT)
    for condition in ("ambig", "disambig"):
        assert overall[f"refused_pct_{condition}"] == pytest.approx(
            100.0 * refused[condition] / items[condition]
        )
    assert overall["unparsed_pct"] == 0.0
    for category, entry in block["models"]["mock-refuser"].items():
        if category == "all":
            continue
        headline = results["models"]["mock-refuser"][category]
        for score in ("s_amb", "s_dis"):
            # the headline policy is the run's own score, unchanged
            assert entry[score]["excluded"] == pytest.approx(headline[score]["mean"])
            assert entry[score]["low"] <= entry[score]["excluded"] <= entry[score]["high"]
        # counted as unknown, refusals shrink s_AMB; counted as the target, they raise it
        s_amb = entry["s_amb"]
        assert s_amb["unknown"] < s_amb["excluded"] < s_amb["target"]
        assert (s_amb["low"], s_amb["high"]) == (s_amb["unknown"], s_amb["target"])
        assert entry["s_dis"]["unknown"] == pytest.approx(entry["s_dis"]["excluded"])
        assert entry["s_dis"]["target"] > entry["s_dis"]["excluded"]


def test_table_and_summary(refusing_run: RefusingRun) -> None:
    run_dir, done, refused, _ = refusing_run
    share = 100.0 * sum(refused.values()) / LIMIT
    with (run_dir / "tables" / "refusals.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["category"] for r in rows] == ["Gender_identity", "Sexual_orientation", "all"]
    assert float(rows[-1]["refused_pct"]) == pytest.approx(share)
    assert (run_dir / "tables" / "refusals.md").is_file()
    lines = [line for line in done.summary if line.startswith("mock-refuser: refused ")]
    assert len(lines) == 1
    assert f"refused {share:.1f}% (ambiguous " in lines[0]
    assert "s_AMB " in lines[0] and "excluded (headline), range [" in lines[0]


def test_report_shows_the_refusal_range(refusing_run: RefusingRun, tmp_path: Path) -> None:
    run_dir = refusing_run[0]
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    entry = results["refusals"]["models"]["mock-refuser"]["all"]["s_amb"]
    page = build_report([run_dir], tmp_path / "report").read_text(encoding="utf-8")
    assert "<h3>Refusals apart</h3>" in page
    assert f"[{entry['low']:+.3f}, {entry['high']:+.3f}]" in page
    assert "refusals counted as the target (stereotyped) answer" in page


class RefusingGridAnswerer(PlantedAnswerer):
    """The grid's planted model, but refusing every fifth ambiguous item in every cell and
    otherwise answering the unknown option there."""

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        uid, _, _ = decode_cell_id(prompt.item_id or "")
        item = self.by_uid[uid]
        if item.context_condition == "ambig" and item.example_id % 5 == 0:
            return Generation(
                text=REFUSE_EN, prompt_text=prompt.text_for("chat"), info={"finish_reason": "stop"}
            )
        return await super().generate(prompt, params, seed)


def test_grid_run_counts_refusals_per_cell(tmp_path: Path) -> None:
    """A grid run scores option indices; its refusals are read from each cell's parse."""
    items = grid_items(40)  # 40 ambiguous, 40 disambiguated
    path = write_items(items, tmp_path / "items.jsonl")
    backend = RefusingGridAnswerer(items, position_a=0.0)
    result = run_benchmark(
        "bbq",
        backend=backend,
        out=tmp_path / "run",
        seeds=[0, 1],
        progress=False,
        benchmark_options={"items": str(path), "vary": "seeds,order", "orders": "cyclic"},
    )
    entry = result.results["refusals"]["models"]["planted"]["Age"]
    assert entry["refused_pct_ambig"] == pytest.approx(20.0)  # 8 of 40 in every cell
    assert entry["refused_pct_disambig"] == 0.0 and entry["refused_pct"] == pytest.approx(10.0)
    # ambiguous answers otherwise all unknown: s_AMB 0 unless a refusal counts as the target,
    # then acc 32/40 and s = 1: s_AMB 0.2
    s_amb = entry["s_amb"]
    assert (s_amb["excluded"], s_amb["unknown"]) == (0.0, 0.0)
    assert s_amb["target"] == pytest.approx(0.2)
