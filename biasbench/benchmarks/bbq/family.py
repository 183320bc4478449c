"""What every benchmark of the BBQ family shares besides the engine: a prompt read from a prompt
file in the dataset's language, the answer cue(s), and the options they all take.

A family benchmark subclasses :class:`PromptedBBQBenchmark`, loads its items (its own reader, the
pinned folder resolved by :func:`biasbench.benchmarks.bbq.source.resolve_pinned_folder`), reads
its prompt with :meth:`~PromptedBBQBenchmark.use_prompt` and says with class attributes how the
prompt ends:

* ``answer_cue``: appended to every prompt, chat and base models alike (the authors send it to
  chat models too: KoBBQ's ``정답:``, CBBQ's ``。答案：``);
* ``base_model_cue``: appended for base (completion) models only, the chat turn ending with the
  options (BBQ's ``\\nAnswer:``, FilBBQ's ``\\nSagot:``, EsBBQ's ``\\nRespuesta:``).

The prompt hash of the signature is the prompt file's sha256 (first 12 hex digits).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.base import OptionSpec
from biasbench.benchmarks.bbq.benchmark import BBQBenchmark
from biasbench.benchmarks.bbq.items import BBQItem
from biasbench.benchmarks.bbq.prompt import PromptTemplate, load_prompt_file
from biasbench.errors import BiasbenchError
from biasbench.models.base import Prompt


def packaged_file(package: str, name: str) -> Path:
    """A file shipped in a benchmark's package (``data/prompt_zh.txt``)."""
    return Path(str(resources.files(package) / name))


def choose_categories(text: str | None, known: Sequence[str], dataset: str) -> tuple[str, ...]:
    """``--categories a,b``: the categories named (all of ``known`` when none is); an unknown
    name is one error line listing the known ones."""
    if not text:
        return tuple(known)
    chosen = tuple(c.strip() for c in text.split(",") if c.strip())
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise BiasbenchError(f"unknown {dataset} categories {', '.join(unknown)} (known: "
                             f"{', '.join(known)})")
    return chosen


def data_option(what: str, env: str) -> OptionSpec:
    """``--data DIR``: a local copy of a dataset's folder (``what``), else ``$env``, else the
    cache or a pinned download."""
    return OptionSpec("data", Path, None, f"local copy of {what} (default: ${env}, the cache, "
                      "or a pinned download).")


def prompt_option(default: str) -> OptionSpec:
    """``--prompt FILE``: another prompt file than the packaged ``default``."""
    return OptionSpec("prompt", Path, None, "a prompt file in the format of FilBBQ's prompt.txt "
                      f"(default: {default}).")


class PromptedBBQBenchmark(BBQBenchmark):
    """A BBQ-format benchmark asked with a prompt file and answer cues (module docstring).

    Decoding defaults to one greedy run per model, as the family's papers report their models
    (FilBBQ's many-seed protocol overrides it); ``decoding_why`` says why for each dataset."""

    default_seed_count: ClassVar[int] = 1
    default_temperature: ClassVar[float] = 0.0

    answer_cue: str = ""
    """Appended to every prompt (chat and base models)."""
    base_model_cue: str = ""
    """Appended for base (completion) models only."""
    prompt_template: PromptTemplate

    def use_prompt(self, path: Path) -> None:
        """Read the prompt file every item is asked with."""
        self.prompt_template = load_prompt_file(path)

    @property
    def prompt_hash(self) -> str:
        return self.prompt_template.sha256[:12]

    def prompt(self, item: BBQItem) -> Prompt:
        """The prompt as the one user turn; base models continue it after the answer cue."""
        text = self.prompt_template.render(item) + self.answer_cue
        return Prompt(messages=(("user", text),), completion=f"{text}{self.base_model_cue}",
                      item_id=item.uid)

