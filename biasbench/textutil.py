"""Small text helpers shared across packages."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def slug(text: object) -> str:
    """A file-name-safe form of ``text``: runs of other characters become one underscore."""
    return _UNSAFE.sub("_", str(text)).strip("_")


def unique_slug(text: object, default: str = "model") -> str:
    """:func:`slug` made unique: when the slug is not ``text`` itself (a character was
    replaced or dropped: ``m 1``, ``m/1``), 8 hex digits of ``text``'s sha256 are appended, so
    two names that differ never share a file name (the run-folder naming rule). Never a hidden
    name or a path part."""
    import hashlib

    raw = str(text)
    name = slug(raw).strip("._") or default
    if name != raw:
        name = f"{name}-{hashlib.sha256(raw.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
    return name
