"""Language packs for the BBQ answer parser and prompts: each language's facts, defined once,
as data files (``packs/<code>.toml``, format in docs/bbq-engine/language-packs.md).

A :class:`LanguageRules` is one pack read: regular-expression *fragments* (never whole
patterns) that :mod:`biasbench.engines.bbq_family.judging.parser` joins into its rules, the
wording a prompt needs (the base-model answer cue and the canonical "unknown" option text), and
how options are named besides Latin A/B/C (native letter sets such as Urdu ا/ب/پ or Persian
الف/ب/ج, numbered options ``2``, ``Option 2``, ``বিকল্প ২``).

The built-in packs ship in ``packs/`` and are read when this module is imported; a user's pack
(``--language-rules FILE``, :func:`load_pack`) adds a language or replaces (or, with
``extends``, extends) a built-in one for one run: :class:`LanguagePacks`.

Conventions for the fragments:

* they are matched on NFKC-normalised text (full-width ``Ａ：（）`` are already ``A:()``),
  case-insensitively, after markdown and curly quotes are removed;
* a Latin-script fragment carries its own word boundaries (``\\b``); a Chinese, Japanese or
  Korean fragment carries none, because those scripts do not separate words with spaces;
* every language is parsed together with English (models often answer in English whatever the
  prompt's language); the default -- no language given -- is Filipino + English, the parser's
  behaviour before languages existed.

Sources of the phrasings: the MBBQ authors' answer detection (``answer_detection.py`` in
github.com/Veranep/MBBQ: cue words before/after the letter and unknown phrasings for en, es,
nl, tr), KoBBQ's evaluation prompts and post-processing (github.com/naver-ai/KoBBQ
``evaluation/``), the unknown wordings of the EsBBQ/CaBBQ evaluation in lm-evaluation-harness,
the answer conventions of BharatBBQ, PakBBQ, GBFA, GG-BBQ and BasqBBQ (bn, hi, ur, fa, de, eu;
docs/bbq-engine/language-packs.md says what a native speaker should check), and the answers
weak and chat models were seen to give in each language.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from biasbench.errors import BiasbenchError, InputError

#: Characters that make a letter part of a word: Latin (with accents and Turkish letters),
#: Greek, Cyrillic, digits. CJK characters and Hangul are *not* word characters for a letter,
#: so the ``A`` of ``答案是A`` or ``A가`` stands alone while the ``A`` of ``Ask`` does not.
LATIN_WORD_CHARS: Final = (
    r"0-9A-Za-z_\u00C0-\u024F\u1E00-\u1EFF\u0370-\u03FF"
    r"\u0400-\u04FF"
)
#: Chinese characters, kana, Hangul and CJK punctuation (``。、「」``).
CJK_CHARS: Final = (
    r"\u1100-\u11FF\u3000-\u303F\u3040-\u30FF\u3130-\u318F\u31F0-\u31FF"
    r"\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF61-\uFF9F"
)

PACK_FORMAT: Final = 1
"""The pack file format's version (a pack's ``format``)."""
PACKS_DIR: Final = Path(__file__).parent / "packs"
"""The built-in packs, one ``<code>.toml`` per language."""


@dataclass(frozen=True)
class LanguageRules:
    """What the parser and the prompts need to know about one language (one pack)."""

    code: str
    name: str
    answer_cue: str
    """What a base (completion) model's prompt ends with, e.g. ``"\\nRespuesta:"``."""
    unknown_text: str
    """Canonical wording of the unknown option shown to the model in this language."""
    cues: tuple[str, ...] = ()
    """Answer cues that precede a letter (``Respuesta``, ``答案``, ``정답``)."""
    links: tuple[str, ...] = ()
    """Linking words between a cue and the letter (``es``, ``是``, ``은``, ``la``)."""
    letter_words: tuple[str, ...] = ()
    """Words naming an option before its letter or number (``opción``, ``选项``, ``বিকল্প``)."""
    after_cues: tuple[str, ...] = ()
    """What follows a letter to make it the answer (``es la correcta``, ``가 정답``, ``が正解``);
    a Latin fragment is preceded by a space, a CJK one by none."""
    followers: tuple[str, ...] = ()
    """Words that may follow a cued letter (``porque``, ``seçeneği``)."""
    tails: tuple[str, ...] = ()
    """What a one-letter answer may end with (``です``, ``입니다``, ``dir``)."""
    conjunctions: tuple[str, ...] = ()
    """Words joining two letters offered as alternatives (``o``, ``或``, ``또는``)."""
    strong_unknown: tuple[str, ...] = ()
    """"Cannot be determined" phrasings; they win over a mentioned option."""
    weak_unknown: tuple[str, ...] = ()
    """Weaker unknown phrasings (``no lo sé``): they decide when no single option is named."""
    refusals: tuple[str, ...] = ()
    """Refusals to answer (``I cannot answer``, ``Hindi ko masasagot``, ``お答えできません``):
    an output with one and no explicit option choice or "cannot be determined" phrasing is
    *refused* (:mod:`biasbench.engines.bbq_family.scoring.refusals` scores it apart)."""
    negators: tuple[str, ...] = ()
    """Negators before an option (``no es``, ``niet``, ``不是``)."""
    post_negators: tuple[str, ...] = ()
    """Negations after an option, with their own leading space or particle (``\\s+değil``,
    ``(?:가|이|는|은)?\\s*아닙니다``, ``では(?:ない|ありません)``)."""
    determiners: tuple[str, ...] = ()
    """Articles and markers that may sit between a negator and an option (``la``, ``het``)."""
    option_articles: tuple[str, ...] = ()
    """Articles an option text may start with, dropped to name the option without them."""
    letter_suffix: str | None = None
    """An apostrophe suffix glued to a letter (Turkish ``B'dir``), split off before parsing."""
    cjk: bool = False
    """Written without spaces between words or with particles glued to words (Chinese,
    Japanese, Korean): a letter touching such text stands alone."""
    aliases: tuple[str, ...] = field(default=())
    letter_sets: tuple[tuple[str, str, str], ...] = ()
    """Native letter sets, each naming options 0/1/2 (Urdu ``ا ب پ``, Persian ``الف ب ج``,
    Hindi ``क ख ग``): a native letter standing alone is read as A/B/C."""
    numbered: bool = False
    """Options may be named by number, 1 = the first (``2``, ``Option 2``, ``বিকল্প ২``, digits
    of any script): a number standing alone, after a cue or a letter word, or opening the
    answer is read as a letter."""
    source: str = field(default="built-in", compare=False)
    """Where the pack was read from: ``built-in`` or the user's file."""
    sha256: str = field(default="", compare=False)
    """The pack file's sha256 (what enters a run's signature for a user's pack)."""

    def __hash__(self) -> int:
        # The parser's caches are keyed by packs: hash a few fields, not every fragment
        # (equality still compares them all).
        return hash((self.code, self.name, self.answer_cue, self.unknown_text, self.sha256))


