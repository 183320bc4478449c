"""The Kiwi morphological analyser, loaded once per process on first use (never at import).

Kiwi is built with two worker threads (one on a one-core machine) and without its multi-word
dictionary (``load_multi_dict=False``): that halves its
start-up (about 1.7 s instead of 3.5-4.5 s including the first call on this machine) and gave
the same analysis on every output of the labelled table. The analyser's and its model's
versions are read from the installed distributions, without importing Kiwi, so that the judge's
signature is known before anything is analysed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from biasbench.errors import BiasbenchError

MISSING = (
    "the Korean judge needs the Kiwi analyser: install the extra biasbench[ko] "
    "(pip install 'biasbench[ko]', which brings kiwipiepy and kiwipiepy-model)"
)

_WORKERS = min(2, os.cpu_count() or 1)
"""Kiwi's worker threads: its batch API analyses a list of texts on them (one text per call
runs on the caller's thread either way)."""
_LOCK = threading.Lock()
_KIWI: Any = None


@dataclass(frozen=True, slots=True)
class Morpheme:
    """One Kiwi morpheme: its form, its tag (``VV-R`` kept whole), and its character span in
    the analysed text."""

    form: str
    tag: str
    start: int
    end: int


def versions() -> tuple[str, str]:
    """(kiwipiepy, kiwipiepy-model) versions; one line naming the extra when either is absent."""
    try:
        return metadata.version("kiwipiepy"), metadata.version("kiwipiepy-model")
    except metadata.PackageNotFoundError:
        raise BiasbenchError(MISSING) from None


def kiwi() -> Any:
    """The process's Kiwi instance, built on first call."""
    global _KIWI
    if _KIWI is None:
        with _LOCK:
            if _KIWI is None:
                try:
                    from kiwipiepy import Kiwi
                except ImportError:
                    raise BiasbenchError(MISSING) from None
                versions()  # kiwipiepy-model installed?
                try:
                    _KIWI = Kiwi(num_workers=_WORKERS, load_multi_dict=False)
                except Exception as exc:  # the extension raises plain Exception (a broken model)
                    raise BiasbenchError(f"{MISSING}; Kiwi said: {exc}") from None
    return _KIWI


def _morphemes(tokens: Any) -> list[Morpheme]:
    return [
        Morpheme(token.form, token.tag, token.start, token.start + token.len) for token in tokens
    ]


def analyse(text: str) -> list[Morpheme]:
    """Kiwi's morphemes of one text (NFC, normalised)."""
    return _morphemes(kiwi().tokenize(text)) if text.strip() else []


def analyse_many(texts: Sequence[str]) -> list[list[Morpheme]]:
    """Kiwi's morphemes of many texts through its batch API (a list to ``tokenize``, analysed
    on the worker threads; each text's analysis does not depend on the others, so the result is
    the same as one call per text). On the 2-core machine it took 0.54-0.69 s for 2,016 outputs
    against 0.78-1.19 s one call at a time (``measurements/judge_agreement_ko.py``)."""
    analyser = kiwi()
    kept = [text for text in texts if text.strip()]
    if _WORKERS > 1 and len(kept) > 1:
        analysed = iter([_morphemes(tokens) for tokens in analyser.tokenize(kept)])
    else:
        analysed = iter([_morphemes(analyser.tokenize(text)) for text in kept])
    return [next(analysed) if text.strip() else [] for text in texts]
