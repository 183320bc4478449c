"""An answer checked before it reaches the store: text (content parts joined), lone surrogates
replaced, the backend's extras made plain JSON data, so no backend can poison a batch."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from biasbench.models.base import (
    Generation,
    UnusableAnswerError,
    normalise_finish_reason,
    text_from_content,
)

_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_DEPTH = 32
_RAW_LIMIT = 4000


def clean_text(text: str) -> tuple[str, int]:
    """``text`` with lone surrogates (which UTF-8 cannot encode, so SQLite cannot store)
    replaced by U+FFFD, and how many were replaced."""
    if _SURROGATE.search(text) is None:
        return text, 0
    return _SURROGATE.subn("\ufffd", text)


def json_safe(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON data the store can always write: strings cleaned of lone
    surrogates, tuples as lists, keys as strings, anything else (objects, sets, bytes, too
    deep) as a short repr. Backends' extras never poison a batch."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return clean_text(value)[0]
    if isinstance(value, dict | list | tuple) and depth >= _MAX_DEPTH:
        return f"<{type(value).__name__} nested more than {_MAX_DEPTH} deep>"  # no repr: deep
    if isinstance(value, dict):
        return {clean_text(str(k))[0]: json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v, depth + 1) for v in value]
    try:
        shown = repr(value)
    except Exception as exc:  # a repr that raises is still not allowed to lose the answer
        shown = f"<{type(value).__name__}: repr failed: {type(exc).__name__}>"
    return clean_text(truncated(shown, 200))[0]


def truncated(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def checked(generation: Generation) -> tuple[str, dict[str, Any]]:
    """An answer's text and info, checked before they reach the store (no backend can poison a
    batch): the output must be text (content parts are joined; anything else raises
    :class:`UnusableAnswerError`), the info plain JSON data."""
    if not isinstance(generation, Generation):  # a backend bug: say so, keep what came back
        raise UnusableAnswerError(
            f"the backend returned a {type(generation).__name__}, not a Generation",
            raw=json_safe(generation),
        )
    text: Any = generation.text
    raw_info = generation.info
    info: dict[str, Any] = (
        raw_info if isinstance(raw_info, dict) else ({} if raw_info is None else {"info": raw_info})
    )
    if not isinstance(text, str):
        text, notes = text_from_content(text)
        info = {**info, **notes}
    if "finish_reason" in info:  # one vocabulary whatever the backend (stop, length, ...)
        info = {**info, "finish_reason": normalise_finish_reason(info["finish_reason"])}
    text, replaced = clean_text(text)
    info = json_safe(info)
    if replaced:
        info["replaced_surrogates"] = replaced
    return text, info


def raw_json(value: Any, redact: Callable[[str], str]) -> str:
    """A bounded JSON rendering of content a server sent that could not be used, redacted
    before it is cut: a cut through a secret would leave most of it where no form matches."""
    try:
        text = json.dumps(json_safe(value), ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return truncated(redact(text), _RAW_LIMIT)
