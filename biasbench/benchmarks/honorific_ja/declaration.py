"""What the CLI reads of honorific-ja without loading it: name, paper, options, commands.
Light on purpose: no pandas, no judge, no analyser."""

from __future__ import annotations

from biasbench.engines.honorific.declaration import honorific_declaration
from biasbench.registry.interface import Paper

DECLARATION = honorific_declaration(
    "honorific-ja",
    "ja",
    "Japanese",
    Paper(
        "Who Receives Respect? Honorific allocation bias, honorific-bn's question asked in "
        "Japanese",
        "after Abrar, Hasan, Mahmud, arXiv 2610.14769 (honorific-bn)",
        "https://arxiv.org/abs/2610.14769",
    ),
    # The definition (occupation terms, prompt, mock sentences) and the judge are written for
    # biasbench; the English sentences are honorific-bn's.
    licence=(
        "MIT: biasbench's own definition; the English sentences are honorific-bn's "
        "(licence unknown)"
    ),
    docs_page="docs/benchmarks/honorific-ja.md",
    benchmark=".benchmark:JapaneseBenchmark",
)
