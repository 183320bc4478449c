"""What the CLI reads of honorific-bn without loading it: name, paper, options, commands.

Light on purpose (no pandas, scipy or model code): ``biasbench list``, ``--help`` and
``run honorific-bn --help`` import only this module (docs/architecture.md).
"""

from __future__ import annotations

from pathlib import Path

from biasbench.benchmarks.honorific_bn import cli
from biasbench.registry.interface import Command, Declaration, OptionSpec, Paper

_ANNOTATE = "Human validation of the register judge."

DECLARATION = Declaration(
    name="honorific-bn",
    benchmark=".benchmark:HonorificBenchmark",
    languages=("en", "bn"),
    output_language="bn",
    paper=Paper(
        "Who Receives Respect? A Counterfactual Benchmark for Honorific Allocation Bias in "
        "Bengali", "Abrar, Hasan, Mahmud, arXiv 2610.14769", "https://arxiv.org/abs/2610.14769"),
    items_summary="2,016 (English sources, Bengali translations judged)",
    responses_help="JSONL: item_id, model, output, and optionally seed.",
    data_options=(
        OptionSpec("out", Path, None, "Where to write the items CSV."),
        OptionSpec("occupations", Path, None, "Your own occupations CSV (id,en,bn)."),
        OptionSpec("frames", Path, None, "Your own frames CSV."),
    ),
    data_help=("Write the honorific-bn items (2,016 with the packaged definition) and report "
               "inconsistencies."),
    # classify (the register judge on any Bengali text), annotate export|agree (human
    # validation of the judge)
    commands=(Command("classify", cli.classify),
              Command("export", cli.annotate_export, group="annotate", group_help=_ANNOTATE),
              Command("agree", cli.annotate_agree, group="annotate", group_help=_ANNOTATE)),
)
