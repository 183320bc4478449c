"""The toy language's declaration (what ``list`` and ``--help`` read)."""

from biasbench.engines.honorific.declaration import honorific_declaration
from biasbench.registry.interface import Paper

DECLARATION = honorific_declaration(
    "honorific-zz",
    "zz",
    "Toy",
    Paper("A toy language of the honorific engine's tests", "tests", ""),
    items="224",
)

DECLARATION_72 = honorific_declaration(
    "honorific-zy",
    "zy",
    "Toy72",
    Paper("The toy language with honorific-bn's 72 occupations", "tests", ""),
)
