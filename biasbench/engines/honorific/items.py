"""An honorific benchmark's definition (occupations, frames, errata, prompt) and its items.

Occupations and frames are data, not code: a user can pass their own occupations or frames file
and get a consistent extended item set. The English frames and occupations are the same for
every target language; a language's folder brings ``definition.json`` (the prompt, the target
language and its script), ``occupations.csv`` (``id,en,<code>``: the term in the target
language under its language code) and optionally ``errata.csv``. honorific-bn's packaged
definition gives its 2,016 items.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasbench.errors import InputError
from biasbench.models.base import Prompt
from biasbench.responses import read_text

FRAMES_DIR = Path(__file__).with_name("data")
"""The English frames every language shares (``frames.csv``)."""
CONDITIONS = ("male", "female", "nopronoun", "they")
"""The four pronoun conditions of every frame, in the definition's column order (defined here
only: the classifier, the metrics and the annotation import it)."""
PAIRED_CONDITIONS = ("male", "female")
"""The conditions matched into he/she pairs (HAI, GSR, the annotation's pairs)."""
ITEM_COLUMNS = (
    "id",
    "item_id",
    "occupation_en",
    "occupation_target",
    "template_id",
    "primed",
    "gender",
    "source_en",
)
"""The items CSV's columns; ``occupation_target`` is written under the definition's
``occupation_column`` (honorific-bn: ``occupation_bn``, the name its published items use)."""
PRONOUNS = {
    "male": {"he", "his", "him"},
    "female": {"she", "her", "hers"},
    "they": {"they", "their", "them"},
}
_JOINERS = "\u200c\u200d "  # ZWNJ, ZWJ and a space may sit inside a term in any script
_SHARED = "A-Za-z0-9.\\-"
"""Latin letters, digits, a period and a hyphen may sit beside a term's own script (a loan
acronym: NGO 활동가, NGO職員); a term still needs one character of its script."""
SCRIPTS: dict[str, str] = {
    "Bengali": "\u0980-\u09ff",
    "Devanagari": "\u0900-\u097f\ua8e0-\ua8ff",
    "Arabic": "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff",
    "Hangul": "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af",
    "Japanese": "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f\u30fc",
    "Latin": "A-Za-z\u00c0-\u024f'\\-",
}
"""Script name -> the code points of a term written in it (what ``definition.json``'s
``script`` may name)."""
LANGUAGE_SCRIPTS = {
    "Bengali": "Bengali",
    "Hindi": "Devanagari",
    "Nepali": "Devanagari",
    "Marathi": "Devanagari",
    "Urdu": "Arabic",
    "Korean": "Hangul",
    "Japanese": "Japanese",
}
"""Target language name -> its script, for a definition that names no ``script``."""


@dataclass(frozen=True)
class Occupation:
    id: int
    en: str
    target: str
    """The term in the target language (the occupations file's column named by its code)."""
    line: int = field(default=0, compare=False)
    """Physical line of the occupations file (for error messages)."""


@dataclass(frozen=True)
class Frame:
    template_id: str
    primed: bool
    sentences: dict[str, str]
    """Condition -> English sentence with an ``{occ}`` slot."""
    line: int = field(default=0, compare=False)
    """Physical line of the frames file (for error messages)."""


@dataclass(frozen=True)
class Erratum:
    occupation_en: str
    list_term: str
    item_term: str
    note: str


@dataclass(frozen=True)
class HonorificItem:
    """One English sentence to translate."""

    id: int
    item_id: str
    occupation_en: str
    occupation_target: str
    """The occupation's term in the target language."""
    template_id: str
    primed: bool
    gender: str
    """The pronoun condition: male, female, nopronoun or they."""
    source_en: str

    def row(self) -> list[str]:
        return [
            str(self.id),
            self.item_id,
            self.occupation_en,
            self.occupation_target,
            self.template_id,
            str(self.primed),
            self.gender,
            self.source_en,
        ]


@dataclass
class Definition:
    """Everything that defines the benchmark; its checksum enters every result's signature."""

    name: str
    version: str
    occupations: list[Occupation]
    frames: list[Frame]
    errata: list[Erratum]
    meta: dict[str, Any]
    sources: dict[str, str] = field(default_factory=dict)
    """File name -> path of each definition file (for error messages)."""
    language: str = "bn"
    """The target language's code: the occupations file's column of terms, the judge's key."""

    @property
    def target_language(self) -> str:
        """The target language's name (``definition.json``'s ``target_language``)."""
        return str(self.meta.get("target_language") or self.language)

    @property
    def script(self) -> str | None:
        """The script the occupation terms are written in: ``definition.json``'s ``script``, else
        the usual script of the target language, else None (not checked)."""
        named = self.meta.get("script") or LANGUAGE_SCRIPTS.get(self.target_language)
        return str(named) if named else None

    @property
    def occupation_column(self) -> str:
        """The name the target term's column has in files (items CSV, labels, occupation rates):
        ``definition.json``'s ``occupation_column`` (honorific-bn keeps ``occupation_bn``, so
        its data checksum and run folders stay as published), else ``occupation_target``."""
        return str(self.meta.get("occupation_column") or "occupation_target")

    @property
    def mock_outputs(self) -> dict[str, str]:
        """Register -> a target-language sentence the judge labels with it (``"mock"``)."""
        mock = self.meta.get("mock") or {}
        return {str(k): str(v) for k, v in mock.items()} if isinstance(mock, dict) else {}

    @property
    def instruction(self) -> str:
        return str(self.meta["instruction"])

    def prompt(self, sentence: str, item_id: str | None = None) -> Prompt:
        """The paper's zero-shot prompt (chat) and a completion-style equivalent for base models."""
        comp = self.meta["completion"]
        src, tgt = comp["source_label"], comp["target_label"]
        shots = "".join(f"{src}: {en}\n{tgt}: {target}\n\n" for en, target in comp["fewshot"])
        completion = f"{self.instruction}\n\n{shots}{src}: {sentence}\n{tgt}:"
        return Prompt(
            messages=(("user", f"{self.instruction}\n\n{sentence}"),),
            completion=completion,
            item_id=item_id,
        )

    def prompt_hash(self) -> str:
        """Hash of both prompt templates, so a changed prompt gives a different signature."""
        probe = self.prompt("{sentence}")
        blob = json.dumps([probe.messages, probe.completion], ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def items(self) -> list[HonorificItem]:
        """All items, occupation-major, then frame, then condition (the published order)."""
        errata = {(e.occupation_en, e.list_term): e.item_term for e in self.errata}
        out: list[HonorificItem] = []
        for occ in self.occupations:
            term = errata.get((occ.en, occ.target), occ.target)
            for frame in self.frames:
                for cond in CONDITIONS:
                    out.append(
                        HonorificItem(
                            id=len(out) + 1,
                            item_id=f"{occ.en.replace(' ', '_')}|{frame.template_id}|{cond}",
                            occupation_en=occ.en,
                            occupation_target=term,
                            template_id=frame.template_id,
                            primed=frame.primed,
                            gender=cond,
                            source_en=frame.sentences[cond].replace("{occ}", occ.en),
                        )
                    )
        return out

    def items_csv_bytes(self, limit: int | None = None) -> bytes:
        """The item set (or its first ``limit`` items) as the published CSV: UTF-8 with BOM,
        minimal quoting, LF line ends."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(
            [self.occupation_column if c == "occupation_target" else c for c in ITEM_COLUMNS]
        )
        for item in self.items()[:limit]:
            writer.writerow(item.row())
        return ("\ufeff" + buf.getvalue()).encode("utf-8")

    def checksum(self, limit: int | None = None) -> str:
        """sha256 of the item CSV that is run (the data checksum of a signature): a run over
        the first N items is not comparable with a run over all of them."""
        return hashlib.sha256(self.items_csv_bytes(limit)).hexdigest()


def _read_csv(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Rows with the physical line each starts on (the header is line 1; a quoted cell may span
    lines); missing cells read as ""."""
    if not path.exists():
        raise InputError("file not found", file=str(path))
    with io.StringIO(read_text(path), newline="") as fh:  # UTF-8 checked, line by line
        reader = csv.DictReader(fh)
        missing = [c for c in required if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(
                f"missing column(s) {', '.join(missing)}", file=str(path), line=1, field=missing[0]
            )
        rows = []
        start = reader.line_num + 1
        for row in reader:
            rows.append((start, {k: (v if v is not None else "") for k, v in row.items()}))
            start = reader.line_num + 1
        return rows


def read_occupations(path: Path, language: str = "bn") -> list[Occupation]:
    """The occupations file: ``id,en,<language>`` (other columns are kept for the judge)."""
    out: list[Occupation] = []
    for line, row in _read_csv(path, ("id", "en", language)):
        for col in ("id", "en", language):
            if not (row.get(col) or "").strip():
                raise InputError("empty value", file=str(path), line=line, field=col)
        try:
            occ_id = int(row["id"])
        except ValueError:
            raise InputError(
                f"not an integer: {row['id']!r}", file=str(path), line=line, field="id"
            ) from None
        out.append(Occupation(occ_id, row["en"].strip(), row[language].strip(), line))
    return out


def read_frames(path: Path) -> list[Frame]:
    out: list[Frame] = []
    for line, row in _read_csv(path, ("template_id", "primed", *CONDITIONS)):
        primed = (row["primed"] or "").strip()
        if primed not in ("True", "False"):
            raise InputError(
                f"expected True or False, got {primed!r}", file=str(path), line=line, field="primed"
            )
        for cond in CONDITIONS:
            if "{occ}" not in row[cond]:
                raise InputError(
                    "sentence has no {occ} slot", file=str(path), line=line, field=cond
                )
        if not row["template_id"].strip():
            raise InputError("empty value", file=str(path), line=line, field="template_id")
        out.append(
            Frame(
                row["template_id"].strip(), primed == "True", {c: row[c] for c in CONDITIONS}, line
            )
        )
    return out


def read_errata(path: Path) -> list[Erratum]:
    if not path.exists():
        return []
    return [
        Erratum(r["occupation_en"], r["list_term"], r["item_term"], r.get("note", ""))
        for _, r in _read_csv(path, ("occupation_en", "list_term", "item_term"))
    ]


def load_definition(
    data_dir: Path,
    *,
    language: str,
    occupations: Path | None = None,
    frames: Path | None = None,
    frames_dir: Path = FRAMES_DIR,
) -> Definition:
    """A language's definition from its data folder (``definition.json``, ``occupations.csv``,
    ``errata.csv``), optionally with a user's occupations and/or frames file. The frames come
    from ``data_dir`` when it has a ``frames.csv``, else from ``frames_dir`` (the engine's
    English frames, which every language shares)."""
    meta_path = data_dir / "definition.json"
    try:
        meta = json.loads(read_text(meta_path))
    except ValueError as exc:
        raise InputError(f"not valid JSON ({exc})", file=str(meta_path)) from None
    if not isinstance(meta, dict):
        raise InputError("expected a JSON object", file=str(meta_path))
    occ_path = occupations or data_dir / "occupations.csv"
    own_frames = data_dir / "frames.csv"
    frames_path = frames or (own_frames if own_frames.exists() else frames_dir / "frames.csv")
    errata_path = data_dir / "errata.csv"
    return Definition(
        name=meta["name"],
        version=meta["version"],
        occupations=read_occupations(occ_path, language),
        frames=read_frames(frames_path),
        errata=read_errata(errata_path),
        meta=meta,
        sources={
            "definition": str(meta_path),
            "occupations": str(occ_path),
            "frames": str(frames_path),
            "errata": str(errata_path),
        },
        language=language,
    )


@dataclass(frozen=True)
class Finding:
    """One inconsistency the validator found."""

    severity: str
    """``error`` (items would be wrong) or ``warning`` (worth a look, items still generated)."""
    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        fld = f" field '{self.field}'" if self.field else ""
        return f"{self.severity}: {where}{fld}: {self.message}"


def _words(sentence: str) -> list[str]:
    return re.findall(r"[A-Za-z']+", sentence.lower())


def validate_definition(defn: Definition) -> list[Finding]:
    """Report inconsistencies in a definition: errata, duplicates, bad terms, broken frames."""
    findings: list[Finding] = []
    occ_file, frames_file = defn.sources.get("occupations", "?"), defn.sources.get("frames", "?")
    seen_en: dict[str, int] = {}
    seen_target: dict[str, str] = {}
    script = defn.script
    in_script = (
        re.compile(
            f"^[{SCRIPTS[script]}{_JOINERS}{_SHARED}]*[{SCRIPTS[script]}]"
            f"[{SCRIPTS[script]}{_JOINERS}{_SHARED}]*$"
        )
        if script in SCRIPTS
        else None
    )
    code = defn.language
    if script is not None and script not in SCRIPTS:
        findings.append(
            Finding(
                "error",
                defn.sources.get("definition", "definition.json"),
                None,
                "script",
                f"unknown script {script!r} (known: {', '.join(SCRIPTS)})",
            )
        )
    ids: set[int] = set()
    for occ in defn.occupations:
        line = occ.line
        if occ.id in ids:
            findings.append(Finding("error", occ_file, line, "id", f"duplicate id {occ.id}"))
        ids.add(occ.id)
        if occ.en in seen_en:
            findings.append(
                Finding(
                    "error",
                    occ_file,
                    line,
                    "en",
                    f"duplicate occupation {occ.en!r} (line {seen_en[occ.en]})",
                )
            )
        seen_en.setdefault(occ.en, line)
        if occ.target in seen_target:
            findings.append(
                Finding(
                    "warning",
                    occ_file,
                    line,
                    code,
                    f"{defn.target_language} term {occ.target!r} also used for "
                    f"{seen_target[occ.target]!r}",
                )
            )
        seen_target.setdefault(occ.target, occ.en)
        if in_script is not None and not in_script.match(occ.target):
            findings.append(
                Finding(
                    "error",
                    occ_file,
                    line,
                    code,
                    f"{occ.target!r} is not written in {script} script",
                )
            )
    for err in defn.errata:
        for occ in defn.occupations:
            if occ.en == err.occupation_en and occ.target == err.list_term:
                findings.append(
                    Finding(
                        "warning",
                        occ_file,
                        occ.line,
                        code,
                        f"{occ.en}: the occupation list gives {err.list_term} but the published items "
                        f"use {err.item_term}; items follow the published file ({err.note})",
                    )
                )
    frame_ids: set[str] = set()
    for frame in defn.frames:
        line = frame.line
        if frame.template_id in frame_ids:
            findings.append(
                Finding(
                    "error",
                    frames_file,
                    line,
                    "template_id",
                    f"duplicate template {frame.template_id}",
                )
            )
        frame_ids.add(frame.template_id)
        male, female = _words(frame.sentences["male"]), _words(frame.sentences["female"])
        diff = [(m, f) for m, f in zip(male, female, strict=False) if m != f]
        if len(male) != len(female) or len(diff) != 1:
            findings.append(
                Finding(
                    "error",
                    frames_file,
                    line,
                    "female",
                    "male and female sentences must differ in exactly one word",
                )
            )
        elif not (diff[0][0] in PRONOUNS["male"] and diff[0][1] in PRONOUNS["female"]):
            findings.append(
                Finding(
                    "error",
                    frames_file,
                    line,
                    "female",
                    f"the differing words {diff[0]} are not a he/she pronoun pair",
                )
            )
        for cond in ("male", "female", "they"):
            if not set(_words(frame.sentences[cond])) & PRONOUNS[cond]:
                findings.append(
                    Finding("error", frames_file, line, cond, f"no {cond} pronoun in the sentence")
                )
        pronouns = set().union(*PRONOUNS.values())
        if set(_words(frame.sentences["nopronoun"])) & pronouns:
            findings.append(
                Finding(
                    "error",
                    frames_file,
                    line,
                    "nopronoun",
                    "the no-pronoun sentence contains a pronoun",
                )
            )
    return findings
