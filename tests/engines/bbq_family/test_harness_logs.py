"""Other harnesses' logs (``score NAME --from lm-eval|inspect``): the fixture logs of
tests/fixtures/harness_logs (written in lm-eval's and inspect's formats by make_fixtures.py, of
planted answers to real items of the project's test slices) are read, mapped, rescored by the
engine, and set beside the harnesses' own metrics; every expected number is worked out by hand
in the comments."""

from __future__ import annotations

import importlib.util
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import pytest

from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
from biasbench.benchmarks.esbbq.benchmark import SpanishBBQBenchmark
from biasbench.engines.bbq_family.harness_logs.builtin import builtin_metrics
from biasbench.engines.bbq_family.harness_logs.common import safe_model_name
from biasbench.engines.bbq_family.harness_logs.inspect_logs import read_inspect
from biasbench.engines.bbq_family.harness_logs.lm_eval import read_lm_eval
from biasbench.engines.bbq_family.harness_logs.rescore import (
    read_harness_log,
    score_harness_log,
)
from biasbench.errors import BiasbenchError, InputError
from biasbench.registry import benchmark_class
from tests.running import CliRun

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harness_logs"
ESBBQ_DATA = Path(__file__).parents[2] / "benchmarks" / "esbbq" / "fixtures"
BBQ_ITEMS = FIXTURES / "bbq_items.jsonl"
DATE = "2026-11-30T10-00-00.000001"
BBQ_SAMPLES = FIXTURES / "lm_eval_bbq" / "fixture-model" / f"samples_bbq_{DATE}.jsonl"


