"""The commands benchmarks own (:attr:`Declaration.commands`): ``biasbench NAME`` or
``biasbench GROUP NAME``, from the registry's declarations; a command shared through an engine
(``plot jitter`` of every BBQ-format benchmark) is added once. The CLI names no benchmark."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from typer._click.core import Command  # typer vendors its own click
from typer.core import TyperGroup

from biasbench.cli.common import PLAIN, click_command


@cache
def owned_commands() -> dict[str, Command]:
    """Top-level name -> the command or group, in registry order."""
    from biasbench.registry import declarations

    found: dict[str, Command] = {}
    added: dict[tuple[str | None, str], Callable[..., None]] = {}
    for declaration in declarations():
        for command in declaration.commands:
            where = (command.group, command.name)
            if where in added:
                if added[where] is not command.function:  # two benchmarks, one command name
                    raise TypeError(
                        f"{declaration.name} adds a second command "
                        f"{' '.join(filter(None, where))!r}"
                    )
                continue
            added[where] = command.function
            if command.group is None:
                found[command.name] = click_command(command.function, command.name)
                continue
            group = found.get(command.group)
            if not isinstance(group, TyperGroup):
                group = found[command.group] = TyperGroup(
                    name=command.group,
                    help=command.group_help,
                    no_args_is_help=True,
                    rich_markup_mode=PLAIN,
                )
            group.add_command(click_command(command.function, command.name), command.name)
    return found
