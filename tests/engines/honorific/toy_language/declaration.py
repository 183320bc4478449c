"""The toy language's declaration (what ``list`` and ``--help`` read)."""

from biasbench.benchmarks.base import Paper
from biasbench.engines.honorific.declaration import honorific_declaration

DECLARATION = honorific_declaration(
    "honorific-zz", "zz", "Toy", Paper("A toy language of the honorific engine's tests", "tests",
                                        ""), items="224")
