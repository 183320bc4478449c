"""What every BBQ-format benchmark declares alike, light enough for ``biasbench list`` and
``--help`` (no pandas, scipy or model code): the ``--limit`` and ``--responses`` help, the
engine's ``plot jitter`` command, the options every one of them takes (``--answer-by``,
``--option-score``, the robustness grid's), declared here once, and the ``--data``/``--prompt``
options of the family.

A BBQ-format benchmark's ``declaration.py`` builds its :class:`Declaration` with
:func:`bbq_declaration`; ``BBQBenchmark`` reads the same texts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family import cli
from biasbench.engines.bbq_family.judging.option_scoring import (
    ANSWER_BY,
    DEFAULT_ANSWER_BY,
    DEFAULT_OPTION_SCORE,
    OPTION_SCORES,
)
from biasbench.registry.interface import Command, Declaration, OptionSpec

LIMIT_HELP = (
    "stratified over category x context condition x question polarity, spread over "
    "templates, deterministic"
)
RESPONSES_HELP = (
    "JSONL: example_id, category, model, seed (optional), output or pred (the chosen option, "
    "0-2), and namespace or language where items of several languages are scored."
)
HARNESS_LOGS = ("lm-eval", "inspect")
"""The harnesses whose logs ``score NAME --from`` reads (:mod:`.harness_logs`)."""
FROM_HELP = (
    "read --responses as another harness's log and set its own metrics beside "
    "biasbench's: lm-eval (a samples_<task>_<date>.jsonl of --log_samples, or the "
    "--output_path folder holding them) or inspect (an eval log, .json or .eval)."
)
COMMANDS = (
    Command("jitter", cli.plot_jitter, group="plot", group_help="Figures from run folders."),
)
"""``plot jitter``: per-seed scores of one template across run folders."""


ANSWER_BY_OPTION = OptionSpec(
    "answer_by",
    str,
    DEFAULT_ANSWER_BY,
    "generate: the model writes its answer and the parser reads it; scores: the option whose "
    "text is likeliest after the prompt's answer cue (lm-eval's multiple-choice protocol; one "
    "seed, as scores are deterministic); auto: scores for base models that can score options "
    "(llamacpp, hf causal without --chat) and masked LMs, generate for chat models. In the "
    "signature.",
    choices=ANSWER_BY,
)
OPTION_SCORE_OPTION = OptionSpec(
    "option_score",
    str,
    DEFAULT_OPTION_SCORE,
    "answers by scores: choose options by per_char (log-likelihood per character, lm-eval's "
    "acc_norm) or sum (acc); both are reported.",
    choices=OPTION_SCORES,
)
ANSWER_OPTIONS = (ANSWER_BY_OPTION, OPTION_SCORE_OPTION)
"""How a run answers multiple choice, on every BBQ-format benchmark (applied by
``BBQBenchmark.configure``, not by each constructor)."""

TARGET_MATCHES = ("exact", "substring")
"""How an answer's group is matched to the stereotyped groups (scoring/target_rules.py)."""
DEFAULT_TARGET_MATCH = "exact"
READING_OPTIONS = (
    OptionSpec(
        "language_rules",
        str,
        None,
        "language pack file(s), comma-separated (TOML, docs/bbq-engine/language-packs.md): "
        "answer cues, native letters, numbered options, unknown wordings and refusals of "
        "a language the built-in packs lack, or in place of (with extends: added to) a "
        "built-in one; each pack's sha256 enters the signature.",
    ),
    OptionSpec(
        "target_match",
        str,
        DEFAULT_TARGET_MATCH,
        "exact: an answer is the target when its group label equals a stereotyped group "
        "(biasbench); substring: when the label occurs inside one (BBQ's R analysis). "
        "Both are computed and their disagreements shown; this picks the headline "
        "scores. In the signature.",
        choices=TARGET_MATCHES,
    ),
)
"""How a run's answers are read and scored, on every BBQ-format benchmark (applied by
``BBQBenchmark.configure``)."""


GRID_RUN_ONLY = (
    "the grid's cells (option order, prompt variant) are what the run asks the model, and "
    "responses produced elsewhere name no cell; to score a grid run's stored responses again, "
    "run the same biasbench run command: every answer comes from its store, none from the model"
)
"""Why ``biasbench score`` refuses the grid's options."""


GRID_OPTIONS = (
    OptionSpec(
        "vary",
        str,
        None,
        "a robustness grid: comma-separated factors to vary, of "
        "seeds (the run's --seeds), order (the answer options' order) and prompt (the "
        "dataset's prompt variants, else the engine's layouts); results.json gets "
        "robustness: means over the grid, a variance decomposition, position bias.",
        run_only=GRID_RUN_ONLY,
    ),
    OptionSpec(
        "orders",
        str,
        "all",
        "with --vary order: all 6 option orders, or the 3 cyclic "
        "ones (each option in each position once).",
        choices=("all", "cyclic"),
        run_only=GRID_RUN_ONLY,
    ),
    OptionSpec(
        "grid_budget",
        int,
        None,
        "with --vary: ask at most N grid cells (seed x order x "
        "prompt), sampled so that every level of each factor is used equally often.",
        run_only=GRID_RUN_ONLY,
    ),
)
"""The robustness grid's options, on every BBQ-format benchmark (applied by
``BBQBenchmark.configure``, not by each constructor)."""
CONFIGURED_OPTION_NAMES = tuple(
    spec.name for spec in (*ANSWER_OPTIONS, *READING_OPTIONS, *GRID_OPTIONS)
)
"""The options ``BBQBenchmark.configure`` applies after construction."""


def bbq_declaration(**fields: Any) -> Declaration:
    """A BBQ-format benchmark's declaration: its own ``fields`` plus what the engine gives
    every one of them (``--limit`` and ``--responses`` help, ``plot jitter``, ``--answer-by``
    and ``--option-score``, the robustness grid's options), after its own options."""
    fields["options"] = (
        *fields.get("options", ()),
        *ANSWER_OPTIONS,
        *READING_OPTIONS,
        *GRID_OPTIONS,
    )
    return Declaration(
        **{
            "limit_help": LIMIT_HELP,
            "responses_help": RESPONSES_HELP,
            "commands": COMMANDS,
            "harness_logs": HARNESS_LOGS,
            "harness_help": FROM_HELP,
            **fields,
        }
    )


STRICT_OPTION = OptionSpec(
    "strict",
    bool,
    False,
    "refuse the run when any item row is invalid (default: skip "
    "each with its reason; the data lint lists them in the summary and results.json)",
)
"""``--strict`` of the datasets read from their authors' files (``published_dataset.py``) and
of ``--items`` files."""


def data_option(what: str, env: str) -> OptionSpec:
    """``--data DIR``: a local copy of a dataset's folder (``what``), else ``$env``, else the
    cache or a pinned download."""
    return OptionSpec(
        "data",
        Path,
        None,
        f"local copy of {what} (default: ${env}, the cache, or a pinned download).",
    )


def prompt_option(default: str) -> OptionSpec:
    """``--prompt FILE``: another prompt file than the packaged ``default``."""
    return OptionSpec(
        "prompt",
        Path,
        None,
        f"a prompt file in the format of FilBBQ's prompt.txt (default: {default}).",
    )
