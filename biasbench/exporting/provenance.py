"""The dataset's licence and terms, carried by every exported record, and the refusal to put
items on a public hub when their terms forbid redistribution.

The licence and terms are the benchmark's :class:`~biasbench.registry.interface.Declaration`'s, as
its authors publish them. Items may be shared unless the terms say they are request-only or
that redistribution is prohibited (JBBQ); scores and counts may always be shared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from biasbench.errors import BiasbenchError

PUBLIC_FORMATS: tuple[str, ...] = ("eee", "hf-eval-results")
"""Formats made to be published on a shared hub (Every Eval Ever's datastore, a model
repository's ``.eval_results``): refused for data whose items may not be redistributed."""

_NOT_SHAREABLE = re.compile(
    r"request-only|redistribution prohibited|no redistribution", re.IGNORECASE
)
ITEM_FIELDS: tuple[str, ...] = ("input", "target", "choices", "item metadata text")
"""What a log or record leaves out when items cannot be shared."""


@dataclass(frozen=True)
class Provenance:
    """Where a run's items come from and what their authors allow."""

    benchmark: str
    licence: str
    """As the authors publish it; "not recorded" when the declaration has none."""
    terms: str
    """Conditions beyond the licence; "none stated" when the declaration has none."""

    @property
    def items_shareable(self) -> bool:
        """Whether item text may leave the user's machine (False: request-only data)."""
        return not _NOT_SHAREABLE.search(self.terms)

    def as_details(self) -> dict[str, str]:
        return {
            "dataset_licence": self.licence,
            "dataset_terms": self.terms,
            "items_shareable": str(self.items_shareable).lower(),
        }


def provenance_of(benchmark: str) -> Provenance:
    """The licence and terms ``benchmark``'s declaration states (a benchmark the registry does
    not know: both unknown, items treated as shareable only if nothing says otherwise)."""
    from biasbench.registry import declaration

    try:
        found = declaration(benchmark)
    except (KeyError, BiasbenchError):
        return Provenance(benchmark, "unknown (not a registered benchmark)", "unknown")
    return Provenance(benchmark, found.licence or "not recorded", found.terms or "none stated")


def refuse_public(provenance: Provenance, fmt: str) -> None:
    """One line refusing a public-hub format for items that may not be redistributed."""
    if fmt in PUBLIC_FORMATS and not provenance.items_shareable:
        raise BiasbenchError(
            f"--format {fmt} is for public hubs and {provenance.benchmark}'s data may not be "
            f"redistributed ({provenance.terms}); export its scores with --format csv or "
            "parquet, or --format inspect for your own viewer (item text left out)"
        )
