"""Skips a test module when the Kiwi analyser is absent, with the line that says how to get it."""

from __future__ import annotations

import importlib.util

import pytest

KIWI_MISSING = (
    importlib.util.find_spec("kiwipiepy") is None
    or importlib.util.find_spec("kiwipiepy_model") is None
)
needs_kiwi = pytest.mark.skipif(
    KIWI_MISSING,
    reason="the Korean judge needs Kiwi: pip install 'biasbench[ko]' (kiwipiepy, kiwipiepy-model)",
)
