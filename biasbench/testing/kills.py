"""Kill points: a real process killed at its N-th rename, then the same command run again.

:func:`kill_point_series` runs a CLI command in a forked child whose ``os.rename`` and
``os.replace`` end the process at once (``os._exit``: no ``finally``, no cleanup, as SIGKILL)
just before their N-th call, for N = 1, 2, ... until the command finishes without reaching it.
After each kill it checks what a user relies on:

- ``biasbench runs`` never lists the folder as finished (``scored``/``complete``) unless its
  manifest vouches for every derived file (readers accept it);
- the same command, run again, exits 0, and leaves no leftovers (staging folders, retired
  folders, ``.*.tmp`` files);
- the folder then reads back (``load_run``) with the results of an uninterrupted run.

It returns one :class:`KillOutcome` per kill point, which ``tests/test_kill_points.py`` asserts
on and ``measurements/score_kill_points.py`` prints as a table.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

KILLED = 137


def run_cli_in_child(
    args: Sequence[str], *, kill_at: int | None = None, stderr_path: Path | None = None
) -> int:
    """Run ``biasbench ARGS`` in a forked child and return its exit status (137 when it was
    killed at its ``kill_at``-th rename)."""
    # Loaded once here, not again in every child: the CLI loads a command's modules (and the
    # benchmark it runs) only when asked, so the parent loads them for its children.
    from importlib import import_module

    from biasbench.registry import benchmark_class, known

    for module in (
        "biasbench.cli",
        "biasbench.cli.run",
        "biasbench.cli.score",
        "biasbench.pipeline",
    ):
        import_module(module)
    if len(args) > 1 and args[0] in ("run", "score") and known(args[1]):
        benchmark_class(args[1])

    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            if stderr_path is not None:
                fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            if kill_at is not None:
                _arm(kill_at)
            from biasbench.cli import main

            sys.argv = ["biasbench", *args]
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - the child reports by its status only
            code = 1
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _arm(kill_at: int) -> None:
    calls = 0
    real = {"rename": os.rename, "replace": os.replace}

    def wrap(name: str) -> Callable[..., None]:
        def stop(*args: object, **kwargs: object) -> None:
            nonlocal calls
            calls += 1
            if calls >= kill_at:
                os._exit(KILLED)
            real[name](*args, **kwargs)  # type: ignore[operator]

        return stop

    os.rename = wrap("rename")  # type: ignore[assignment]
    os.replace = wrap("replace")  # type: ignore[assignment]


def leftovers(folder: Path) -> list[str]:
    """Names a killed writer leaves behind (the lock file aside), anywhere under ``folder``:
    staging and retired folders and atomic-write temporaries. Judged by name here, not by
    :func:`biasbench.runfolder.is_leftover`, so the series runs against older checkouts too."""
    return sorted(
        str(p.relative_to(folder))
        for p in Path(folder).rglob(".*")
        if p.name.startswith((".staging-", ".retired-")) or p.name.endswith(".tmp")
    )


@dataclass
class KillOutcome:
    scenario: str
    kill_point: int
    killed: bool
    listed: str
    """What ``biasbench runs`` said of the folder right after the kill."""
    listed_finished_unverified: bool
    """Listed as scored/complete while readers refuse its files or no manifest vouches for
    them (must never be true)."""
    rerun_exit: int
    leftovers_after_rerun: list[str]
    same_results: bool


def _listed(folder: Path) -> tuple[str, bool]:
    from biasbench.runfolder.catalog import describe_folder
    from biasbench.runfolder.reading import load_run

    if not folder.exists():
        return "absent", False
    status = describe_folder(folder).status
    if status not in ("scored", "complete", "incomplete"):
        return status, False
    try:
        load_run(folder)
    except Exception:  # noqa: BLE001 - any refusal means the listing lied
        return status, True
    # Finished means a manifest vouches for every derived file: results.json alone is not.
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return status, True
    derived = manifest.get("derived") if isinstance(manifest, dict) else None
    return status, not (isinstance(derived, dict) and isinstance(derived.get("files"), dict))


def kill_point_series(
    scenario: str,
    args: Sequence[str],
    out: Path,
    prepare: Callable[[], None],
    reference: dict[str, object],
    max_points: int = 64,
    work: Path | None = None,
) -> list[KillOutcome]:
    """Kill ``biasbench ARGS`` (which writes ``out``) at its 1st, 2nd, ... rename; ``prepare``
    resets ``out`` before each (e.g. removes it, or copies a scored folder); ``reference`` is
    the ``models`` of an uninterrupted run's results."""
    from biasbench.runfolder.reading import load_run

    outcomes = []
    stderr = (work or out.parent) / f".kill-stderr-{os.getpid()}"
    for point in range(1, max_points + 1):
        prepare()
        code = run_cli_in_child(args, kill_at=point, stderr_path=stderr)
        if code != KILLED:
            break
        listed, lied = _listed(out)
        rerun = run_cli_in_child(args, stderr_path=stderr)
        try:
            same = load_run(out).results.get("models") == reference
        except Exception:  # noqa: BLE001
            same = False
        outcomes.append(
            KillOutcome(
                scenario,
                point,
                True,
                listed,
                lied,
                rerun,
                leftovers(out) if out.exists() else [],
                same,
            )
        )
    stderr.unlink(missing_ok=True)
    return outcomes