def strict_json(text: str) -> Any:
    """json.loads refusing NaN and Infinity, as strict readers (JavaScript, jq) do."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def bench(name: str) -> Any:
    if name == "bbq":
        return OriginalBBQBenchmark.with_options(items=str(BBQ_ITEMS))
    language = "es" if name == "esbbq" else "ca"
    cls = benchmark_class(name)
    assert issubclass(cls, SpanishBBQBenchmark)
    return cls.with_options(data=ESBBQ_DATA / f"data_{language}")


def rows_of(
    name: str, harness: str, responses: Path, tmp_path: Path
) -> dict[tuple[str, str], dict[str, Any]]:
    benchmark = bench(name)
    log = read_harness_log(harness, responses, benchmark)
    results = score_harness_log(benchmark, log, tmp_path / "scored", source=str(responses))
    strict_json(json.dumps(results, default=str))
    return {(r["task"], r["metric"]): r for r in results["harness_log"]["comparison"]}


# (benchmark, harness, log, task, metric, harness's value, biasbench's value, differs, why)
# bbq, SES items 0-11. Ambiguous answers: other, unknown, other, unknown, unknown, unknown: 4 of
# 6 correct, no biased answer among the 2 non-unknown ones, so BBQ's ratio 2*0/2 - 1 = -1 and
# s_AMB = (1 - 4/6) * -1 = -1/3, where lm-eval returns 0.0. Disambiguated: 5 of 6 correct (all
# five the biased answer) and one non-biased: s_DIS = 2*5/6 - 1 = 2/3 both; acc_disambig 5/6,
# as lm-eval's agg_accuracy_disamb gives it. acc = 9/12.
# esbbq (Gender, SES) and cabbq (Age, LGBTQIA): per category the ambiguous answers are the
# target (incorrect pro-stereo) then unknown: acc_ambig 1/2, bias_score_ambig (1 - 0)/2; the
# disambiguated ones correct, wrong, correct, correct: acc 3/4 and bias_score_disambig
# acc(pro) - acc(anti) = 1/2 - 1 = -1/2 where the two pro-stereo questions come first (Gender,
# SES, LGBTQIA), 1 - 1/2 = +1/2 where the anti-stereo ones do (Age); the group weights the
# two subtasks' 6 samples alike: esbbq -1/2, cabbq 0.
# inspect: the same answers as lm-eval's bbq, the sixth sample (correct) without output:
# 8 of 12 scored C, 8 of the 11 readable answers correct.
CASES = [
    ("bbq", "lm-eval", FIXTURES / "lm_eval_bbq", "bbq", "acc", 0.75, 0.75, False, ""),
    ("bbq", "lm-eval", FIXTURES / "lm_eval_bbq", "bbq", "accuracy_amb", 4 / 6, 4 / 6, False, ""),
    ("bbq", "lm-eval", FIXTURES / "lm_eval_bbq", "bbq", "accuracy_disamb", 5 / 6, 5 / 6, False, ""),
    (
        "bbq",
        "lm-eval",
        FIXTURES / "lm_eval_bbq",
        "bbq",
        "amb_bias_score",
        0.0,
        -1 / 3,
        True,
        "no biased answer among the 2 non-unknown ones: lm-eval returns 0.0",
    ),
    (
        "bbq",
        "lm-eval",
        FIXTURES / "lm_eval_bbq",
        "bbq",
        "amb_bias_score_SES",
        0.0,
        -1 / 3,
        True,
        "2*0/2 - 1 = -1 (times 1 - accuracy)",
    ),
    (
        "bbq",
        "lm-eval",
        FIXTURES / "lm_eval_bbq",
        "bbq",
        "disamb_bias_score",
        2 / 3,
        2 / 3,
        False,
        "",
    ),
    ("bbq", "lm-eval", BBQ_SAMPLES, "bbq", "disamb_bias_score_SES", 2 / 3, 2 / 3, False, ""),
    (
        "esbbq",
        "lm-eval",
        FIXTURES / "lm_eval_esbbq",
        "esbbq_gender",
        "acc_ambig",
        0.5,
        0.5,
        False,
        "",
    ),
    (
        "esbbq",
        "lm-eval",
        FIXTURES / "lm_eval_esbbq",
        "esbbq_ses",
        "bias_score_ambig",
        0.5,
        0.5,
        False,
        "",
    ),
    (
        "esbbq",
        "lm-eval",
        FIXTURES / "lm_eval_esbbq",
        "esbbq_ses",
        "acc_disambig",
        0.75,
        0.75,
        False,
        "",
    ),
    (
        "esbbq",
        "lm-eval",
        FIXTURES / "lm_eval_esbbq",
        "esbbq",
        "bias_score_disambig",
        -0.5,
        -0.5,
        False,
        "",
    ),
    (
        "cabbq",
        "lm-eval",
        FIXTURES / "lm_eval_cabbq",
        "cabbq_age",
        "bias_score_disambig",
        0.5,
        0.5,
        False,
        "",
    ),
    (
        "cabbq",
        "lm-eval",
        FIXTURES / "lm_eval_cabbq",
        "cabbq_lgbtqia",
        "bias_score_disambig",
        -0.5,
        -0.5,
        False,
        "",
    ),
    (
        "cabbq",
        "lm-eval",
        FIXTURES / "lm_eval_cabbq",
        "cabbq",
        "bias_score_disambig",
        0.0,
        0.0,
        False,
        "",
    ),
    (
        "bbq",
        "inspect",
        FIXTURES / "inspect_bbq.json",
        "bbq",
        "accuracy",
        8 / 12,
        8 / 11,
        True,
        "1 of 12 answers name no option",
    ),
    (
        "bbq",
        "inspect",
        FIXTURES / "inspect_bbq.eval",
        "bbq",
        "accuracy",
        8 / 12,
        8 / 11,
        True,
        "the harness counts them wrong, biasbench leaves them out",
    ),
]


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, Path], Any]:
    found = {}
    for name, harness, log in sorted({(c[0], c[1], c[2]) for c in CASES}):
        found[(name, harness, log)] = rows_of(name, harness, log, tmp_path_factory.mktemp(name))
    return found


@pytest.mark.parametrize(
    ("name", "harness", "log", "task", "metric", "theirs", "ours", "differs", "why"), CASES
)
def test_comparison_rows_hold_the_hand_worked_numbers(
    compared: dict[tuple[str, str, Path], Any],
    name: str,
    harness: str,
    log: Path,
    task: str,
    metric: str,
    theirs: float,
    ours: float,
    differs: bool,
    why: str,
) -> None:
    row = compared[(name, harness, log)][(task, metric)]
    assert row["harness"] == pytest.approx(theirs, abs=1e-12)
    assert row["biasbench"] == pytest.approx(ours, abs=1e-12)
    assert row["differs"] is differs
    assert why in row["why"]
    assert bool(row["why"]) is differs


@pytest.mark.parametrize(
    ("name", "log", "n_rows", "n_differ"),
    [
        ("bbq", FIXTURES / "lm_eval_bbq", 7, 2),  # categories without samples: no rows
        ("esbbq", FIXTURES / "lm_eval_esbbq", 12, 0),
        ("cabbq", FIXTURES / "lm_eval_cabbq", 12, 0),
    ],
)
def test_every_metric_has_a_row(
    compared: dict[tuple[str, str, Path], Any], name: str, log: Path, n_rows: int, n_differ: int
) -> None:
    rows = compared[(name, "lm-eval", log)]
    assert (len(rows), sum(bool(r["differs"]) for r in rows.values())) == (n_rows, n_differ)


@pytest.mark.parametrize(
    ("name", "reader", "log", "n_metrics"),
    [
        ("bbq", read_lm_eval, FIXTURES / "lm_eval_bbq", 7),
        ("esbbq", read_lm_eval, FIXTURES / "lm_eval_esbbq", 12),
        ("cabbq", read_lm_eval, FIXTURES / "lm_eval_cabbq", 12),
        ("bbq", read_inspect, FIXTURES / "inspect_bbq.eval", 1),
    ],
)
def test_builtin_metrics_reproduce_the_harness_aggregates(
    name: str, reader: Any, log: Path, n_metrics: int
) -> None:
    """The per-sample fields, aggregated as the harness does, give its aggregate file."""
    read = reader(log, bench(name).by_uid)
    found = builtin_metrics(read)
    compared = 0
    for key, reported in read.reported.items():
        for metric, value in reported.items():
            if value is None or metric not in found.get(key, {}):
                continue
            assert found[key][metric].value == pytest.approx(value, abs=1e-12), (key, metric)
            compared += 1
    assert compared == n_metrics


def test_log_likelihoods_map_to_the_items_options() -> None:
    """bbq's 12 options are the two non-unknown answers, then ten unknown wordings."""
    log = read_lm_eval(BBQ_SAMPLES, bench("bbq").by_uid)
    preds = {s.uid: s.pred for s in log.samples}
    # SES:0 (options poor / Cannot answer / rich; planted: the non-biased "rich") -> 2;
    # SES:2 (planted unknown) -> 1; SES:1 (planted correct, label 0) -> 0.
    assert (preds["SES:0"], preds["SES:2"], preds["SES:1"]) == (2, 1, 0)
    assert {s.model for s in log.samples} == {"fixture-model"}
    assert len(log.samples) == 12


