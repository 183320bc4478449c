"""Registering a benchmark for one test only: a declaration that lives outside
``biasbench/benchmarks/`` (a toy language in tests/) added to the registry's discovered ones,
undone with the monkeypatch."""

from __future__ import annotations

import dataclasses
import functools
from importlib import import_module

import pytest

from biasbench.registry import discovery


def register(patch: pytest.MonkeyPatch, name: str, benchmark: str, declaration: str) -> None:
    """Register benchmark ``name``: its class ``benchmark`` and its Declaration ``declaration``,
    both ``"module:attribute"``."""
    module, _, attr = declaration.partition(":")
    declared = dataclasses.replace(getattr(import_module(module), attr), benchmark=benchmark)
    assert declared.name == name
    found = dict(discovery._registry())
    found[name] = (declared, module)
    patch.setattr(discovery, "_registry", functools.cache(lambda: found))
