"""What a language folder declares, with the engine's defaults: the ``data`` options, the
responses format and the annotation commands every honorific language shares.

Light on purpose (no pandas, scipy or model code): ``list`` and ``--help`` read declarations.
"""

from __future__ import annotations

from pathlib import Path

from biasbench.engines.honorific import cli
from biasbench.registry.interface import Command, Declaration, OptionSpec, Paper

ANNOTATE_HELP = "Human validation of the register judge."
ANNOTATE_COMMANDS = (
    Command("export", cli.annotate_export, group="annotate", group_help=ANNOTATE_HELP),
    Command("agree", cli.annotate_agree, group="annotate", group_help=ANNOTATE_HELP),
)
"""``annotate export|agree``: one pair of commands for every language (the CLI adds a command
several declarations share once)."""
ENGINE_COMMANDS = (Command("classify", cli.classify), *ANNOTATE_COMMANDS)
"""``classify`` and ``annotate export|agree``, in every language's declaration."""


def honorific_declaration(
    name: str,
    language: str,
    target_language: str,
    paper: Paper,
    *,
    items: str = "2,016",
    commands: tuple[Command, ...] = (),
    licence: str = "",
    terms: str = "",
    docs_page: str = "",
    data_help: str = "",
    benchmark: str = "",
) -> Declaration:
    """The declaration of honorific benchmark ``name`` translating English into
    ``target_language`` (its code ``language``); ``benchmark`` names its class as
    ``"module:Class"`` (``".benchmark:HindiBenchmark"``: read against the declaring folder)."""
    return Declaration(
        name=name,
        benchmark=benchmark,
        languages=("en", language),
        output_language=language,
        paper=paper,
        items_summary=f"{items} (English sources, {target_language} translations judged)",
        responses_help="JSONL: item_id, model, output, and optionally seed.",
        data_options=(
            OptionSpec("out", Path, None, "Where to write the items CSV."),
            OptionSpec("occupations", Path, None, f"Your own occupations CSV (id,en,{language})."),
            OptionSpec("frames", Path, None, "Your own frames CSV."),
        ),
        data_help=data_help or f"Write the {name} items and report inconsistencies.",
        commands=(*commands, *ENGINE_COMMANDS),
        licence=licence,
        terms=terms,
        docs_page=docs_page or f"docs/benchmarks/honorific-{language}.md",
    )


LANGUAGES_DECLARATION = Declaration(
    name="honorific-languages",
    benchmark="biasbench.engines.honorific.languages:HonorificLanguagesBenchmark",
    languages=("en",),
    paper=Paper(
        "Who Receives Respect? A Counterfactual Benchmark for Honorific Allocation Bias in "
        "Bengali (its question, asked in several languages side by side)",
        "Abrar, Hasan, Mahmud, arXiv 2610.14769",
        "https://arxiv.org/abs/2610.14769",
    ),
    items_summary="2,016 per language (the same English items in each)",
    options=(
        OptionSpec(
            "benchmarks",
            str,
            "all",
            "Comma-separated honorific benchmarks to run side by side, e.g. "
            "honorific-bn,honorific-hi (the same English items in each); all: "
            "every registered one.",
        ),
    ),
    limit_help="the first N items of each language, in published order",
    licence="as each language's benchmark",
    docs_page="docs/benchmarks/honorific-languages.md",
    responses_help=(
        "JSONL: item_id, model, output, language (a language code or benchmark "
        "name; or an item_id written LANG/ITEM), and optionally seed."
    ),
)
"""Several honorific languages in one run (``biasbench run honorific-languages --benchmarks
honorific-bn,honorific-hi``) or one score: each language's statistics and the paired
differences between them."""
