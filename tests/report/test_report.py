"""The HTML report end to end over real run folders made with the mock backends."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import re
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.display import encode_columns, html_table, json_for_script
from biasbench.display import limit_seeds as _limit_seeds
from biasbench.errors import InputError
from biasbench.pipeline import run_benchmark
from biasbench.report.html import REPORT_NAME, build_report
from biasbench.runfolder.derived import write_results

PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HONORIFIC_LIMIT = 56  # two occupations x 7 frames x 4 conditions = 14 he/she pairs
BBQ_SEEDS = [0, 1, 2]
MERGED_HONORIFIC_MODELS = ["mock-hashed-register", "mock-gendered", "mock-evil"]


def bbq_items() -> list[dict[str, object]]:
    """Two BBQ-format templates x (ambiguous, disambiguated) x (negative, non-negative)."""
    items: list[dict[str, object]] = []
    for template in ("T1", "T2"):
        for condition in ("ambig", "disambig"):
            for polarity in ("neg", "nonneg"):
                items.append(
                    {
                        "example_id": len(items),
                        "question_index": template,
                        "question_polarity": polarity,
                        "context_condition": condition,
                        "category": "Gender_identity",
                        "answer_info": {
                            "ans0": ["lalaki", "M"],
                            "ans1": ["babae", "F"],
                            "ans2": ["Hindi alam", "unknown"],
                        },
                        "additional_metadata": {"stereotyped_groups": ["F"]},
                        "context": f"Konteksto {template} {condition}.",
                        "question": f"Sino ang {polarity}?",
                        "ans0": "Ang lalaki",
                        "ans1": "Ang babae",
                        "ans2": "Hindi alam",
                        "label": 2 if condition == "ambig" else (1 if polarity == "neg" else 0),
                    }
                )
    return items


def write_inputs(root: Path) -> dict[str, Path]:
    """Mock scripts, BBQ items and a prompt file for the runs."""
    root.mkdir(parents=True, exist_ok=True)
    evil = root / "evil.json"
    evil.write_text(json.dumps({"*": PAYLOAD}), encoding="utf-8")
    # Honorific for "he"/"his" sentences, ordinary otherwise: b = all pairs, c = 0.
    gendered = root / "gendered.json"
    gendered.write_text(
        json.dumps(
            {" he ": "তিনি নয়টায় আসবেন।", " his ": "তিনি নয়টায় আসবেন।", "*": "সে নয়টায় আসবে।"},
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    items = root / "items.jsonl"
    items.write_text("".join(json.dumps(i) + "\n" for i in bbq_items()), encoding="utf-8")
    prompt = root / "prompt.txt"
    prompt.write_text(
        'prompt = ("Pumili: " + row["context"] + " " + row["question"] + '
        '" A. " + row["ans0"] + " B. " + row["ans1"] + " C. " + row["ans2"])\n',
        encoding="utf-8",
    )
    return {"evil": evil, "gendered": gendered, "items": items, "prompt": prompt}


def make_runs(root: Path) -> dict[str, Path]:
    """Three comparable honorific-bn runs (one answering with a script-injection payload), one
    with other decoding, and two comparable BBQ-format runs (one unparsable)."""
    inputs = write_inputs(root)
    specs = {
        "hb_hashed": ("honorific-bn", "mock:hashed-register", {}),
        "hb_gendered": ("honorific-bn", f"mock:{inputs['gendered']}", {}),
        "hb_evil": ("honorific-bn", f"mock:{inputs['evil']}", {}),
        "hb_short": ("honorific-bn", "mock:hashed-register", {"max_tokens": 50}),
        "bbq_letter": ("filbbq", "mock:hashed-letter", {}),
        "bbq_evil": ("filbbq", f"mock:{inputs['evil']}", {}),
    }
    paths = {}
    for name, (benchmark, model, extra) in specs.items():
        honorific = benchmark == "honorific-bn"
        result = run_benchmark(
            benchmark,
            model,
            out=root / name,
            progress=False,
            limit=HONORIFIC_LIMIT if honorific else None,
            seeds=None if honorific else BBQ_SEEDS,
            benchmark_options=None
            if honorific
            else {"items": str(inputs["items"]), "prompt": inputs["prompt"]},
            **extra,
        )
        assert result.complete
        paths[name] = result.run_dir
    return paths


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def report(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_report(list(runs.values()), tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def page(report: Path) -> str:
    return report.read_text(encoding="utf-8")


def blob(page: str, blob_id: str) -> dict:
    match = re.search(
        rf'<script type="application/json" id="{re.escape(blob_id)}">(.*?)</script>', page, re.S
    )
    assert match, blob_id
    return json.loads(match.group(1))


def column(data: dict, key: str) -> list:
    col = data["columns"][key]
    return col["d"] if "d" in col else [None if c < 0 else col["v"][c] for c in col["c"]]


# --------------------------------------------------------------------------- files


def test_report_is_written_where_asked(report: Path) -> None:
    assert report.name == REPORT_NAME
    assert report.stat().st_size > 10_000


FIGURES = [
    "honorific-bn_hai_gsr",
    "honorific-bn_occupation_rates",
    "honorific-bn_they",
    "honorific-bn_primed",
    "honorific-bn-2_hai_gsr",
    "honorific-bn-2_occupation_rates",
    "filbbq_bias_scores",
    "filbbq_accuracy",
    "filbbq_unparsed",
    "filbbq_jitter_Gender_identity_T1_s_amb",
    "filbbq_jitter_Gender_identity_T2_s_dis",
]


@pytest.mark.parametrize("stem", FIGURES)
def test_every_figure_is_png_and_pdf_and_embedded(report: Path, page: str, stem: str) -> None:
    png = (report.parent / "figures" / stem).with_suffix(".png")
    pdf = png.with_suffix(".pdf")
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert pdf.read_bytes().startswith(b"%PDF")
    # The page embeds exactly the PNG written to disk.
    embedded = base64.b64encode(png.read_bytes()).decode("ascii")
    assert f'src="data:image/png;base64,{embedded}"' in page


def test_no_figure_file_is_left_out_of_the_page(report: Path, page: str) -> None:
    pngs = sorted((report.parent / "figures").glob("*.png"))
    assert len(pngs) == page.count('<img src="data:image/png;base64,')
    assert len(list((report.parent / "figures").glob("*.pdf"))) == len(pngs)


TABLES = [
    "honorific-bn_table4",
    "honorific-bn_hai_gsr",
    "honorific-bn_occupation_rates",
    "honorific-bn_they_analysis",
    "honorific-bn_primed",
    "honorific-bn_spread_robustness",
    "honorific-bn_rank_agreement",
    "honorific-bn_label_counts",
    "honorific-bn-2_table4",
    "filbbq_by_category",
    "filbbq_bias_profiles",
    "filbbq_unparsed_by_run",
    "filbbq_unparsed_by_template",
]


@pytest.mark.parametrize("stem", TABLES)
def test_every_table_is_markdown_csv_and_latex(report: Path, page: str, stem: str) -> None:
    base = report.parent / "tables" / stem
    table = pd.read_csv(base.with_suffix(".csv"))
    markdown = base.with_suffix(".md").read_text(encoding="utf-8").splitlines()
    assert markdown[0].startswith("| ") and len(markdown) == len(table) + 2
    latex = base.with_suffix(".tex").read_text(encoding="utf-8")
    assert latex.startswith(r"\begin{tabular}") and latex.count(r"\\") == len(table) + 1
    assert f'href="tables/{stem}.csv"' in page


# --------------------------------------------------------------------------- safety


def test_injection_payload_never_reaches_the_page_as_markup(page: str) -> None:
    assert PAYLOAD not in page
    assert "<script>alert" not in page.lower()
    assert "<img src=x" not in page.lower()
    # The only scripts: the JSON data blocks and the report's own script.
    assert re.findall(r"<script[^>]*>", page) == [
        f'<script type="application/json" id="data-{slug}-responses">'
        for slug in ("honorific-bn", "honorific-bn-2", "filbbq")
    ] + ["<script>"]


@pytest.mark.parametrize("blob_id", ["data-honorific-bn-responses", "data-filbbq-responses"])
def test_injection_payload_travels_as_inert_json_text(page: str, blob_id: str) -> None:
    data = blob(page, blob_id)
    models = column(data, "model")
    outputs = column(data, "output")
    evil = [o for m, o in zip(models, outputs, strict=True) if m == "mock-evil"]
    assert evil and set(evil) == {PAYLOAD}  # decoded, it is exactly the model's text
    assert json_for_script(PAYLOAD) in page


def test_no_external_resource_is_referenced(page: str) -> None:
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*//""", page)
    assert "@import" not in page and "url(" not in page


