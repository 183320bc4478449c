"""Small text helpers shared across packages."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def slug(text: object) -> str:
    """A file-name-safe form of ``text``: runs of other characters become one underscore."""
    return _UNSAFE.sub("_", str(text)).strip("_")
