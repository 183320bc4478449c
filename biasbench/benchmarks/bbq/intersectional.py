"""Generate the original BBQ's intersectional categories (Race_x_gender, Race_x_SES).

Their templates have their own columns (``Known_stereotyped_race``, ``Known_stereotyped_var2``,
``Var2_info``, ``Stated_gender_info``; ``{{GEN1}}``/``{{OCC1}}`` slots for the second
attribute), and the authors generate them with a separate script
(generate_from_template_intersectional_cats.py). This module follows that script's structure,
written anew; as in :mod:`biasbench.engines.bbq_family.items.generate`, every draw comes from one seeded
:class:`random.Random` and ``answer_info`` is assigned by placeholder.

Per template row:

* first words W: the Race_ethnicity labels among ``Known_stereotyped_race`` (all labels when it
  is empty), 5 sampled when there are more than 4; proper-name rows instead sample 5 first names
  of the target ethnicities (of the row's gender: ``Known_stereotyped_var2`` for Race_x_gender,
  ``Stated_gender_info`` when set for Race_x_SES), each with a last name of its ethnicity;
* the second attribute: a row with ``Names`` (and every label-filled Race_x_gender row) takes the
  target and non-target words from ``Names`` by ``Var2_info``; otherwise the SES labels whose
  Info is (not) ``Known_stereotyped_var2``, one of each drawn per partner;
* per first word, 5 partners (labels: 5 of the race labels not in W; names: 5 partner sets),
  and per partner three contrasts, each in both orders (6 slottings, 24 items):
  a) same race, other var2; b) other race, same var2; c) other race, other var2.
  (For Race_x_SES proper-name rows, b and c use the partner set's different-race name and a uses
  its same-race name; for Race_x_gender the three names differ in gender, race, or both.)

So a row yields |W| x 5 x 24 items: 15,960 Race_x_gender and 11,160 Race_x_SES items from the
published templates, the published counts.
"""

from __future__ import annotations

import ast
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family.items.generate import GenerationResult, RowCount, fill_slots
from biasbench.engines.bbq_family.items.item_files import four_items
from biasbench.engines.bbq_family.items.items import UNKNOWN_GROUP
from biasbench.engines.bbq_family.items.templates import (
    CsvRecord,
    parse_slot_lists_as_reference,
    read_csv_records,
    unique_in_order,
)
from biasbench.engines.bbq_family.items.vocabularies import (
    NameVocabulary,
    ProperName,
    read_label_vocabulary,
    read_name_vocabulary,
)
from biasbench.errors import InputError

logger = logging.getLogger(__name__)

INTERSECTIONAL_COLUMNS: tuple[str, ...] = (
    "Q_id",
    "Ambiguous_Context",
    "Disambiguating_Context",
    "Names",
    "Lexical_diversity",
    "Proper_nouns_only",
    "Question_negative_stereotype",
    "Question_non_negative",
    "Answer_negative",
    "Answer_non_negative",
    "Known_stereotyped_race",
    "Known_stereotyped_var2",
    "Var2_info",
    "Notes",
)
OTHER_VAR2 = {"M": "F", "F": "M", "lowSES": "highSES", "highSES": "lowSES"}


@dataclass(frozen=True)
class _Person:
    """A slot's filling: the race word or full name, its second-attribute word (None for a
    proper name in Race_x_gender), and its answer_info label."""

    word: str
    var2: str | None
    info: str

    @property
    def text(self) -> str:
        return self.word if self.var2 is None else f"{self.word} {self.var2}"


def _literal_list(
    cell: str, record: CsvRecord, file: str, column: str, nested: bool = False
) -> list[Any]:
    try:
        value = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        raise InputError(
            f"not a list literal: {cell[:60]!r}", file=file, line=record.line, field=column
        ) from None

    def ok(v: Any) -> bool:
        return isinstance(v, str) or (
            nested and isinstance(v, list) and all(isinstance(w, str) for w in v) and bool(v)
        )

    if not isinstance(value, list) or not all(ok(v) for v in value):
        raise InputError(
            f"not a list of strings: {cell[:60]!r}", file=file, line=record.line, field=column
        )
    return value


