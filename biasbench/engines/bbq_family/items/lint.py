"""A data lint for BBQ-format items: what in a dataset skews or silently shrinks its scores.

Findings (docs/bbq-engine/data-lint.md), each with a count and examples:

* ``invalid_row`` -- a published row that is not a valid item, with file, line, field and
  reason (every one, not only the first); it is skipped, unless a run is strict;
* ``duplicate_options`` -- two options of one item with the same text (compared trimmed and
  case-folded): an answer naming that text cannot be told apart;
* ``unknown_position`` -- how often the unknown option stands first, second and third; flagged
  when one position holds more than :data:`POSITION_SHARE_LIMIT` of at least
  :data:`POSITION_MIN_ITEMS` items (BBQ shuffles
  the options, so a model that favours one position would otherwise pass for (un)biased);
* ``target_is_unknown`` -- the published target (or the target BBQ's rule finds) is the
  unknown option: the item cannot be scored for bias;
* ``missing_polarity_pair`` / ``missing_context_pair`` -- an item whose counterpart with the
  other question polarity / the other context condition is missing: BBQ's scores assume both
  halves of each pair, so a lone half tilts them. Items are paired on (namespace, category,
  template, the two non-unknown options' answer_info words).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from biasbench.engines.bbq_family.items.items import BBQItem, SkippedRow
from biasbench.engines.bbq_family.items.published import fold

POSITION_SHARE_LIMIT: Final = 0.5
"""A position holding more than half of the unknown options is flagged (a balanced dataset
holds a third in each)..."""
POSITION_MIN_ITEMS: Final = 30
"""... among at least this many items: in fewer, more than half in one of three positions happens
by chance too often (uniform placement: about 15% of 16-item slices, 6% at 30, 1.5% at 50)."""
EXAMPLES: Final = 5
"""Examples named per finding in the one-line summary (results.json lists every one)."""


@dataclass(frozen=True)
class Finding:
    """One kind of defect, with every item or row it was found in."""

    kind: str
    message: str
    where: tuple[str, ...] = ()
    """Item uids, or ``file:line`` of skipped rows."""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.where)

    def line(self) -> str:
        shown = ", ".join(self.where[:EXAMPLES])
        more = f" and {self.count - EXAMPLES} more" if self.count > EXAMPLES else ""
        return f"{self.kind}: {self.message}" + (f" ({shown}{more})" if shown else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "count": self.count,
            "where": list(self.where),
            **self.details,
        }


@dataclass(frozen=True)
class LintReport:
    """Every finding of one item set (empty: nothing found)."""

    n_items: int
    findings: tuple[Finding, ...]
    unknown_positions: dict[int, int]

    def kinds(self) -> list[str]:
        return [f.kind for f in self.findings]

    def finding(self, kind: str) -> Finding | None:
        return next((f for f in self.findings if f.kind == kind), None)

    def lines(self) -> list[str]:
        head = f"data lint: {self.n_items} items, unknown option at positions 1/2/3: " + "/".join(
            str(self.unknown_positions.get(i, 0)) for i in range(3)
        )
        if not self.findings:
            return [f"{head}; no findings"]
        return [
            f"{head}; {len(self.findings)} finding(s):",
            *(f"  {f.line()}" for f in self.findings),
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_items": self.n_items,
            "unknown_positions": [self.unknown_positions.get(i, 0) for i in range(3)],
            "findings": [f.to_dict() for f in self.findings],
        }


def _pair_key(item: BBQItem) -> tuple[str, ...]:
    # answer_info's words, not the options' text: Basque inflects the options between the two
    # questions of a pair (BasqBBQ "Biloba" / "Bilobak"), answer_info keeps the lemma.
    groups = sorted(
        fold((item.answer_info.get(f"ans{i}") or [item.answers[i]])[0])
        for i in range(3)
        if i != item.unknown_index
    )
    # pair_id: a dataset without template ids names its pairs itself (GG-BBQ)
    pair = str(item.additional_metadata.get("pair_id") or item.question_index)
    return (item.namespace, item.category, pair, *groups)


def _published_target(item: BBQItem) -> int | None:
    published = item.additional_metadata.get("published_target")
    return int(published) if isinstance(published, int) else item.target_answer


def lint_items(items: Sequence[BBQItem], skipped: Iterable[SkippedRow] = ()) -> LintReport:
    """The lint of ``items`` (and of the rows a reader skipped)."""
    findings: list[Finding] = []
    skipped = list(skipped)
    if skipped:
        reasons = Counter(s.reason for s in skipped)
        findings.append(
            Finding(
                "invalid_row",
                f"{len(skipped)} row(s) skipped, not valid items (most common: "
                f"{reasons.most_common(1)[0][0]})",
                tuple(f"{s.file}:{s.line}" for s in skipped),
                {"rows": [s.to_dict() for s in skipped]},
            )
        )
    duplicates = [item.uid for item in items if len({fold(a) for a in item.answers}) < 3]
    if duplicates:
        findings.append(
            Finding("duplicate_options", "two options with the same text", tuple(duplicates))
        )
    positions = Counter(item.unknown_index for item in items if item.unknown_index is not None)
    no_unknown = [item.uid for item in items if item.unknown_index is None]
    if no_unknown:
        findings.append(
            Finding("no_unknown_option", "no option is labelled unknown", tuple(no_unknown))
        )
    findings.extend(_position_findings(items))
    target_unknown = []
    for item in items:
        published = _published_target(item)
        if item.unknown_index is None:
            continue
        if published is not None:
            if published == item.unknown_index:
                target_unknown.append(item.uid)
        elif item.stereotyped_groups and item.unknown_index in _label_matches(item):
            target_unknown.append(item.uid)
    if target_unknown:
        findings.append(
            Finding("target_is_unknown", "the target is the unknown option", tuple(target_unknown))
        )
    findings.extend(_missing_pairs(items))
    return LintReport(
        len(items), tuple(findings), {k: v for k, v in positions.items() if k is not None}
    )


ALL_ITEMS: Final = "all items"


def _position_findings(items: Sequence[BBQItem]) -> list[Finding]:
    """The unknown option's positions over all items and per category (per namespace and
    category in a run of several): a lopsided category hides in a balanced whole."""
    slices: dict[str, Counter[int]] = defaultdict(Counter)
    for item in items:
        if item.unknown_index is None:
            continue
        slices[ALL_ITEMS][item.unknown_index] += 1
        name = f"{item.namespace}/{item.category}" if item.namespace else item.category
        slices[name][item.unknown_index] += 1
    flagged: dict[str, list[int]] = {}
    for name, counts in slices.items():
        total = sum(counts.values())
        if total >= POSITION_MIN_ITEMS and max(counts.values()) / total > POSITION_SHARE_LIMIT:
            flagged[name] = [counts.get(i, 0) for i in range(3)]
    if not flagged:
        return []
    worst = max(flagged, key=lambda n: max(flagged[n]) / sum(flagged[n]))
    counts = flagged[worst]
    top = counts.index(max(counts))
    return [
        Finding(
            "unknown_position",
            f"the unknown option stands mostly in one place (worst: {worst}, "
            f"option {top + 1} in {counts[top]} of {sum(counts)}, "
            f"{counts[top] / sum(counts):.0%}; balanced: 33% each)",
            tuple(flagged),
            {"positions": flagged},
        )
    ]


def _label_matches(item: BBQItem) -> list[int]:
    """Options (the unknown one included) whose label or text is a stereotyped group."""
    stereotyped = {fold(g) for g in item.stereotyped_groups}
    return [
        i
        for i in range(3)
        if fold(item.answer_group(i)) in stereotyped or fold(item.answers[i]) in stereotyped
    ]


def _missing_pairs(items: Sequence[BBQItem]) -> list[Finding]:
    cells: dict[tuple[str, ...], dict[tuple[str, str], list[str]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for item in items:
        cells[_pair_key(item)][(item.context_condition, item.question_polarity)].append(item.uid)
    lone_polarity: list[str] = []
    lone_context: list[str] = []
    flip_polarity = {"neg": "nonneg", "nonneg": "neg"}
    flip_context = {"ambig": "disambig", "disambig": "ambig"}
    for cell in cells.values():
        for (context, polarity), uids in cell.items():
            if (context, flip_polarity[polarity]) not in cell:
                lone_polarity.extend(uids)
            if (flip_context[context], polarity) not in cell:
                lone_context.extend(uids)
    out = []
    if lone_polarity:
        out.append(
            Finding(
                "missing_polarity_pair",
                "no item with the other question polarity "
                "(same template and groups, same context condition)",
                tuple(lone_polarity),
            )
        )
    if lone_context:
        out.append(
            Finding(
                "missing_context_pair",
                "no item with the other context condition "
                "(same template and groups, same polarity)",
                tuple(lone_context),
            )
        )
    return out


def summary_lines(lint: dict[str, Any]) -> list[str]:
    """The lint as a run's summary shows it, from results.json's ``data_lint``."""
    findings = lint.get("findings") or []
    if not findings:
        return []
    lines = [
        f"data lint: {len(findings)} finding(s) in {lint.get('n_items', 0)} items "
        "(results.json: data_lint; docs/bbq-engine/data-lint.md)"
    ]
    for finding in findings:
        where = finding.get("where") or []
        shown = ", ".join(where[:EXAMPLES])
        more = f" and {len(where) - EXAMPLES} more" if len(where) > EXAMPLES else ""
        lines.append(
            f"  {finding['kind']}: {finding['message']}" + (f" ({shown}{more})" if shown else "")
        )
    return lines


def lint_files(paths: Iterable[str | Path]) -> LintReport:
    """The lint of item files in any published format biasbench reads (``NAMESPACE=FILE``
    gives a file's items a namespace, so several languages lint together)."""
    from biasbench.engines.bbq_family.items.published import ReadResult, read_published_file

    result = ReadResult()
    for entry in paths:
        namespace, _, file = str(entry).rpartition("=") if "=" in str(entry) else ("", "", entry)
        result.extend(read_published_file(Path(file), namespace=namespace))
    return lint_items(result.items, result.skipped)
