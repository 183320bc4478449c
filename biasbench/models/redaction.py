"""Credentials kept out of sight: a holder that never shows its value, every form in which a
key or URL credentials may be echoed back (plain, percent-encoded, base64, JSON escapes), and
their replacement in text and JSON values. The OpenAI-compatible backend redacts with these
everything it stores or prints."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import quote


class Secret:
    """Holds a credential without ever showing it (repr, vars(), logs)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<redacted>"


# The marker is the caller's: output_health's REDACTED in a stored answer or response field
# (output health counts the answers that hold it), ``***`` in errors.


def encoded_forms(secret: str) -> set[str]:
    """``secret`` as a server may echo it: plain, percent-encoded, base64 (standard and
    URL-safe, with and without padding) and as JSON string escapes (``\\"``-style and all
    ``\\uXXXX``, lower and upper case)."""
    raw = secret.encode("utf-8")
    forms = {secret, quote(secret, safe=""), quote(secret, safe=":"), quote(secret),
             json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = encoded.decode("ascii")
        forms |= {text, text.rstrip("=")}
    escaped = "".join(f"\\u{unit:04x}" for unit in _utf16_units(secret))
    forms |= {escaped, escaped.upper().replace("\\U", "\\u")}
    return forms


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


def secret_forms(*, key: str | None = None, user: str = "", password: str = "") -> list[str]:
    """Every form in which an API key or URL credentials may come back in a server's or a
    library's message: each of the key, ``Bearer KEY``, the password, ``user:password`` and the
    Basic header, in every encoding of :func:`encoded_forms`. Longest first, so that a longer
    form is replaced whole before a shorter one inside it."""
    secrets: set[str] = set()
    if key:
        secrets |= {key, f"Bearer {key}"}
    if user or password:
        pair = f"{user}:{password}"
        secrets |= {password, pair,
                    "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")}
        if not password:
            secrets.add(user)  # a token given as the user name
    forms: set[str] = set()
    for secret in secrets:
        if len(secret) >= 3:
            forms |= encoded_forms(secret)
    return sorted((f for f in forms if len(f) >= 3), key=len, reverse=True)


def redact_text(text: str, forms: list[str], marker: str) -> tuple[str, int]:
    """``text`` with every form replaced by ``marker``, and the number of replacements."""
    count = 0
    for form in forms:
        if form in text:
            count += text.count(form)
            text = text.replace(form, marker)
    return text, count


def redact_value(value: Any, forms: list[str], marker: str) -> tuple[Any, int]:
    """``value`` (JSON: text, lists, objects, keys included) with secrets replaced."""
    if isinstance(value, str):
        return redact_text(value, forms, marker)
    if isinstance(value, list):
        pairs = [redact_value(v, forms, marker) for v in value]
        return [v for v, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        out, total = {}, 0
        for k, v in value.items():
            k2, n1 = redact_text(str(k), forms, marker)
            v2, n2 = redact_value(v, forms, marker)
            out[k2] = v2
            total += n1 + n2
        return out, total
    return value, 0