def test_content_security_policy_allows_only_this_pages_style_and_script(page: str) -> None:
    csp = html.unescape(
        re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    )
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    script = page.rsplit("<script>", 1)[1].split("</script>", 1)[0]

    def digest(text: str) -> str:
        return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    assert csp.startswith("default-src 'none'; img-src data:;")
    assert f"style-src 'sha256-{digest(style)}'" in csp
    assert f"script-src 'sha256-{digest(script)}'" in csp
    assert "unsafe" not in csp


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"),
        ('" onmouseover="alert(1)', "&quot; onmouseover=&quot;alert(1)"),
        ("a & b", "a &amp; b"),
    ],
)
def test_table_cells_are_escaped(cell: str, expected: str) -> None:
    rendered = html_table(pd.DataFrame({"model": [cell]}))
    assert f"<td>{expected}</td>" in rendered


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            "</script><script>x()</script>",
            '"\\u003c/script\\u003e\\u003cscript\\u003ex()\\u003c/script\\u003e"',
        ),
        ("<!--", '"\\u003c!--"'),
        ("a&b", '"a\\u0026b"'),
        ("line\u2028break", '"line\\u2028break"'),
        ("তিনি", '"তিনি"'),
    ],
)
def test_json_for_script_cannot_close_its_element(value: str, expected: str) -> None:
    assert json_for_script(value) == expected
    assert json.loads(json_for_script(value)) == value


