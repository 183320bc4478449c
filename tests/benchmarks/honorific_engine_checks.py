"""Every feature of the honorific engine, checked on one registered language through the CLI a
user types: a language's tests/benchmarks/honorific_XX/test_benchmark.py subclasses
:class:`EngineLanguageChecks` with its :class:`LanguageCase` (its sentences and the readings
it declares) and adds its own readings' checks."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd
import pytest

from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.registry import benchmark_class, declaration, get_benchmark, names
from biasbench.report.html import build_report
from tests.test_cli_imports import _modules_after

ANALYSERS = ("kiwipiepy", "sudachipy", "sudachidict_core", "fugashi", "unidic_lite")
MOCK = "mock:hashed-register"
LIMIT = 200


@dataclass(frozen=True)
class LanguageCase:
    """One language: its benchmark, the sentences its planted responses use, its readings."""

    name: str
    code: str
    language: str
    """The language's English name (in the paper's title)."""
    he: str
    """An honorific sentence, answered to every he item."""
    she: str
    """An ordinary sentence, answered to every she item."""
    high: str
    """The no-pronoun answer of the first 36 occupations (honorific)."""
    low: str
    """The no-pronoun answer of the other 36 (ordinary)."""
    they: str
    """The answer to every they item (ordinary)."""
    readings: dict[str, str]
    """Reading -> its kind, as the benchmark declares them."""
    headings: tuple[str, ...] = ()
    """Text the report shows for this language's readings."""


def biasbench(*args: str | Path) -> tuple[int, str, str]:
    """``biasbench ARGS`` in this process: (exit status, stdout, stderr)."""
    from biasbench.entry import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["biasbench", *map(str, args)]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = saved
    return code, out.getvalue(), err.getvalue()


def _conditions_of(item_id: str) -> tuple[str, str]:
    occupation, _, condition = item_id.split("|")
    return occupation, condition


