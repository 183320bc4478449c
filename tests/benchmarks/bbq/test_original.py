"""The original English BBQ: generation from the authors' templates (published counts in all 11
categories), their quirks, the pinned sources, and the English prompt."""

from __future__ import annotations

import hashlib
import http.server
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasbench.benchmarks.bbq.benchmark import OriginalBBQBenchmark
from biasbench.benchmarks.bbq.original import (
    BBQ_COMMIT,
    BBQ_REPOSITORY,
    BBQ_TEMPLATES,
    CATEGORIES,
    DATA_DIGESTS,
    ENV_TEMPLATES,
    PUBLISHED_COUNTS,
    TEMPLATE_DIGESTS,
    generate_bbq,
    generate_bbq_items,
    resolve_bbq_data,
    template_var2,
)
from biasbench.benchmarks.filbbq.source import load_prompt_file
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.source import digest_of, resolve_pinned_folder
from biasbench.engines.bbq_family.scoring.bias_scores import (
    EXCLUDED_INTERSECTIONAL,
    exclusion_counts,
    target_index,
)
from biasbench.errors import BiasbenchError
from tests.benchmarks.bbq.original_files import original_file
from tests.benchmarks.bbq.r_reference import r_intersectional_target_loc

FIXTURE = Path(__file__).parent / "fixtures" / "bbq_templates"


@pytest.fixture(scope="module")
def original_templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The authors' templates/ (from $BIASBENCH_BBQ_REPO or the mirror), or a skip."""
    base = tmp_path_factory.mktemp("bbq-repo")
    for name in TEMPLATE_DIGESTS:
        path = original_file(f"templates/{name}", base)
    return path.parent


# --- generation: the published counts -------------------------------------------------------