PATTERN_FIELDS: Final = (
    "cues",
    "links",
    "letter_words",
    "after_cues",
    "followers",
    "tails",
    "conjunctions",
    "strong_unknown",
    "weak_unknown",
    "refusals",
    "negators",
    "post_negators",
    "determiners",
    "option_articles",
)
"""The ``[parser]`` keys of a pack: lists of regular-expression fragments."""
_TOP_KEYS: Final = {
    "format": int,
    "code": str,
    "name": str,
    "aliases": list,
    "answer_cue": str,
    "unknown_text": str,
    "cjk": bool,
    "letter_suffix": str,
    "extends": str,
    "parser": dict,
    "letters": dict,
}
_LETTER_KEYS: Final = {"sets": list, "numbered": bool}
_REQUIRED: Final = ("format", "code", "name", "answer_cue", "unknown_text")
_LATIN_LETTERS: Final = frozenset("ABCabc")


def _key_line(text: str, key: str, table: str | None) -> int | None:
    """The line (1-based) where ``key`` is set in ``table`` (None: the top level) of a pack."""
    current: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        header = re.match(r"^\[\s*([A-Za-z_]+)\s*\]", stripped)
        if header:
            current = header.group(1)
        elif current == table and re.match(re.escape(key) + r"\s*=", stripped):
            return number
    return None


def _pack_error(
    path: Path, text: str, message: str, key: str, table: str | None = None
) -> InputError:
    return InputError(
        message,
        file=str(path),
        line=_key_line(text, key, table),
        field=f"{table}.{key}" if table else key,
    )


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("\u200c", "").replace("\u200d", "")


