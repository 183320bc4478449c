"""The engine's alternatives to a benchmark's one prompt (for ``--vary prompt`` where a dataset
publishes a single prompt): the same words laid out otherwise, so the alternatives exist in every
language without a translation.

* ``published``: the prompt file as it is (what a plain run sends);
* ``lines``: each answer option on a line of its own (the option labels ``A.``, ``(B)`` ... and
  the text before them kept; only the spaces before a label become a line break).

A layout that leaves the prompt unchanged (no option label found before an option) is not
offered.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from biasbench.engines.bbq_family.prompting.prompt_files import PromptField, PromptTemplate

PUBLISHED: Final = "published"
LINES: Final = "lines"
_LABEL_AT_END = re.compile(r"(?P<space>[ \t]*)(?P<label>\(?[ABCabc]\)?[.:)]?[ \t]*)$")


def lines_template(template: PromptTemplate) -> PromptTemplate:
    """``template`` with a line break before the label of every option (``ans0``-``ans2``)."""
    parts = list(template.parts)
    for index, part in enumerate(parts):
        following = parts[index + 1] if index + 1 < len(parts) else None
        if (
            isinstance(part, str)
            and isinstance(following, PromptField)
            and following.name in ("ans0", "ans1", "ans2")
        ):
            match = _LABEL_AT_END.search(part)
            if match:
                head = part[: match.start()]
                parts[index] = f"{head}\n{match['label']}"
    return PromptTemplate(
        tuple(parts), f"{template.source} ({LINES})", f"{template.sha256}:{LINES}"
    )


@lru_cache(maxsize=64)
def engine_variants(template: PromptTemplate) -> dict[str, PromptTemplate]:
    """The engine's variants of ``template``, by name, the published one first."""
    found = {PUBLISHED: template}
    lines = lines_template(template)
    if lines.parts != template.parts:
        found[LINES] = lines
    return found