class EngineLanguageChecks:
    """The engine's features on ``case``'s language (a subclass sets ``case``)."""

    case: ClassVar[LanguageCase]

    # -- fixtures: one mock run and one score per language ---------------------------------
    @pytest.fixture(scope="class")
    @classmethod
    def mock_run(cls, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
        folder = tmp_path_factory.mktemp(cls.case.code) / "run"
        code, out, err = biasbench(
            "run",
            cls.case.name,
            "--model",
            MOCK,
            "--limit",
            LIMIT,
            "--no-progress",
            "--out",
            folder,
        )
        assert code == 0, err
        return folder, out

    @pytest.fixture(scope="class")
    @classmethod
    def scored(cls, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
        folder = tmp_path_factory.mktemp(f"{cls.case.code}-score")
        bench = get_benchmark(cls.case.name)
        occupations = list(dict.fromkeys(i.occupation_en for i in bench.items))
        high = set(occupations[:36])
        lines = []
        for item in bench.items:
            occupation, condition = _conditions_of(item.item_id)
            output = {
                "male": cls.case.he,
                "female": cls.case.she,
                "they": cls.case.they,
                "nopronoun": cls.case.high if item.occupation_en in high else cls.case.low,
            }[condition]
            lines.append(
                json.dumps(
                    {"item_id": item.item_id, "model": "planted", "output": output},
                    ensure_ascii=False,
                )
            )
        responses = folder / "responses.jsonl"
        responses.write_text("\n".join(lines) + "\n", encoding="utf-8")
        code, _, err = biasbench(
            "score", cls.case.name, "--responses", responses, "--out", folder / "scored"
        )
        assert code == 0, err
        results = json.loads((folder / "scored" / "results.json").read_text(encoding="utf-8"))
        return folder / "scored", results

    # -- the registry ----------------------------------------------------------------------
    def test_the_registry_finds_it(self) -> None:
        assert self.case.name in names()
        cls = benchmark_class(self.case.name)
        assert issubclass(cls, HonorificEngineBenchmark) and cls.language == self.case.code
        declared = declaration(self.case.name)
        assert declared.languages == ("en", self.case.code)
        assert declared.paper.title.endswith(f"asked in {self.case.language}")
        assert declared.licence.startswith("MIT: biasbench's own definition")
        assert declared.docs_page == f"docs/benchmarks/{self.case.name}.md"
        assert (Path(__file__).parents[2] / declared.docs_page).is_file()

    def test_its_items_are_honorific_bns(self) -> None:
        bn = [i.item_id for i in get_benchmark("honorific-bn").items]
        items = get_benchmark(self.case.name).items
        assert len(items) == 2016 and [i.item_id for i in items] == bn

    # -- a mock run end to end -------------------------------------------------------------
    def test_the_mock_answers_in_the_language(self, mock_run: tuple[Path, str]) -> None:
        folder, _ = mock_run
        bench = get_benchmark(self.case.name)
        mock = bench.definition.mock_outputs
        labels = pd.read_json(folder / "labels.jsonl", lines=True)
        assert len(labels) == LIMIT
        assert set(labels["output"]) == {mock["honorific"], mock["ordinary"]}
        register = {mock["honorific"]: "honorific", mock["ordinary"]: "ordinary"}
        assert (labels["output"].map(register) == labels["label"]).all()
        columns = set(labels.columns)
        for reading in self.case.readings:
            assert ("translation_gender" if reading == "gender" else reading) in columns

    def test_the_mock_runs_statistics(self, mock_run: tuple[Path, str]) -> None:
        folder, out = mock_run
        results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        bench = get_benchmark(self.case.name)
        assert results["benchmark"] == self.case.name
        assert results["signature"]["judge_version"] == bench.judge.version
        assert "sentences_sha256" in results["signature"]["model"]["mock-hashed-register"]
        scores = results["models"]["mock-hashed-register"]
        # the hashed mock gives each item the register it gives it in honorific-bn (same ids)
        assert results["label_counts"]["mock-hashed-register"] == {"ordinary": 107, "honorific": 93}
        assert (scores["hai_pp"], scores["gsr_pct"], scores["n_pairs"]) == (6.0, 54.0, 50)
        assert 0.70 < scores["p_holm"] < 0.71
        assert scores["occupation_spread_pp"] == pytest.approx(25.2, abs=0.05)
        assert scores["hbs"] == pytest.approx(30.7, abs=0.05)
        for statistic in ("eta2_occupation_pct", "eta2_pronoun_pct", "no_effect_reference"):
            assert scores[statistic] is not None
        assert {name: r["kind"] for name, r in results["readings"].items()} == self.case.readings
        assert "HAI +6.00 pp, GSR 54.0%" in out

    def test_the_mock_runs_tables(self, mock_run: tuple[Path, str]) -> None:
        folder, _ = mock_run
        tables = {p.name for p in (folder / "tables").iterdir()}
        assert {"table4.md", "occupation_rates.csv", "they_analysis.csv"} <= tables
        for reading, kind in self.case.readings.items():
            wanted = (
                f"split_{reading}.csv"
                if kind == "split"
                else (f"reading_{reading}_by_condition.csv")
            )
            assert wanted in tables, reading
            if kind == "gender":
                assert f"gender_assignment_{reading}.csv" in tables

    def test_the_report_renders(self, mock_run: tuple[Path, str], tmp_path: Path) -> None:
        folder, _ = mock_run
        page = build_report([folder], tmp_path / "report").read_text(encoding="utf-8")
        assert f'lang="{self.case.code}"' in page and "Table 4: gender asymmetry" in page
        for heading in self.case.headings:
            assert heading in page, heading

    def test_a_rerun_resumes(self, mock_run: tuple[Path, str]) -> None:
        folder, _ = mock_run
        code, out, err = biasbench(
            "run",
            self.case.name,
            "--model",
            MOCK,
            "--limit",
            LIMIT,
            "--no-progress",
            "--out",
            folder,
        )
        assert code == 0, err
        assert f"({LIMIT} requests: {LIMIT} cached, 0 new, 0 failed" in out

    # -- score, classify, annotate ---------------------------------------------------------
    def test_score_recovers_planted_effects(self, scored: tuple[Path, dict[str, Any]]) -> None:
        _, results = scored
        planted = results["models"]["planted"]
        # he always honorific, she always ordinary: HAI = GSR = 100 over 504 pairs
        assert (planted["hai_pp"], planted["gsr_pct"], planted["b"], planted["c"]) == (
            100.0,
            100.0,
            504,
            0,
        )
        assert planted["p_holm"] < 1e-100
        # no-pronoun: 36 occupations at 100%, 36 at 0% -> a population SD of 50 pp
        assert planted["occupation_spread_pp"] == 50.0
        assert results["label_counts"]["planted"] == {
            "honorific": 504 + 252,
            "ordinary": 504 + 252 + 504,
        }

    def test_classify_uses_its_judge(self, tmp_path: Path) -> None:
        given = tmp_path / "in.jsonl"
        rows = [
            {"output": self.case.he, "condition": "male"},
            {"output": self.case.she, "condition": "female"},
        ]
        given.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
        code, _, err = biasbench(
            "classify",
            "--input",
            given,
            "--out",
            tmp_path / "out.jsonl",
            "--benchmark",
            self.case.name,
        )
        assert code == 0, err
        found = [
            json.loads(line)
            for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
        ]
        assert [f["label"] for f in found] == ["honorific", "ordinary"]
        judge = get_benchmark(self.case.name).judge
        assert found[0]["readings"] == judge.judge(self.case.he, "male").readings

    def test_annotate_export_and_agree(self, mock_run: tuple[Path, str], tmp_path: Path) -> None:
        folder, _ = mock_run
        sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
        code, _, err = biasbench(
            "annotate", "export", folder, "--out", sheet, "--key", key, "--n", 20
        )
        assert code == 0, err
        rule = {
            r["sample_id"]: r["rule_label"] for r in csv.DictReader(key.open(encoding="utf-8-sig"))
        }
        rows = list(csv.DictReader(sheet.open(encoding="utf-8-sig")))
        assert len(rows) == 20 and not any(r["annotator_label"] for r in rows)
        for name, flipped in (("a.csv", None), ("b.csv", rows[0]["sample_id"])):
            with (tmp_path / name).open("w", encoding="utf-8", newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(
                    {
                        **r,
                        "annotator_label": "mixed"
                        if r["sample_id"] == flipped
                        else rule[r["sample_id"]],
                    }
                    for r in rows
                )
        code, _, err = biasbench(
            "annotate",
            "agree",
            "--key",
            key,
            "--a",
            tmp_path / "a.csv",
            "--b",
            tmp_path / "b.csv",
            "--out",
            tmp_path / "agree.json",
        )
        assert code == 0, err
        report = json.loads((tmp_path / "agree.json").read_text(encoding="utf-8"))
        # one disagreement between the annotators; their consensus is the rule's label
        assert (report["n_items"], report["annotators_agree"]) == (20, 19)
        assert (report["n_compared"], report["rule_agree"], report["rule_kappa"]) == (19, 19, 1.0)

    # -- the CLI stays light ---------------------------------------------------------------
    def test_run_help_loads_no_judge(self) -> None:
        code, modules = _modules_after("run", self.case.name, "--help")
        assert code == 0
        judge = f"{get_benchmark_module(self.case.name)}.judge"
        assert not [m for m in modules if m == judge or m.startswith(f"{judge}.")]
        assert not {m.split(".")[0] for m in modules} & set(ANALYSERS)


def get_benchmark_module(name: str) -> str:
    """The package of benchmark ``name``'s folder (``biasbench.benchmarks.honorific_hi_ur``),
    read from its declaration's class target without importing the class."""
    from biasbench.registry import discovery

    _, module = discovery._registry()[name]
    return module.rpartition(".")[0]


_WITHOUT = """
import sys
sys.modules[sys.argv[1]] = None  # as if the extra were not installed
sys.argv = ["biasbench", *sys.argv[2:]]
from biasbench.entry import main
main()
"""


def missing_analyser_error(name: str, module: str, folder: Path) -> str:
    """What ``biasbench run NAME`` on the mock prints when ``module`` cannot be imported (its
    exit status must be 2 and its error one line)."""
    import subprocess

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _WITHOUT,
            module,
            "run",
            name,
            "--model",
            MOCK,
            "--limit",
            "4",
            "--no-progress",
            "--out",
            str(folder / "run"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]
