"""Backend options: the shared :class:`ModelOptions` of the CLI's model flags, and the per-backend
``-M key=value`` options each backend declares (:class:`BackendOption`) and validates.

``-M`` values arrive as text. A declared option converts its own text (``-M revision=0123``
stays the string ``"0123"``, ``-M batch_size=8`` becomes the integer 8); an option without a
fixed type (``openai``'s ``field.NAME``) takes :func:`parse_value`'s reading: int, float, bool,
null or JSON where the text looks like one, else the string itself.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from biasbench.errors import ModelSpecError
from biasbench.models.urls import display_url

_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$|^[+-]?(inf|nan)$", re.I)
_TRUE = frozenset({"true", "yes", "on"})
_FALSE = frozenset({"false", "no", "off"})
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


def parse_value(text: str) -> Any:
    """``text`` read as int, float, bool, null or JSON where it looks like one, else kept as text.

    ``"8"`` -> 8, ``"0.5"`` -> 0.5, ``"true"`` -> True, ``"null"`` -> None,
    ``'{"a": 1}'`` -> {"a": 1}, ``"cuda:1"`` -> ``"cuda:1"``. Text that starts like a JSON
    object, array or string but does not parse is an error, not a silent string.
    """
    stripped = text.strip()
    lowered = stripped.lower()
    if _INT.match(stripped):
        return int(stripped)
    if _FLOAT.match(stripped):
        return float(stripped)
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    if lowered in ("null", "none"):
        return None
    if stripped[:1] in ("{", "[", '"'):
        try:
            return json.loads(stripped)
        except ValueError as exc:
            raise ModelSpecError(
                f"-M value {text!r} looks like JSON but does not parse: {exc}"
            ) from None
    return text


def parse_model_args(pairs: Iterable[str]) -> dict[str, str]:
    """``["key=value", ...]`` (the CLI's repeatable ``-M``) as a dict of key to raw text.

    The backend converts each value by the option's declared type (:meth:`BackendOption.convert`).
    A pair without ``=``, an empty or malformed key, or a key given twice is one clear error.
    """
    args: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not _KEY.match(key):
            raise ModelSpecError(f"-M {pair!r}: expected key=value (e.g. -M dtype=bfloat16)")
        if key in args:
            raise ModelSpecError(f"-M {key} given twice")
        args[key] = value
    return args


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError("expected true or false")


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("expected an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT.match(value.strip()):
        return int(value.strip())
    raise ValueError("expected an integer")


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError("expected a number")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str) and _FLOAT.match(value.strip()):
        number = float(value.strip())
    else:
        raise ValueError("expected a number")
    if not math.isfinite(number):  # inf or nan: every request would fail (timeout=inf)
        raise ValueError("expected a finite number")
    return number


def _to_str(value: Any) -> str:
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value)
    raise ValueError("expected text")


def _to_object(value: Any) -> dict[str, Any]:
    parsed = parse_value(value) if isinstance(value, str) else value
    if not isinstance(parsed, dict):
        raise ValueError("expected a JSON object, e.g. '{\"repetition_penalty\": 1.1}'")
    return parsed


def _to_any(value: Any) -> Any:
    return parse_value(value) if isinstance(value, str) else value


_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "bool": _to_bool,
    "int": _to_int,
    "float": _to_float,
    "str": _to_str,
    "json": _to_object,
    "any": _to_any,
}


@dataclass(frozen=True)
class BackendOption:
    """One ``-M`` option a backend accepts: its type, default and whether it changes answers."""

    name: str
    """The key after ``-M``; a name ending in ``.*`` (``field.*``) accepts every key with that
    prefix (``field.repetition_penalty``)."""
    type: str
    """``str``, ``int``, ``float``, ``bool``, ``json`` (a JSON object) or ``any``
    (:func:`parse_value`'s reading)."""
    help: str
    """One line for ``biasbench list`` and the README."""
    default: Any = None
    """The value used when the option is not given (None: decided by the backend, see help)."""
    choices: tuple[Any, ...] | None = None
    """The accepted values, when there are few."""
    minimum: float | None = None
    """The smallest accepted number, for numeric options."""
    maximum: float | None = None
    """The largest accepted number, for numeric options (a limit of the backend itself)."""
    changes_answers: bool = False
    """Whether another value can change the model's answers, so it must enter the model
    description (and with it the cache key and signature). Execution settings (device, threads,
    batch size, timeouts) do not: a run may change them and resume from its store."""

    def matches(self, key: str) -> bool:
        if self.name.endswith(".*"):
            return key.startswith(self.name[:-1]) and len(key) > len(self.name) - 1
        return key == self.name

    def convert(self, key: str, value: Any, backend: str) -> Any:
        """``value`` converted to this option's type, or one error line naming the key."""
        try:
            converted = _CONVERTERS[self.type](value)
        except (ValueError, ModelSpecError) as exc:
            raise ModelSpecError(f"{backend}: -M {key}={value!r}: {exc}") from None
        if self.choices is not None and converted not in self.choices:
            raise ModelSpecError(
                f"{backend}: -M {key}={value!r}: must be one of "
                f"{', '.join(str(c) for c in self.choices)}"
            )
        if self.minimum is not None and converted < self.minimum:
            raise ModelSpecError(
                f"{backend}: -M {key}={value!r}: must be at least {self.minimum:g}"
            )
        if self.maximum is not None and converted > self.maximum:
            raise ModelSpecError(f"{backend}: -M {key}={value!r}: must be at most {self.maximum:g}")
        return converted

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "choices": list(self.choices) if self.choices else None,
            "help": self.help,
            "changes_answers": self.changes_answers,
        }


def check_model_args(
    backend: str, declared: Iterable[BackendOption], given: Mapping[str, Any]
) -> dict[str, Any]:
    """``given`` validated and converted against ``declared``: an unknown key is one line naming
    it and every key ``backend`` accepts."""
    declared = tuple(declared)
    converted: dict[str, Any] = {}
    for key, value in given.items():
        option = next((o for o in declared if o.matches(key)), None)
        if option is None:
            accepted = ", ".join(o.name for o in declared) or "none"
            raise ModelSpecError(f"{backend}: unknown model option -M {key} (accepted: {accepted})")
        converted[key] = option.convert(key, value, backend)
    return converted


@dataclass
class ModelOptions:
    """Backend options a CLI or caller may set; each backend reads the ones it knows.

    The named fields are the CLI's model flags (``--base-url``, ``--api``...); ``model_args``
    holds the backend's own ``-M key=value`` options, validated by the backend."""

    base_url: str | None = None
    api: str = "chat"
    api_key_env: str = "OPENAI_API_KEY"
    chat: bool = False
    hf_task: str = "auto"
    threads: int | None = None
    """CPU threads of a local llama.cpp model (default: the physical cores); ``-M n_threads``
    says the same and wins."""
    sampler_extras: bool = True
    """openai: send top_k, min_p and repetition_penalty (vLLM, llama.cpp's server...); False for
    a strict OpenAI endpoint that rejects unknown fields."""
    model_args: dict[str, Any] = field(default_factory=dict)
    """``-M key=value`` options: raw text from the CLI, or typed values from a library caller."""

    def __repr__(self) -> str:
        # The base URL may carry credentials (user:password@host): never show them.
        shown = {**self.__dict__}
        if shown.get("base_url"):
            shown["base_url"] = display_url(shown["base_url"])
        return f"ModelOptions({', '.join(f'{k}={v!r}' for k, v in shown.items())})"