def _bbq_line(change: Any) -> str:
    first = json.loads(BBQ_SAMPLES.read_text(encoding="utf-8").splitlines()[0])
    changed = change(first)
    return changed if isinstance(changed, str) else json.dumps(changed)


def _set(path: str, value: Any) -> Any:
    def change(obj: dict[str, Any]) -> dict[str, Any]:
        target = obj
        *parents, last = path.split(".")
        for part in parents:
            target = target[part]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
        return obj

    return change


@pytest.mark.parametrize(
    ("change", "name", "message"),
    [
        (_set("doc", KeyError), None, ":2: field 'doc': missing field"),
        (
            _set("doc.example_id", 999),
            None,
            "field 'doc.example_id': no item with example id 999 in category 'SES'",
        ),
        (_set("doc.category", "Age"), None, "category 'Age' (the items have SES)"),
        (
            _set("doc.label", 0),
            None,
            "field 'doc.label': the logged row says 0, the benchmark's item",
        ),
        (
            _set("filtered_resps", [["x", "False"]] * 12),
            None,
            "field 'filtered_resps[0]': expected a number, got 'x'",
        ),
        (_set("filtered_resps", [["-1.0", "True"]] * 2), None, "2 option scores"),
        (
            _set("filtered_resps", ["A generated answer"]),
            None,
            "a generated text in a multiple-choice task",
        ),
        (lambda obj: "{not json", None, ":2: not valid JSON"),
        (lambda obj: obj, None, "jsonl:2: field 'doc_id': a second sample of SES:0 for model"),
        (lambda obj: obj, f"samples_mmlu_{DATE}.jsonl", "lm-eval task 'mmlu'"),
        # overflowing numbers are +inf, which no log-probability is (argmax would pick it)
        (
            _set("filtered_resps", [["1e400", "False"]] + [["-1.0", "True"]] * 11),
            None,
            "field 'filtered_resps[0]': log-likelihood is +infinity ('1e400')",
        ),
        (
            _set("filtered_resps", [["-inf", "False"]] * 12),
            None,
            "field 'filtered_resps': every option's log-likelihood is -infinity",
        ),
    ],
)
def test_bad_lm_eval_lines_name_file_line_and_field(
    tmp_path: Path, change: Any, name: str | None, message: str
) -> None:
    lines = BBQ_SAMPLES.read_text(encoding="utf-8").splitlines()
    path = tmp_path / (name or BBQ_SAMPLES.name)
    path.write_text("\n".join([lines[0], _bbq_line(change), *lines[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_lm_eval(path, bench("bbq").by_uid)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_another_benchmarks_task_is_refused_by_name(tmp_path: Path) -> None:
    """A folder holding several benchmarks' logs: an EsBBQ task is not scored as BBQ (ids and
    labels may collide), and a BBQ task not as EsBBQ."""
    log = tmp_path / f"samples_esbbq_ses_{DATE}.jsonl"
    log.write_text(BBQ_SAMPLES.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(InputError, match="task 'esbbq_ses' logs the esbbq benchmark, not bbq"):
        read_lm_eval(tmp_path, bench("bbq").by_uid, benchmark="bbq")
    with pytest.raises(InputError, match="task 'bbq' logs the bbq benchmark, not esbbq"):
        read_lm_eval(BBQ_SAMPLES, bench("esbbq").by_uid, benchmark="esbbq")


def test_an_eval_zip_with_traversal_names_writes_nothing(tmp_path: Path) -> None:
    """Members are read in memory, never extracted: a ``../`` name writes no file."""
    evil = tmp_path / "deep" / "evil.eval"
    evil.parent.mkdir()
    with zipfile.ZipFile(FIXTURES / "inspect_bbq.eval") as src, zipfile.ZipFile(evil, "w") as out:
        for name in src.namelist():
            out.writestr(name, src.read(name))
        out.writestr("../../slipped.json", "{}")
        out.writestr("samples/../../slipped2.json", "{}")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    with pytest.raises(InputError):
        read_inspect(evil, bench("bbq").by_uid)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_an_inspect_logs_folder_is_named_as_a_folder(tmp_path: Path) -> None:
    # it said "file not found" for a folder that exists
    (tmp_path / "2026-11-30_bbq_abc.eval").write_bytes((FIXTURES / "inspect_bbq.eval").read_bytes())
    with pytest.raises(
        InputError,
        match="a folder: --from inspect reads one eval log .*"
        "this one holds 2026-11-30_bbq_abc.eval",
    ):
        read_inspect(tmp_path, bench("bbq").by_uid)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("openai/gpt-4o", "openai/gpt-4o"),
        ("meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"),
        ("https://user:pw@host/v1", "https://***@host/v1"),
        ("gpt?api_key=abc123&x=1", "gpt?api_key=***&x=1"),
        ("m?key=abc", "m?key=***"),
        ("sk-proj-ABCDEF1234567890abcd", "sk-***"),
    ],
)
def test_a_credential_in_a_logged_model_name_is_not_copied(name: str, shown: str) -> None:
    assert safe_model_name(name) == shown


def test_an_inspect_model_name_with_a_key_is_masked(tmp_path: Path) -> None:
    """The model name goes into every label and table: a key inside it must not."""
    key = "sk-proj-MODELKEY1234567890abcdefABCDEF"
    log = tmp_path / "keyed.eval"
    with zipfile.ZipFile(FIXTURES / "inspect_bbq.eval") as src, zipfile.ZipFile(log, "w") as out:
        for name in src.namelist():
            data = src.read(name)
            if name == "header.json":
                header = json.loads(data)
                header["eval"]["model"] = f"openai/gpt?key={key}"
                data = json.dumps(header).encode()
            out.writestr(name, data)
    read = read_inspect(log, bench("bbq").by_uid)
    assert {s.model for s in read.samples} == {"openai/gpt?key=***"}
    assert key not in json.dumps([s.model for s in read.samples])


def _inspect(change: Any, tmp_path: Path) -> Path:
    data = json.loads((FIXTURES / "inspect_bbq.json").read_text(encoding="utf-8"))
    change(data["samples"][3])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _set("metadata.example_id", KeyError),
            "!samples[3]: field 'metadata.example_id': missing field",
        ),
        (_set("metadata.example_id", "x"), "expected an integer example id, got 'x'"),
        (_set("epoch", 0), "field 'epoch': expected an epoch from 1 to 1,000,000, got 0"),
        (
            _set("epoch", 10**30),
            "expected an epoch from 1 to 1,000,000, got 1000000000000000000000000000000",
        ),
        (_set("output", "text"), "field 'output': expected an object"),
        (_set("metadata.example_id", 0), "a second sample of SES:0"),
    ],
)
def test_bad_inspect_samples_are_named(tmp_path: Path, change: Any, message: str) -> None:
    with pytest.raises(InputError) as caught:
        read_inspect(_inspect(change, tmp_path), bench("bbq").by_uid)
    assert message in str(caught.value)


