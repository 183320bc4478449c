"""What the CLI reads of honorific-hi and honorific-ur without loading them (one folder, two
benchmarks: ``DECLARATIONS``). Light on purpose: no pandas, no judge."""

from __future__ import annotations

from biasbench.engines.honorific.declaration import honorific_declaration
from biasbench.registry.interface import Paper

_AUTHORS = "after Abrar, Hasan, Mahmud, arXiv 2610.14769 (honorific-bn)"
_URL = "https://arxiv.org/abs/2610.14769"
# The definitions (occupation terms, prompt, mock sentences) and the judges are written for
# biasbench; the English sentences are honorific-bn's.
_LICENCE = (
    "MIT: biasbench's own definition; the English sentences are honorific-bn's (licence unknown)"
)

DECLARATIONS = (
    honorific_declaration(
        "honorific-hi",
        "hi",
        "Hindi",
        Paper(
            "Who Receives Respect? Honorific allocation bias, honorific-bn's question asked "
            "in Hindi",
            _AUTHORS,
            _URL,
        ),
        licence=_LICENCE,
        docs_page="docs/benchmarks/honorific-hi.md",
        benchmark=".benchmark:HindiBenchmark",
    ),
    honorific_declaration(
        "honorific-ur",
        "ur",
        "Urdu",
        Paper(
            "Who Receives Respect? Honorific allocation bias, honorific-bn's question asked "
            "in Urdu",
            _AUTHORS,
            _URL,
        ),
        licence=_LICENCE,
        docs_page="docs/benchmarks/honorific-ur.md",
        benchmark=".benchmark:UrduBenchmark",
    ),
)