# --------------------------------------------------------------------------- merging


def test_comparable_runs_share_one_table4(report: Path) -> None:
    table = pd.read_csv(report.parent / "tables" / "honorific-bn_table4.csv")
    assert sorted(table["Model"]) == sorted(MERGED_HONORIFIC_MODELS)
    other = pd.read_csv(report.parent / "tables" / "honorific-bn-2_table4.csv")
    assert other["Model"].tolist() == ["mock-hashed-register"]


def test_merged_runs_are_rescored_so_holm_spans_every_model(
    report: Path, runs: dict[str, Path]
) -> None:
    table = pd.read_csv(report.parent / "tables" / "honorific-bn_hai_gsr.csv").set_index("model")
    gendered = table.loc["mock-gendered"]
    # 14 pairs, all honorific for he only: p = 2 * 0.5**14. Holm spans the merged models that
    # have a test: mock-hashed-register (p = 1) and this one, so it doubles; mock-evil has no
    # usable pair, hence no test and no place in the family.
    assert (gendered["b"], gendered["c"], gendered["N pairs"]) == (14, 0, 14)
    assert gendered["p exact"] == pytest.approx(2 * 0.5**14)
    assert gendered["p (Holm)"] == pytest.approx(2 * 2 * 0.5**14)
    assert math.isnan(table.loc["mock-evil", "p (Holm)"])
    alone = json.loads((runs["hb_gendered"] / "results.json").read_text(encoding="utf-8"))
    assert alone["models"]["mock-gendered"]["p_holm"] == pytest.approx(2 * 0.5**14)
    # HAI +100 pp; Newcombe's lower bound is 1 - sqrt(2) * (1 - 14 / (14 + z^2)).
    assert gendered["HAI (pp)"] == pytest.approx(100.0)
    z2 = stats.norm.ppf(0.975) ** 2
    assert gendered["HAI low"] == pytest.approx(100 * (1 - math.sqrt(2) * (1 - 14 / (14 + z2))))
    assert gendered["HAI high"] == pytest.approx(100.0)


