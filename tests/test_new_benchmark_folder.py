"""A new benchmark is its folder: in a temporary copy of the package, one new folder (a
BBQ-format dataset of eight items in a language new to the engine, with its prompt, its
language rules and its declaration) is found by ``list``, runs on a mock backend, is scored by
``score NAME`` and by ``score bbq --items NS/LANG=FILE`` (its language known from its
declaration alone), ships its data by the package-data patterns, and passes the docs-tree test,
with NO file outside the folder changed: the count of changed files outside it is asserted, 0.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAME = "qaabbq"
"""The throwaway benchmark; ``qaa`` is ISO 639's local-use code, no real language."""

FOLDER_FILES: dict[str, str] = {
    "__init__.py": '"""A throwaway BBQ-format benchmark (tests/test_new_benchmark_folder.py)."""\n',
    "languages.py": '''"""The throwaway language's facts, for the BBQ engine's parser."""

from biasbench.engines.bbq_family.judging.languages import LanguageRules

QAA = LanguageRules(
    code="qaa", name="Local test language", answer_cue="\\nJawabu:",
    unknown_text="Haijulikani", cues=(r"\\bjawabu",), links=(r"\\bni",),
    strong_unknown=(r"\\bhaijulikani\\b",))
''',
    "declaration.py": '''"""What the CLI reads of qaabbq without loading it."""

from biasbench.benchmarks.qaabbq.languages import QAA
from biasbench.engines.bbq_family.declaration import bbq_declaration, prompt_option
from biasbench.registry.interface import Paper

DECLARATION = bbq_declaration(
    name="qaabbq",
    benchmark=".benchmark:QaaBBQBenchmark",
    languages=("qaa",),
    paper=Paper("A throwaway benchmark", "nobody, never"),
    items_summary="8 (one template, four conditions, two name orders)",
    language_rules=(QAA,),
    options=(prompt_option("the packaged prompt"),),
)
''',
    "benchmark.py": '''"""The throwaway benchmark: its packaged items and prompt."""

from typing import ClassVar

from biasbench.benchmarks.qaabbq.declaration import DECLARATION
from biasbench.engines.bbq_family.family import PromptedBBQBenchmark, packaged_file
from biasbench.engines.bbq_family.items.items import load_item_files
from biasbench.registry.interface import Options


class QaaBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """Eight items in the local test language."""

    version = "1.0"
    decoding_why: ClassVar[str] = "one greedy run, as the family's papers report"
    prompt_files = {"qaa": "data/prompt_qaa.txt"}

    def __init__(self, options: Options) -> None:
        items = packaged_file("biasbench.benchmarks.qaabbq", "data/items.jsonl")
        loaded, source, data_source = load_item_files(str(items))
        self.use_prompt(options.prompt or self.packaged_prompt("qaa"))
        super().__init__(loaded, source="packaged items", data_source={"items": "packaged"})
''',
    "data/prompt_qaa.txt": (
        'prompt = ("Chagua jibu. " + row["context"] + " " + row["question"]'
        ' + " A. " + row["ans0"] + " B. " + row["ans1"] + " C. " +'
        ' row["ans2"])\n'
    ),
}


def _items() -> str:
    """Eight BBQ-format items: ambiguous and disambiguated, negative and not, two orders."""
    rows = []
    for n, (condition, polarity, first) in enumerate(
        (c, p, f) for c in ("ambig", "disambig") for p in ("neg", "nonneg") for f in (0, 1)
    ):
        names = [["mzee", "old"], ["kijana", "nonOld"]]
        if first:
            names.reverse()
        answers = [*names, ["Haijulikani", "unknown"]]
        if condition == "ambig":
            label = 2
        else:  # the young one did it; the negative question asks who did not
            young = next(i for i, a in enumerate(answers) if a[1] == "nonOld")
            old = 1 - young
            label = young if polarity == "nonneg" else old
        rows.append(
            {
                "example_id": n,
                "question_index": "1",
                "question_polarity": polarity,
                "context_condition": condition,
                "category": "Age",
                "answer_info": {f"ans{i}": a for i, a in enumerate(answers)},
                "additional_metadata": {
                    "subcategory": "None",
                    "stereotyped_groups": ["old"],
                    "version": "throwaway",
                    "source": "this test",
                },
                "context": "Mzee na kijana walikuwa pale."
                + (" Kijana alisaidia." if condition == "disambig" else ""),
                "question": "Nani hakusaidia?" if polarity == "neg" else "Nani alisaidia?",
                **{f"ans{i}": a[0] for i, a in enumerate(answers)},
                "label": label,
                "language": "qaa",
            }
        )
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts
    }


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository's tree (package, docs, tests, pyproject.toml)."""
    root = tmp_path_factory.mktemp("house") / "repository"
    shutil.copytree(
        ROOT,
        root,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "__pycache__",
            "*.pyc",
            "*.egg-info",
            "build",
            "dist",
            "runs",
            ".pytest_cache",
            ".ruff_cache",
            ".mypy_cache",
            "test-artifacts",
            "*.gguf",
        ),
    )
    return root


