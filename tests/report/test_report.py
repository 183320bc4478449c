"""The HTML report end to end over real run folders made with the mock backends."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from biasbench.errors import InputError
from biasbench.pipeline import run_benchmark
from biasbench.report.html import REPORT_NAME, build_report, esc, json_for_script

PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HONORIFIC_LIMIT = 56  # two occupations x 7 frames x 4 conditions
BBQ_SEEDS = [0, 1, 2]


def bbq_items() -> list[dict[str, object]]:
    """Two BBQ-format templates x (ambiguous, disambiguated) x (negative, non-negative)."""
    items = []
    for template in ("T1", "T2"):
        for condition in ("ambig", "disambig"):
            for polarity in ("neg", "nonneg"):
                label = 2 if condition == "ambig" else (1 if polarity == "neg" else 0)
                items.append({
                    "example_id": len(items), "question_index": template,
                    "question_polarity": polarity, "context_condition": condition,
                    "category": "Gender_identity",
                    "answer_info": {"ans0": ["lalaki", "M"], "ans1": ["babae", "F"],
                                    "ans2": ["Hindi alam", "unknown"]},
                    "additional_metadata": {"stereotyped_groups": ["F"]},
                    "context": f"Konteksto {template} {condition}.",
                    "question": f"Sino ang {polarity}?",
                    "ans0": "Ang lalaki", "ans1": "Ang babae", "ans2": "Hindi alam",
                    "label": label})
    return items


def make_runs(root: Path) -> dict[str, Path]:
    """Run folders: three comparable honorific-bn runs (one answering with an injection
    payload), one with other decoding, and two comparable BBQ-format runs."""
    root.mkdir(parents=True, exist_ok=True)
    evil = root / "evil.json"
    evil.write_text(json.dumps({"*": PAYLOAD}), encoding="utf-8")
    items = root / "items.jsonl"
    items.write_text("".join(json.dumps(i) + "\n" for i in bbq_items()), encoding="utf-8")
    prompt = root / "prompt.txt"
    prompt.write_text('prompt = ("Pumili: " + row["context"] + " " + row["question"] + '
                      '" A. " + row["ans0"] + " B. " + row["ans1"] + " C. " + row["ans2"])\n',
                      encoding="utf-8")
    runs = {
        "hb_hashed": ("honorific-bn", "mock:hashed-register", {}),
        "hb_honorific": ("honorific-bn", "mock:honorific", {}),
        "hb_evil": ("honorific-bn", f"mock:{evil}", {}),
        "hb_short": ("honorific-bn", "mock:hashed-register", {"max_tokens": 50}),
        "bbq_letter": ("filbbq", "mock:hashed-letter", {}),
        "bbq_evil": ("filbbq", f"mock:{evil}", {}),
    }
    paths = {}
    for name, (benchmark, model, extra) in runs.items():
        options = ({"items": str(items), "prompt": prompt} if benchmark == "filbbq" else None)
        result = run_benchmark(
            benchmark, model, out=root / name, progress=False,
            limit=HONORIFIC_LIMIT if benchmark == "honorific-bn" else None,
            seeds=BBQ_SEEDS if benchmark == "filbbq" else None, benchmark_options=options,
            **extra)
        assert result.complete
        paths[name] = result.run_dir
    return paths


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def report(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("report")
    yield build_report(list(runs.values()), out)


@pytest.fixture(scope="module")
def page(report: Path) -> str:
    return report.read_text(encoding="utf-8")
