"""Prompts in each BBQ dataset's language (issue 10, item 5).

Each language has a packaged prompt file ``data/prompt_<code>.txt`` in the format of FilBBQ's
``prompt.txt`` (string literals and ``row["field"]`` joined by ``+``; see
:func:`biasbench.benchmarks.filbbq.source.load_prompt_file`). Chat models get the rendered
prompt as the user turn; base (completion) models get it followed by :func:`answer_cue`
(``"\\nRespuesta:"``, ``"\\n정답:"``), as FilBBQ's base prompt ends with ``"\\nSagot:"``.
Where a dataset's authors publish an evaluation prompt, the file is theirs and says so in a
comment (MBBQ for es/nl/tr, KoBBQ prompt 1 for ko, CBBQ for zh).

The unknown option is shown in the dataset's language: EsBBQ and CaBBQ ship the literal
``"unknown"`` as the unknown option's text, and :func:`localise_unknown` rewrites it to
:func:`unknown_text` -- the first of the unknown wordings their authors' evaluation
(lm-evaluation-harness tasks ``esbbq``/``cabbq``) offers the model ("No hay suficiente
información", "No hi ha prou informació").
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Final

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.languages import LANGUAGES, language_code, rules_for
from biasbench.engines.bbq_family.prompting.prompt_files import PromptTemplate, load_prompt_file

PROMPT_LANGUAGES: Final = ("en", "es", "ca", "nl", "tr", "ko", "zh", "ja")
"""Languages with a packaged prompt. Filipino's prompt is FilBBQ's own ``prompt.txt``, which
comes with the authors' templates (``filbbq.source.load_prompt_template``)."""

UNKNOWN_PLACEHOLDERS: Final = frozenset({"unknown"})
"""Option texts that are a placeholder for the unknown answer rather than wording to show."""


def prompt_path(language: str) -> Path:
    """The packaged prompt file of ``language`` (``es``, ``ko``, ``zh-Hans`` ...)."""
    code = language_code(language)
    if code not in PROMPT_LANGUAGES:
        raise ValueError(f"no packaged prompt for {LANGUAGES[code].name} ({code}); packaged: "
                         f"{', '.join(PROMPT_LANGUAGES)} (Filipino uses FilBBQ's prompt.txt)")
    package = resources.files("biasbench.engines.bbq_family.prompting")
    return Path(str(package / "data" / f"prompt_{code}.txt"))


def prompt_for(language: str) -> PromptTemplate:
    """The chat prompt of ``language``; base models append :func:`answer_cue`."""
    return load_prompt_file(prompt_path(language))


def answer_cue(language: str) -> str:
    """What a base model's prompt ends with in ``language`` (``"\\nAnswer:"``, ``"答案："``)."""
    return rules_for(language).answer_cue


def unknown_text(language: str) -> str:
    """The canonical wording of the unknown option in ``language``."""
    return rules_for(language).unknown_text


def completion_prompt(template: PromptTemplate, item: BBQItem, language: str) -> str:
    """The base-model form: the rendered prompt followed by the language's answer cue."""
    return template.render(item) + answer_cue(language)


def localise_unknown(item: BBQItem, language: str) -> BBQItem:
    """``item`` with a placeholder unknown option (EsBBQ/CaBBQ's literal ``"unknown"``) shown
    as :func:`unknown_text`. The unknown option is found by its answer_info group, never by
    wording; an unknown option already worded in the language is left as it is."""
    index = item.unknown_index
    if index is None:
        return item
    text = item.answers[index]
    if text.strip().lower() not in UNKNOWN_PLACEHOLDERS:
        return item
    return item.model_copy(update={f"ans{index}": unknown_text(language)})