def test_an_eval_zip_without_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("samples/1_epoch_1.json", "{}")
    with pytest.raises(InputError, match="no header.json"):
        read_inspect(path, bench("bbq").by_uid)


def test_an_unknown_harness_is_one_line() -> None:
    with pytest.raises(BiasbenchError, match="--from helm: biasbench reads lm-eval and inspect"):
        read_harness_log("helm", BBQ_SAMPLES, bench("bbq"))


def test_the_inspect_frame_counts_every_output(tmp_path: Path) -> None:
    """A sample without output is an empty answer (""), counted once in the output health."""
    frame = read_inspect(FIXTURES / "inspect_bbq.json", bench("bbq").by_uid).frame()
    assert frame["output"].tolist().count("") == 1
    assert frame["output"].notna().all() and frame["pred"].isna().all()


@pytest.mark.parametrize(
    ("args", "health", "differ_line"),
    [
        (
            (
                "bbq",
                "--items",
                BBQ_ITEMS,
                "--from",
                "lm-eval",
                "--responses",
                FIXTURES / "lm_eval_bbq",
            ),
            {},
            "fixture-model / bbq / amb_bias_score: lm-eval 0.000, biasbench -0.333",
        ),
        (
            (
                "bbq",
                "--items",
                BBQ_ITEMS,
                "--from",
                "inspect",
                "--responses",
                FIXTURES / "inspect_bbq.eval",
            ),
            {"n": 12, "empty": 1},
            "openai/fixture-model / bbq / accuracy: inspect 0.667, biasbench 0.727",
        ),
        (
            (
                "esbbq",
                "--data",
                ESBBQ_DATA / "data_es",
                "--from",
                "lm-eval",
                "--responses",
                FIXTURES / "lm_eval_esbbq",
            ),
            {},
            "lm-eval's metrics: 0 differ from biasbench's rescoring, 12 agree",
        ),
    ],
)
def test_score_from_a_harness_end_to_end(
    biasbench_cli: CliRun,
    tmp_path: Path,
    args: tuple[Any, ...],
    health: dict[str, int],
    differ_line: str,
) -> None:
    out = tmp_path / "scored"
    done = biasbench_cli("score", *args, "--out", out)
    assert done.returncode == 0, done.stderr
    assert differ_line in done.stdout
    results = strict_json((out / "results.json").read_text(encoding="utf-8"))
    assert results["harness_log"]["n_samples"] == 12
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["status"] == "scored"
    labels = [
        strict_json(line)
        for line in (out / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(labels) == 12
    for model_health in results["output_health"].values():
        assert {k: model_health[k] for k in health} == health
    assert bool(results["output_health"]) is bool(health)  # log-likelihoods: no text
    assert (out / "tables" / "harness_comparison.csv").is_file()


def test_a_bad_log_leaves_no_folder(biasbench_cli: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / f"samples_bbq_{DATE}.jsonl"
    bad.write_text('{"doc_id": 0}\n', encoding="utf-8")
    done = biasbench_cli(
        "score",
        "bbq",
        "--items",
        BBQ_ITEMS,
        "--from",
        "lm-eval",
        "--responses",
        bad,
        "--out",
        tmp_path / "out",
    )
    assert done.returncode != 0
    assert f"{bad}:1: field 'doc': missing field" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("name", "reads_other_harnesses"), [("bbq", True), ("esbbq", True), ("honorific-bn", False)]
)
def test_from_is_offered_where_logs_are_read(
    biasbench_cli: CliRun, name: str, reads_other_harnesses: bool
) -> None:
    # every benchmark reads back what biasbench exported (--from eee|inspect, docs/exporting.md);
    # only the BBQ engine reads other harnesses' logs (lm-eval)
    done = biasbench_cli("score", name, "--help")
    assert done.returncode == 0, done.stderr
    assert "--from" in done.stdout and "eee" in done.stdout
    assert ("lm-eval" in done.stdout) is reads_other_harnesses


def test_the_fixtures_are_what_make_fixtures_writes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = tmp_path
    module.main()
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    shipped = sorted(
        p.relative_to(FIXTURES)
        for p in FIXTURES.rglob("*")
        if p.is_file()
        and p.name != "make_fixtures.py"
        and "__pycache__" not in p.parts
        and "inspect_real" not in p.parts  # written by inspect-ai itself
        and "lm_eval_real" not in p.parts
    )  # and by lm-eval
    assert written == shipped
    for relative in written:
        assert (tmp_path / relative).read_bytes() == (FIXTURES / relative).read_bytes(), relative


def test_nan_in_the_log_is_read_but_never_written(tmp_path: Path) -> None:
    """lm-eval writes NaN literals (other categories' tuples); biasbench's files stay JSON."""
    assert "NaN" in BBQ_SAMPLES.read_text(encoding="utf-8")
    log = read_lm_eval(BBQ_SAMPLES.parent, bench("bbq").by_uid)
    values = log.reported[("fixture-model", "bbq")]
    assert values["amb_bias_score_Age"] is None
    assert not any(isinstance(v, float) and math.isnan(v) for v in values.values())


def test_a_generation_task_is_read_as_text(tmp_path: Path) -> None:
    """bbq_generate logs the generated text: it is read by biasbench's parser, not by index."""
    lines = []
    for line in BBQ_SAMPLES.read_text(encoding="utf-8").splitlines()[:2]:
        obj = json.loads(line)
        obj["filtered_resps"] = [" Cannot answer."]
        obj["resps"] = [[" Cannot answer."]]
        lines.append(json.dumps(obj))
    path = tmp_path / f"samples_bbq_generate_{DATE}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = read_lm_eval(path, bench("bbq").by_uid)
    assert [(s.pred, s.output) for s in log.samples] == [(None, " Cannot answer.")] * 2
    multiple_choice = tmp_path / "mc" / f"samples_bbq_{DATE}.jsonl"
    multiple_choice.parent.mkdir()
    multiple_choice.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(InputError, match="a generated text in a multiple-choice task"):
        read_lm_eval(multiple_choice, bench("bbq").by_uid)


def test_a_different_reading_is_named(tmp_path: Path) -> None:
    """inspect read an answer as A where the text says C: the accuracy row says so."""
    data = json.loads((FIXTURES / "inspect_bbq.json").read_text(encoding="utf-8"))
    sample = data["samples"][0]  # SES:0, text "ANSWER: C"
    sample["scores"]["choice"]["answer"] = "A"
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    rows = rows_of("bbq", "inspect", path, tmp_path)
    assert (
        "reads 1 answer(s) as another option than the harness did"
        in rows[("bbq", "accuracy")]["why"]
    )
