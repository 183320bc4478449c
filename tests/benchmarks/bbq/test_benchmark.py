"""``bbq``, the original English BBQ, as a registered benchmark: registry and ``list``, ``data
bbq``, and runs end to end on items generated from the template slices the engine tests ship
(tests/benchmarks/bbq/fixtures; nothing is downloaded)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
from biasbench.benchmarks.bbq.original import generate_bbq_items
from biasbench.errors import BiasbenchError
from biasbench.models.mock import MockBackend
from biasbench.pipeline import run_benchmark
from biasbench.registry import benchmark_class, get_benchmark
from tests.running import CliRun

FIXTURE = Path(__file__).parent / "fixtures" / "bbq_templates"
CATEGORIES = ("Disability_status", "SES", "Race_x_SES", "Race_x_gender")
CATEGORY_ARG = ",".join(CATEGORIES)


@pytest.fixture(scope="module")
def items_dir(biasbench_cli: CliRun, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bbq_items")
    done = biasbench_cli(
        "data",
        "bbq",
        "--templates",
        FIXTURE,
        "--out",
        out,
        "--seed",
        3,
        "--categories",
        CATEGORY_ARG,
    )
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def items_arg(items_dir: Path) -> str:
    return ",".join(str(items_dir / f"{c}.jsonl") for c in CATEGORIES)


def test_registry_knows_bbq() -> None:
    cls = benchmark_class("bbq")
    assert cls is OriginalBBQBenchmark
    assert cls.languages == ("en",)
    assert cls.paper.citation == "Parrish et al., Findings of ACL 2022"
    assert cls.paper.title == "BBQ: A Hand-Built Bias Benchmark for Question Answering"
    assert cls.items_summary.startswith("58,492 (11 categories")
    assert (cls.default_seed_count, cls.default_temperature) == (1, 0.0)  # greedy, one run


def test_list_shows_bbq(biasbench_cli: CliRun) -> None:
    done = biasbench_cli("list")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.strip().startswith("bbq:"))
    assert "items 58,492" in line and "languages en;" in line
    assert "Parrish et al., Findings of ACL 2022" in line


def test_data_bbq_generates_the_generators_counts(biasbench_cli: CliRun, items_dir: Path) -> None:
    expected = {c: len(r.items) for c, r in generate_bbq_items(FIXTURE, 3, CATEGORIES).items()}
    written = {c: len((items_dir / f"{c}.jsonl").read_text().splitlines()) for c in CATEGORIES}
    assert (
        written
        == expected
        == {"Disability_status": 20, "SES": 48, "Race_x_SES": 960, "Race_x_gender": 240}
    )
    again = biasbench_cli(
        "data",
        "bbq",
        "--templates",
        FIXTURE,
        "--out",
        items_dir.parent / "again",
        "--seed",
        3,
        "--categories",
        CATEGORY_ARG,
    )
    assert again.returncode == 0, again.stderr
    assert "Race_x_SES: 960 items (published 11,160)" in again.stdout
    assert "total: 1,268 items (seed 3;" in again.stdout
    for c in CATEGORIES:  # reproducible for a seed
        assert (items_dir.parent / "again" / f"{c}.jsonl").read_bytes() == (
            items_dir / f"{c}.jsonl"
        ).read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--categories", "Age,Nope"), "unknown BBQ categories Nope"),
        (("--categories", "Age"), "lacks new_templates - Age.csv"),
    ],
)
def test_data_bbq_errors_are_one_line(
    biasbench_cli: CliRun, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    done = biasbench_cli("data", "bbq", "--templates", FIXTURE, "--out", tmp_path, *args)
    assert done.returncode != 0
    assert message in done.stderr and "Traceback" not in done.stderr


def test_intersectional_items_are_scored_with_the_templates(items_arg: str) -> None:
    bench = get_benchmark("bbq", items=items_arg, templates=FIXTURE)
    assert bench.var2  # Known_stereotyped_var2 read from the intersectional templates
    with pytest.raises(BiasbenchError, match="give one"):
        get_benchmark("bbq", items=items_arg, data=FIXTURE)


def test_cli_run_end_to_end(biasbench_cli: CliRun, items_arg: str, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--limit",
        40,
        "--items",
        items_arg,
        "--templates",
        FIXTURE,
        "--out",
        run_dir,
    )
    assert done.returncode == 0, done.stderr
    for category in CATEGORIES:
        assert f"mock-hashed-letter [PARTIAL] / {category}: s_AMB " in done.stdout  # --limit
    assert "decoding: temperature 0.0 (the default: the original BBQ paper" in done.stdout
    assert "(40 requests: 0 cached, 40 new, 0 failed" in done.stdout
    results = json.loads((run_dir / "results.json").read_text())
    assert results["benchmark"] == "bbq" and results["signature"]["seeds"] == [0]
    assert results["signature"]["decoding"]["temperature"] == 0.0
    assert results["excluded_by_reason"] == {}  # intersectional items scored, none dropped
    labels = [json.loads(x) for x in (run_dir / "labels.jsonl").read_text().splitlines()]
    cells = Counter((x["category"], x["context_condition"], x["question_polarity"]) for x in labels)
    for category in CATEGORIES:  # the stratified limit: both conditions, both polarities
        assert {(cond, pol) for c, cond, pol in cells if c == category} == {
            ("ambig", "neg"),
            ("ambig", "nonneg"),
            ("disambig", "neg"),
            ("disambig", "nonneg"),
        }
    for category in CATEGORIES:
        entry = results["models"]["mock-hashed-letter"][category]
        assert entry["s_dis"]["mean"] is not None and entry["s_amb"]["mean"] is not None


def test_oracle_scores_accuracy_one(items_arg: str, tmp_path: Path) -> None:
    bench = get_benchmark("bbq", items=items_arg, templates=FIXTURE)
    assert isinstance(bench, OriginalBBQBenchmark)
    selected = bench.selected_items(48)
    answers = {bench.prompt(item).text_for("chat"): "ABC"[item.label] for item in selected}
    assert len(answers) == len(selected)  # one prompt text per item: an oracle is possible
    script = tmp_path / "oracle.json"
    script.write_text(json.dumps(answers))
    result = run_benchmark(
        "bbq",
        f"mock:{script}",
        out=tmp_path / "run",
        limit=48,
        progress=False,
        benchmark_options={"items": items_arg, "templates": FIXTURE},
    )
    assert result.stats.failed == 0 and result.stats.total == 48
    for category in CATEGORIES:
        entry = result.results["models"]["mock-oracle"][category]
        assert entry["acc_ambig"]["mean"] == 1.0 and entry["acc_disambig"]["mean"] == 1.0
        assert entry["s_amb"]["mean"] == 0.0  # always "unknown" when it is: (1 - acc) * s_DIS
    assert any(
        line.startswith("mock-oracle [PARTIAL] / Race_x_gender: ")  # --limit 48
        for line in result.summary
    )


def test_prompt_for_chat_and_base_models(items_arg: str) -> None:
    bench = get_benchmark("bbq", items=items_arg, templates=FIXTURE)
    assert isinstance(bench, OriginalBBQBenchmark)
    item = bench.items[0]
    prompt = bench.prompt(item)
    assert prompt.messages[0][0] == "user"
    chat = prompt.messages[0][1]
    assert chat.startswith("Choose the correct answer. Answer with A, B or C only")
    assert f"A. {item.ans0} B. {item.ans1} C. {item.ans2}" in chat
    assert prompt.completion == chat + "\nAnswer:"
    assert bench.params_for(MockBackend("hashed-letter")).temperature == 0.0
    assert [r.seed for r in bench.requests(limit=3)] == [0, 0, 0]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("filbbq", "--templates <path> local copy of FilBBQ's templates/ folder."),
        ("bbq", "--templates <path> local copy of BBQ's templates/ folder (scoring the"),
    ],
)
def test_run_help_gives_each_benchmarks_own_words_for_a_shared_option(
    biasbench_cli: CliRun, name: str, words: str
) -> None:
    done = biasbench_cli("run", name, "--help")
    assert done.returncode == 0, done.stderr
    assert words in " ".join(done.stdout.split())


def test_bias_profiles_show_the_templates_stereotypes(
    items_arg: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As FilBBQ's profiles do: Relevant_social_values [Known_stereotyped_groups]; the
    # intersectional templates name theirs in Known_stereotyped_race and _var2.
    bench = get_benchmark("bbq", items=items_arg, templates=FIXTURE)
    assert bench.template_info == {  # type: ignore[attr-defined]
        ("SES", "1"): "drug use [low SES]",
        ("Disability_status", "4"): "people who are dangerous drivers [disabled, D/deaf]",
        ("Disability_status", "19"): "good co-worker [disabled, physically disabled]",
        ("Race_x_SES", "1"): "financial independence [Black, African American, Latino, "
        "Hispanic; lowSES]",
        ("Race_x_SES", "5"): "criminal behavior [Black, African American, Latino, Hispanic; "
        "lowSES]",
        ("Race_x_gender", "1"): "drug use [Black, African American; M]",
    }
    result = run_benchmark(
        "bbq",
        "mock:hashed-letter",
        out=tmp_path / "run",
        limit=48,
        progress=False,
        benchmark_options={"items": items_arg, "templates": FIXTURE},
    )
    rows = result.results["bias_profiles"]["mock-hashed-letter"]
    assert rows and all(
        row["stereotype"]
        == bench.template_info[
            (
                row["category"],  # type: ignore[attr-defined]
                str(row["question_index"]),
            )
        ]
        for row in rows
    )
    # Templates at hand only: nothing is downloaded to show a stereotype.
    monkeypatch.setenv("BIASBENCH_CACHE", str(tmp_path / "empty"))
    monkeypatch.delenv("BIASBENCH_BBQ_TEMPLATES", raising=False)
    from biasbench.benchmarks.bbq.benchmark import _template_info

    assert _template_info(bench.items, None) == {}
    # Other items (--items) take no stereotypes from the cached BBQ templates: their ids may
    # name other templates.
    monkeypatch.setenv("BIASBENCH_BBQ_TEMPLATES", str(FIXTURE))
    assert _template_info(bench.items, None) == bench.template_info  # type: ignore[attr-defined]
    assert _template_info(bench.items, None, published=False) == {}
