"""``--limit N`` for BBQ-format benchmarks: a deterministic sample stratified across category x
context condition x question polarity, and spread over templates.

Taking the first N items of a BBQ file gives one template's negative, ambiguous items first
(``--limit 200`` on the original BBQ gave 200 negative-polarity items and no disambiguated score
in 4 of 6 categories). Instead, items are taken in rounds:

* round p takes the p-th item of every template (so any N >= the number of templates covers
  every template), templates interleaved across categories (category A's first template,
  category B's first, ..., A's second, ...), so a small N spreads evenly over categories;
* a category's picks, in order, cycle through the four cells (ambig, neg), (disambig, nonneg),
  (ambig, nonneg), (disambig, neg), so any number of them is spread over the cells to within
  one, and two picks already give both conditions and both polarities.

So below the number of templates every category x cell gets an equal share (to within one);
past it every template is covered (per-template scores need it) and the categories' shares
follow their template counts, each still spread evenly over its cells.

No randomness is involved: the same items and N give the same sample. The sample keeps the
items' original order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from biasbench.engines.bbq_family.items.items import BBQItem

CELLS: Final = (("ambig", "neg"), ("disambig", "nonneg"), ("ambig", "nonneg"), ("disambig", "neg"))
"""Context condition x polarity, ordered so that any two consecutive cells differ in both."""

LIMIT_HELP: Final = (
    "Run N items, stratified: every category x context condition x question "
    "polarity gets an equal share, spread over templates (deterministic)."
)
"""The CLI's help for ``--limit`` on BBQ-format benchmarks."""

Item = TypeVar("Item", bound=BBQItem)


def _template_sequence(
    items: list[tuple[int, Item]], rank: int, n_templates: int, shift: int = 0
) -> list[int]:
    """One template's item positions in pick order. Round k asks for cell
    ``(k * n_templates + rank) mod 4``: counted over its category's picks in order (round by
    round, template by template) that is a running cycle, so any prefix of a category's picks
    is balanced over the cells to within one. An exhausted cell yields to the next one."""
    queues: dict[tuple[str, str], list[int]] = {cell: [] for cell in CELLS}
    for position, item in items:
        queues.setdefault((item.context_condition, item.question_polarity), []).append(position)
    cells = list(queues)
    taken = dict.fromkeys(cells, 0)
    order: list[int] = []
    for k in range(len(items)):
        wanted = (k * n_templates + rank + shift) % len(CELLS)
        for offset in range(len(cells)):
            cell = cells[(wanted + offset) % len(cells)]
            if taken[cell] < len(queues[cell]):
                order.append(queues[cell][taken[cell]])
                taken[cell] += 1
                break
    return order


def stratified_order(items: Sequence[Item]) -> list[int]:
    """Every item position in the order :func:`stratified_sample` takes them."""
    templates: dict[tuple[str, str], dict[str, list[tuple[int, Item]]]] = {}
    for position, item in enumerate(items):
        templates.setdefault((item.category, item.namespace), {}).setdefault(
            item.question_index, []
        ).append((position, item))
    # Items of several namespaces (languages): a category's namespaces are interleaved, so a
    # small N takes the same (parallel) items in every language before the next category.
    category_order = {c: i for i, c in enumerate(dict.fromkeys(i.category for i in items))}
    namespace_order = {n: i for i, n in enumerate(dict.fromkeys(i.namespace for i in items))}
    keys = sorted(templates, key=lambda k: (category_order[k[0]], namespace_order[k[1]]))
    ranked: list[tuple[int, int, int, int]] = []  # (round, template rank, category rank, pos)
    # ... and categories start on different cells, so a small N spread over many namespaces
    # still has both context conditions in each (one namespace: no shift, as always).
    shifted = len(namespace_order) > 1
    for category_rank, key in enumerate(keys):
        per_template = templates[key]
        shift = category_order[key[0]] if shifted else 0
        for template_rank, members in enumerate(per_template.values()):
            sequence = _template_sequence(members, template_rank, len(per_template), shift)
            for round_, position in enumerate(sequence):
                ranked.append((round_, template_rank, category_rank, position))
    ranked.sort()
    return [position for *_, position in ranked]


def stratified_sample(items: Sequence[Item], n: int | None) -> list[Item]:
    """``n`` items stratified across category x context condition x polarity and templates
    (all items when ``n`` is None, 0 or at least their number), in their original order."""
    if not n or n >= len(items):
        return list(items)
    chosen = sorted(stratified_order(items)[:n])
    return [items[position] for position in chosen]
