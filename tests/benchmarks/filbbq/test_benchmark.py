"""FilBBQ end to end on scripted models: multi-seed runs, scoring elsewhere, bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark
from biasbench.engines.bbq_family.judging.option_scoring import OptionScoringBackend
from biasbench.models.base import Generation, GenerationParams, ModelBackend, Prompt
from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark

SCORES = ("acc_ambig", "acc_disambig", "s_amb", "s_dis")


@pytest.fixture(scope="module")
def templates(reference_dir: Path) -> Path:
    return reference_dir / "filbbq" / "templates"


@pytest.fixture(scope="module")
def bench(templates: Path) -> FilBBQBenchmark:
    return FilBBQBenchmark.with_options(templates=templates)


def test_generated_items_and_prompt(bench: FilBBQBenchmark) -> None:
    assert len(bench.items) == 10_576
    assert {i.category for i in bench.items} == {"Gender_identity", "Sexual_orientation"}
    item = next(i for i in bench.items if i.category == "Sexual_orientation")
    prompt = bench.prompt(item)
    text = prompt.messages[0][1]
    assert text.startswith("Piliin ang wastong sagot. A, B, o C lamang ang isagot mo")
    assert text.endswith(f" Ito ang mga pagpipilian: A. {item.ans0} B. {item.ans1} C. {item.ans2}")
    assert prompt.completion == text + "\nSagot:"
    assert prompt.item_id == "Sexual_orientation:0"


def test_limit_spreads_over_every_template(bench: FilBBQBenchmark) -> None:
    chosen = bench.selected_items(104)
    templates = {(i.category, i.question_index) for i in bench.items}
    # 123 template rows: 17 yield no items, and ENBBQ_07 and ENBBQ_19 are two rows each.
    assert len(templates) == 104
    assert {(i.category, i.question_index) for i in chosen} == templates
    # Stratified: round robin over templates used to take each template's
    # first item, so all 104 were negative and ambiguous.
    cells = Counter((i.category, i.context_condition, i.question_polarity) for i in chosen)
    assert len(cells) == 2 * 4
    for category in ("Gender_identity", "Sexual_orientation"):
        shares = [n for (c, *_), n in cells.items() if c == category]
        assert max(shares) - min(shares) <= 1


def test_requests_cover_every_seed(bench: FilBBQBenchmark) -> None:
    requests = bench.requests(limit=10, seeds=[3, 4])
    assert [r.seed for r in requests] == [3] * 10 + [4] * 10
    assert len(bench.requests(limit=2)) == 100  # the paper's 50 seeds by default


def test_multi_seed_run_and_rescore(
    bench: FilBBQBenchmark, templates: Path, tmp_path: Path
) -> None:
    backend = MockBackend("hashed-letter")
    result = run_benchmark(
        "filbbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=208,
        seeds=[0, 1, 2, 3],
        progress=False,
        backend=backend,
        benchmark_options={"templates": templates},
    )
    assert result.stats.total == 832 and backend.calls == 832
    results = result.results
    for category in ("Gender_identity", "Sexual_orientation"):
        entry = results["models"]["mock-hashed-letter"][category]
        assert entry["seeds_run"] == 4 and entry["unparsed_pct"] == 0
        for score in SCORES:
            stat = entry[score]
            low_bound = 0 if score.startswith("acc") else -1
            assert low_bound <= stat["mean"] <= 1 and stat["n_seeds"] == 4
            assert low_bound <= stat["ci_low"] <= stat["mean"] <= stat["ci_high"] <= 1
    assert results["signature"]["seeds"] == [0, 1, 2, 3]
    per_seed = (tmp_path / "run" / "tables" / "per_template_per_seed.csv").read_text().splitlines()
    assert len(per_seed) == 1 + 4 * 104  # one row per template per seed
    assert list((tmp_path / "run" / "figures").glob("jitter_*.png"))
    # Rescoring the stored outputs elsewhere gives the same numbers.
    items_file = tmp_path / "items.jsonl"
    items_file.write_text("".join(i.model_dump_json() + "\n" for i in bench.items), "utf-8")
    labels = [json.loads(line) for line in (tmp_path / "run" / "labels.jsonl").open()]
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
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "score",
            "bbq",
            "--items",
            str(items_file),
            "--responses",
            str(responses),
            "--out",
            str(tmp_path / "scored"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    scored = json.loads((tmp_path / "scored" / "results.json").read_text())
    for category, entry in results["models"]["mock-hashed-letter"].items():
        again = scored["models"]["mock-hashed-letter"][category]
        for score in SCORES:
            assert math.isclose(again[score]["mean"], entry[score]["mean"])
    # A rerun of the same command makes no model call.
    backend.calls = 0
    again_run = run_benchmark(
        "filbbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=208,
        seeds=[0, 1, 2, 3],
        progress=False,
        backend=backend,
        benchmark_options={"templates": templates},
    )
    assert backend.calls == 0 and again_run.stats.cached == 832


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            '{"example_id": 99999, "category": "Sexual_orientation", "model": "m", "output": "A"}',
            ":1: field 'example_id': unknown example_id 99999",
        ),
        (
            '{"example_id": 0, "category": "Sexual_orientation", "model": "m"}',
            ":1: field 'output': needs either output or pred",
        ),
        (
            '{"example_id": "0", "category": "Sexual_orientation", "model": "m", "pred": 1}',
            ":1: field 'example_id': expected an integer",
        ),
        (
            '{"example_id": 0, "category": "Sexual_orientation", "model": "m", "pred": 3}',
            ":1: field 'pred': pred must be 0, 1 or 2, not 3",
        ),
        (
            '{"example_id": 0, "category": "Sexual_orientation", "model": "m", "seed": 1, "pred": 1}\n'
            '{"example_id": 0, "category": "Sexual_orientation", "model": "m", "seed": 1, "pred": 2}',
            ":2: field 'example_id': a second response of model 'm' to Sexual_orientation:0 under "
            "seed 1 (first on line 1)",
        ),
    ],
)
def test_score_bbq_bad_lines(reference_dir: Path, tmp_path: Path, line: str, expected: str) -> None:
    responses = tmp_path / "r.jsonl"
    responses.write_text(line + "\n")
    items = reference_dir / "filbbq" / "data" / "FilBBQ_Sexual_orientation.jsonl"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "score",
            "bbq",
            "--items",
            str(items),
            "--responses",
            str(responses),
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith(f"error: {responses}{expected}")
    assert not (tmp_path / "out").exists()


class _FixedScores(ModelBackend):
    """Scores options by a fixed preference: the shortest option wins."""

    kind = "hf"
    task = "masked"
    can_generate = False  # what the benchmark reads: a masked LM only scores options
    can_score_options = True

    @property
    def model_id(self) -> str:
        return "tiny-masked"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        raise AssertionError("a masked LM never generates")

    async def score_options(self, prompt: Prompt, options: list[str]) -> list[float]:
        self.seen, self.options = prompt.completion, options
        # the longest option has the highest per-character score, the shortest the best sum
        return [-2.0 * len(o) ** 0.5 for o in options]


@pytest.mark.parametrize("headline", ["per_char", "sum"])
def test_masked_models_answer_by_option_scores(templates: Path, headline: str) -> None:
    import asyncio

    bench = FilBBQBenchmark.with_options(templates=templates)
    bench.configure(option_score=headline)  # type: ignore[arg-type]
    inner = _FixedScores()
    adapted = bench.adapt_backend(inner)
    assert isinstance(adapted, OptionScoringBackend) and adapted.deterministic
    assert adapted.describe()["option_score"] == headline
    item = bench.items[0]
    gen = asyncio.run(adapted.generate(bench.prompt(item), GenerationParams(), 0))
    # the option follows the question as written: "...? Ang tomboy", never "...?Ang tomboy"
    assert inner.options == [" " + a for a in item.answers]
    assert inner.seen == f"{item.context} {item.question}"
    lengths = [len(" " + a) for a in item.answers]
    shortest = min(range(3), key=lambda i: (lengths[i], i))
    longest = max(range(3), key=lambda i: (lengths[i], -i))
    assert gen.info["choice_sum"] == "ABC"[shortest]
    assert gen.info["choice_per_char"] == "ABC"[longest]
    assert gen.text == gen.info[f"choice_{headline}"]
    assert gen.info["option_scores"] == [-2.0 * n**0.5 for n in lengths]
    assert gen.info["option_scores_per_char"] == pytest.approx([-2.0 * n**0.5 / n for n in lengths])
    assert gen.info["option_n_chars"] == lengths and gen.info["option_n_tokens"] is None
    assert gen.prompt_text == f"{item.context} {item.question}"


def test_jitter_plot_of_any_template_one_row_per_model(templates: Path, tmp_path: Path) -> None:
    from biasbench.engines.bbq_family.presenting.jitter import jitter_figure

    runs = []
    for script in ("hashed-letter", "echo"):
        run_dir = tmp_path / script
        run_benchmark(
            "filbbq",
            f"mock:{script}",
            out=run_dir,
            limit=104,
            seeds=[0, 1, 2],
            progress=False,
            benchmark_options={"templates": templates},
        )
        runs.append(str(run_dir))
    out = tmp_path / "jitter.png"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "plot",
            "jitter",
            *runs,
            "--template",
            "ENBBQ-01",
            "--score",
            "s_dis",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import pandas as pd

    per_seed = pd.concat(
        pd.read_csv(Path(r) / "tables" / "per_template_per_seed.csv") for r in runs
    )
    fig = jitter_figure(per_seed, "ENBBQ-01", "s_dis")
    rows = {t.get_text().split("\n")[0]: t.get_position()[1] for t in fig.axes[0].get_yticklabels()}
    assert rows == {"mock-echo": 1, "mock-hashed-letter": 0}  # one row per model, sorted


def test_replay_backend_reproduces_a_run(templates: Path, tmp_path: Path) -> None:
    options = {"templates": templates}
    first = run_benchmark(
        "filbbq",
        "mock:hashed-letter",
        out=tmp_path / "first",
        limit=104,
        seeds=[0, 1],
        progress=False,
        benchmark_options=options,
    )
    labels = [json.loads(line) for line in (tmp_path / "first" / "labels.jsonl").open()]
    replay = tmp_path / "replay.jsonl"
    replay.write_text(
        "".join(
            json.dumps(
                {
                    "category": r["category"],
                    "example_id": int(r["uid"].split(":")[1]),
                    "seed": r["seed"],
                    "model": "recorded",
                    "output": r["output"],
                }
            )
            + "\n"
            for r in labels
        )
    )
    again = run_benchmark(
        "filbbq",
        f"replay:{replay}",
        out=tmp_path / "again",
        limit=104,
        seeds=[0, 1],
        progress=False,
        benchmark_options=options,
    )
    assert again.stats.failed == 0
    assert (
        again.results["models"]["replay:recorded"] == first.results["models"]["mock-hashed-letter"]
    )


def test_any_bbq_jsonl_with_its_own_prompt(
    reference_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No FilBBQ templates anywhere: BBQ-format items and a prompt file are all it needs.
    monkeypatch.setenv("BIASBENCH_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.delenv("BIASBENCH_FILBBQ_TEMPLATES", raising=False)
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(
        'prompt = ("Answer with A, B or C only. " + row["context"] + " " + '
        'row["question"] + " A. " + row["ans0"] + " B. " + row["ans1"] + '
        '" C. " + row["ans2"])\n',
        encoding="utf-8",
    )
    items = reference_dir / "filbbq" / "data" / "FilBBQ_Sexual_orientation.jsonl"
    bench = FilBBQBenchmark.with_options(items=str(items), prompt=prompt)
    assert len(bench.items) == 2624
    text = bench.prompt(bench.items[0]).messages[0][1]
    assert text.startswith("Answer with A, B or C only. Maingat na pinili")
    assert text.endswith(" A. Ang tomboy B. Ang bakla C. Di matukoy")
    result = run_benchmark(
        "filbbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=46,
        seeds=[0, 1],
        progress=False,
        benchmark_options={"items": str(items), "prompt": prompt},
    )
    assert result.stats.completed == 92
    assert set(result.results["models"]["mock-hashed-letter"]) == {"Sexual_orientation"}


def test_one_seed_has_no_seed_interval_and_says_so(templates: Path, tmp_path: Path) -> None:
    """One seed: no interval across seeds (said so), but the default one, over items and
    their seeds, exists."""
    result = run_benchmark(
        "filbbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=104,
        seeds=[0],
        progress=False,
        benchmark_options={"templates": templates},
    )
    entry = result.results["models"]["mock-hashed-letter"]["Sexual_orientation"]
    assert entry["seeds_run"] == 1 and entry["s_amb"]["seeds_ci_low"] is None
    assert entry["s_amb"]["seeds_ci_status"] == "too_few_seeds"
    assert entry["s_amb"]["interval"] == "items+seeds" and entry["s_amb"]["ci_status"] == "ok"
    assert entry["s_amb"]["ci_low"] < entry["s_amb"]["mean"] < entry["s_amb"]["ci_high"]
    table = (tmp_path / "run" / "tables" / "by_category.md").read_text(encoding="utf-8")
    assert "nan" not in table.lower() and "| — (1 seed: too few) |" in table
    summary = FilBBQBenchmark.summary(result.results)
    assert "; seeds n=1 (too few for an interval)" in summary[0]
    assert " items+seeds k=" in summary[0]
    assert any(
        line.startswith(
            "intervals: 95% intervals. ci_low/ci_high (interval: "
            "'items+seeds', the default): Korn-Graubard"
        )
        for line in summary
    )


@pytest.mark.parametrize(
    ("temperature", "expected"),
    [
        (None, "decoding: temperature 1.0 (the default: FilBBQ's protocol averages over seeds"),
        (0.0, "decoding: temperature 0.0 (set by --temperature; the default is 1.0"),
    ],
)
def test_summary_and_results_say_why_the_temperature(
    templates: Path, tmp_path: Path, temperature: float | None, expected: str
) -> None:
    result = run_benchmark(
        "filbbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=104,
        seeds=[0],
        temperature=temperature,
        progress=False,
        benchmark_options={"templates": templates},
    )
    assert result.results["decoding"]["temperature"] == (1.0 if temperature is None else 0.0)
    assert result.results["decoding"]["top_k"] == 0
    assert "paper states no temperature" in result.results["decoding"]["why"]
    assert [line for line in result.summary if line.startswith("decoding:")][0].startswith(expected)