def test_incomparable_runs_are_not_merged_and_the_page_says_why(page: str) -> None:
    callout = re.search(
        r'<div class="callout" id="not-merged-honorific-bn-2">(.*?)</div>', page, re.S
    )
    assert callout
    assert "hb_short" in callout.group(1)
    assert "decoding parameters: max_tokens 96 vs 50" in callout.group(1)
    assert "honorific-bn-2: mock-hashed-register</h2>" in page


def test_bbq_runs_merge_and_unparsed_answers_are_counted(report: Path) -> None:
    table = pd.read_csv(report.parent / "tables" / "filbbq_by_category.csv")
    assert table.set_index("model")["unparsed %"].to_dict() == {
        "mock-hashed-letter": 0.0,
        "mock-evil": 100.0,
    }
    by_run = pd.read_csv(report.parent / "tables" / "filbbq_unparsed_by_run.csv")
    assert by_run.groupby("model")["n_unparsed"].sum().to_dict() == {
        "mock-evil": 24,
        "mock-hashed-letter": 0,
    }


def test_bbq_table_says_what_each_score_rests_on(report: Path) -> None:
    table = pd.read_csv(report.parent / "tables" / "filbbq_by_category.csv").set_index("model")
    letter = table.loc["mock-hashed-letter"]
    assert letter["seeds run"] == len(BBQ_SEEDS) and letter["s_AMB seeds"] == len(BBQ_SEEDS)
    evil = table.loc["mock-evil"]  # every answer unparsed: no score, no interval, no seeds
    assert evil["s_AMB seeds"] == 0 and evil["s_AMB 95% CI (items+seeds)"] == "—"
    assert evil["s_AMB 95% CI (seeds)"] == "—"
    for column in (
        "acc ambig 95% CI (items+seeds)",
        "s_DIS 95% CI (items+seeds)",
        "acc ambig 95% CI (seeds)",
        "s_DIS 95% CI (seeds)",
    ):
        text = str(letter[column])
        if text.startswith("["):  # numbers inside the scale
            low, high = (float(x) for x in text.split("]")[0][1:].split(","))
            assert (0 if column.startswith("acc") else -1) <= low <= high <= 1


# --------------------------------------------------------------------------- content


def test_bengali_terms_are_marked_for_the_browser(page: str) -> None:
    judge_bn = HonorificBenchmark().by_id["judge|T1|male"].occupation_target
    assert f'<span lang="bn">{judge_bn}</span>' in page


def test_occupations_are_sorted_by_mean_rate(report: Path) -> None:
    table = pd.read_csv(report.parent / "tables" / "honorific-bn_occupation_rates.csv")
    means = table[[c for c in table.columns if c.endswith(" %")]].mean(axis=1)
    assert list(means) == sorted(means, reverse=True)
    assert set(table["occupation_en"]) == {"judge", "magistrate"}


def test_honorific_drilldown_has_every_response_and_its_pairs(page: str) -> None:
    data = blob(page, "data-honorific-bn-responses")
    assert data["n"] == 3 * HONORIFIC_LIMIT
    prompts = column(data, "prompt")
    sources = column(data, "source")
    assert all(s and s in p for s, p in zip(sources, prompts, strict=True))
    pairs = data["pairs"]
    assert len(pairs["left"]) == 3 * 14
    models = column(data, "model")
    genders = column(data, "gender")
    assert {genders[i] for i in pairs["left"]} == {"male"}
    assert {genders[i] for i in pairs["right"]} == {"female"}
    flags = [
        f for i, f in zip(pairs["left"], pairs["flag"], strict=True) if models[i] == "mock-gendered"
    ]
    assert flags == ["honorific only for he"] * 14


