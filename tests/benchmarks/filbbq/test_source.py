"""FilBBQ's inputs: finding/downloading the templates (loopback only), generating, the prompt."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import logging
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasbench.benchmarks.filbbq import source
from biasbench.benchmarks.filbbq.source import (
    ENV_BASE_URL,
    ENV_CACHE,
    ENV_TEMPLATES,
    FILBBQ_COMMIT,
    FILBBQ_REPOSITORY,
    FILBBQ_TEMPLATES,
    PUBLISHED_DATA_SHA256,
    TEMPLATE_SHA256,
    PromptField,
    generate_filbbq,
    load_prompt_template,
    parse_prompt_template,
    resolve_published_data,
    templates_cache_dir,
)
from biasbench.engines.bbq_family.items.items import load_bbq_jsonl
from biasbench.engines.bbq_family.items.source import resolve_pinned_folder
from biasbench.errors import BiasbenchError, InputError

TEMPLATE_FILES = sorted(TEMPLATE_SHA256)


@pytest.fixture(autouse=True)
def isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No user cache, no templates folder from the environment, and no proxy for loopback."""
    for name in (
        ENV_TEMPLATES,
        ENV_BASE_URL,
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "user-cache"))
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture()
def templates(reference_dir: Path) -> Path:
    return reference_dir / "filbbq" / "templates"


