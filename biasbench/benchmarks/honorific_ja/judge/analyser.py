"""The morphological analyser behind a small adapter, loaded on first use.

Two adapters give the judge the same :class:`Morpheme` records: SudachiPy with
``sudachidict-core`` (the default, chosen by measurement: see docs/benchmarks/honorific-ja.md and
``measurements/judge_agreement_ja.py``) and fugashi with ``unidic-lite``. Both dictionaries use
UniDic-style part-of-speech tags, so the rules read one tag set.

``lemma`` is the analyser's normalised form (Sudachi ``normalized_form``, UniDic ``lemma``):
kana and kanji spellings of a word share it (おっしゃる/仰る -> 仰る). ``base`` is the
dictionary form in the text's own spelling (Sudachi ``dictionary_form``, UniDic
``orthBase``): the humble おる must be read from it, because both lemmas are 居る, as for いる.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Protocol

from biasbench.errors import BiasbenchError

INSTALL_HINT = "pip install 'biasbench[ja]'"


@dataclass(frozen=True, slots=True)
class Morpheme:
    """One morpheme of the analysed text, with its character span in that text."""

    surface: str
    pos1: str
    """Top part of speech: 名詞, 動詞, 助動詞, 助詞, 接頭辞, 接尾辞, 代名詞, 補助記号 ..."""
    pos2: str
    lemma: str
    base: str
    ctype: str
    """Conjugation type (五段-ラ行, 下一段-ア行, カ行変格, 助動詞-レル ...) or ``*``."""
    cform: str
    """Conjugation form (未然形-一般, 連用形-一般, 終止形-一般 ...) or ``*``."""
    start: int
    end: int


class Analyser(Protocol):
    name: str

    @property
    def version(self) -> str: ...

    def analyse(self, text: str) -> list[Morpheme]: ...


_PIECE = 4000
"""Characters per analyser call: SudachiPy refuses inputs over 49,149 bytes (a kana or kanji
is 3 bytes in UTF-8), so a long output is cut, at a sentence end where one is near."""


def _pieces(text: str) -> list[tuple[int, str]]:
    """(offset, piece) cuts of ``text``, each at most ``_PIECE`` characters."""
    pieces, start = [], 0
    while len(text) - start > _PIECE:
        cut = max(text.rfind(mark, start, start + _PIECE) for mark in "。!?\n")
        cut = cut + 1 if cut > start else start + _PIECE
        pieces.append((start, text[start:cut]))
        start = cut
    pieces.append((start, text[start:]))
    return pieces


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "unknown"


class SudachiAnalyser:
    """SudachiPy + sudachidict-core, split mode C (the longest units: 看護師, 裁判官 whole)."""

    name = "sudachi"

    def __init__(self) -> None:
        try:
            from sudachipy import Dictionary, SplitMode  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError as error:
            raise BiasbenchError(
                "the Japanese judge needs SudachiPy and sudachidict-core: "
                f"install them with {INSTALL_HINT}"
            ) from error
        try:
            self._tokenizer = Dictionary(dict="core").tokenizer(mode=SplitMode.C)
            self._lock = threading.Lock()
        except Exception as error:  # the dictionary package is missing or broken
            raise BiasbenchError(
                f"the Japanese judge cannot load sudachidict-core ({error}): "
                f"install it with {INSTALL_HINT}"
            ) from error

    @property
    def version(self) -> str:
        return adapter_version(self.name)

    def analyse(self, text: str) -> list[Morpheme]:
        out = []
        with self._lock:  # a SudachiPy tokenizer must not be used by two threads at once
            tokens = [
                (offset, list(self._tokenizer.tokenize(piece))) for offset, piece in _pieces(text)
            ]
        for offset, morphemes in tokens:
            for m in morphemes:
                pos = m.part_of_speech()
                out.append(
                    Morpheme(
                        m.surface(),
                        pos[0],
                        pos[1],
                        m.normalized_form(),
                        m.dictionary_form(),
                        pos[4],
                        pos[5],
                        offset + m.begin(),
                        offset + m.end(),
                    )
                )
        return out


class FugashiAnalyser:
    """fugashi (MeCab) + unidic-lite."""

    name = "fugashi"

    def __init__(self) -> None:
        try:
            import fugashi  # type: ignore[import-untyped,import-not-found,unused-ignore]
            import unidic_lite  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
        except ImportError as error:
            raise BiasbenchError(
                "the fugashi adapter of the Japanese judge needs fugashi and unidic-lite: "
                "install them with pip install fugashi unidic-lite"
            ) from error
        self._tagger: Any = fugashi.Tagger()
        self._lock = threading.Lock()

    @property
    def version(self) -> str:
        return adapter_version(self.name)

    def analyse(self, text: str) -> list[Morpheme]:
        out = []
        position = 0
        with self._lock:  # one MeCab tagger, one caller at a time
            words = [(w.surface, w.feature) for w in self._tagger(text)]
        for surface, f in words:
            # MeCab drops white space: find each surface in the text to keep the offsets
            start = text.find(surface, position)
            if start < 0:
                start = position
            end = start + len(surface)
            position = end
            lemma = f.lemma or surface
            if "-" in lemma and not lemma.startswith("-"):  # loanword lemmas: エンジニア-engineer
                lemma = lemma.split("-", 1)[0]
            out.append(
                Morpheme(
                    surface,
                    f.pos1 or "",
                    f.pos2 or "",
                    lemma,
                    f.orthBase or surface,
                    f.cType or "*",
                    f.cForm or "*",
                    start,
                    end,
                )
            )
        return out


ADAPTERS: dict[str, Callable[[], Analyser]] = {
    "sudachi": SudachiAnalyser,
    "fugashi": FugashiAnalyser,
}
DEFAULT_ANALYSER = "sudachi"

_DISTRIBUTIONS = {
    "sudachi": ("sudachipy", "sudachidict-core"),
    "fugashi": ("fugashi", "unidic-lite"),
}


def adapter_version(name: str) -> str:
    """The analyser's and its dictionary's versions, read from the installed packages'
    metadata without importing them (``sudachipy-0.7.0+sudachidict-core-20261015``;
    ``unknown`` for a package that is not installed)."""
    if name not in _DISTRIBUTIONS:
        raise BiasbenchError(f"unknown Japanese analyser {name!r} (known: {', '.join(ADAPTERS)})")
    return "+".join(f"{package}-{_version(package)}" for package in _DISTRIBUTIONS[name])


_LOADED: dict[str, Analyser] = {}
_LOCK = threading.Lock()


def load_analyser(name: str = DEFAULT_ANALYSER) -> Analyser:
    """The named analyser, created once per process (a missing one: one line naming the
    extra to install, as :class:`~biasbench.errors.BiasbenchError`)."""
    if name not in ADAPTERS:
        raise BiasbenchError(f"unknown Japanese analyser {name!r} (known: {', '.join(ADAPTERS)})")
    with _LOCK:
        if name not in _LOADED:
            _LOADED[name] = ADAPTERS[name]()
        return _LOADED[name]
