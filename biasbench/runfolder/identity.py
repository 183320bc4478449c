"""One configuration per run folder: what a folder is bound to, and the one-line refusal of a
run that differs (see :mod:`biasbench.runfolder`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

IDENTITY_FIELDS = ("benchmark", "data_sha256", "prompt_hash", "model", "decoding", "seeds", "limit")
"""What a run folder is bound to: another value of any of these needs another folder."""


def identity(signature: dict[str, Any], limit: int | None) -> dict[str, Any]:
    """The configuration a run folder is bound to (see :data:`IDENTITY_FIELDS`)."""
    found = {name: signature.get(name) for name in IDENTITY_FIELDS if name != "limit"}
    found["limit"] = limit
    # Through JSON, so that a stored identity compares equal to a fresh one (tuples, floats).
    stored: dict[str, Any] = json.loads(json.dumps(found, sort_keys=True))
    return stored


def describe_identity(found: dict[str, Any]) -> str:
    """E.g. ``honorific-bn answers of openai:m (chat), --limit 30, temperature 0.0``."""
    model = found.get("model") or {}
    name = model.get("model", "?") if isinstance(model, dict) else str(model)
    kind = model.get("kind") if isinstance(model, dict) else None
    text = f"{found.get('benchmark')} answers of {kind + ':' if kind else ''}{name}"
    if isinstance(model, dict) and model.get("mode"):
        text += f" ({model['mode']})"
    text += f", --limit {found['limit']}" if found.get("limit") else ", all items"
    seeds = found.get("seeds")
    if seeds:
        text += f", {len(seeds)} seed(s)"
    decoding = found.get("decoding") or {}
    if isinstance(decoding, dict) and "temperature" in decoding:
        text += f", temperature {decoding['temperature']}"
    return text


def identity_conflict(held: dict[str, Any], wanted: dict[str, Any], run_dir: Path) -> str | None:
    """The one-line refusal when ``wanted`` is not the configuration ``held`` by the folder."""
    differing = [name for name in IDENTITY_FIELDS if held.get(name) != wanted.get(name)]
    if not differing:
        return None
    words = {
        "data_sha256": "items",
        "prompt_hash": "prompt",
        "decoding": "decoding",
        "seeds": "seeds",
        "limit": "--limit",
        "model": "model",
        "benchmark": "benchmark",
    }
    named = []
    for name in differing:
        first, other = held.get(name), wanted.get(name)
        if isinstance(first, dict) and isinstance(other, dict):  # say which part differs
            keys = sorted(k for k in set(first) | set(other) if first.get(k) != other.get(k))
            named.append(f"{words[name]} ({', '.join(keys)})")
        else:
            named.append(words[name])
    return (
        f"run folder {run_dir} holds {describe_identity(held)}; this run differs in "
        f"{', '.join(named)}: {describe_identity(wanted)}. A run folder holds one "
        "configuration: pass another --out"
    )
