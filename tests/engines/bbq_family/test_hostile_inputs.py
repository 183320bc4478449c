"""What a hostile user tried on the robustness grid, the refusal policies and the cross-language
comparison, and what broke: each case runs as the user ran it (the CLI, the mock backend)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from biasbench.engines.bbq_family.items.grid import Grid, parse_vary
from biasbench.errors import BiasbenchError
from biasbench.testing.grid_effect import grid_items, write_items
from biasbench.testing.language_effect import parallel_items
from tests.running import CliRun


def strict(path: Path) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("order,order", "--vary names order twice"),
        ("seed,seeds", "--vary names seeds twice"),
        (",order", "--vary takes"),
    ],
)
def test_vary_refuses_duplicates_and_empty_names(text: str, message: str) -> None:
    with pytest.raises(BiasbenchError, match=message):
        parse_vary(text)


def test_a_budget_of_one_cell_is_refused_before_anything_runs() -> None:
    # it used to pass, ask the model, then crash writing an empty decomposition table
    with pytest.raises(BiasbenchError, match="--grid-budget must be at least 2"):
        Grid(("seeds", "order"), budget=1)


@pytest.fixture(scope="module")
def items_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_items(grid_items(6), tmp_path_factory.mktemp("hostile") / "Age.jsonl")


def test_a_grid_run_where_every_answer_is_a_refusal(
    biasbench_cli: CliRun, items_file: Path, tmp_path: Path
) -> None:
    script = tmp_path / "refuse.json"
    script.write_text(json.dumps({"*": "I cannot answer that."}), encoding="utf-8")
    out = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        f"mock:{script}",
        "--items",
        items_file,
        "--seeds",
        2,
        "--vary",
        "seeds,order",
        "--grid-budget",
        4,
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr  # was a traceback after all requests
    assert (out / "tables" / "grid_decomposition_by_score.md").is_file()
    results = strict(out / "results.json")
    entry = results["refusals"]["models"]["mock-refuse"]["all"]
    assert entry["refused_pct"] == 100.0
    # s_DIS is undefined when refusals are excluded, +1 when they are the target: they differ
    assert entry["s_dis"] == {
        "excluded": None,
        "unknown": None,
        "target": 1.0,
        "low": 1.0,
        "high": 1.0,
        "differs": True,
    }
    assert "s_DIS undefined excluded (headline), range +1.000 where defined" in done.stdout
    labels = [json.loads(x) for x in (out / "labels.jsonl").read_text().splitlines()]
    assert {x["method"] for x in labels} == {"refusal"}


def test_grid_labels_name_their_cell(
    biasbench_cli: CliRun, items_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items_file,
        "--seeds",
        2,
        "--vary",
        "seeds,order",
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    labels = [json.loads(x) for x in (out / "labels.jsonl").read_text().splitlines()]
    assert len(labels) == 12 * 2 * 6
    # seed is the sampling seed (it was the cell's index, 0-11), item_id the stored request
    assert {x["seed"] for x in labels} == {0, 1}
    assert {x["cell"] for x in labels} == set(range(12))
    assert len({(x["item_id"], x["seed"]) for x in labels}) == len(labels)
    for x in labels:
        assert x["item_id"] == f"{x['uid']}~o{x['order']}~p{x['prompt_variant']}"
        # the letter as shown, mapped back through the order, is the item's own option
        assert "ABC".index(x["output"]) == x["shown_index"]
        assert int(x["order"][x["shown_index"]]) == x["pred_index"]
        assert x["method"] == "letter"


def _language_files(folder: Path, drop_es_category: str | None, shift_es_ids: int) -> str:
    specs = []
    for language in ("en", "es"):
        path = folder / f"{language}.jsonl"
        lines = []
        for item in parallel_items("ds", [language], ["Age", "SES"], 8):
            row = json.loads(item.model_dump_json())
            row.pop("namespace"), row.pop("language")
            if language == "es":
                if row["category"] == drop_es_category:
                    continue
                row["example_id"] += shift_es_ids
            lines.append(json.dumps(row))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        specs.append(f"ds/{language}={path}")
    return ",".join(specs)


def test_a_category_in_one_language_only(biasbench_cli: CliRun, tmp_path: Path) -> None:
    items = _language_files(tmp_path, drop_es_category="SES", shift_es_ids=0)
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items,
        "--seeds",
        2,
        "--out",
        tmp_path / "run",
    )
    assert done.returncode == 0, done.stderr  # was KeyError 'bias_numerator@b'
    rows = strict(tmp_path / "run" / "results.json")["cross_language"]["rows"]
    assert {r["category"] for r in rows} == {"Age", "all"}


def test_languages_without_a_shared_item_say_so(biasbench_cli: CliRun, tmp_path: Path) -> None:
    items = _language_files(tmp_path, drop_es_category=None, shift_es_ids=1000)
    done = biasbench_cli(
        "run",
        "bbq",
        "--model",
        "mock:hashed-letter",
        "--items",
        items,
        "--seeds",
        2,
        "--out",
        tmp_path / "run",
    )
    assert done.returncode == 0, done.stderr
    block = strict(tmp_path / "run" / "results.json")["cross_language"]
    assert block["rows"] == []
    assert "cross-language: no item of ds pairs across its languages" in done.stdout


def test_vary_seeds_with_a_deterministic_model_says_why(items_file: Path) -> None:
    """The docs' budget example without --model: the default model scores options, which is
    deterministic; the run used to drop to one seed and then ask for --seeds the user gave."""
    from biasbench.models.mock import MockBackend
    from biasbench.pipeline.plan import plan_run
    from biasbench.runspec import RunSpec

    class Deterministic(MockBackend):
        deterministic = True

    spec = RunSpec(
        "bbq",
        "mock:hashed-letter",
        seeds=[0, 1, 2],
        benchmark_options={"items": str(items_file), "vary": "seeds,order"},
    )
    with pytest.raises(BiasbenchError, match="answers deterministically .*drop seeds from --vary"):
        plan_run(spec, backend=Deterministic("hashed-letter"))
    plain = RunSpec(
        "bbq",
        "mock:hashed-letter",
        seeds=[0, 1, 2],
        benchmark_options={"items": str(items_file), "vary": "order"},
    )
    assert len(plan_run(plain, backend=Deterministic("hashed-letter")).requests) == 12 * 6


def test_the_report_range_of_an_older_folder_where_one_policy_is_undefined() -> None:
    """A results.json written before the fix says ``differs: false`` for s_DIS undefined /
    +1; the report's range still says the policies differ."""
    import pandas as pd

    from biasbench.engines.bbq_family.presenting.refusals import refusal_table

    frame = pd.DataFrame(
        [
            {
                "model": "m",
                "category": "all",
                "refused_pct": 100.0,
                "refused_pct_ambig": 100.0,
                "refused_pct_disambig": 100.0,
                "unparsed_pct": 0.0,
                **{
                    f"s_amb_{p}": v
                    for p, v in (("excluded", None), ("unknown", 0.0), ("target", 1.0))
                },
                "s_amb_low": 0.0,
                "s_amb_high": 1.0,
                "s_amb_differs": True,
                **{
                    f"s_dis_{p}": v
                    for p, v in (("excluded", None), ("unknown", None), ("target", 1.0))
                },
                "s_dis_low": 1.0,
                "s_dis_high": 1.0,
                "s_dis_differs": False,
            }
        ]
    )
    table = refusal_table(frame)
    assert table["s_DIS range"].tolist() == ["+1.000 where defined"]
    assert table["s_AMB range"].tolist() == ["[+0.000, +1.000]"]
