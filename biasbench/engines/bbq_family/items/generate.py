"""Generate BBQ-format items from template CSVs and vocabularies.

Follows the original BBQ generator's algorithm (nyu-mll/BBQ, quirks included), with two
deliberate differences:

* every random draw (label/name sampling, lexical words, unknown wording, answer order) comes
  from ONE :class:`random.Random` seeded once per category file, in the original's call order,
  so a seed reproduces a set byte for byte (the reference sets no seed at all);
* ``answer_info`` is assigned by the placeholder (``{{NAME1}}``/``{{NAME2}}``) that the raw
  answer template contains, not by substring tests on the filled text, which mislabel answers
  such as ``Angel``/``Angelo``. On every FilBBQ sexual-orientation item both rules agree.

Templates that yield no items are never dropped silently: each gets a warning (returned, and
logged at INFO) that names the template and the reason; one WARNING line per template file
counts them (:func:`log_warnings`).
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from biasbench.engines.bbq_family.items.item_files import Style, four_items
from biasbench.engines.bbq_family.items.items import UNKNOWN_GROUP
from biasbench.engines.bbq_family.items.templates import (
    TemplateRow,
    read_template_csv,
    unique_in_order,
)
from biasbench.engines.bbq_family.items.vocabularies import (
    LabelEntry,
    LabelVocabulary,
    NameVocabulary,
    ProperName,
    read_label_vocabulary,
    read_name_vocabulary,
)
from biasbench.errors import InputError

logger = logging.getLogger(__name__)

#: Categories whose first slot is filled with the template's stereotyped groups and the second
#: with the other labels, in both orders (the original generator's targets).
TARGET_SUBSET_CATEGORIES: frozenset[str] = frozenset(
    {"Race_ethnicity", "Religion", "Nationality", "Sexual_orientation"}
)

#: The original BBQ release's 10 English "unknown" phrasings (used uniformly).
BBQ_UNKNOWN_POOL: tuple[str, ...] = (
    "Unknown",
    "Cannot be determined",
    "Can't be determined",
    "Not answerable",
    "Not known",
    "Not enough info",
    "Not enough information",
    "Cannot answer",
    "Can't answer",
    "Undetermined",
)

# "whitespace + a/A + whitespace + vowel" gets an "n" after the article (the original's fix-up).
_ARTICLE_BEFORE_VOWEL = re.compile(r"(\s[aA])(\s[aeiouAEIOU])")
_VOWELS = frozenset("aeiouAEIOU")


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowCount:
    """How many items one template row yielded, and why none when it yielded none."""

    question_index: str
    file: str
    line: int
    items: int
    reason: str | None = None


@dataclass
class GenerationResult:
    """Items of one category in emission order, with per-row counts and warnings."""

    category: str
    seed: int
    items: list[dict[str, Any]]
    """BBQItem-compatible dicts (``answer_info``/``additional_metadata`` as dicts)."""
    row_counts: list[RowCount]
    warnings: list[str] = field(default_factory=list)

    @property
    def template_counts(self) -> dict[str, int]:
        """Items per template id (``Q_id``), in first-appearance order; rows sharing a ``Q_id``
        (e.g. FilBBQ's two ``ENBBQ_07`` rows) are summed."""
        counts: dict[str, int] = {}
        for row in self.row_counts:
            counts[row.question_index] = counts.get(row.question_index, 0) + row.items
        return counts

    @property
    def empty_rows(self) -> list[RowCount]:
        """Template rows that yielded no items."""
        return [row for row in self.row_counts if row.items == 0]


@dataclass(frozen=True)
class _Filler:
    """A slot word with its group label for ``answer_info`` (and gender, for partner choice)."""

    text: str
    info: str | None = None
    gender: str | None = None


# --------------------------------------------------------------------------------------------
# Slot filling
# --------------------------------------------------------------------------------------------


def fill_slots(
    text: str,
    name1: str,
    name2: str,
    words: tuple[str, str] | None,
    var2: tuple[str, str] | None = None,
) -> str:
    """Fill one template text's slots, including the original generator's English fix-ups.
    ``var2``: the second attribute of an intersectional template (gender or SES words) for
    ``{{GEN1}}``/``{{OCC1}}`` and ``{{GEN2}}``/``{{OCC2}}``."""
    filled = text.replace("{{NAME1}}", name1).replace("{{NAME2}}", name2)
    if var2 is not None:
        filled = (
            filled.replace("{{GEN1}}", var2[0])
            .replace("{{GEN2}}", var2[1])
            .replace("{{OCC1}}", var2[0])
            .replace("{{OCC2}}", var2[1])
        )
    if words is not None:
        filled = filled.replace("{{WORD1}}", words[0]).replace("{{WORD2}}", words[1])
    filled = filled.replace("lesbian man", "lesbian woman").replace("Latino woman", "Latina woman")
    starts = [name1, name2, *(var2 or ())]
    if any(word[:1] in _VOWELS for word in starts):
        # Applied to the whole text, not only next to the slot, as in the reference.
        filled = _ARTICLE_BEFORE_VOWEL.sub(r"\1n\2", filled)
        filled = filled.replace(" an European", " a European")
    return filled


def _answer_slot(raw_answer: str) -> Literal[1, 2] | None:
    """Which slot's word an answer names, judged on the raw template (NAME2 wins over NAME1, as
    later writes win in the reference rule)."""
    if "{{NAME2}}" in raw_answer:
        return 2
    if "{{NAME1}}" in raw_answer:
        return 1
    return None


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------


class _CategoryGenerator:
    """Turns the template rows of one category into items, drawing from one RNG."""

    def __init__(
        self,
        category: str,
        labels: LabelVocabulary,
        names: NameVocabulary,
        rng: random.Random,
        unknown_pool: Sequence[str],
        style: Style,
        apply_subcategory_filter: bool,
    ) -> None:
        self.category = category
        self.labels = labels
        self.names = names
        self.rng = rng
        self.unknown_pool = list(unknown_pool)
        self.style = style
        self.apply_subcategory_filter = apply_subcategory_filter
        # Checked lazily: a category filled only by Names or proper names needs no labels.
        self.entries: list[LabelEntry] = [
            entry for entry in labels.entries if entry.category == category
        ]
        self.vocabulary: list[str] = unique_in_order(entry.name for entry in self.entries)
        self.target_subset = category in TARGET_SUBSET_CATEGORIES
        self.items: list[dict[str, Any]] = []
        self.warnings: list[str] = []

    # -- helpers ---------------------------------------------------------------------------

    def _label_info(self, word: str, entries: Sequence[LabelEntry]) -> str | None:
        for entry in entries:
            if entry.name == word:
                return entry.info
        return None

    def _sample(
        self,
        population: Sequence[Any],
        k: int,
        row: TemplateRow,
        what: str,
        file: Path,
        column: str,
    ) -> list[Any]:
        if len(population) < k:
            raise InputError(
                f"template {row.q_id} ({row.where}) needs {k} {what}, only "
                f"{len(population)} available",
                file=str(file),
                field=column,
            )
        return self.rng.sample(list(population), k)

    def _check_targets(self, row: TemplateRow) -> None:
        """A target-subset row filled from labels takes its first words from the stereotyped
        groups: none among the labels is an error (the row could yield nothing), some missing
        a warning (likely a typo; those groups are simply never slotted)."""
        missing = [group for group in row.stereotyped_groups if group not in self.vocabulary]
        if not missing:
            return
        what = (
            f"group(s) {', '.join(map(repr, missing))} not among the {self.category} labels "
            f"of {self.labels.path} ({', '.join(self.vocabulary)})"
        )
        if len(missing) == len(row.stereotyped_groups):
            raise InputError(what, file=row.file, line=row.line, field="Known_stereotyped_groups")
        self.warnings.append(f"{row.where}: template {row.q_id}: Known_stereotyped_groups: {what}")

    # -- proper names (templates with Proper_nouns_only) ------------------------------------

    def _name_gender(self, name: str) -> str | None:
        for entry in self.names.entries:
            if entry.first_last == "first_only" and entry.name == name:
                return entry.gender
        return None

    def _with_last_name(self, first: ProperName, row: TemplateRow) -> _Filler:
        last_names = [
            entry.name
            for entry in self.names.entries
            if entry.first_last == "last" and entry.ethnicity == first.ethnicity
        ]
        if not last_names:
            raise InputError(
                f"template {row.q_id} ({row.where}) needs a last name of ethnicity "
                f"{first.ethnicity!r}; none found",
                file=str(self.names.path),
                field="ethnicity",
            )
        last = self.rng.choice(last_names)
        return _Filler(f"{first.name} {last}", f"{first.gender}-{first.ethnicity}", first.gender)

    def _race_pool(self, row: TemplateRow) -> list[ProperName]:
        if not self.names.has_ethnicity:
            raise InputError(
                "Race_ethnicity proper-name templates need an 'ethnicity' column",
                file=str(self.names.path),
                line=1,
                field="ethnicity",
            )
        return [entry for entry in self.names.entries if entry.first_last == "first"]

    def _proper_first_words(self, row: TemplateRow) -> list[_Filler]:
        if self.category == "Gender_identity":
            women = [entry.name for entry in self.names.select(first_last="first_only", gender="F")]
            chosen = self._sample(
                women, 5, row, "first_only names of gender F", self.names.path, "gender"
            )
            return [_Filler(name, "F", "F") for name in chosen]
        if self.category == "Race_ethnicity":
            targets = set(row.stereotyped_groups)
            pool = [entry for entry in self._race_pool(row) if entry.ethnicity in targets]
            chosen = self._sample(
                pool, 5, row, "first names of the target ethnicities", self.names.path, "ethnicity"
            )
            return [self._with_last_name(entry, row) for entry in chosen]
        everyone = [entry.name for entry in self.names.select(first_last="first_only")]
        return [
            _Filler(name)
            for name in self._sample(
                everyone, 6, row, "first_only names", self.names.path, "First_last"
            )
        ]

    def _proper_partners(
        self, row: TemplateRow, first: _Filler, first_words: list[_Filler]
    ) -> list[_Filler]:
        if self.category == "Gender_identity":
            others = unique_in_order(
                entry.name
                for entry in self.names.select(first_last="first_only", exclude_gender=first.gender)
            )
            chosen = self._sample(
                others,
                5,
                row,
                "distinct first_only names of another gender",
                self.names.path,
                "gender",
            )
            return [
                _Filler(name, self._name_gender(name), self._name_gender(name)) for name in chosen
            ]
        if self.category == "Race_ethnicity":
            targets = set(row.stereotyped_groups)
            pool = [
                entry
                for entry in self._race_pool(row)
                if entry.gender == first.gender
                and entry.ethnicity is not None
                and entry.ethnicity not in targets
            ]
            chosen = self._sample(
                pool,
                5,
                row,
                "same-gender first names of other ethnicities",
                self.names.path,
                "ethnicity",
            )
            return [self._with_last_name(entry, row) for entry in chosen]
        return [word for word in first_words if word.text != first.text]

    # -- one row ---------------------------------------------------------------------------

    def generate_row(self, row: TemplateRow) -> RowCount:
        """Emit the items of one template row, drawing at random in the original's order."""
        rng = self.rng
        before = len(self.items)
        reason: str | None = None
        subcategory_applies = row.subcategory is not None and self.apply_subcategory_filter
        label_filled = row.names is None and not row.proper_nouns_only
        if label_filled and not self.entries:
            raise InputError(
                f"no vocabulary rows for category {self.category!r}, needed by "
                f"template {row.q_id} ({row.where})",
                file=str(self.labels.path),
                field="Category",
            )
        if self.target_subset and label_filled and not subcategory_applies:
            self._check_targets(row)

        # Step 4-5: first words from the labels.
        if self.target_subset:
            first_texts = [word for word in self.vocabulary if word in row.stereotyped_groups]
        else:
            first_texts = list(self.vocabulary)
        if len(first_texts) > 4:
            first_texts = rng.sample(first_texts, 5)
        elif len(self.vocabulary) < 2:
            first_texts = []
            reason = f"the {self.category} vocabulary has fewer than 2 labels"

        # Step 7: Subcategory restricts the labels (and may empty them: FilBBQ's adult/child).
        scope = self.entries
        if subcategory_applies:
            scope = [entry for entry in self.entries if entry.subcat == row.subcategory]
            first_texts = unique_in_order(entry.name for entry in scope)
            if len(first_texts) > 5:
                first_texts = rng.sample(first_texts, 5)
            if not first_texts:
                reason = (
                    f"its Subcategory {row.subcategory!r} matches no SubCat of the "
                    f"{self.category} rows in {self.labels.path}, so the reference "
                    "generator yields nothing for it (disable the Subcategory filter to "
                    "generate it)"
                )

        first_words = [_Filler(text) for text in first_texts]
        fixed_partners: list[_Filler] | None = None
        # Step 8: the Names override.
        if row.names is not None:
            first_words = [_Filler(text) for text in row.names.first]
            fixed_partners = [_Filler(text) for text in row.names.second]
            reason = (
                None
                if fixed_partners
                else "its Names cell's NAME2 list is lost to a ';' "
                "inside it, as in the original generator"
            )
        # Step 9: proper names override everything.
        if row.proper_nouns_only:
            first_words = self._proper_first_words(row)
            reason = None

        flipped = (
            self.target_subset
            or row.proper_nouns_only
            or (self.category == "SES" and row.subcategory == "Occupation")
        )
        invalid = set(row.invalid_partners or ()) if self.style == "filbbq" else set()
        for first in first_words:
            # Step 9/10: partners, re-drawn for every first word.
            if fixed_partners is not None:
                partners = fixed_partners
            elif row.proper_nouns_only:
                partners = self._proper_partners(row, first, first_words)
            elif self.target_subset:
                partner_texts = [
                    word
                    for word in self.vocabulary
                    if word not in row.stereotyped_groups and word not in invalid
                ]
                if len(partner_texts) > 4:
                    partner_texts = rng.sample(partner_texts, 5)
                partners = [_Filler(text) for text in partner_texts]
            elif self.category == "SES":
                # Labels of another SES level; a missing Info never equals anything.
                first_info = self._label_info(first.text, scope)
                partners = [
                    _Filler(text)
                    for text in unique_in_order(
                        entry.name
                        for entry in scope
                        if entry.name != first.text
                        and (first_info is None or entry.info != first_info)
                    )
                ]
            else:
                partners = [word for word in first_words if word.text != first.text]
            if not partners and reason is None:
                reason = "no admissible partner for the second slot"
            for partner in partners:
                words = self._draw_words(row)
                info1, info2 = self._infos(row, first, partner)
                self._emit(row, first.text, partner.text, info1, info2, words)
                if flipped:
                    self._emit(row, partner.text, first.text, info2, info1, words)

        count = len(self.items) - before
        if count == 0 and reason is None:
            reason = "no admissible first word" if not first_words else "no admissible pair"
        return RowCount(row.q_id, row.file, row.line, count, reason if count == 0 else None)

    def _draw_words(self, row: TemplateRow) -> tuple[str, str] | None:
        """Step 12: one draw of the lexical words per pair (shared by the flipped slotting)."""
        if row.lexical is None:
            return None
        word1 = self.rng.choice(row.lexical.first)
        word2 = self.rng.choice(row.lexical.second) if len(row.lexical.second) > 1 else ""
        return word1, word2

    def _infos(self, row: TemplateRow, first: _Filler, partner: _Filler) -> tuple[str, str]:
        """Step 14: the group labels written to answer_info for NAME1 and NAME2."""
        if row.proper_nouns_only and self.category == "Gender_identity":
            info1 = f"{row.name1_info}_{first.info}" if row.name1_info else str(first.info)
            info2 = f"{row.name2_info}_{partner.info}" if row.name2_info else str(partner.info)
            return info1, info2
        if row.proper_nouns_only and self.category == "Race_ethnicity":
            return str(first.info), str(partner.info)
        if self.category == "Nationality" or (
            self.category == "SES" and row.subcategory == "Occupation"
        ):
            info1 = self._label_info(first.text, self.entries)
            info2 = self._label_info(partner.text, self.entries)
            if info1 is not None and info2 is not None:
                return info1, info2
            self.warnings.append(
                f"{row.where}: template {row.q_id}: no vocabulary Info for "
                f"{first.text if info1 is None else partner.text!r}; answer_info falls back to "
                "NAME1_info/NAME2_info or the words"
            )
        if row.name1_info:
            return row.name1_info, row.name2_info
        return first.text, partner.text

    def _emit(
        self,
        row: TemplateRow,
        name1: str,
        name2: str,
        info1: str,
        info2: str,
        words: tuple[str, str] | None,
    ) -> None:
        """Steps 13 and 15-19: the four items of one slotting."""
        ambiguous = fill_slots(row.ambiguous_context, name1, name2, words)
        disambiguating = fill_slots(row.disambiguating_context, name1, name2, words)
        questions = {
            "neg": fill_slots(row.question_negative, name1, name2, words).strip(),
            "nonneg": fill_slots(row.question_non_negative, name1, name2, words).strip(),
        }
        negative = fill_slots(row.answer_negative, name1, name2, words)
        non_negative = fill_slots(row.answer_non_negative, name1, name2, words)
        contexts = {
            "ambig": ambiguous.strip(),
            # strip(A) + " " + D, then stripped: a D with a leading space gives a double space.
            "disambig": (ambiguous.strip() + " " + disambiguating).strip(),
        }

        # Step 16: unknown wording, then the answer order (one draw each per slotting).
        unknown = self.rng.choice(self.unknown_pool)
        roles = ["neg", "nonneg", UNKNOWN_GROUP]
        self.rng.shuffle(roles)
        text_of = {"neg": negative, "nonneg": non_negative, UNKNOWN_GROUP: unknown}
        answers = [text_of[role] for role in roles]

        # Step 17, by placeholder rather than by substring.
        slot_word = {1: [name1, info1], 2: [name2, info2]}
        raw_of = {"neg": row.answer_negative, "nonneg": row.answer_non_negative}
        answer_info: dict[str, list[str]] = {}
        for index, role in enumerate(roles):
            if role == UNKNOWN_GROUP:
                answer_info[f"ans{index}"] = [unknown, UNKNOWN_GROUP]
            else:
                slot = _answer_slot(raw_of[role])
                answer_info[f"ans{index}"] = list(slot_word[slot]) if slot else ["", ""]

        self.items.extend(
            four_items(
                len(self.items),
                question_index=row.q_id,
                category=self.category,
                answer_info=answer_info,
                metadata={
                    "subcategory": row.subcategory if row.subcategory is not None else "None",
                    "stereotyped_groups": list(row.stereotyped_groups),
                    "version": row.version,
                    "source": row.notes,
                },
                contexts=contexts,
                questions=questions,
                answers=answers,
                unknown=unknown,
                text_of=text_of,
            )
        )


def _validate_pool(unknown_pool: Sequence[str]) -> list[str]:
    if isinstance(unknown_pool, str) or not unknown_pool:
        raise InputError(
            "the unknown pool must be a non-empty list of phrasings", field="unknown_pool"
        )
    if not all(isinstance(text, str) and text.strip() for text in unknown_pool):
        raise InputError("every unknown phrasing must be a non-empty string", field="unknown_pool")
    duplicates = sorted({text for text in unknown_pool if list(unknown_pool).count(text) > 1})
    if duplicates:
        return [
            f"unknown pool repeats {', '.join(map(repr, duplicates))}; repeated phrasings are "
            "drawn more often"
        ]
    return []


def generate_items(
    template_csv: Path,
    category: str,
    labels_csv: Path,
    names_csv: Path,
    *,
    seed: int,
    unknown_pool: Sequence[str],
    style: Style,
    apply_subcategory_filter: bool = True,
) -> GenerationResult:
    """Generate every item of one category from its template CSV, fully in memory.

    ``category`` is the run's category name (e.g. ``Sexual_orientation``); the CSV's own
    ``Category`` column is ignored. ``seed`` seeds the one :class:`random.Random` that makes
    every draw, so equal inputs and seed give identical items. ``style="filbbq"`` honours
    FilBBQ's ``Invalid_Partners`` column; ``"bbq"`` ignores it, like the original generator.
    ``apply_subcategory_filter=False`` drops the Subcategory restriction (the
    ``subcategory`` metadata is still written): FilBBQ's 17 adult/child gender templates then
    yield items instead of none. Raises :class:`InputError` (file, line, field) on bad input.
    """
    if style not in ("filbbq", "bbq"):
        raise InputError(f"unknown style {style!r}; expected 'filbbq' or 'bbq'", field="style")
    warnings = _validate_pool(unknown_pool)
    template_file = read_template_csv(template_csv, reference_quirks=style == "bbq")
    labels = read_label_vocabulary(labels_csv)
    names = read_name_vocabulary(names_csv)
    generator = _CategoryGenerator(
        category, labels, names, random.Random(seed), unknown_pool, style, apply_subcategory_filter
    )
    warnings.extend(template_file.warnings)
    if style == "bbq" and any(row.invalid_partners for row in template_file.rows):
        warnings.append(
            f"{template_csv}: Invalid_Partners is ignored in style 'bbq' (use "
            "style 'filbbq' to honour it)"
        )
    row_counts = []
    for row in template_file.rows:
        count = generator.generate_row(row)
        row_counts.append(count)
        if count.items == 0:
            warnings.append(f"{row.where}: template {row.q_id} yields no items: {count.reason}")
    warnings.extend(generator.warnings)
    log_warnings(
        Path(template_csv).name,
        warnings,
        [
            row.q_id
            for row, count in zip(template_file.rows, row_counts, strict=True)
            if count.items == 0
        ],
    )
    return GenerationResult(category, seed, generator.items, row_counts, warnings)


def log_warnings(source: str, warnings: Sequence[str], empty_templates: Sequence[str]) -> None:
    """One warning line with the count (templates that yield nothing named, up to five); each
    message in full at INFO (``biasbench -v``) and in :attr:`GenerationResult.warnings`.
    FilBBQ's gender templates alone gave 17 lines of ~330 characters on every command."""
    for message in warnings:
        logger.info("%s", message)
    if not warnings:
        return
    named = ", ".join(empty_templates[:5]) + (
        f" and {len(empty_templates) - 5} more" if len(empty_templates) > 5 else ""
    )
    empty = f"; {len(empty_templates)} template rows yield no items ({named})" if named else ""
    logger.warning(
        "%s: %d generator warning%s%s; biasbench -v shows each",
        source,
        len(warnings),
        "" if len(warnings) == 1 else "s",
        empty,
    )
