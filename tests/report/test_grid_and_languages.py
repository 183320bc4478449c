"""The HTML report of a robustness-grid run and of a cross-language run,
each a small synthetic run with planted effects: the sections, their figure files and the
table values are there, and the model's name (untrusted text) is escaped."""

from __future__ import annotations

import dataclasses
import html
import re
from typing import Any

import pandas as pd
import pytest

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.pipeline import run_benchmark
from biasbench.report.html import build_report
from biasbench.testing.grid_effect import PlantedAnswerer, grid_items, write_items
from biasbench.testing.language_effect import (
    LanguageAnswerer,
    LanguageBehaviour,
    parallel_items,
)

GRID_MODEL = "grid<b>bold</b>"
LANGUAGE_MODEL = "lang<script>x</script>"
BASE = LanguageBehaviour(
    p_unknown_ambig=0.5, p_target_ambig=0.6, p_correct_disambig=0.6, disambig_bias=0.05
)


def _es_more_biased(item: BBQItem) -> LanguageBehaviour:
    """Spanish: s_DIS +0.40 in Age; nothing else differs."""
    if item.language == "es" and item.category == "Age":
        return dataclasses.replace(BASE, disambig_bias=0.25)
    return BASE


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("grid_languages")
    items = grid_items(60)
    grid = run_benchmark(
        "bbq",
        backend=PlantedAnswerer(items, name=GRID_MODEL),
        out=root / "grid",
        seeds=[0, 1, 2],
        progress=False,
        benchmark_options={
            "items": str(write_items(items, root / "Age.jsonl")),
            "vary": "seeds,order,prompt",
            "orders": "cyclic",
            "grid_budget": 12,
        },
    )
    parallel = parallel_items("ds", ["en", "es"], ("Age", "SES"), 120)
    files = []
    for language in ("en", "es"):
        mine = [i for i in parallel if i.language == language]
        files.append(f"ds/{language}={write_items(mine, root / f'{language}.jsonl')}")
    languages = run_benchmark(
        "bbq",
        backend=LanguageAnswerer(parallel, _es_more_biased, name=LANGUAGE_MODEL),
        out=root / "languages",
        seeds=[0, 1],
        progress=False,
        benchmark_options={"items": ",".join(files)},
    )
    out = root / "report"
    page = build_report([root / "grid", root / "languages"], out).read_text(encoding="utf-8")
    return {
        "grid": grid.results,
        "languages": languages.results,
        "html": page,
        "out": out,
        "summary": languages.summary,
    }


def _tables(page: str) -> dict[str, str]:
    """Each table's heading -> the HTML up to the next heading."""
    parts = re.split(r"<h3>(.*?)</h3>", page)
    return {
        html.unescape(title): body for title, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def test_the_grid_decomposition_is_shown(report: dict[str, Any]) -> None:
    tables = _tables(report["html"])
    body = tables["Robustness grid: what moves each score"]
    s_dis = report["grid"]["robustness"]["decomposition"][GRID_MODEL]["all"]["s_dis"]
    for component in ("seed", "order", "prompt", "item"):
        assert f"{s_dis['components'][component]['sd']:.3f}" in body, component
    assert "Position bias: where the chosen option was shown" in tables
    assert "Bias scores in the published option order and order-balanced" in tables
    figures = list((report["out"] / "figures").glob("*grid_decomposition_*.png"))
    assert len(figures) == 1 and figures[0].stat().st_size > 1000
    assert re.search(
        r'<figure id="fig-[^"]*-grid_decomposition_[^"]*"><img src="data:image/png', report["html"]
    )
    assert list((report["out"] / "tables").glob("*grid_decomposition.csv"))


def test_the_language_heat_map_and_table_are_shown(report: dict[str, Any]) -> None:
    tables = _tables(report["html"])
    body = tables["Differences between languages, paired by item"]
    rows = pd.DataFrame(report["languages"]["cross_language"]["rows"])
    planted = rows[(rows["category"] == "Age") & (rows["score"] == "s_dis")].iloc[0]
    assert planted["significant"] and planted["difference"] == pytest.approx(0.4, abs=0.12)
    assert f"{planted['difference']:.3f}" in body  # shown as the results have it
    assert "[{:+.3f}, {:+.3f}]".format(planted["ci_low"], planted["ci_high"]) in body
    assert ">yes<" in body and ">es - en<" in body
    heat = list((report["out"] / "figures").glob("*cross_language_*.png"))
    assert len(heat) == 1 and heat[0].with_suffix(".pdf").is_file()
    assert (
        'alt="' + html.escape(f"{LANGUAGE_MODEL} / ds: differences between languages (raw)")
        in report["html"]
    )
    assert "* marks p_holm &lt; 0.05" in report["html"]


def test_model_names_are_escaped(report: dict[str, Any]) -> None:
    page = report["html"]
    assert GRID_MODEL not in page and LANGUAGE_MODEL not in page
    assert html.escape(GRID_MODEL) in page and html.escape(LANGUAGE_MODEL) in page


def test_the_summary_names_each_significant_difference(report: dict[str, Any]) -> None:
    lines = [line for line in report["summary"] if "ds es - en" in line]
    assert any(
        line.startswith(f"{LANGUAGE_MODEL} / ds es - en, Age: s_DIS +0.") for line in lines
    ), lines
    header = next(line for line in report["summary"] if line.startswith("cross-language:"))
    significant = sum(r["significant"] for r in report["languages"]["cross_language"]["rows"])
    assert f"{significant} significant" in header
    assert len(lines) == significant
