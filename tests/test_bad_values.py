"""One line for every bad value (round 2, item 9): each is refused before any request, in one
line naming the option, file, line or field, exit 2; the Python API raises BiasbenchError with
the same text."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest

import biasbench
from biasbench import responses
from biasbench.errors import BiasbenchError
from biasbench.models.gguf_check import MAX_N_CTX, check_llamacpp
from biasbench.pipeline import run_benchmark

from .test_bad_input import assert_one_line, cli


def _closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--temperature", "nan"], "--temperature must be a finite number, not nan"),
        (["--temperature", "inf"], "--temperature must be a finite number, not inf"),
        (["--temperature", "-1"], "--temperature must be at least 0, not -1.0"),
        (["-M", "timeout=inf"], "-M timeout='inf': expected a finite number"),
        (["-M", "timeout=nan"], "-M timeout='nan': expected a finite number"),
    ],
)
def test_bad_run_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], needle: str
) -> None:
    code, _, err = cli(
        capsys,
        "run",
        "honorific-bn",
        "--model",
        "openai:m",
        "--base-url",
        _closed_url(),
        "--limit",
        "2",
        "--no-progress",
        "--out",
        str(tmp_path / "u"),
        *extra,
    )
    assert_one_line(code, err, needle)
    assert not (tmp_path / "u").exists()  # refused before anything was written or sent


@pytest.mark.parametrize(
    ("content", "args", "needle"),
    [
        (b"PK\x03\x04 zip", {}, "not a GGUF file"),
        (b"GGUF\x03\x00", {"n_ctx": "99999999999"}, f"must be from 16 to {MAX_N_CTX:,} tokens"),
        (b"GGUF\x03\x00", {"n_ctx": "8"}, "must be from 16"),
        (None, {}, "GGUF file not found"),
    ],
)
def test_llamacpp_files_and_context(
    tmp_path: Path, content: bytes | None, args: dict[str, str], needle: str
) -> None:
    path = tmp_path / "m.gguf"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(BiasbenchError, match=needle):
        check_llamacpp(path, args)


def test_llamacpp_checks_run_from_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(b"not gguf")
    code, _, err = cli(
        capsys,
        "run",
        "honorific-bn",
        "--model",
        f"llamacpp:{path}",
        "--limit",
        "2",
        "--out",
        str(tmp_path / "u"),
    )
    assert_one_line(code, err, "not a GGUF file")
    code, _, err = cli(
        capsys,
        "run",
        "honorific-bn",
        "--model",
        "llamacpp",
        "-M",
        "n_ctx=99999999999",
        "--limit",
        "2",
        "--out",
        str(tmp_path / "u"),
    )
    assert_one_line(code, err, "-M n_ctx='99999999999'")


def test_a_bad_line_cap_in_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(responses, "ENVIRONMENT_ERROR", None)
    monkeypatch.setenv("BIASBENCH_MAX_LINE_BYTES", "abc")
    cap, error = responses._max_line_bytes_from_environment()
    assert (cap, error) == (
        16 * 1024 * 1024,
        "BIASBENCH_MAX_LINE_BYTES='abc': must be a "
        "whole number of bytes, at least 1 (e.g. 33554432)",
    )
    monkeypatch.setattr(responses, "ENVIRONMENT_ERROR", error)
    code, _, err = cli(capsys, "runs", str(tmp_path))
    assert_one_line(code, err, "BIASBENCH_MAX_LINE_BYTES='abc'")


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (
            b'{"item_id": "judge|T1|male", "model": "m", "output": "a\\ud800b"}\n',
            ":1: field 'output': holds a lone UTF-16 surrogate (\\ud800)",
        ),
        (
            b'{"item_id": "judge|T1|male", "model": "m", "output": "x", "seed": 1'
            + b"0" * 30
            + b"}\n",
            ":1: field 'seed': integer 1" + "0" * 30 + " is out of range",
        ),
    ],
)
def test_bad_values_in_a_responses_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: bytes, needle: str
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(line)
    code, _, err = cli(
        capsys, "score", "honorific-bn", "--responses", str(path), "--out", str(tmp_path / "o")
    )
    assert_one_line(code, err, needle)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[1, 2]", "expected a JSON object of prompt text -> answer, not list"),
        ('{"*": 5}', "field '*': the answer must be text, not int"),
        ("{", "not valid JSON"),
    ],
)
def test_bad_mock_script_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needle: str
) -> None:
    path = tmp_path / "script.json"
    path.write_text(text)
    code, _, err = cli(
        capsys,
        "run",
        "honorific-bn",
        "--model",
        f"mock:{path}",
        "--limit",
        "2",
        "--no-progress",
        "--out",
        str(tmp_path / "u"),
    )
    assert_one_line(code, err, f"mock script {path}: {needle}")


def test_an_empty_kobbq_samples_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "KoBBQ_test_samples.tsv").write_bytes(b"")
    code, _, err = cli(
        capsys,
        "run",
        "kobbq",
        "--data",
        str(tmp_path),
        "--model",
        "mock:hashed-letter",
        "--limit",
        "2",
        "--no-progress",
        "--out",
        str(tmp_path / "u"),
    )
    assert_one_line(code, err, "KoBBQ_test_samples.tsv:1: empty samples TSV")
    assert not caplog.records  # no checksum warning before the one line


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"limit": 0}, "--limit must be at least 1, not 0"),
        ({"limit": -1}, "--limit must be at least 1, not -1"),
        ({"limit": "5"}, "--limit must be a whole number, not '5'"),
        ({"limit": 2.5}, "--limit must be a whole number, not 2.5"),
        ({"seeds": 0}, "--seeds must be at least 1, not 0"),
        ({"seeds": [0, "a"]}, "--seeds must be a whole number, not 'a'"),
        ({"seeds": [10**30]}, "--seeds must be at most 9,223,372,036,854,775,807"),
        ({"seeds": "3"}, "--seeds must be a count or a list of whole numbers, not '3'"),
        ({"temperature": float("nan")}, "--temperature must be a finite number, not nan"),
        ({"temperature": "hot"}, "--temperature must be a number, not 'hot'"),
        ({"max_tokens": 0}, "--max-tokens must be at least 1, not 0"),
        ({"concurrency": 0}, "--concurrency must be at least 1, not 0"),
        ({"out": 3}, "--out must be a path, not 3"),
        ({"model_args": ["x"]}, "model_args must be a dict of -M options, not ['x']"),
        ({"base_url": 5}, "--base-url must be text, not 5"),
        ({"foo": 1}, "honorific-bn has no option 'foo' (its options: "),
    ],
)
def test_python_api_arguments(tmp_path: Path, arguments: dict[str, object], message: str) -> None:
    arguments = {"out": tmp_path / "u", **arguments}
    with pytest.raises(BiasbenchError) as caught:
        biasbench.run("honorific-bn", "mock:hashed-register", progress=False, **arguments)
    assert str(caught.value).startswith(message), str(caught.value)
    assert not (tmp_path / "u").exists()


def test_load_takes_a_path() -> None:
    with pytest.raises(BiasbenchError, match="--run-dir must be a path, not 5"):
        biasbench.load(5)  # type: ignore[arg-type]


def test_benchmark_and_model_must_be_text(tmp_path: Path) -> None:
    for benchmark, model, name in [
        (5, "mock:hashed-register", "--benchmark"),
        ("honorific-bn", None, "--model"),
    ]:
        with pytest.raises(BiasbenchError, match=f"{name} must be text"):
            run_benchmark(benchmark, model, out=tmp_path / "u", progress=False)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("small") / "run"
    run_benchmark("honorific-bn", "mock:hashed-register", out=run_dir, limit=4, progress=False)
    return run_dir


def _rewrite(folder: Path, name: str, text: str) -> None:
    import hashlib

    (folder / name).write_text(text, encoding="utf-8")
    manifest = json.loads((folder / "manifest.json").read_text())
    entry = {"bytes": len(text.encode()), "sha256": hashlib.sha256(text.encode()).hexdigest()}
    if name.endswith(".jsonl"):
        entry["lines"] = text.count("\n")
    manifest["derived"]["files"][name] = entry
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _with(folder: Path, name: str, **fields: object) -> None:
    if name == "labels.jsonl":
        rows = [json.loads(x) for x in (folder / name).read_text().splitlines()]
        _rewrite(folder, name, "".join(json.dumps({**r, **fields}) + "\n" for r in rows))
    elif name == "results":
        results = json.loads((folder / "results.json").read_text())
        results.update(fields)
        _rewrite(folder, "results.json", json.dumps(results))
    elif name == "signature":
        results = json.loads((folder / "results.json").read_text())
        results["signature"].update(fields)
        _rewrite(folder, "results.json", json.dumps(results))
    else:
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["derived"]["files"] = fields["files"]
        (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("where", "fields", "needle"),
    [
        ("labels.jsonl", {"seed": "x"}, "labels.jsonl:1: field 'seed': expected an integer"),
        ("labels.jsonl", {"item_id": [1]}, "labels.jsonl:1: field 'item_id': expected a string"),
        ("labels.jsonl", {"model": 5}, "labels.jsonl:1: field 'model': expected a string"),
        ("signature", {"seeds": "abc"}, "results.json: field 'signature.seeds'"),
        ("signature", {"model": [1]}, "results.json: field 'signature.model'"),
        (
            "results",
            {"output_health": [1]},
            "results.json: field 'output_health': expected an object of per-model counts, got list",
        ),
        (
            "manifest",
            {"files": {"labels.jsonl": "x"}},
            "manifest.json: field 'derived.files.labels.jsonl'",
        ),
        (
            "manifest",
            {"files": {"labels.jsonl": {"bytes": "abc", "sha256": 5}}},
            "manifest.json: field 'derived.files.labels.jsonl.bytes'",
        ),
        (
            "manifest",
            {"files": {"/etc/passwd": {"bytes": 1, "sha256": "x"}}},
            "is not a path inside the folder",
        ),
    ],
)
def test_wrongly_typed_run_folder_fields(
    small_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: str,
    fields: dict[str, object],
    needle: str,
) -> None:
    folder = tmp_path / "run"
    shutil.copytree(small_run, folder)
    _with(folder, where, **fields)
    for args in (
        ["report", str(folder), "--out", str(tmp_path / "rep")],
        ["export", str(folder), "--format", "jsonl", "--out", str(tmp_path / "x")],
    ):
        code, _, err = cli(capsys, *args)
        assert_one_line(code, err, needle)
