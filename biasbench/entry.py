"""The ``biasbench`` command's entry point: answers ``--version`` before loading the CLI.

The CLI module loads typer and every benchmark's declarations; ``biasbench --version`` needs
none of that, so it is answered here from the package's own version string.
"""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from biasbench.version import __version__

        sys.stdout.write(f"biasbench {__version__}\n")
        return
    from biasbench.cli import main as cli_main

    cli_main()
