"""How healthy a model's outputs are, before anything is judged: the share that came back
empty, cut at ``max_tokens``, or stuck inside a reasoning block.

A judge labels whatever text it is given. An empty answer (a reasoning model that spent its
budget, a content filter), a sentence cut off at the token limit, or an answer that is still
inside ``<think>`` all reach it as text, and each moves the scores: 5% empty answers moved HAI
from -0.99 to -0.45 in a planted trial. These counts are reported beside the scores (results.json,
the manifest, the terminal summary and the report) so a reader can see what the numbers rest
on; truncated outputs are also flagged on each label (``truncated: true``).

- **empty**: the output is empty or whitespace only.
- **truncated**: the backend's normalised ``finish_reason`` is ``"length"`` (stopped at
  ``max_tokens``). Unknown (null) for outputs produced elsewhere, which carry no finish reason.
- **unclosed reasoning**: a ``<think>`` with no ``</think>`` after it (case-insensitive).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the OpenAI backend reads REDACTED from here
    import pandas as pd

REDACTED = "[redacted]"
"""The marker that replaces a credential a server echoed inside an answer (the OpenAI-compatible
backend writes it; counted here as ``secrets_redacted``)."""
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)


def is_empty(output: object) -> bool:
    """True for a missing, empty or whitespace-only output."""
    return not isinstance(output, str) or not output.strip()


def unclosed_reasoning(output: object) -> bool:
    """True when the last ``<think>`` of ``output`` has no ``</think>`` after it."""
    if not isinstance(output, str):
        return False
    opens = [m.start() for m in _THINK_OPEN.finditer(output)]
    if not opens:
        return False
    closes = [m.start() for m in _THINK_CLOSE.finditer(output)]
    return not closes or closes[-1] < opens[-1]


def is_truncated(finish_reason: object) -> bool:
    """True when the generation stopped at ``max_tokens`` (normalised finish reason "length")."""
    return finish_reason == "length"


def output_health(frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Per model: n, and count and percentage of empty, truncated and unclosed-reasoning outputs.

    ``frame`` has columns ``model`` and ``output``, and ``finish_reason`` where the backend
    reported one; without it (outputs produced elsewhere) ``truncated`` is None (unknown).
    """
    known = "finish_reason" in frame.columns
    found: dict[str, dict[str, Any]] = {}
    for model, rows in frame.groupby("model", sort=False):
        n = len(rows)
        counts: dict[str, int | None] = {
            "empty": sum(is_empty(o) for o in rows["output"]),
            "truncated": sum(is_truncated(r) for r in rows["finish_reason"]) if known else None,
            "unclosed_reasoning": sum(unclosed_reasoning(o) for o in rows["output"]),
        }
        entry: dict[str, Any] = {"n": n}
        for name, count in counts.items():
            entry[name] = count
            entry[f"{name}_pct"] = None if count is None or n == 0 else round(100 * count / n, 2)
        secrets = sum(o.count(REDACTED) for o in rows["output"] if isinstance(o, str))
        if secrets:  # a server echoed a credential inside answers: replaced before storing
            entry["secrets_redacted"] = secrets
        found[str(model)] = entry
    return found


def health_line(model: str, health: dict[str, Any]) -> str | None:
    """One line in words for the terminal summary, or None when nothing is wrong."""
    n = health["n"]
    parts = []
    for name, words in (
        ("empty", "empty"),
        ("truncated", "cut at max_tokens"),
        ("unclosed_reasoning", "inside an unclosed <think> block"),
    ):
        count = health.get(name)
        if count:
            parts.append(f"{count:,} ({health[f'{name}_pct']:.1f}%) {words}")
    if health.get("secrets_redacted"):
        parts.append(f"{health['secrets_redacted']:,} echoed secret(s) replaced by {REDACTED}")
    if not parts:
        return None
    return (
        f"{model}: of {n:,} outputs, " + ", ".join(parts) + " (judged as they are; see "
        "output_health in results.json)"
    )


def health_cell(health: dict[str, Any] | None) -> str:
    """A short cell for report tables: "ok", or e.g. "5.0% empty, 2.1% truncated"."""
    if not health:
        return "—"
    parts = [
        f"{health[f'{name}_pct']:.1f}% {word}"
        for name, word in (
            ("empty", "empty"),
            ("truncated", "truncated"),
            ("unclosed_reasoning", "unclosed <think>"),
        )
        if health.get(name)
    ]
    return ", ".join(parts) or f"ok ({health['n']:,})"