class Server:
    """A loopback HTTP server laid out like the raw content host, with a request log."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.requests: list[str] = []
        log = self.requests

        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                log.append(self.path)
                super().do_GET()

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
        )
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def file(self, repo_path: str) -> Path:
        return self.root / FILBBQ_REPOSITORY / FILBBQ_COMMIT / repo_path

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def server(tmp_path: Path, reference_dir: Path) -> Iterator[Server]:
    served = Server(tmp_path / "served")
    for subdir in ("templates", "data"):
        shutil.copytree(reference_dir / "filbbq" / subdir, served.file(subdir))
    yield served
    served.close()


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# --- checksums and local folders ----------------------------------------------------------------


def test_pinned_checksums_match_the_reference_copies(reference_dir: Path) -> None:
    for name, digest in TEMPLATE_SHA256.items():
        path = reference_dir / "filbbq" / "templates" / name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name
    for name, digest in PUBLISHED_DATA_SHA256.items():
        path = reference_dir / "filbbq" / "data" / name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name


def test_explicit_folder_is_used_and_checked(templates: Path, caplog) -> None:
    with caplog.at_level(logging.WARNING):
        assert resolve_pinned_folder(FILBBQ_TEMPLATES, templates, download=False) == templates
    assert caplog.records == []


def test_edited_local_templates_warn_or_fail_when_strict(
    templates: Path, tmp_path: Path, caplog
) -> None:
    edited = tmp_path / "mine"
    shutil.copytree(templates, edited)
    with (edited / "prompt.txt").open("a", encoding="utf-8") as out:
        out.write("\n")
    with caplog.at_level(logging.WARNING):
        assert resolve_pinned_folder(FILBBQ_TEMPLATES, edited) == edited
    assert len(caplog.records) == 1 and "sha256 mismatch: prompt.txt" in caplog.records[0].message
    with pytest.raises(BiasbenchError, match="sha256 mismatch: prompt.txt"):
        resolve_pinned_folder(FILBBQ_TEMPLATES, edited, strict=True)


def test_local_folder_missing_a_file(templates: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    shutil.copytree(templates, partial)
    (partial / "vocabulary_labels.csv").unlink()
    with pytest.raises(BiasbenchError, match="lacks vocabulary_labels.csv"):
        resolve_pinned_folder(FILBBQ_TEMPLATES, partial)


def test_environment_folder_and_precedence(
    templates: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(templates, copy)
    monkeypatch.setenv(ENV_TEMPLATES, str(copy))
    assert resolve_pinned_folder(FILBBQ_TEMPLATES, download=False) == copy
    # an explicit folder wins
    assert resolve_pinned_folder(FILBBQ_TEMPLATES, templates, download=False) == templates
    monkeypatch.setenv(ENV_TEMPLATES, str(tmp_path / "nowhere"))
    with pytest.raises(BiasbenchError, match=f"from {ENV_TEMPLATES}\\) does not exist"):
        resolve_pinned_folder(FILBBQ_TEMPLATES)


# --- download into the cache ---------------------------------------------------------------------


def test_download_verifies_and_caches(server: Server, tmp_path: Path, templates: Path) -> None:
    cache = tmp_path / "cache"
    folder = resolve_pinned_folder(FILBBQ_TEMPLATES, cache_dir=cache, base_url=server.url)
    assert folder == cache / "filbbq" / FILBBQ_COMMIT / "templates"
    assert sorted(p.name for p in folder.iterdir()) == TEMPLATE_FILES
    for name in TEMPLATE_FILES:
        assert (folder / name).read_bytes() == (templates / name).read_bytes()
    assert sorted(server.requests) == [
        f"/{FILBBQ_REPOSITORY}/{FILBBQ_COMMIT}/templates/{name}" for name in TEMPLATE_FILES
    ]
    assert [p.name for p in folder.parent.iterdir()] == ["templates"]  # no staging left
    # A second call is served from the cache, without the network.
    assert resolve_pinned_folder(FILBBQ_TEMPLATES, cache_dir=cache, download=False) == folder
    assert len(server.requests) == len(TEMPLATE_FILES)


def test_base_url_and_cache_from_environment(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_BASE_URL, server.url)
    folder = resolve_pinned_folder(FILBBQ_TEMPLATES)
    assert folder == tmp_path / "user-cache" / "filbbq" / FILBBQ_COMMIT / "templates"
    assert folder == templates_cache_dir()


def test_corrupted_cache_is_downloaded_again(server: Server, tmp_path: Path) -> None:
    folder = resolve_pinned_folder(FILBBQ_TEMPLATES, cache_dir=tmp_path / "c", base_url=server.url)
    (folder / "gender_identity.csv").write_text("tampered", encoding="utf-8")
    assert (
        resolve_pinned_folder(FILBBQ_TEMPLATES, cache_dir=tmp_path / "c", base_url=server.url)
        == folder
    )
    assert (
        hashlib.sha256((folder / "gender_identity.csv").read_bytes()).hexdigest()
        == TEMPLATE_SHA256["gender_identity.csv"]
    )
    assert len(server.requests) == 2 * len(TEMPLATE_FILES)


def test_checksum_failure_saves_nothing(server: Server, tmp_path: Path) -> None:
    served = server.file("templates/sexual_orientation.csv")
    served.write_bytes(served.read_bytes().replace(b"bakla", b"BAKLA"))
    with pytest.raises(BiasbenchError) as info:
        resolve_pinned_folder(FILBBQ_TEMPLATES, cache_dir=tmp_path / "c", base_url=server.url)
    message = str(info.value)
    assert "templates/sexual_orientation.csv has sha256" in message
    assert f"expected {TEMPLATE_SHA256['sexual_orientation.csv']}" in message
    assert not templates_cache_dir(tmp_path / "c").exists()


@pytest.mark.parametrize("download", [True, False])
def test_offline_error_says_what_to_fetch_and_where(tmp_path: Path, download: bool) -> None:
    with pytest.raises(BiasbenchError) as info:
        resolve_pinned_folder(
            FILBBQ_TEMPLATES,
            cache_dir=tmp_path / "c",
            download=download,
            base_url=closed_port_url(),
        )
    message = str(info.value)
    for name in TEMPLATE_FILES:
        assert f"templates/{name}" in message
    assert f"GitHub repository {FILBBQ_REPOSITORY} at commit {FILBBQ_COMMIT}" in message
    assert f"put them in {templates_cache_dir(tmp_path / 'c')}" in message
    assert f"pass --templates DIR (or set {ENV_TEMPLATES}=DIR)" in message
    assert ("could not download" in message) is download


def test_published_data_download(server: Server, tmp_path: Path) -> None:
    folder = resolve_published_data(cache_dir=tmp_path / "c", base_url=server.url)
    assert folder == tmp_path / "c" / "filbbq" / FILBBQ_COMMIT / "data"
    assert len(load_bbq_jsonl(folder / "FilBBQ_Sexual_orientation.jsonl")) == 2624


# --- generating the two files -------------------------------------------------------------------


def test_generate_filbbq(templates: Path, tmp_path: Path, caplog) -> None:
    with caplog.at_level(logging.WARNING):
        report = generate_filbbq(templates, tmp_path / "out", seed=7)
    assert report.counts == {"Gender_identity": 7952, "Sexual_orientation": 2624}
    assert report.total == 10576
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "FilBBQ_Gender_identity.jsonl",
        "FilBBQ_Sexual_orientation.jsonl",
    ]
    empty = [q for q, n in report.template_counts["Gender_identity"].items() if n == 0]
    assert empty == [
        "ENBBQ_01",
        "ENBBQ_02",
        "ENBBQ_03",
        "ENBBQ_04",
        "ENBBQ_05",
        "ENBBQ_06",
        "ENBBQ_08",
        "ENBBQ_09",
        "ENBBQ_14",
        "ENBBQ_15",
        "ENBBQ_18",
        "ENBBQ_20",
        "ENBBQ_21",
        "ENBBQ_22",
        "ENBBQ_23",
        "ENBBQ_24",
        "ENBBQ_25",
    ]
    assert len(report.warnings) == 17
    assert all(
        f"template {q} yields no items" in w for q, w in zip(empty, report.warnings, strict=True)
    )
    # Collapsed: one warning line with the count instead of 17 long lines;
    # each message in full at INFO (biasbench -v) and in the report.
    warned = [r.message for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == [
        "gender_identity.csv: 17 generator warnings; 17 template rows yield no items "
        "(ENBBQ_01, ENBBQ_02, ENBBQ_03, ENBBQ_04, ENBBQ_05 and 12 more); "
        "biasbench -v shows each"
    ]
    with caplog.at_level(logging.INFO):
        caplog.clear()
        generate_filbbq(templates, tmp_path / "verbose", seed=7)
    assert [r.message for r in caplog.records if r.levelno == logging.INFO] == report.warnings
    items = load_bbq_jsonl([report.files["Gender_identity"], report.files["Sexual_orientation"]])
    assert len(items) == 10576 and items[0].category == "Gender_identity"
    json.dumps(report.to_dict())  # JSON-ready
    first = {c: p.read_bytes() for c, p in report.files.items()}
    generate_filbbq(templates, tmp_path / "again", seed=7)
    assert {c: (tmp_path / "again" / p.name).read_bytes() for c, p in report.files.items()} == first


def test_generate_filbbq_without_subcategory_filter(templates: Path, tmp_path: Path) -> None:
    report = generate_filbbq(templates, tmp_path, seed=0, apply_subcategory_filter=False)
    assert report.counts == {"Gender_identity": 8088, "Sexual_orientation": 2624}
    assert report.warnings == []


def test_generate_filbbq_writes_nothing_on_error(templates: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(templates, broken)
    path = broken / "sexual_orientation.csv"
    path.write_text(
        path.read_text(encoding="utf-8").replace("{{NAME1}}", "{{NAME3}}", 1), encoding="utf-8"
    )
    out = tmp_path / "out"
    with pytest.raises(InputError) as info:
        generate_filbbq(broken, out, seed=0)
    assert (info.value.file, info.value.line, info.value.field) == (
        str(path),
        2,
        "Ambiguous_Context",
    )
    assert not out.exists()  # not even the gender file, generated first


# --- the prompt ---------------------------------------------------------------------------------


def test_reference_prompt_structure(templates: Path) -> None:
    prompt = load_prompt_template(templates)
    assert prompt.fields == ("context", "question", "ans0", "ans1", "ans2")
    assert len(prompt.parts) == 10
    instruction, after_context, before_ans0 = prompt.parts[0], prompt.parts[2], prompt.parts[4]
    assert isinstance(instruction, str) and instruction.endswith(": ")
    assert after_context == " "
    assert isinstance(before_ans0, str) and before_ans0.endswith(": A. ")
    assert (prompt.parts[6], prompt.parts[8]) == (" B. ", " C. ")
    assert prompt.sha256 == TEMPLATE_SHA256["prompt.txt"]
    item = {"context": "CTX", "question": "Q?", "ans0": "a0", "ans1": "a1", "ans2": "a2"}
    assert prompt.render(item) == f"{instruction}CTX Q?{before_ans0}a0 B. a1 C. a2"


def test_prompt_renders_bbq_items(templates: Path, reference_dir: Path) -> None:
    item = load_bbq_jsonl(reference_dir / "filbbq" / "data" / "FilBBQ_Sexual_orientation.jsonl")[0]
    prompt = load_prompt_template(templates)
    rendered = prompt.render(item)
    assert rendered.startswith(str(prompt.parts[0]) + item.context + " " + item.question)
    assert rendered.endswith(f"A. {item.ans0} B. {item.ans1} C. {item.ans2}")


def test_own_prompt_file(tmp_path: Path) -> None:
    (tmp_path / "prompt.txt").write_text(
        'prompt = (\n    "Answer A, B or C. " + row["context"] + "\\n" + row["question"]\n'
        '    + " A) " + row["ans0"] + " B) " + row["ans1"] + " C) " + row["ans2"]\n)\n',
        encoding="utf-8",
    )
    prompt = load_prompt_template(tmp_path)
    assert prompt.parts[:3] == ("Answer A, B or C. ", PromptField("context"), "\n")
    assert (
        prompt.render({"context": "c", "question": "q", "ans0": "x", "ans1": "y", "ans2": "z"})
        == "Answer A, B or C. c\nq A) x B) y C) z"
    )


@pytest.mark.parametrize(
    "text, line, message",
    [
        ('prompt = __import__("os").getcwd() + row["context"]', 1, "unsupported prompt term"),
        (
            'p = (\n "x" + row["context"] + row["question"] + row["ans0"] + row["ans1"]\n + f"{1}"\n)',
            3,
            "unsupported prompt term",
        ),
        ('p = "x" + row["context"] + row["label"]', 1, "unknown item field 'label'"),
        ('p = "x" + row["context"] + row["question"] + row["ans0"]', 1, "never uses ans1, ans2"),
        ('p = ("x" +', 1, "not a parsable prompt expression"),
        ('a = "x"\nb = "y"', 2, "expected one prompt expression"),
    ],
)
def test_prompt_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_prompt_template(text, "prompt.txt")
    assert info.value.file == "prompt.txt" and info.value.line == line
    assert message in str(info.value)


def test_module_holds_no_copy_of_the_prompt() -> None:
    # The authors' text must not live in the project: the module pins checksums, not content.
    text = Path(source.__file__).read_text(encoding="utf-8")
    assert "Piliin" not in text and "Ito ang" not in text


# --- published items by default -------------------------------------------------


def test_published_items_are_run_by_default(templates: Path, reference_dir: Path) -> None:
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark

    # data/ beside templates/: no download
    bench = FilBBQBenchmark.with_options(templates=templates)
    published = load_bbq_jsonl(
        reference_dir / "filbbq" / "data" / "FilBBQ_Sexual_orientation.jsonl"
    )
    so = [i for i in bench.items if i.category == "Sexual_orientation"]
    assert [i.model_dump() for i in so] == [i.model_dump() for i in published]
    gi = [i for i in bench.items if i.category == "Gender_identity"]
    assert len(gi) == 7952  # no published file: regenerated with the documented seed
    assert bench.data_source == {
        "Sexual_orientation": {
            "items": "published",
            "repository": FILBBQ_REPOSITORY,
            "commit": FILBBQ_COMMIT,
            "file": "data/FilBBQ_Sexual_orientation.jsonl",
            "sha256": PUBLISHED_DATA_SHA256["FilBBQ_Sexual_orientation.jsonl"],
        },
        "Gender_identity": {
            "items": "regenerated",
            "seed": 0,
            "templates": f"{FILBBQ_REPOSITORY}@{FILBBQ_COMMIT[:12]}",
        },
    }
    signature = bench.signature({"model": "m"}, None, [0])
    assert signature.data_source == bench.data_source

    regenerated = FilBBQBenchmark.with_options(
        templates=templates, regenerate_items=True, data_seed=0
    )
    assert regenerated.data_source["Sexual_orientation"] == {
        "items": "regenerated",
        "seed": 0,
        "templates": f"{FILBBQ_REPOSITORY}@{FILBBQ_COMMIT[:12]}",
    }
    assert [i.model_dump() for i in regenerated.items if i.category == "Gender_identity"] == [
        i.model_dump() for i in gi
    ]
    # the same items up to answer order and unknown wording, yet the answers as presented
    # differ on 98% of example ids (2,568 of 2,624): why the default matters
    other = {i.uid: i for i in regenerated.items if i.category == "Sexual_orientation"}
    differ = sum(i.answers != other[i.uid].answers for i in so)
    assert differ == 2568
    assert signature.data_sha256 != regenerated.signature({"model": "m"}, None, [0]).data_sha256


def test_published_data_from_a_local_folder_or_the_environment(
    templates: Path,
    reference_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    data = reference_dir / "filbbq" / "data"
    assert resolve_published_data(data, download=False) == data
    monkeypatch.setenv("BIASBENCH_FILBBQ_DATA", str(data))
    assert resolve_published_data(download=False) == data
    monkeypatch.delenv("BIASBENCH_FILBBQ_DATA")
    # beside a templates folder (the repository's layout)
    assert resolve_published_data(templates_dir=templates, download=False) == data
    edited = tmp_path / "edited"
    edited.mkdir()
    (edited / "FilBBQ_Sexual_orientation.jsonl").write_bytes(
        (data / "FilBBQ_Sexual_orientation.jsonl").read_bytes()[:-200]
    )
    with caplog.at_level(logging.WARNING):
        assert resolve_published_data(edited, download=False) == edited
    assert "sha256 mismatch" in caplog.text
    with pytest.raises(BiasbenchError, match="sha256 mismatch"):
        resolve_published_data(edited, strict=True)


def test_templates_without_published_data_say_what_to_do(templates: Path, tmp_path: Path) -> None:
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark

    lone = tmp_path / "lone" / "templates"
    shutil.copytree(templates, lone)
    with pytest.raises(BiasbenchError, match="--regenerate-items"):
        resolve_published_data(templates_dir=lone, download=False)
    with pytest.raises(BiasbenchError, match="--regenerate-items"):
        resolve_published_data(templates_dir=lone, base_url=closed_port_url(), timeout=2)
    bench = FilBBQBenchmark.with_options(templates=lone, regenerate_items=True)
    assert {s["items"] for s in bench.data_source.values()} == {"regenerated"}
