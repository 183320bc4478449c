"""The ``biasbench`` command: thin argument parsing over library calls.

One module per command (``run``, ``score``, ``data``, ``list``, ``report``, ``export``,
``runs``, ``lint``; ``owned`` adds the commands benchmarks own), each loaded when its command is asked
for; benchmarks are read through their light declarations, so ``--help``, ``list`` and ``run
NAME --help`` load no benchmark, pandas or scipy (tests/test_cli_imports.py).

Every user error (bad file, bad model spec, unreachable endpoint) ends as one line on stderr and a
non-zero exit code, never a traceback.
"""

from __future__ import annotations

import logging
import sys
from importlib import import_module
from typing import Annotated

import typer
from typer._click.core import Command, Context  # typer vendors its own click
from typer.core import TyperGroup

from biasbench.cli.common import EXIT_INCOMPLETE, EXIT_USAGE, PLAIN
from biasbench.errors import BiasbenchError

__all__ = ["EXIT_INCOMPLETE", "EXIT_USAGE", "app", "main"]

COMMANDS: dict[str, str] = {
    "data": "biasbench.cli.data:data",
    "score": "biasbench.cli.score:score",
    "run": "biasbench.cli.run:run",
    "list": "biasbench.cli.list:list_command",
    "report": "biasbench.cli.report:report",
    "export": "biasbench.cli.export:export",
    "runs": "biasbench.cli.runs:runs",
    "lint": "biasbench.cli.lint:lint",
}
"""The commands biasbench itself has: name -> "module:attribute" (a click group or a typer
command function), imported when the command is asked for."""


class _Commands(TyperGroup):
    """biasbench's commands, each module imported when its command is used (or listed)."""

    def list_commands(self, ctx: Context) -> list[str]:
        from biasbench.cli.owned import owned_commands

        return [*COMMANDS, *owned_commands()]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name in COMMANDS:
            module, _, attr = COMMANDS[cmd_name].partition(":")
            found = getattr(import_module(module), attr)
            if isinstance(found, Command):
                return found
            from biasbench.cli.common import click_command

            return click_command(found, cmd_name)
        from biasbench.cli.owned import owned_commands

        return owned_commands().get(cmd_name)


# Help texts are plain text (rich markup would eat "[seed]"-like words and print "model, ,"),
# wrapped at the terminal's width (click's own cap is 80 columns).
app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=PLAIN,
    context_settings={"max_content_width": 10_000},
    help="Measure social bias of language models beyond English.",
)


def _version(value: bool) -> None:
    if value:
        from biasbench.version import __version__

        typer.echo(f"biasbench {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="Log every detail (e.g. each "
            "template generator warning, which are otherwise counted in one "
            "line).",
        ),
    ] = False,
) -> None:
    """Measure social bias of language models beyond English."""
    if verbose:
        logging.getLogger().setLevel(logging.INFO)


def main() -> None:
    """Entry point: run the app, turning user errors into one line and exit code 2.

    Exit codes: 0 done, 2 bad input or a refused run folder (one line), 3 some requests
    failed (recorded; rerun to retry), 130 Ctrl-C, 143 SIGTERM (both after the finished
    answers are saved and the manifest says why the run stopped).
    """
    import sqlite3

    from biasbench import signals

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")
    signals.install()
    try:
        from biasbench.responses import check_environment

        check_environment()
        app()
    except SystemExit as exc:
        # typer turns a KeyboardInterrupt inside a command into a silent exit 130.
        if exc.code == 130:
            _interrupted()
        raise
    except KeyboardInterrupt:
        _interrupted()
    except (BiasbenchError, OSError) as exc:
        _one_line(str(exc))
    except UnicodeDecodeError as exc:
        _one_line(f"input is not UTF-8 text ({exc.reason} at byte {exc.start})")
    except RecursionError:
        _one_line("input nested too deeply to read (JSON deeper than Python's recursion limit)")
    except sqlite3.DatabaseError as exc:
        _one_line(f"response store unreadable ({exc})")


def _one_line(message: str) -> None:
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    sys.exit(EXIT_USAGE)


def _interrupted() -> None:
    """Say what happened, then leave at once: exiting through the interpreter's shutdown can
    make uvloop print "Event loop is closed" for transports collected after their loop."""
    import os

    from biasbench import signals as sig

    what = "terminated (SIGTERM)" if sig.received_sigterm() else "interrupted (Ctrl-C)"
    typer.echo(
        f"{what}: finished responses are saved in the store and the manifest records "
        "the interruption; rerun the same command to resume",
        err=True,
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(sig.exit_code())
