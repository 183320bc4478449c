"""Credentials kept out of sight: a holder that never shows its value, every form in which a
key or URL credentials may be echoed back (plain, percent-encoded, base64, JSON escapes), and
their replacement in text and JSON values. The OpenAI-compatible backend redacts with these
everything it stores or prints."""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from html.entities import codepoint2name
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
    forms = {
        secret,
        quote(secret, safe=""),
        quote(secret, safe=":"),
        quote(secret),
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
    }
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = encoded.decode("ascii")
        forms |= {text, text.rstrip("=")}
    escaped = "".join(f"\\u{unit:04x}" for unit in _utf16_units(secret))
    forms |= {escaped, escaped.upper().replace("\\U", "\\u")}
    return forms


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


def _secrets(key: str | None, user: str, password: str) -> set[str]:
    secrets: set[str] = set()
    if key:
        secrets |= {key, f"Bearer {key}"}
    if user or password:
        pair = f"{user}:{password}"
        secrets |= {
            password,
            pair,
            "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii"),
        }
        if not password:
            secrets.add(user)  # a token given as the user name
    return secrets


def secret_forms(*, key: str | None = None, user: str = "", password: str = "") -> list[str]:
    """Every form in which an API key or URL credentials may come back in a server's or a
    library's message: each of the key, ``Bearer KEY``, the password, ``user:password`` and the
    Basic header, in every encoding of :func:`encoded_forms`. Longest first, so that a longer
    form is replaced whole before a shorter one inside it."""
    forms: set[str] = set()
    for secret in _secrets(key, user, password):
        if len(secret) >= 3:
            forms |= encoded_forms(secret)
    return sorted((f for f in forms if len(f) >= 3), key=len, reverse=True)


LOOSE_MIN_LENGTH = 8
"""Secrets at least this long are also found in loose forms (:func:`loose_pattern`); a shorter
one only exactly, since a loose match of a few letters would redact ordinary model output."""

# Between two characters of an echoed secret: white space (spaces, newlines) and the invisible
# format characters a server or a model may slip in (zero-width space and joiners, word
# joiner, soft hyphen, BOM, bidi marks).
_GAP = r"[\s\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]*"


def _char(ch: str) -> str:
    """``ch`` itself or as an HTML character reference (decimal, hex, named)."""
    options = [re.escape(ch), f"&#0*{ord(ch)};", f"&#x0*{ord(ch):x};"]
    if ord(ch) in codepoint2name:
        options.append(f"&{codepoint2name[ord(ch)]};")
    return "(?:" + "|".join(options) + ")"


def loose_pattern(secret: str) -> str:
    """A regular expression (to compile case-insensitively) for ``secret`` echoed in any case,
    with white space or invisible characters between its characters, or HTML-escaped."""
    return _GAP.join(_char(ch) for ch in secret)


@dataclass(frozen=True)
class SecretForms:
    """What to redact: exact encoded forms (longest first) and one loose pattern."""

    exact: list[str] = field(default_factory=list)
    loose: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return "<redacted>"

    def __bool__(self) -> bool:
        return bool(self.exact) or self.loose is not None


def secret_matcher(
    *, key: str | None = None, user: str = "", password: str = "", extra: list[str] | None = None
) -> SecretForms:
    """The exact forms of :func:`secret_forms` (plus ``extra``) and a loose pattern for each
    secret of :data:`LOOSE_MIN_LENGTH` or more characters: as it is, reversed and as the hex of
    its UTF-8 bytes, in any case, split by white space or invisible characters, HTML-escaped."""
    exact = sorted(
        set(secret_forms(key=key, user=user, password=password)) | set(extra or []),
        key=len,
        reverse=True,
    )
    variants: set[str] = set()
    for secret in _secrets(key, user, password):
        if len(secret) >= LOOSE_MIN_LENGTH:
            variants |= {secret, secret[::-1], secret.encode("utf-8").hex()}
    if not variants:
        return SecretForms(exact, None)
    alternatives = sorted(variants, key=len, reverse=True)
    loose = re.compile("|".join(loose_pattern(v) for v in alternatives), re.IGNORECASE)
    return SecretForms(exact, loose)


def redact_text(text: str, forms: list[str] | SecretForms, marker: str) -> tuple[str, int]:
    """``text`` with every form replaced by ``marker``, and the number of replacements."""
    exact, loose = (forms.exact, forms.loose) if isinstance(forms, SecretForms) else (forms, None)
    count = 0
    for form in exact:
        if form in text:
            count += text.count(form)
            text = text.replace(form, marker)
    if loose is not None:
        text, found = loose.subn(marker, text)
        count += found
    return text, count


def redact_cut(text: str, forms: list[str] | SecretForms, marker: str, limit: int) -> str:
    """``text`` redacted, then cut to ``limit`` characters: redacting first, since a cut through
    a secret would leave its start where no form matches it."""
    return redact_text(text, forms, marker)[0][:limit]


def redact_value(value: Any, forms: list[str] | SecretForms, marker: str) -> tuple[Any, int]:
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
