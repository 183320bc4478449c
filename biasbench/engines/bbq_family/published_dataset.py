"""What the BBQ datasets read from their authors' published files share (``bharatbbq``,
``pakbbq``, ``ggbbq``, ``basqbbq``, ``gbfa``, ``pbbq``): items from a pinned source through a
row-tolerant reader (:mod:`biasbench.engines.bbq_family.items.published`), invalid rows skipped
and listed by the data lint unless the run is ``--strict``, and one prompt per language, each
ending in the authors' own answer cue (so no language table entry is needed for the prompt).
"""

from __future__ import annotations

import hashlib
import logging
import tomllib
from pathlib import Path
from typing import Any, ClassVar

from biasbench.engines.bbq_family.family import PromptedBBQBenchmark, packaged_file
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.published import ReadResult, refuse_skipped
from biasbench.engines.bbq_family.judging.languages import LANGUAGES, LanguagePacks
from biasbench.engines.bbq_family.prompting.prompt_files import PromptTemplate, load_prompt_file
from biasbench.engines.bbq_family.prompting.variants import engine_variants
from biasbench.errors import InputError
from biasbench.models.base import Prompt

log = logging.getLogger(__name__)

DECODING_WHY = (
    "the authors query each model once, greedily, so biasbench decodes greedily (temperature "
    "0) under one seed unless --temperature/--seeds say otherwise"
)


class PublishedBBQBenchmark(PromptedBBQBenchmark):
    """A BBQ dataset read from its published files, in one or more languages."""

    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    package: ClassVar[str]
    """The benchmark's package (its prompts are ``data/prompt_<lang>.txt`` there)."""
    answer_cues: ClassVar[dict[str, str]] = {}
    """Language -> the authors' answer cue ending every prompt in that language ("" for a
    prompt that ends in its own instruction)."""
    dataset_packs: ClassVar[tuple[str, ...]] = ()
    """Language packs in the benchmark's ``data/`` holding the authors' answer convention
    (PakBBQ's Urdu letters, BharatBBQ's numbered options): each extends a built-in pack, and
    the run reads answers with them (``language_packs``: their digests enter the signature)."""

    def init_published(
        self,
        result: ReadResult,
        languages: tuple[str, ...],
        *,
        source: str,
        data_source: dict[str, Any],
        strict: bool = False,
    ) -> None:
        """Load ``result`` (its skipped rows refused under ``strict``) with a prompt per
        language."""
        refuse_skipped(result, strict=strict)
        if not result.items:
            raise InputError(f"no valid items in {source}")
        self.prompts: dict[str, PromptTemplate] = {
            code: load_prompt_file(self.prompt_path(code)) for code in languages
        }
        self.prompt_template = self.prompts[languages[0]]
        self.answer_cue = self.answer_cues.get(languages[0], "")
        super().__init__(result.items, source=source, data_source=data_source)
        self.language_packs = self.own_packs()
        self.skipped_rows = list(result.skipped)
        if result.skipped:
            log.warning(
                "%d invalid row(s) skipped (the data lint lists them; --strict refuses "
                "them): first %s",
                len(result.skipped),
                result.skipped[0].line_text(),
            )

    @classmethod
    def own_packs(cls) -> LanguagePacks:
        """The dataset's packs. One that extends a language this biasbench has no built-in pack
        for is left out with a warning (the built-in packs it extends arrive with the packs
        for bn, hi, ur, fa, de and eu)."""
        usable = []
        for name in cls.dataset_packs:
            path = packaged_file(cls.package, f"data/{name}")
            base = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
            if base is not None and str(base).strip().lower() not in LANGUAGES:
                log.warning(
                    "%s not used: it extends %r, which has no built-in pack here", path.name, base
                )
                continue
            usable.append(path)
        return LanguagePacks.from_files(usable)

    @classmethod
    def prompt_path(cls, language: str) -> Path:
        return packaged_file(cls.package, f"data/prompt_{language}.txt")

    @property
    def prompt_hash(self) -> str:
        if len(self.prompts) == 1:
            return super().prompt_hash
        joined = "".join(f"{c}:{t.sha256}" for c, t in sorted(self.prompts.items()))
        return hashlib.sha256(joined.encode()).hexdigest()[:12]

    def completion_cue(self) -> str:
        return ""  # every prompt ends in the authors' own cue

    def _language_of(self, item: BBQItem) -> str:
        language = item.language or ""
        return language if language in self.prompts else next(iter(self.prompts))

    def prompt(self, item: BBQItem) -> Prompt:
        return self._prompt_from(self.prompts[self._language_of(item)], item)

    def variant_prompt(self, item: BBQItem, variant: str) -> Prompt:
        template = self.prompts[self._language_of(item)]
        return self._prompt_from(engine_variants(template)[variant], item)

    def _prompt_from(self, template: PromptTemplate, item: BBQItem) -> Prompt:
        text = template.render(item) + self.answer_cues.get(self._language_of(item), "")
        return Prompt(messages=(("user", text),), completion=text, item_id=item.uid)