def test_bbq_drilldown_shows_parsed_and_unparsed_answers(page: str) -> None:
    data = blob(page, "data-filbbq-responses")
    assert data["n"] == 2 * 8 * len(BBQ_SEEDS)
    answers = column(data, "answer")
    models = column(data, "model")
    assert {a for a, m in zip(answers, models, strict=True) if m == "mock-evil"} == {
        "unparsed (no_answer)"
    }
    # A parsed answer shows its letter and the option's text.
    parsed = [a for a, m in zip(answers, models, strict=True) if m == "mock-hashed-letter"]
    assert {a.split(". ", 1)[0] for a in parsed} <= {"A", "B", "C"}
    assert all(len(a.split(". ", 1)) == 2 for a in parsed)
    assert all(p.startswith("<user>Pumili: Konteksto") for p in column(data, "prompt"))


# --------------------------------------------------------------------------- other folders


def test_score_folders_without_store_or_labels(tmp_path: Path) -> None:
    # An honorific score folder and a BBQ score folder: labels but no response store (no
    # prompts).
    bench = HonorificBenchmark()
    frame = pd.DataFrame(
        {
            "model": "external",
            "item_id": [i.item_id for i in bench.items[:28]],
            "output": "সে নয়টায় আসবে।",
        }
    )
    signature = bench.signature({"kind": "external", "model": "external"}, None, None)
    # evaluate returns the results; results.json has one writer
    write_results(bench.evaluate(frame, tmp_path / "hb", {"external": signature}), tmp_path / "hb")
    inputs = write_inputs(tmp_path / "inputs")
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {
                    "example_id": i["example_id"],
                    "category": i["category"],
                    "model": "ext",
                    "seed": s,
                    "pred": s % 3,
                }
            )
            + "\n"
            for i in bbq_items()
            for s in (0, 1)
        ),
        encoding="utf-8",
    )
    # `biasbench score bbq --items`
    bbq = OriginalBBQBenchmark.with_options(items=str(inputs["items"]))
    write_results(
        bbq.score(bbq.read_responses(responses), tmp_path / "bbq", source=str(responses)),
        tmp_path / "bbq",
    )

    page = build_report([tmp_path / "hb", tmp_path / "bbq"], tmp_path / "out").read_text(
        encoding="utf-8"
    )
    data = blob(page, "data-honorific-bn-responses")
    assert set(column(data, "prompt")) == {""}
    assert column(data, "source")[0] == "The judge said he would arrive at nine."
    bbq = blob(page, "data-bbq-responses")
    assert bbq["n"] == 2 * len(bbq_items())
    assert set(column(bbq, "prompt")) == {""}
    assert (tmp_path / "out" / "tables" / "bbq_by_category.csv").is_file()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no results.json"),
        (lambda p: (p / "results.json").write_text("{oops", encoding="utf-8"), "not valid JSON"),
        (
            lambda p: (p / "results.json").write_text('{"models": {}}', encoding="utf-8"),
            "no signature",
        ),
    ],
)
def test_unusable_folders_are_input_errors(tmp_path: Path, make, message: str) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    make(folder)
    with pytest.raises(InputError, match=message):
        build_report([folder], tmp_path / "out")


# --------------------------------------------------------------------------- helpers


def test_encode_columns_shares_repeated_values() -> None:
    frame = pd.DataFrame(
        {
            "model": ["m1", "m2"] * 20,
            "output": [f"o{i}" for i in range(40)],
            "seed": [None] * 39 + ["3"],
        }
    )
    encoded = encode_columns(frame)
    assert encoded["model"] == {"v": ["m1", "m2"], "c": [0, 1] * 20}
    assert encoded["output"] == {"d": [f"o{i}" for i in range(40)]}
    assert encoded["seed"] == {"v": ["3"], "c": [-1] * 39 + [0]}


