"""What every benchmark of the BBQ family shares besides the engine: a prompt read from a prompt
file in the dataset's language, the answer cue(s), and the options they all take.

A family benchmark subclasses :class:`PromptedBBQBenchmark`, loads its items (its own reader, the
pinned folder resolved by :func:`biasbench.engines.bbq_family.items.source.resolve_pinned_folder`), reads
its prompt with :meth:`~PromptedBBQBenchmark.use_prompt` and says with class attributes how the
prompt ends:

* ``base_model_cue``: appended for base (completion) models only, the chat turn ending with the
  options. By default it is the answer cue of the benchmark's language in the one language
  table (:data:`biasbench.engines.bbq_family.judging.languages.LANGUAGES`: BBQ's ``\\nAnswer:``,
  FilBBQ's ``\\nSagot:``, EsBBQ's ``\\nRespuesta:``, JBBQ's ``\\n答え：``), so a benchmark
  declares none;
* ``answer_cue``: an override, for authors who send their own cue to every model, chat and base
  alike (KoBBQ's ``\\n정답:``/``\\n답:`` per prompt, CBBQ's ``。答案：``); then base models get
  no second cue.

The prompt hash of the signature is the prompt file's sha256 (first 12 hex digits).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from biasbench.engines.bbq_family.benchmark import BBQBenchmark
from biasbench.engines.bbq_family.declaration import data_option as data_option
from biasbench.engines.bbq_family.declaration import prompt_option as prompt_option
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.source import choose_categories as choose_categories
from biasbench.engines.bbq_family.items.source import packaged_file as packaged_file
from biasbench.engines.bbq_family.judging.languages import LanguageRules, add_language, rules_for
from biasbench.engines.bbq_family.prompting.prompt_files import PromptTemplate, load_prompt_file
from biasbench.engines.bbq_family.prompting.variants import engine_variants
from biasbench.models.base import Prompt


class PromptedBBQBenchmark(BBQBenchmark):
    """A BBQ-format benchmark asked with a prompt file and answer cues (module docstring).

    Decoding defaults to one greedy run per model, as the family's papers report their models
    (FilBBQ's many-seed protocol overrides it); ``decoding_why`` says why for each dataset."""

    default_seed_count: ClassVar[int] = 1
    default_temperature: ClassVar[float] = 0.0

    answer_cue: str = ""
    """Appended to every prompt (chat and base models): the authors' own cue, an override."""
    base_model_cue: str | None = None
    """Appended for base (completion) models only; None: the answer cue of the prompt's
    language from the language table, unless ``answer_cue`` already ends every prompt."""
    prompt_template: PromptTemplate
    language_rules: ClassVar[tuple[LanguageRules, ...]] = ()
    """Languages new to the engine that the benchmark's data is in, defined in its own folder
    (e.g. ``benchmarks/NAME/languages.py``): each is added to the one language table when the
    class is defined, so the parser reads it and the prompt takes its answer cue from it. Better
    declared in its declaration (``Declaration.language_rules``, also added here): then the
    table knows them before the class is imported (``score bbq --items NS/LANG=FILE``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = getattr(cls.__dict__.get("declaration"), "language_rules", ())
        for rules in (*cls.__dict__.get("language_rules", ()), *declared):
            add_language(rules)

    prompt_files: ClassVar[Mapping[str, str]] = {}
    """Its packaged prompt files, as class data: key (a language, a prompt variant) -> a path
    below the folder of the class that declares them (``data/prompt_es.txt``), read by
    :meth:`packaged_prompt` (one lookup for every benchmark, not a helper each)."""

    @classmethod
    def packaged_prompt(cls, key: str) -> Path:
        """The packaged prompt file ``key`` of :attr:`prompt_files`."""
        owner = next(k for k in cls.__mro__ if "prompt_files" in k.__dict__)
        return packaged_file(owner.__module__.rpartition(".")[0], cls.prompt_files[key])

    def use_prompt(self, path: Path) -> None:
        """Read the prompt file every item is asked with."""
        self.prompt_template = load_prompt_file(path)

    @property
    def prompt_hash(self) -> str:
        return self.prompt_template.sha256[:12]

    @property
    def prompt_language(self) -> str:
        """The language the prompt is written in: the benchmark's (first) language."""
        return self.languages[0]

    def completion_cue(self) -> str:
        """What base models' prompts end with after ``answer_cue`` (module docstring)."""
        if self.base_model_cue is not None:
            return self.base_model_cue
        if self.answer_cue:
            return ""
        packs = getattr(self, "language_packs", None)  # a user's pack may bring the language
        return (
            packs.rules_for(self.prompt_language)
            if packs is not None
            else rules_for(self.prompt_language)
        ).answer_cue

    def prompt(self, item: BBQItem) -> Prompt:
        """The prompt as the one user turn; base models continue it after the answer cue."""
        return self._prompt_from(self.prompt_template, item)

    def _prompt_from(self, template: PromptTemplate, item: BBQItem) -> Prompt:
        text = template.render(item) + self.answer_cue
        return Prompt(
            messages=(("user", text),),
            completion=f"{text}{self.completion_cue()}",
            item_id=item.uid,
        )

    def prompt_variants(self) -> tuple[str, ...]:
        """The engine's layouts of the one prompt file (``prompting/variants.py``)."""
        return tuple(engine_variants(self.prompt_template))

    def variant_prompt(self, item: BBQItem, variant: str) -> Prompt:
        return self._prompt_from(engine_variants(self.prompt_template)[variant], item)