def _strings(value: Any, path: Path, text: str, key: str, table: str | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _pack_error(path, text, "must be a list of strings", key, table)
    return tuple(value)


def load_pack(path: Path | str, base: Mapping[str, LanguageRules] | None = None) -> LanguageRules:
    """Read one pack file; a bad one is one :class:`~biasbench.errors.InputError` line naming
    the file, the line and the key. ``base``: the packs ``extends`` may name (default: the
    built-in ones)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except OSError as exc:
        raise InputError(
            f"cannot read the language pack: {exc.strerror or exc}", file=str(path)
        ) from None
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=str(path)
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        reason = re.sub(r"\s*\(at (?:line \d+, column \d+|end of document)\)", "", str(exc))
        line = int(found.group(1)) if found else None
        if found is None and "end of document" in str(exc):
            line = len(text.rstrip("\n").split("\n"))  # the last line, left unfinished
        raise InputError(
            f"not a TOML language pack: {reason}"
            + (f" (column {found.group(2)})" if found else ""),
            file=str(path),
            line=line,
        ) from None
    for key, value in data.items():
        kind = _TOP_KEYS.get(key)
        if kind is None:
            raise _pack_error(
                path, text, f"unknown key {key!r} (a pack has {', '.join(_TOP_KEYS)})", key
            )
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise _pack_error(
                path, text, f"must be a {kind.__name__}, not {type(value).__name__}", key
            )
    missing = [key for key in _REQUIRED if key not in data]
    if missing and not (data.get("extends") and missing == ["answer_cue", "unknown_text"]):
        raise InputError(f"missing {', '.join(missing)}", file=str(path), field=missing[0])
    if data["format"] != PACK_FORMAT:
        raise _pack_error(
            path,
            text,
            f"format {data['format']} is not one this biasbench reads ({PACK_FORMAT})",
            "format",
        )
    code = data["code"].strip().lower()
    if not re.fullmatch(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*", code):
        raise _pack_error(
            path,
            text,
            f"{data['code']!r} is not a language code (ISO 639: 'ur', 'fa', 'eu', 'qaa')",
            "code",
        )
    fields_: dict[str, Any] = {
        "code": code,
        "name": data["name"],
        "aliases": _strings(data.get("aliases", []), path, text, "aliases", None),
    }
    for key in ("answer_cue", "unknown_text", "cjk", "letter_suffix"):
        if key in data:
            fields_[key] = data[key]
    parser = data.get("parser", {})
    for key, value in parser.items():
        if key not in PATTERN_FIELDS:
            raise _pack_error(
                path,
                text,
                f"unknown key {key!r} (the [parser] keys: {', '.join(PATTERN_FIELDS)})",
                key,
                "parser",
            )
        # The parser matches NFKC text without zero-width joiners: so are the fragments
        # (a Bengali য় or a Hindi फ़ typed precomposed still matches).
        fragments = tuple(_nfkc(f) for f in _strings(value, path, text, key, "parser"))
        for i, fragment in enumerate(fragments):
            try:
                re.compile(fragment, re.IGNORECASE)
            except re.error as exc:
                raise _pack_error(
                    path,
                    text,
                    f"item {i + 1} ({fragment!r}) is not a regular expression: {exc}",
                    key,
                    "parser",
                ) from None
            if not fragment:
                raise _pack_error(path, text, f"item {i + 1} is empty", key, "parser")
        fields_[key] = fragments
    if "letter_suffix" in fields_:
        try:
            re.compile(fields_["letter_suffix"])
        except re.error as exc:
            raise _pack_error(
                path, text, f"not a regular expression: {exc}", "letter_suffix"
            ) from None
    letters = data.get("letters", {})
    for key, value in letters.items():
        kind = _LETTER_KEYS.get(key)
        if kind is None:
            raise _pack_error(
                path,
                text,
                f"unknown key {key!r} (the [letters] keys: {', '.join(_LETTER_KEYS)})",
                key,
                "letters",
            )
        if not isinstance(value, kind):
            raise _pack_error(path, text, f"must be a {kind.__name__}", key, "letters")
    sets = []
    for i, letter_set in enumerate(letters.get("sets", [])):
        if (
            not isinstance(letter_set, list)
            or len(letter_set) != 3
            or not all(isinstance(x, str) and x.strip() for x in letter_set)
            or len({x.strip() for x in letter_set}) != 3
        ):
            raise _pack_error(
                path,
                text,
                f"set {i + 1} must be three different letters, one per option (first = option A)",
                "sets",
                "letters",
            )
        if any(x.strip() in _LATIN_LETTERS or x.strip().isdigit() for x in letter_set):
            raise _pack_error(
                path,
                text,
                f"set {i + 1}: Latin A/B/C and digits are read "
                "already (digits with numbered = true)",
                "sets",
                "letters",
            )
        sets.append(tuple(_nfkc(x.strip()) for x in letter_set))
    if sets:
        fields_["letter_sets"] = tuple(sets)
    if "numbered" in letters:
        fields_["numbered"] = letters["numbered"]
    fields_["source"] = str(path)
    fields_["sha256"] = hashlib.sha256(raw).hexdigest()
    extends = data.get("extends")
    if extends is not None:
        table = LANGUAGES if base is None else base
        held = table.get(extends.strip().lower())
        if held is None:
            raise _pack_error(
                path,
                text,
                f"extends {extends!r}, which is no built-in pack ({', '.join(sorted(table))})",
                "extends",
            )
        return _extended(held, fields_)
    return LanguageRules(**fields_)


def _extended(held: LanguageRules, own: dict[str, Any]) -> LanguageRules:
    """``held`` with a pack's fields added: lists appended (the pack's after the held ones),
    single values replaced."""
    merged: dict[str, Any] = {}
    for f in fields(LanguageRules):
        if f.name not in own:
            continue
        value = own[f.name]
        was = getattr(held, f.name)
        if isinstance(was, tuple) and f.name not in ("letter_sets",):
            value = tuple(dict.fromkeys((*was, *value)))
        elif f.name == "letter_sets":
            value = (*was, *(s for s in value if s not in was))
        merged[f.name] = value
    return replace(held, **merged)


def _builtin_packs() -> dict[str, LanguageRules]:
    packs = [load_pack(path, base={}) for path in sorted(PACKS_DIR.glob("*.toml"))]
    # Built-ins name their source so, not by their install path (one signature everywhere).
    return {rules.code: replace(rules, source="built-in") for rules in packs}


LANGUAGES: Final[dict[str, LanguageRules]] = _builtin_packs()
"""Every language the parser and the prompts support, by ISO 639-1 code: the built-in packs."""

EN, TL, ES, CA, NL, TR, KO, ZH, JA = (
    LANGUAGES[code] for code in ("en", "tl", "es", "ca", "nl", "tr", "ko", "zh", "ja")
)

DEFAULT_LANGUAGES: Final = ("tl", "en")
"""The parser's languages when none is given: Filipino + English, its behaviour before it read
other languages."""

_ALIASES: Final = {alias: rules.code for rules in LANGUAGES.values() for alias in rules.aliases}


class UnknownLanguageError(BiasbenchError, ValueError):
    """A language no pack covers (a ``ValueError`` too, as before it had a name)."""

    def __init__(self, language: str, table: Mapping[str, LanguageRules] | None = None) -> None:
        self.language = language
        table = LANGUAGES if table is None else table
        known = ", ".join(f"{code} ({rules.name})" for code, rules in sorted(table.items()))
        super().__init__(
            f"unknown language {language!r}: no answer cue, unknown wording or parsing rules "
            f"for it; supported: {known} (a new language is one pack file: write one as "
            f"docs/bbq-engine/language-packs.md shows and pass it with --language-rules FILE, "
            f"or ship it in a benchmark's folder, named by its declaration's language_rules)"
        )


def _code_in(language: str, table: Mapping[str, LanguageRules], aliases: Mapping[str, str]) -> str:
    key = language.strip().lower().replace("_", "-")
    base = key.split("-", 1)[0]
    for candidate in (key, base):
        if candidate in table:
            return candidate
        if candidate in aliases:
            return aliases[candidate]
    raise UnknownLanguageError(language, table)


@lru_cache(maxsize=256)
def language_code(language: str) -> str:
    """The table key for ``language`` (``"es"``, ``"es-ES"``, ``"fil"``, ``"zh-Hans"``);
    :class:`UnknownLanguageError` for a language the table lacks."""
    try:
        return _code_in(language, LANGUAGES, _ALIASES)
    except UnknownLanguageError:
        if add_declared_languages():  # languages a benchmark's declaration brings
            return language_code(language)
        raise


_DECLARED_ADDED: dict[str, bool] = {}
"""Whether the declared languages were added in this process (read once)."""


def add_declared_languages() -> bool:
    """Add the languages every benchmark declares (``Declaration.language_rules``, read from
    the light declarations: no benchmark class is imported), once per process; True when any
    was new. A language is first looked up in the table, so this runs only when a code is
    missing from it (``score bbq --items NS/LANG=FILE`` in a language a benchmark brings)."""
    if _DECLARED_ADDED.get("done"):
        return False
    _DECLARED_ADDED["done"] = True
    from biasbench.registry import language_rules

    new = [
        rules
        for rules in language_rules()
        if isinstance(rules, LanguageRules) and rules.code not in LANGUAGES
    ]
    for rules in new:
        add_language(rules)
    return bool(new)


@lru_cache(maxsize=256)
def parser_languages(language: str | None) -> tuple[str, ...]:
    """The tables the parser combines for an item in ``language``: that language and English
    (``None``: Filipino and English, the behaviour before languages existed)."""
    if language is None:
        return DEFAULT_LANGUAGES
    code = language_code(language)
    return (code,) if code == "en" else (code, "en")


def rules_for(language: str) -> LanguageRules:
    """The table of one language."""
    return LANGUAGES[language_code(language)]


def add_language(rules: LanguageRules) -> LanguageRules:
    """Add ``rules`` to the table: how a benchmark brings a language new to the engine from its
    own folder (:attr:`~biasbench.engines.bbq_family.family.PromptedBBQBenchmark.language_rules`,
    added when its class is defined). The same entry twice is one entry; a code or an alias that
    the table already gives other rules is a ``TypeError`` at import (one source per fact: a
    benchmark overrides the wording it differs in, e.g. ``answer_cue``, not a shared language;
    a user's pack for one run is :class:`LanguagePacks`, which never touches this table)."""
    held = LANGUAGES.get(rules.code)
    if held is not None:
        if held == rules:
            return held
        raise TypeError(
            f"language {rules.code!r} ({rules.name}) is in the language table "
            "already, with other rules: extend that entry, or override only the "
            "benchmark's own wording (answer_cue, base_model_cue)"
        )
    taken = [
        alias
        for alias in (rules.code, *rules.aliases)
        if _ALIASES.get(alias, rules.code) != rules.code or alias in LANGUAGES
    ]
    if taken:
        raise TypeError(
            f"language {rules.code!r} ({rules.name}): {taken[0]!r} already names "
            f"{language_code(taken[0])!r} in the language table"
        )
    LANGUAGES[rules.code] = rules
    _ALIASES.update({alias: rules.code for alias in rules.aliases})
    language_code.cache_clear()
    parser_languages.cache_clear()
    return rules


# ----------------------------------------------------------------------------- user packs


@dataclass(frozen=True)
class LanguagePacks:
    """The packs one run reads answers with: the built-in table, with the user's packs
    (``--language-rules``) added or put in place of a built-in pack of the same code."""

    user: tuple[LanguageRules, ...] = ()

    @classmethod
    def from_files(cls, paths: Iterable[Path | str]) -> LanguagePacks:
        """The user's pack files (a comma list in one string is split); two packs of one
        language are one error line."""
        packs: list[LanguageRules] = []
        for entry in paths:
            for piece in [entry] if isinstance(entry, Path) else str(entry).split(","):
                if str(piece).strip():
                    packs.append(load_pack(Path(str(piece).strip())))
        seen: dict[str, str] = {}
        for rules in packs:
            if rules.code in seen:
                raise InputError(
                    f"a second pack for language {rules.code!r} (the first: "
                    f"{seen[rules.code]}); one pack per language",
                    file=rules.source,
                    field="code",
                )
            seen[rules.code] = rules.source
        return cls(tuple(packs))

    @property
    def table(self) -> dict[str, LanguageRules]:
        return _table(self)

    def code(self, language: str) -> str:
        table = self.table
        aliases = {**_ALIASES, **{a: r.code for r in self.user for a in r.aliases}}
        return _code_in(language, table, aliases)

    def rules_for(self, language: str) -> LanguageRules:
        return self.table[self.code(language)]

    def parser_tables(self, language: str | None) -> tuple[LanguageRules, ...]:
        """The packs the parser combines for an item in ``language`` (see
        :func:`parser_languages`)."""
        return _parser_tables(self, language)

    def describe(self) -> list[dict[str, str]]:
        """What enters the signature: each user pack's code, file name and sha256."""
        return [
            {"code": r.code, "file": Path(r.source).name, "sha256": r.sha256} for r in self.user
        ]


BUILT_IN: Final = LanguagePacks()
"""The built-in packs alone."""


@lru_cache(maxsize=64)
def _table(packs: LanguagePacks) -> dict[str, LanguageRules]:
    return {**LANGUAGES, **{rules.code: rules for rules in packs.user}}


def _parser_tables(packs: LanguagePacks, language: str | None) -> tuple[LanguageRules, ...]:
    if not packs.user:  # the live table: a benchmark class may add a language to it
        return tuple(LANGUAGES[code] for code in parser_languages(language))
    return _user_tables(packs, language)


@lru_cache(maxsize=1024)
def _user_tables(packs: LanguagePacks, language: str | None) -> tuple[LanguageRules, ...]:
    table = packs.table
    if language is None:
        return tuple(table[code] for code in DEFAULT_LANGUAGES)
    code = packs.code(language)
    return (table[code],) if code == "en" else (table[code], table["en"])


def pack_digest(packs: Sequence[LanguageRules]) -> str:
    """One sha256 over the packs' own digests (empty for none)."""
    if not packs:
        return ""
    return hashlib.sha256(
        "\n".join(sorted(f"{r.code}:{r.sha256}" for r in packs)).encode()
    ).hexdigest()
