"""What every command module of the CLI shares: exit codes, one-line failures, typer options
built from a benchmark's :class:`~biasbench.registry.interface.OptionSpec` declarations, and the
lazy group of one subcommand per registered benchmark (``run NAME``, ``score NAME``, ``data
NAME``), which loads only NAME's declaration.

Light on purpose: ``biasbench --help`` imports this module and no benchmark.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
import typer.main
from typer._click.core import Command, Context  # typer vendors its own click
from typer._click.exceptions import NoSuchOption
from typer.core import TyperCommand, TyperGroup

if TYPE_CHECKING:
    from biasbench.registry.interface import Declaration, OptionSpec

EXIT_USAGE = 2
EXIT_INCOMPLETE = 3

# Help texts are plain text (rich markup would eat "[seed]"-like words and print "model, ,").
PLAIN: Any = None


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Say ``message`` on stderr as one line and leave with ``code``."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def echo_lines(lines: Iterable[str]) -> None:
    for line in lines:
        typer.echo(line)


def first_line(doc: str | None) -> str:
    """A docstring's first sentence, however it was wrapped."""
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def flags(spec: OptionSpec) -> tuple[str, ...]:
    return (f"{spec.flag}/--no-{spec.flag[2:]}",) if spec.kind is bool else (spec.flag,)


def _value_parser(spec: OptionSpec, benchmark: str) -> Callable[[str], object] | None:
    """A parser turning a bad value of ``spec`` into one error line naming the benchmark (click's
    own would print its usage block), checked by the registry's one check of a value
    (``checked_value``); None where typer's own reading says it in one line."""
    from biasbench.errors import BiasbenchError
    from biasbench.registry.interface import checked_value

    if spec.kind is not int and not spec.choices:
        return None

    def read(text: str) -> object:
        try:
            value: object = int(text) if spec.kind is int else text
        except ValueError:
            fail(f"{spec.flag} of {benchmark} takes int values, not {text!r}")
        try:
            return checked_value(spec, value, benchmark)
        except BiasbenchError as exc:
            fail(str(exc))

    return read


def option_parameters(specs: Iterable[OptionSpec], benchmark: str) -> list[inspect.Parameter]:
    """One keyword parameter, annotated as a typer option, per declared option of
    ``benchmark``."""
    parameters = []
    for spec in specs:
        kind: Any = spec.kind if spec.default is not None else spec.kind | None
        parser = _value_parser(spec, benchmark)
        option = (
            typer.Option(*flags(spec), help=spec.help, parser=parser)
            if parser
            else typer.Option(*flags(spec), help=spec.help)
        )
        parameters.append(
            inspect.Parameter(
                spec.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=spec.default,
                annotation=Annotated[kind, option],
            )
        )
    return parameters


def given_options(declaration: Declaration, values: dict[str, object]) -> dict[str, object]:
    """The options of ``declaration`` set away from their default: only those reach the
    benchmark's constructor."""
    return {
        spec.name: values[spec.name]
        for spec in declaration.options
        if values[spec.name] != spec.default
    }


def with_parameters(
    command: Callable[..., None], parameters: Sequence[inspect.Parameter], doc: str
) -> Callable[..., None]:
    """``command`` (which takes ``**options``) as typer sees a function with ``parameters``."""
    command.__signature__ = inspect.Signature(list(parameters))  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = doc
    return command


def click_command(
    function: Callable[..., None],
    name: str,
    *,
    cls: type[TyperCommand] = TyperCommand,
    short_help: str | None = None,
) -> Command:
    """The click command typer builds from ``function`` (its parameters annotated with
    ``typer.Option``/``Argument``), with plain-text help."""
    single = typer.Typer(rich_markup_mode=PLAIN, add_completion=False)
    single.command(name, cls=cls, short_help=short_help)(function)
    return typer.main.get_command(single)


class BenchmarkCommand(TyperCommand):
    """A command of one benchmark (``run NAME``, ``score NAME``): an option that another
    benchmark declares is refused in one line naming this one (``--data-seed is not an option of
    NAME``) rather than click's usage block."""

    benchmark = ""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as exc:
            if exc.option_name in _declared_flags():
                fail(f"{exc.option_name} is not an option of {self.benchmark}")
            raise


def _declared_flags() -> set[str]:
    """Every flag any registered benchmark declares (``--x`` and, for a switch, ``--no-x``)."""
    from biasbench.registry import declarations

    found: set[str] = set()
    for declaration in declarations():
        for spec in (*declaration.options, *declaration.data_options):
            found.add(spec.flag)
            if spec.kind is bool:
                found.add(f"--no-{spec.flag[2:]}")
    return found


class BenchmarkGroup(TyperGroup):
    """One subcommand per registered benchmark, built when asked for from that benchmark's
    declaration only (``build``); ``include`` says which benchmarks have one. Options given
    before the benchmark's name are passed to it (``run --model M NAME``), as they were when
    ``run`` took NAME as its argument."""

    def __init__(
        self,
        *,
        build: Callable[[Declaration], Command],
        include: Callable[[Declaration], bool] = lambda _: True,
        value_flags: Callable[[], set[str]] = set,
        **attrs: Any,
    ) -> None:
        super().__init__(rich_markup_mode=PLAIN, no_args_is_help=True, **attrs)
        self.build = build
        self.include = include
        self.value_flags = value_flags

    def list_commands(self, ctx: Context) -> list[str]:
        from biasbench.registry import declarations

        return [found.name for found in declarations() if self.include(found)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        from biasbench.errors import BiasbenchError
        from biasbench.registry import declaration

        try:
            found = declaration(cmd_name)
        except BiasbenchError:  # not a benchmark's name
            return None
        return self.build(found) if self.include(found) else None

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        from biasbench.registry import known, names

        name = args[0]
        command = self.get_command(ctx, name)
        if command is None and not name.startswith("-"):
            if not known(name):
                fail(f"unknown benchmark {name!r} (known: {', '.join(names())})")
            fail(
                f"{name} has no `{ctx.info_name}` command (benchmarks that do: "
                f"{', '.join(self.list_commands(ctx))})"
            )
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._name_first(args))

    def _name_first(self, args: list[str]) -> list[str]:
        """``args`` with the benchmark's name first: the first word that is not an option or
        an option's value (preferring a registered name)."""
        from biasbench.registry import known

        takes_value = self.value_flags()
        words: list[int] = []
        skip = False
        for index, arg in enumerate(args):
            if skip:
                skip = False
            elif arg == "--":
                break
            elif arg.startswith("-"):
                skip = arg in takes_value
            else:
                words.append(index)
        if not words or words[0] == 0:
            return args
        chosen = next((i for i in words if known(args[i])), words[0])
        return [args[chosen], *args[:chosen], *args[chosen + 1 :]]
