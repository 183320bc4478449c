"""``mbbq``: MBBQ (Neplenbroek et al., COLM 2024; ``Veranep/MBBQ``) in English, Spanish, Dutch
and Turkish, with its control sets, in one run.

Only what is this benchmark's own lives here: where its items come from (the authors' files,
pinned, checksummed and cached, or a local copy, read as their ``mbbq.py`` reads them:
:mod:`biasbench.benchmarks.mbbq.source`), the authors' prompt in each language, greedy decoding
as theirs, its options, its paper, and the control-set comparison
(:mod:`biasbench.benchmarks.mbbq.control`). Items are namespaced ``mbbq/<lang>`` and
``mbbq-control/<lang>``, so the engine scores every (language, set, category) apart and adds
the cross-language table and figure.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from biasbench.benchmarks.mbbq.control import (
    control_comparison,
    control_lines,
    paired_differences,
    write_control,
)
from biasbench.benchmarks.mbbq.declaration import DECLARATION
from biasbench.benchmarks.mbbq.prompts import DEFAULT_VARIANT, author_prompt
from biasbench.benchmarks.mbbq.source import (
    CATEGORIES,
    CONTROL,
    LANGUAGES,
    MAIN,
    MBBQ_COMMIT,
    MBBQ_REPOSITORY,
    NAMESPACE_PREFIX,
    PROMPT_FILE,
    SETS,
    load_mbbq_items,
    namespace,
    resolve_mbbq_data,
    wanted_files,
)
from biasbench.engines.bbq_family.family import PromptedBBQBenchmark, choose_categories
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.languages import rules_for
from biasbench.engines.bbq_family.prompting.prompt_files import PromptTemplate, load_prompt_file
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults
from biasbench.errors import BiasbenchError
from biasbench.models.base import Prompt
from biasbench.registry.interface import Options, Results
from biasbench.runfolder import TABLES_DIR

if TYPE_CHECKING:
    from biasbench.display import Section
    from biasbench.runfolder.grouping import RunGroup

logger = logging.getLogger(__name__)

DECODING_WHY = (
    "MBBQ's mbbq.py decodes greedily (do_sample=False, num_beams=1, max_new_tokens=100), one "
    "run per model and prompt, so biasbench decodes greedily (temperature 0) under one seed "
    "unless --temperature/--seeds say otherwise"
)


def _languages(text: str | None) -> tuple[str, ...]:
    if not text:
        return LANGUAGES
    chosen = tuple(dict.fromkeys(code.strip() for code in text.split(",") if code.strip()))
    unknown = [code for code in chosen if code not in LANGUAGES]
    if unknown or not chosen:
        raise BiasbenchError(
            f"unknown MBBQ language(s) {', '.join(unknown) or text!r} "
            f"(MBBQ has {', '.join(LANGUAGES)})"
        )
    return chosen


class MBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """MBBQ and its control sets in en/es/nl/tr; the authors' prompt per language; greedy."""

    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    control_datasets: ClassVar[dict[str, str]] = {NAMESPACE_PREFIX[MAIN]: NAMESPACE_PREFIX[CONTROL]}
    prompt_files = {code: PROMPT_FILE.format(language=code) for code in LANGUAGES}
    """The packaged prompt of each language: the authors' third prompt, in their translation."""

    def __init__(self, options: Options) -> None:
        languages, categories = options.languages, options.categories
        set, data, prompt_variant = options.set, options.data, options.prompt_variant  # noqa: A001
        self.chosen_languages = _languages(languages)
        self.sets = SETS if set == "both" else (set,)
        chosen_categories = choose_categories(categories, CATEGORIES, "MBBQ")
        folder = resolve_mbbq_data(
            data, wanted_files(self.chosen_languages, self.sets, chosen_categories)
        )
        load = load_mbbq_items(folder, self.chosen_languages, self.sets, chosen_categories)
        self.load = load
        for line in load.count_lines():
            logger.info("MBBQ items %s", line)
        # The default prompt is the packaged file (the authors' third, verbatim); the others
        # are built from the authors' strings.
        self.prompt_variant = prompt_variant
        self.prompts: dict[str, PromptTemplate] = {
            code: (
                load_prompt_file(self.packaged_prompt(code))
                if prompt_variant == DEFAULT_VARIANT
                else author_prompt(code, prompt_variant)
            )
            for code in self.chosen_languages
        }
        data_source: dict[str, Any] = {
            "items": "published",
            "repository": MBBQ_REPOSITORY,
            "commit": MBBQ_COMMIT,
            "languages": list(self.chosen_languages),
            "sets": list(self.sets),
            "prompt_variant": prompt_variant,
        }
        super().__init__(
            load.items,
            source=(
                f"published items of {MBBQ_REPOSITORY}@{MBBQ_COMMIT[:12]} "
                f"({','.join(self.chosen_languages)}; {'+'.join(self.sets)})"
            ),
            data_source=data_source,
        )

    @property
    def prompt_hash(self) -> str:
        joined = "".join(f"{code}:{self.prompts[code].sha256}" for code in sorted(self.prompts))
        return hashlib.sha256(joined.encode()).hexdigest()[:12]

    def prompt(self, item: BBQItem) -> Prompt:
        """The authors' prompt in the item's language as the user turn (mbbq.py sends it
        through the chat template as is); it ends with the answer cue ("Respuesta:"), which a
        base model continues. The cue is the language's, from the language table: the word
        the authors' prompts end with (answer_detection.py ``trans_prompt_dict``)."""
        return self._authors_prompt(item, self.prompts[item.language or "en"])

    def prompt_variants(self) -> tuple[str, ...]:
        """The authors' five prompts (the one asked for first), in each item's language."""
        return tuple(
            str(v)
            for v in (self.prompt_variant, *(v for v in range(1, 6) if v != self.prompt_variant))
        )

    def variant_prompt(self, item: BBQItem, variant: str) -> Prompt:
        language = item.language or "en"
        template = (
            self.prompts[language]
            if int(variant) == self.prompt_variant
            else author_prompt(language, int(variant))
        )
        return self._authors_prompt(item, template)

    def _authors_prompt(self, item: BBQItem, template: PromptTemplate) -> Prompt:
        language = item.language or "en"
        text = template.render(item)
        cue = rules_for(language).answer_cue.lstrip("\n")
        completion = text if text.rstrip().endswith(cue) else f"{text}\n{cue}"
        return Prompt(messages=(("user", text),), completion=completion, item_id=item.uid)

    def extend_results(self, results: dict[str, Any], scored: BBQResults, out_dir: Path) -> None:
        """The items read per language, set and category, and the control-set comparison."""
        results["mbbq_items"] = {
            "counts": {
                f"{namespace(subset, code)}/{category}": n
                for (subset, code, category), n in self.load.counts.items()
            },
            "untargeted": {
                f"{namespace(subset, code)}/{category}": reasons
                for (subset, code, category), reasons in self.load.untargeted.items()
            },
            "note": "untargeted: items mbbq.py stores target_loc = 100 for (no single answer "
            "in the stereotyped groups), left out of every score",
        }
        comparison = control_comparison(
            results.get("by_language") or {}, paired_differences(scored, self.items)
        )
        if comparison:
            results["control_comparison"] = comparison
            write_control(comparison, out_dir / TABLES_DIR)

    @classmethod
    def report_section(cls, group: RunGroup, out: Path, section: Section) -> None:
        """The engine's section (with the cross-language view), then the control comparison."""
        from biasbench import display as ui
        from biasbench.benchmarks.mbbq.control import control_table

        super().report_section(group, out, section)
        frames = []
        for index, run in enumerate(group.runs):
            table = control_table(run.results.get("control_comparison") or {})
            if not table.empty:
                table["model"] = [group.model_names.get((index, str(m)), m) for m in table["model"]]
                frames.append(table)
        if frames:
            ui.Outputs(out, group.slug, section).table(
                pd.concat(frames, ignore_index=True),
                "control_comparison",
                "MBBQ vs its control set: accuracy per language",
                note="The control set names people instead of social groups, so its accuracy "
                "measures the task apart from bias; main - control < 0: the model answers "
                "worse when the contexts name groups.",
            )

    @classmethod
    def summary(cls, results: Results) -> list[str]:
        lines = super().summary(results)
        return lines + control_lines(results.get("control_comparison") or {})