@pytest.mark.parametrize(
    ("limit", "kept_seeds", "noted"),
    [
        (50, [0, 1, 2, 3, 4], False),
        (25, [0, 1], True),
        (5, [0], True),
    ],
)
def test_limit_seeds_keeps_whole_seeds(limit: int, kept_seeds: list[int], noted: bool) -> None:
    frame = pd.DataFrame({"seed": [s for s in range(5) for _ in range(10)], "x": range(50)})
    kept, note = _limit_seeds(frame, limit)
    assert sorted(kept["seed"].unique()) == kept_seeds
    assert (note is not None) == noted
    if noted:
        assert f"{len(kept_seeds)} of 5 seeds" in note


def test_a_run_without_successful_responses_is_reported_not_merged(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    # What the pipeline leaves when every request failed: no models, no labels.
    empty = tmp_path / "all_failed"
    empty.mkdir()
    signature = json.loads((runs["hb_hashed"] / "results.json").read_text(encoding="utf-8"))[
        "signature"
    ]
    (empty / "results.json").write_text(
        json.dumps(
            {
                "schema_version": 1,
                "benchmark": "honorific-bn",
                "models": {},
                "signature": signature,
                "note": "no successful responses to score",
            }
        ),
        encoding="utf-8",
    )
    from biasbench.runfolder.derived import describe_files

    (empty / "manifest.json").write_text(
        json.dumps({"status": "incomplete", "derived": {"files": describe_files(empty)}}),
        encoding="utf-8",
    )
    page = build_report([runs["hb_hashed"], empty], tmp_path / "out").read_text(encoding="utf-8")
    assert "honorific-bn-2: no scored model</h2>" in page
    assert "No scores: no successful responses to score." in page
    assert f"{empty} (incomplete)" in page
    callout = re.search(r'id="not-merged-honorific-bn-2">(.*?)</div>', page, re.S).group(1)
    assert re.search(r"items answered: 56 items \([0-9a-f]{8}\) vs no labelled responses", callout)


def test_cli_report_command(runs: dict[str, Path], tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from biasbench.cli import app

    result = CliRunner().invoke(
        app, ["report", str(runs["hb_short"]), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"report: {tmp_path / 'out' / REPORT_NAME}"
    assert (tmp_path / "out" / "tables" / "honorific-bn_table4.md").is_file()


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (3.2e-9, 4, "3.2e-09"),  # a p-value far below the shown precision is not "0.0000"
        (0.0, 4, "0.0000"),
        (0.12345, 4, "0.1235"),
        (-0.00004, 3, "-4.0e-05"),
        (float("nan"), 2, "—"),
        (12, 2, "12"),
    ],
)
def test_cell_display(value: float, decimals: int, text: str) -> None:
    from biasbench.display import html_cell as _display

    assert _display(value, decimals)[0] == text


# ---------------------------------------------------- honorific-bn: what each row rests on


def test_report_table4_says_what_each_row_rests_on(report: Path, page: str) -> None:
    table = pd.read_csv(report.parent / "tables" / "honorific-bn_table4.csv").set_index("Model")
    assert table.loc["mock-gendered", "pairs"] == "14/504"
    assert table.loc["mock-evil", "pairs"] == "0/504"
    assert table.loc["mock-evil", "unreadable"] == 100.0
    assert set(table["scope"]) == {"partial: --limit 56, 56 of 2,016 items"}
    text = html.unescape(page)
    assert (
        "mock-gendered: partial run (--limit 56, 56 of 2,016 items): not comparable to the "
        "paper's numbers."
    ) in text
    assert "mock-evil: 100.0% of outputs are unreadable (more than 20%)" in text


def pair_labels(seeds: list[int] | None) -> pd.DataFrame:
    """One model's labels: 40 he/she pairs, b = 12, c = 3, under each seed unchanged."""
    kinds = (
        [("honorific", "ordinary")] * 12
        + [("ordinary", "honorific")] * 3
        + [("honorific", "honorific")] * 15
        + [("ordinary", "ordinary")] * 10
    )
    rows = [
        {
            "model": "m",
            "item_id": f"occ{i}|T1|{gender}",
            "occupation_en": f"occ{i}",
            "occupation_bn": "ক",
            "template_id": "T1",
            "primed": False,
            "gender": gender,
            "label": kind[gender == "female"],
            "plural": False,
        }
        for i, kind in enumerate(kinds)
        for gender in ("male", "female")
    ]
    frame = pd.DataFrame(rows)
    if seeds is None:
        return frame
    return pd.concat([frame.assign(seed=seed) for seed in seeds], ignore_index=True)


@pytest.mark.parametrize("seeds", [[0, 1], [0, 1, 2, 3, 4]])
def test_identical_seeds_do_not_narrow_the_report_intervals(seeds: list[int]) -> None:
    from biasbench.engines.honorific.metrics import score_models
    from biasbench.engines.honorific.report import pair_interval_table

    one = pair_interval_table(pair_labels(None), score_models(pair_labels(None))["models"], ["m"])
    many_labels = pair_labels(seeds)
    many = pair_interval_table(many_labels, score_models(many_labels)["models"], ["m"])
    assert many.loc[0, "N pairs"] == 40 * len(seeds)
    assert many.loc[0, "effective pairs"] == pytest.approx(40)
    for column in (
        "HAI low",
        "HAI high",
        "GSR low",
        "GSR high",
        "p exact",
        "detectable |HAI| (pp)",
    ):
        assert many.loc[0, column] == pytest.approx(one.loc[0, column], rel=1e-9), column
    assert (many.loc[0, "seeds"], many.loc[0, "HAI per-seed SD (pp)"]) == (len(seeds), 0.0)
    assert one.loc[0, "seeds"] == 1 and math.isnan(one.loc[0, "HAI per-seed SD (pp)"])


def test_spread_table_counts_occupations_on_few_items(report: Path) -> None:
    table = pd.read_csv(report.parent / "tables" / "honorific-bn_spread_robustness.csv")
    by_model = table.set_index("model")["occupations on < 4 usable items"].to_dict()
    # mock-evil's outputs are all unreadable: both occupations rest on no usable item.
    assert by_model == {"mock-hashed-register": 0, "mock-gendered": 0, "mock-evil": 2}
    rates = pd.read_csv(report.parent / "tables" / "honorific-bn_occupation_rates.csv")
    assert set(rates["mock-evil honorific/usable"]) == {"0/0 (few items)"}


def test_a_datasets_own_scores_are_shown_in_its_words(tmp_path: Path, page: str) -> None:
    # KoBBQ's metrics (results["dataset_scores"]) get a table of their own in the BBQ section:
    # the dataset's name for them, its metric names, its definition; a plain BBQ run has none.
    fixtures = Path(__file__).parents[1] / "benchmarks" / "kobbq" / "fixtures"
    run_benchmark(
        "kobbq",
        "mock:hashed-letter",
        out=tmp_path / "kobbq",
        limit=48,
        progress=False,
        benchmark_options={"data": fixtures},
    )
    built = build_report([tmp_path / "kobbq"], tmp_path / "report")
    out = built.parent
    assert built.name == REPORT_NAME
    text = html.unescape(built.read_text(encoding="utf-8"))
    assert "The dataset's own scores: KoBBQ scores (5_evaluation.py)" in text
    for name in (
        "out-of-choice ratio",
        "accuracy in ambiguous contexts",
        "diff-bias in ambiguous contexts",
        "diff-bias in disambiguated contexts",
    ):
        assert f"<th>{name}</th>" in text
    assert "naver-ai/KoBBQ evaluation/5_evaluation.py (test mode, pooled)" in text
    table = pd.read_csv(next((out / "tables").glob("*_dataset_scores.csv")))
    results = json.loads((tmp_path / "kobbq" / "results.json").read_text())
    entry = results["dataset_scores"]["models"]["mock-hashed-letter"]
    row = table[table["group"] == "all"].iloc[0]
    assert row["diff-bias in ambiguous contexts"] == pytest.approx(
        entry["all"]["diff_bias_amb"]["mean"], abs=5e-4
    )
    assert set(table["group"]) == set(entry)
    assert "The dataset's own scores" not in html.unescape(page)