def test_generated_counts_equal_the_published_counts(
    original_templates: Path, tmp_path: Path
) -> None:
    assert (
        resolve_pinned_folder(BBQ_TEMPLATES, original_templates, strict=True) == original_templates
    )
    report = generate_bbq(original_templates, tmp_path / "out", seed=0)
    assert report.counts == dict(PUBLISHED_COUNTS)
    assert report.total == 58_492
    assert report.differs_from_published == {}
    for category in CATEGORIES:
        lines = (tmp_path / "out" / f"{category}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == PUBLISHED_COUNTS[category]
        BBQItem.model_validate(json.loads(lines[0]))
    # The Disability_status quirks are named, not silent.
    assert any("cut at a ';'" in w for w in report.warnings)


def test_generated_items_are_scored_except_the_intersectional(original_templates: Path) -> None:
    """Labels read as the R analysis reads them: no base category loses a generated item."""
    results = generate_bbq_items(original_templates, seed=0)
    items = [BBQItem.model_validate(d) for r in results.values() for d in r.items]
    excluded = exclusion_counts(items)
    assert set(excluded) == {"Gender_identity", "Race_x_SES", "Race_x_gender"}
    # Template 13 pairs boy/man (or girl/woman) under the stereotyped group F: the R script
    # drops these 16 too ("should come back as 0, is actually 16").
    assert excluded["Gender_identity"] == {
        "no answer label matches the stereotyped groups": 8,
        "both answers match the stereotyped groups": 8,
    }


@pytest.mark.parametrize("category", CATEGORIES)
def test_published_items_match_their_pins(tmp_path: Path, category: str) -> None:
    path = original_file(f"data/{category}.jsonl", tmp_path)  # skips (visibly) when absent
    data = path.read_bytes()
    assert digest_of(data, DATA_DIGESTS[path.name]) == DATA_DIGESTS[path.name]
    assert len(data.splitlines()) == PUBLISHED_COUNTS[category]


# --- generation: the quirks, on a few template rows shipped with the tests --------------------


def test_quirks_of_the_original_templates(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):  # each warning in full at INFO (biasbench -v)
        results = generate_bbq_items(
            FIXTURE, 0, ["Disability_status", "SES", "Race_x_gender", "Race_x_SES"]
        )
    # Disability_status 4: "NAME1: [deaf person; hard-of-hearing person]; NAME2: [3 jobs]" keeps
    # one NAME1 word (3 slottings, 12 items); the mirrored row loses its NAME2 list (0 items).
    assert results["Disability_status"].template_counts == {"4": 12, "19": 8}
    assert [r.items for r in results["Disability_status"].row_counts] == [12, 0, 8, 0]
    assert "NAME2 list is lost" in caplog.text and "cut at a ';'" in caplog.text
    # A malformed slot ("{[NAME1}}") is kept verbatim with a warning, not an error (its row
    # also loses its NAME2 list, so it yields nothing).
    assert "malformed slot (unbalanced '{{' or '}}'), kept verbatim" in caplog.text
    assert len(results["SES"].items) == 48
    # Intersectional rows: |W| x 5 partners x 3 contrasts x 2 orders x 4 items.
    assert len(results["Race_x_gender"].items) == 2 * 5 * 24  # Black, African American
    assert len(results["Race_x_SES"].items) == 2 * 4 * 5 * 24  # two rows, 4 target races
    item = results["Race_x_gender"].items[1]
    assert item["additional_metadata"]["subcategory"] == "intersectional_a"
    groups = {v[1] for v in item["answer_info"].values()}
    assert groups == {"M-Black", "F-Black", "unknown"} or groups == {
        "M-African American",
        "F-African American",
        "unknown",
    }


def test_generation_is_seeded(tmp_path: Path) -> None:
    cats = ["Race_x_SES", "SES"]
    one = generate_bbq(FIXTURE, tmp_path / "a", seed=3, categories=cats)
    two = generate_bbq(FIXTURE, tmp_path / "b", seed=3, categories=cats)
    other = generate_bbq(FIXTURE, tmp_path / "c", seed=4, categories=cats)
    for category in cats:
        assert one.files[category].read_bytes() == two.files[category].read_bytes()
    assert one.files["Race_x_SES"].read_bytes() != other.files["Race_x_SES"].read_bytes()


# --- the pinned sources ------------------------------------------------------------------------


def test_git_blob_pins_verify_like_git() -> None:
    # `git hash-object` of "hello\n"
    pinned = "git-blob-sha1:ce013625030ba8dba906f756967f9e9ca394464a"
    assert digest_of(b"hello\n", pinned) == pinned
    assert digest_of(b"hello\n", "0" * 64) == hashlib.sha256(b"hello\n").hexdigest()


def test_a_folder_missing_templates_is_refused() -> None:
    with pytest.raises(BiasbenchError, match="lacks new_templates - Age.csv"):
        resolve_pinned_folder(BBQ_TEMPLATES, FIXTURE)


@pytest.mark.parametrize("download", [True, False])
def test_offline_error_says_what_to_fetch_and_where(
    tmp_path: Path, download: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_TEMPLATES, raising=False)
    with pytest.raises(BiasbenchError) as info:
        resolve_pinned_folder(
            BBQ_TEMPLATES,
            cache_dir=tmp_path / "c",
            download=download,
            base_url="http://127.0.0.1:9",
            timeout=2,
        )
    message = str(info.value)
    assert f"GitHub repository {BBQ_REPOSITORY} at commit {BBQ_COMMIT}" in message
    assert "templates/new_templates - Age.csv" in message
    assert f"--templates DIR (or set {ENV_TEMPLATES}=DIR)" in message
    assert ("could not download" in message) is download


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def served_repo(original_templates: Path, tmp_path: Path) -> Iterator[str]:
    """The templates served as <base>/nyu-mll/BBQ/<commit>/templates/<file>."""
    root = tmp_path / "www" / BBQ_REPOSITORY / BBQ_COMMIT / "templates"
    root.mkdir(parents=True)
    for name in TEMPLATE_DIGESTS:
        (root / name).write_bytes((original_templates / name).read_bytes())
    directory = str(tmp_path / "www")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a: _Quiet(*a, directory=directory)
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_download_verifies_and_caches(
    served_repo: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_TEMPLATES, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    folder = resolve_pinned_folder(BBQ_TEMPLATES, cache_dir=tmp_path / "c", base_url=served_repo)
    assert folder == tmp_path / "c" / "bbq" / BBQ_COMMIT / "templates"
    assert sorted(p.name for p in folder.iterdir()) == sorted(TEMPLATE_DIGESTS)
    assert resolve_pinned_folder(BBQ_TEMPLATES, cache_dir=tmp_path / "c", download=False) == folder


def test_data_folder_must_hold_every_category(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with pytest.raises(BiasbenchError, match="lacks Age.jsonl"):
        resolve_bbq_data(tmp_path / "data")


# --- the English prompt ------------------------------------------------------------------------


def test_english_prompt_is_packaged_and_parses() -> None:
    template = load_prompt_file(OriginalBBQBenchmark.packaged_prompt("en"))
    item = BBQItem.model_validate(
        json.loads(
            (Path(__file__).parent / "fixtures" / "uqa_labels.jsonl").read_text().splitlines()[0]
        )
    )
    text = template.render(item)
    assert text.startswith("Choose the correct answer. Answer with A, B or C only")
    assert text.endswith(f"A. {item.ans0} B. {item.ans1} C. {item.ans2}")
    assert f"{item.context} {item.question}" in text


def test_intersectional_targets_follow_the_r_analysis() -> None:
    """With the templates' Known_stereotyped_var2, intersectional items are scored, each target
    the R analysis's (checked on the generated fixture items: the published files of these two
    categories are not in the mirror)."""
    var2 = template_var2(FIXTURE)
    assert var2 == {
        ("Race_x_SES", "1"): "lowSES",
        ("Race_x_SES", "5"): "lowSES",
        ("Race_x_gender", "1"): "M",
    }
    results = generate_bbq_items(FIXTURE, 0, ["Race_x_gender", "Race_x_SES"])
    rows = [d for r in results.values() for d in r.items]
    items = [BBQItem.model_validate(d) for d in rows]
    for row, item in zip(rows, items, strict=True):
        expected = r_intersectional_target_loc(row, var2[(item.category, item.question_index)])
        assert target_index(item, var2) == expected, row["example_id"]
    assert exclusion_counts(items)["Race_x_SES"] == {EXCLUDED_INTERSECTIONAL: 960}
    scored = exclusion_counts(items, var2)
    assert sum(n for c in scored.values() for n in c.values()) < len(items) // 4
