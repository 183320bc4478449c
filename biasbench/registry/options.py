"""A benchmark's options: each declared once (:class:`OptionSpec`, in its light declaration)
and checked once (:class:`Options`, for the CLI and the API alike, by :func:`checked_value`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class OptionSpec:
    """One option of a benchmark, declared once; ``biasbench run`` offers it as ``--NAME``.

    ``name`` is the keyword argument of the benchmark's constructor (``data_seed`` becomes
    ``--data-seed``); ``kind`` is ``str``, ``int``, ``bool`` (a ``--x/--no-x`` flag) or
    :class:`~pathlib.Path`. An option left at its default is not passed, so a benchmark that
    does not declare it never receives it.
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    run_only: str | None = None
    """Why the option means something only to ``biasbench run`` (what it asks the model):
    ``biasbench score`` refuses it in one line saying so. None: both take it."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


class Options:
    """The values of a benchmark's declared options, checked once, for the CLI and the API
    alike: every declared option has its value (the given one, else its declared default); an
    undeclared name, a value of the wrong type and a choice not offered are each refused in one
    line (:class:`~biasbench.errors.BiasbenchError`). Read by attribute (``options.data_seed``,
    ``options.items``) or by name (``options["set"]``); :meth:`given` holds those set away from
    their default. Not a mapping on purpose: ``items`` is an option's name, not a method.
    """

    def __init__(
        self, specs: Sequence[OptionSpec], given: Mapping[str, Any], *, benchmark: str
    ) -> None:
        from biasbench.errors import BiasbenchError

        declared = {spec.name: spec for spec in specs}
        unknown = sorted(set(given) - set(declared))
        if unknown:
            taken = ", ".join(sorted(declared)) or "none"
            raise BiasbenchError(f"{benchmark} has no option {unknown[0]!r} (its options: {taken})")
        values = {name: spec.default for name, spec in declared.items()}
        for name, value in given.items():
            values[name] = checked_value(declared[name], value, benchmark)
        self.__dict__["_specs"] = declared
        self.__dict__["_values"] = values

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"no option {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("options are read-only")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items(), key=lambda kv: kv[0])))

    def as_dict(self) -> dict[str, Any]:
        """Every option's value, by name."""
        return dict(self._values)

    def given(self) -> dict[str, Any]:
        """The options set away from their declared default (what the CLI passes on)."""
        return {
            name: value
            for name, value in self._values.items()
            if value != self._specs[name].default
        }

    def __repr__(self) -> str:
        return f"Options({self._values!r})"


def checked_value(spec: OptionSpec, value: Any, benchmark: str) -> Any:
    """``value`` of ``spec`` as its declared type, or one line saying why not: the one check of
    an option's type and choices (:class:`Options`, and the CLI's parser of each value)."""
    from os import PathLike

    from biasbench.errors import BiasbenchError

    if value is None and spec.default is None:
        return None
    if spec.kind is Path and isinstance(value, str | PathLike):
        value = Path(value)
    wrong = not isinstance(value, spec.kind) or (spec.kind is int and isinstance(value, bool))
    if wrong:
        raise BiasbenchError(
            f"{spec.flag} of {benchmark} takes {spec.kind.__name__} values, not {value!r}"
        )
    if spec.choices and value not in spec.choices:
        raise BiasbenchError(f"{spec.flag} must be one of {', '.join(spec.choices)}, not {value!r}")
    return value
