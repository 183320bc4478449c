"""What the CLI reads of honorific-bn without loading it: name, paper, options, commands.

Light on purpose (no pandas, scipy or model code): ``biasbench list``, ``--help`` and
``run honorific-bn --help`` import only this module (docs/architecture.md). The options and
commands (``classify``, ``annotate export|agree``) are the honorific engine's.
"""

from __future__ import annotations

from biasbench.engines.honorific.declaration import honorific_declaration
from biasbench.registry.interface import Paper

DECLARATION = honorific_declaration(
    "honorific-bn",
    "bn",
    "Bengali",
    Paper(
        "Who Receives Respect? A Counterfactual Benchmark for Honorific Allocation Bias in Bengali",
        "Abrar, Hasan, Mahmud, arXiv 2610.14769",
        "https://arxiv.org/abs/2610.14769",
    ),
    # The paper: "publicly available" on GitHub; the repository's licence was not checked.
    licence="unknown (ajwad-abrar/bangla-honorific-eval)",
    docs_page="docs/benchmarks/honorific-bn.md",
    benchmark=".benchmark:HonorificBenchmark",
    data_help=(
        "Write the honorific-bn items (2,016 with the packaged definition) and report "
        "inconsistencies."
    ),
)