class _Generator:
    def __init__(
        self,
        category: str,
        template_csv: Path,
        labels_csv: Path,
        names_csv: Path,
        rng: random.Random,
        unknown_pool: Sequence[str],
    ) -> None:
        if category not in ("Race_x_gender", "Race_x_SES"):
            raise InputError(f"not an intersectional category: {category!r}", field="category")
        self.category = category
        self.file = str(template_csv)
        header, self.records = read_csv_records(template_csv)
        missing = [c for c in INTERSECTIONAL_COLUMNS if c not in header]
        if missing:
            raise InputError(
                f"missing required column(s) {', '.join(missing)}",
                file=self.file,
                line=1,
                field=missing[0],
            )
        labels = read_label_vocabulary(labels_csv)
        self.races = unique_in_order(
            e.name for e in labels.entries if e.category == "Race_ethnicity"
        )
        self.ses = [(e.name, e.info) for e in labels.entries if e.category == "SES"]
        self.names: NameVocabulary = read_name_vocabulary(names_csv)
        self.rng = rng
        self.unknown_pool = list(unknown_pool)
        self.items: list[dict[str, Any]] = []
        self.warnings: list[str] = []

    def _ses_words(self, var2: str, same: bool) -> list[str]:
        return unique_in_order(name for name, info in self.ses if (info == var2) == same)

    def _last_name(self, ethnicity: str | None) -> str:
        last = unique_in_order(
            e.name
            for e in self.names.entries
            if e.first_last == "last" and e.ethnicity == ethnicity
        )
        if not last:
            raise InputError(
                f"no last name of ethnicity {ethnicity!r}",
                file=str(self.names.path),
                field="ethnicity",
            )
        return self.rng.choice(last)

    def _named(self, first: ProperName) -> tuple[str, str]:
        return (
            f"{first.name} {self._last_name(first.ethnicity)}",
            f"{first.gender}-{first.ethnicity}",
        )

    def _sample(self, pool: Sequence[Any], k: int, record: CsvRecord, what: str) -> list[Any]:
        if len(pool) < k:
            raise InputError(
                f"template {record.get('Q_id')} needs {k} {what}, only {len(pool)}",
                file=self.file,
                line=record.line,
            )
        return self.rng.sample(list(pool), k)

    def generate_row(self, record: CsvRecord) -> RowCount:
        before = len(self.items)
        ksr = record.get("Known_stereotyped_race")
        targets = _literal_list(ksr, record, self.file, "Known_stereotyped_race") if ksr else []
        target_var2 = record.get("Known_stereotyped_var2")
        if target_var2 not in OTHER_VAR2:
            raise InputError(
                f"Known_stereotyped_var2 {target_var2!r} is none of {', '.join(OTHER_VAR2)}",
                file=self.file,
                line=record.line,
                field="Known_stereotyped_var2",
            )
        other_var2 = OTHER_VAR2[target_var2]
        targeted = [r for r in self.races if r in targets] if targets else list(self.races)
        words = self.rng.sample(targeted, 5) if len(targeted) > 4 else targeted
        proper = record.get("Proper_nouns_only") == "TRUE"
        names_cell = record.get("Names")
        if (self.category == "Race_x_gender" and not proper) or names_cell:
            pair = _literal_list(names_cell, record, self.file, "Names", nested=True)
            infos = _literal_list(record.get("Var2_info"), record, self.file, "Var2_info")
            if target_var2 not in infos or len(pair) != 2 or len(infos) != 2:
                raise InputError(
                    f"Var2_info {infos} must name {target_var2!r} for one of the two Names entries",
                    file=self.file,
                    line=record.line,
                    field="Var2_info",
                )
            t_loc = infos.index(target_var2)
            t_gs: str | list[str] | None = pair[t_loc]
            non_gs: str | list[str] | None = pair[1 - t_loc]
        else:
            t_gs = non_gs = None  # drawn per partner from the SES labels
        firsts = [e for e in self.names.entries if e.first_last == "first"]
        chosen_firsts: list[ProperName] = []
        if proper:
            pool = [e for e in firsts if e.ethnicity in targets]
            gender = (
                target_var2
                if self.category == "Race_x_gender"
                else record.get("Stated_gender_info") or None
            )
            if gender is not None:
                pool = [e for e in pool if e.gender == gender]
            chosen_firsts = self._sample(pool, 5, record, "first names of the target races")
        lexical = None
        if len(record.get("Lexical_diversity")) > 1:
            lexical = parse_slot_lists_as_reference(
                record.get("Lexical_diversity"),
                file=self.file,
                line=record.line,
                field="Lexical_diversity",
                warnings=self.warnings,
            )
        for index in range(len(chosen_firsts) if proper else len(words)):
            partner_races = (
                self._sample(
                    [r for r in self.races if r not in words], 5, record, "other race labels"
                )
                if not proper
                else []
            )
            if proper:
                first = chosen_firsts[index]
                t_word, t_info = self._named(first)
                partner_sets = self._proper_partners(first, targets, record)
            for k in range(5):
                if isinstance(t_gs, list):
                    # Word lists in Names: one word of each is drawn at the row's first
                    # partner and kept for the whole row, as in the authors' script.
                    t_gs = self.rng.choice(t_gs)
                    non_gs = self.rng.choice(non_gs) if isinstance(non_gs, list) else non_gs
                gs, ngs = t_gs, non_gs
                if t_gs is None:
                    # One SES word of each level per partner; none for gender (no SES label
                    # has Info M/F: proper-name Race_x_gender rows need no second word).
                    same = self._ses_words(target_var2, True)
                    if same:
                        gs = self.rng.choice(same)
                        ngs = self.rng.choice(self._ses_words(target_var2, False))
                    elif self.category == "Race_x_SES":
                        raise InputError(
                            f"no SES label has Info {target_var2!r}",
                            file=self.file,
                            line=record.line,
                            field="Known_stereotyped_var2",
                        )
                words_drawn = self._draw(lexical)
                if proper:
                    names = partner_sets[k]
                    if self.category == "Race_x_gender":
                        one = _Person(t_word, None, t_info)
                        others = [_Person(n, None, i) for n, i in names]
                    else:
                        one = _Person(t_word, gs, f"{target_var2}-{t_info}")
                        (same, same_info), (diff, diff_info) = names
                        others = [
                            _Person(same, ngs, f"{other_var2}-{same_info}"),
                            _Person(diff, gs, f"{target_var2}-{diff_info}"),
                            _Person(diff, ngs, f"{other_var2}-{diff_info}"),
                        ]
                else:
                    t_word = words[index]
                    race2 = partner_races[k]
                    one = _Person(t_word, gs, f"{target_var2}-{t_word}")
                    others = [
                        _Person(t_word, ngs, f"{other_var2}-{t_word}"),
                        _Person(race2, gs, f"{target_var2}-{race2}"),
                        _Person(race2, ngs, f"{other_var2}-{race2}"),
                    ]
                for letter, other in zip("abc", others, strict=True):
                    self._emit(record, targets, one, other, words_drawn, letter)
                for letter, other in zip("abc", others, strict=True):
                    self._emit(record, targets, other, one, words_drawn, letter)
        return RowCount(
            record.get("Q_id"),
            self.file,
            record.line,
            len(self.items) - before,
            None if len(self.items) > before else "no admissible first word",
        )

    def _proper_partners(
        self, first: ProperName, targets: list[str], record: CsvRecord
    ) -> list[list[tuple[str, str]]]:
        firsts = [e for e in self.names.entries if e.first_last == "first"]
        if self.category == "Race_x_SES":
            diff = self._sample(
                [e for e in firsts if e.ethnicity not in targets and e.gender == first.gender],
                5,
                record,
                "same-gender names of other races",
            )
            same = self._sample(
                [
                    e
                    for e in firsts
                    if e.ethnicity == first.ethnicity
                    and e.gender == first.gender
                    and e.name != first.name
                ],
                5,
                record,
                "same-gender names of the same race",
            )
            return [[self._named(s), self._named(d)] for s, d in zip(same, diff, strict=True)]
        groups = [
            [e for e in firsts if e.ethnicity == first.ethnicity and e.gender != first.gender],
            [e for e in firsts if e.ethnicity != first.ethnicity and e.gender == first.gender],
            [e for e in firsts if e.ethnicity != first.ethnicity and e.gender != first.gender],
        ]
        drawn = [self._sample(g, 5, record, "partner names") for g in groups]
        return [[self._named(drawn[c][k]) for c in range(3)] for k in range(5)]

    def _draw(self, lexical: Any) -> tuple[str, str] | None:
        if lexical is None:
            return None
        word1 = self.rng.choice(lexical.first)
        word2 = self.rng.choice(lexical.second) if len(lexical.second) > 1 else ""
        return word1, word2

    def _emit(
        self,
        record: CsvRecord,
        targets: list[str],
        one: _Person,
        two: _Person,
        words: tuple[str, str] | None,
        letter: str,
    ) -> None:
        var2 = None if one.var2 is None else (one.var2, two.var2 or "")

        def fill(column: str) -> str:
            return fill_slots(record.get(column), one.word, two.word, words, var2)

        ambiguous = fill("Ambiguous_Context")
        contexts = {
            "ambig": ambiguous.strip(),
            "disambig": (ambiguous.strip() + " " + fill("Disambiguating_Context")).strip(),
        }
        questions = {
            "neg": fill("Question_negative_stereotype").strip(),
            "nonneg": fill("Question_non_negative").strip(),
        }
        text_of = {"neg": fill("Answer_negative"), "nonneg": fill("Answer_non_negative")}
        unknown = self.rng.choice(self.unknown_pool)
        roles = ["neg", "nonneg", UNKNOWN_GROUP]
        self.rng.shuffle(roles)
        text_of[UNKNOWN_GROUP] = unknown
        answers = [text_of[role] for role in roles]
        answer_info: dict[str, list[str]] = {}
        for i, role in enumerate(roles):
            raw = (
                ""
                if role == UNKNOWN_GROUP
                else record.get("Answer_negative" if role == "neg" else "Answer_non_negative")
            )
            if role == UNKNOWN_GROUP:
                answer_info[f"ans{i}"] = [unknown, UNKNOWN_GROUP]
            elif "{{NAME2}}" in raw:
                answer_info[f"ans{i}"] = [two.text, two.info]
            elif "{{NAME1}}" in raw:
                answer_info[f"ans{i}"] = [one.text, one.info]
            else:
                answer_info[f"ans{i}"] = ["", ""]
        self.items.extend(
            four_items(
                len(self.items),
                question_index=record.get("Q_id"),
                category=self.category,
                answer_info=answer_info,
                metadata={
                    "subcategory": f"intersectional_{letter}",
                    "stereotyped_groups": list(targets),
                    "version": "None",
                    "source": record.get("Notes"),
                },
                contexts=contexts,
                questions=questions,
                answers=answers,
                unknown=unknown,
                text_of=text_of,
            )
        )


def generate_intersectional_items(
    template_csv: Path,
    category: str,
    labels_csv: Path,
    names_csv: Path,
    *,
    seed: int,
    unknown_pool: Sequence[str],
) -> GenerationResult:
    """Every item of Race_x_gender or Race_x_SES from its template CSV, in memory."""
    generator = _Generator(
        category,
        Path(template_csv),
        Path(labels_csv),
        Path(names_csv),
        random.Random(seed),
        unknown_pool,
    )
    row_counts = []
    for record in generator.records:
        if not record.get("Ambiguous_Context"):
            continue
        row_counts.append(generator.generate_row(record))
    for message in generator.warnings:
        logger.warning("%s", message)
    return GenerationResult(category, seed, generator.items, row_counts, generator.warnings)
