"""A server that echoes the credentials (round 2, item 8): no encoded form of the key or the URL
password survives in an error, a stored answer or a kept response field."""

from __future__ import annotations

import pandas as pd
import pytest

from biasbench.models.redaction import secret_forms
from biasbench.output_health import REDACTED, health_line, output_health
from biasbench.testing.echo_secrets import echo_secret_leaks


@pytest.fixture(scope="module")
def rows() -> list[dict[str, object]]:
    return echo_secret_leaks()


def test_every_scenario_is_covered(rows: list[dict[str, object]]) -> None:
    assert len(rows) == 14  # 7 scenarios x (API key, URL password)


@pytest.mark.parametrize("index", range(14))
def test_no_secret_form_is_kept(rows: list[dict[str, object]], index: int) -> None:
    row = rows[index]
    assert (row["leaks"], row["redacted"]) == (0, True), row


def test_successful_rows_count_what_was_replaced(rows: list[dict[str, object]]) -> None:
    answers = [r for r in rows if r["scenario"] == "answer and info"]
    assert all('"secrets_redacted": 5' in str(r["kept"]) for r in answers)


@pytest.mark.parametrize(
    ("secret", "form"),
    [
        ("sk-abc123", "c2stYWJjMTIz"),  # base64
        ("sk-abc123", "QmVhcmVyIHNrLWFiYzEyMw=="),  # base64 of "Bearer sk-abc123"
        ("sk-abc123", "\\u0073\\u006b\\u002d\\u0061\\u0062\\u0063\\u0031\\u0032\\u0033"),
        ("sk/abc+1", "sk%2Fabc%2B1"),
    ],
)
def test_secret_forms(secret: str, form: str) -> None:
    assert form in secret_forms(key=secret)


def test_output_health_counts_redacted_answers() -> None:
    frame = pd.DataFrame(
        {
            "model": ["m", "m"],
            "output": [f"a {REDACTED} b {REDACTED}", "ok"],
            "finish_reason": ["stop", "stop"],
        }
    )
    health = output_health(frame)["m"]
    assert health["secrets_redacted"] == 2
    assert "2 echoed secret(s) replaced by [redacted]" in str(health_line("m", health))