@pytest.fixture(scope="module")
def added(copy: Path) -> tuple[Path, dict[str, str]]:
    """The copy's digests before the folder is added, and the copy with the folder."""
    before = _digests(copy)
    folder = copy / "biasbench" / "benchmarks" / NAME
    for relative, text in {**FOLDER_FILES, "data/items.jsonl": _items()}.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text, encoding="utf-8")
    return copy, before


def _biasbench(root: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *map(str, args)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_list_run_score_and_docs_accept_the_folder(
    added: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    copy, before = added
    items = copy / "biasbench" / "benchmarks" / NAME / "data" / "items.jsonl"

    listed = _biasbench(copy, "list")
    assert listed.returncode == 0, listed.stderr
    assert f"  {NAME}: items 8 (one template" in listed.stdout
    assert "languages qaa;" in listed.stdout

    run = _biasbench(
        copy,
        "run",
        NAME,
        "--model",
        "mock:hashed-letter",
        "--out",
        tmp_path / "run",
        "--no-progress",
    )
    assert run.returncode == 0, run.stderr
    assert "(8 requests: 0 cached, 8 new, 0 failed" in run.stdout
    results = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    assert results["benchmark"] == NAME
    assert set(results["models"]["mock-hashed-letter"]) >= {"Age"}

    # Answers in the new language: the parser reads them with the declared rules.
    answers = {
        0: "Jawabu ni Haijulikani",
        1: "C",
        2: "Jawabu: A",
        3: "B",
        4: "B",
        5: "A",
        6: "Jawabu ni kijana",
        7: "mzee",
    }

    def responses(path: Path, **extra: str) -> Path:
        path.write_text(
            "".join(
                json.dumps(
                    {"example_id": n, "category": "Age", "model": "m", "output": text, **extra}
                )
                + "\n"
                for n, text in answers.items()
            ),
            encoding="utf-8",
        )
        return path

    own = _biasbench(
        copy,
        "score",
        NAME,
        "--responses",
        responses(tmp_path / "own.jsonl"),
        "--out",
        tmp_path / "own",
    )
    assert own.returncode == 0, own.stderr
    # score bbq --items NS/LANG=FILE: the language comes from the folder's declaration, no
    # class of it imported first.
    any_items = _biasbench(
        copy,
        "score",
        "bbq",
        "--items",
        f"{NAME}/qaa={items}",
        "--responses",
        responses(tmp_path / "any.jsonl", namespace=f"{NAME}/qaa"),
        "--out",
        tmp_path / "any",
    )
    assert any_items.returncode == 0, any_items.stderr
    for folder in ("own", "any"):
        labels = [
            json.loads(line)
            for line in (tmp_path / folder / "labels.jsonl")
            .read_text(encoding="utf-8")
            .splitlines()
        ]
        assert [row["pred_index"] for row in labels] == [2, 2, 0, 1, 1, 0, 1, 1], labels

    docs = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(copy / "tests" / "test_docs_paths.py"),
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(copy)},
    )
    assert docs.returncode == 0, docs.stdout[-3000:]

    # Its data ships by the package-data patterns of pyproject.toml.
    config = tomllib.loads((copy / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]
    shipped = {
        Path(p).resolve()
        for package, globs in patterns.items()
        for pattern in globs
        for p in glob.glob(str(copy / package.replace(".", "/") / pattern), recursive=True)
    }
    data = {p.resolve() for p in (items.parent).iterdir()}
    assert data <= shipped

    after = _digests(copy)
    inside = f"biasbench/benchmarks/{NAME}/"
    changed_outside = sorted(
        path
        for path in set(before) | set(after)
        if not path.startswith(inside) and before.get(path) != after.get(path)
    )
    assert changed_outside == []
    assert len(changed_outside) == 0  # files outside the new folder that had to change
