"""Bias-profile tables of models whose names differ only in characters a file name drops
(``m 1``, ``m/1``) never overwrite each other (round 2, item 11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from biasbench.textutil import unique_slug

from .test_by_language import MBBQ, _items


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("m1", "m1"),
        ("gpt-4o-mini", "gpt-4o-mini"),
        ("m 1", "m_1-"),
        ("m/1", "m_1-"),
        ("m_1", "m_1"),
        ("../x", "x-"),
        ("", "model-"),
    ],
)
def test_unique_slug(name: str, expected: str) -> None:
    found = unique_slug(name)
    if expected.endswith("-"):
        assert found.startswith(expected) and len(found) == len(expected) + 8, found
    else:
        assert found == expected
    assert "/" not in found and not found.startswith(".")


def test_profiles_of_models_with_similar_names_are_all_written(tmp_path: Path) -> None:
    entry = f"mbbq/en={MBBQ / 'SES_en.jsonl'}"
    items = _items(entry)
    responses = tmp_path / "responses.jsonl"
    models = ["m 1", "m/1", "m_1"]
    responses.write_text(
        "".join(
            json.dumps(
                {
                    "example_id": i.example_id,
                    "category": i.category,
                    "model": m,
                    "pred": i.label if m == "m 1" else 0,
                }
            )
            + "\n"
            for i in items
            for m in models
        )
    )
    out = tmp_path / "scored"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "biasbench",
            "score",
            "bbq",
            "--items",
            entry,
            "--responses",
            str(responses),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (out / "tables").glob("bias_profile_*.md"))
    assert written == sorted(f"bias_profile_{unique_slug(m)}.md" for m in models)
    assert len(set(written)) == 3
