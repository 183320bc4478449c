"""The labelled tables of the Japanese judge (JSON lines, one output per line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
TABLE = DATA / "labelled_ja.jsonl"
"""Written from the spec before the rules."""
HELD_OUT = DATA / "held_out_ja.jsonl"
"""Written after the rules, committed before the judge was run on it."""
BLIND = DATA / "blind_probes_ja.jsonl"
"""Three rounds of probes, each committed before the judge was run on it."""


def labelled_rows(path: Path = TABLE) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
