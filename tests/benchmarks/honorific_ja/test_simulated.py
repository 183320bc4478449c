"""1,368 simulated outputs (19 templates x 72 occupation terms) with labels known by
construction: every occupation noun, on both analyser adapters."""

from __future__ import annotations

from typing import Any

from tests.benchmarks.honorific_ja.simulated_outputs import TEMPLATES, simulated


def test_every_template_and_occupation(any_ja_judge: Any) -> None:
    rows = simulated()
    assert len(rows) == len(TEMPLATES) * 72
    judged = any_ja_judge.judge_many(
        [output for _, _, output in rows], [condition for condition, _, _ in rows]
    )
    misses = [
        (output, label, j.label.value)
        for (_, label, output), j in zip(rows, judged, strict=True)
        if j.label.value != label
    ]
    assert misses == []
