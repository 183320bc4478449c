"""--limit on BBQ-format items is stratified across category x condition x polarity."""

from __future__ import annotations

from collections import Counter

import pytest

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.sample import stratified_sample


def bbq_like(categories: dict[str, int], slottings: int = 10) -> list[BBQItem]:
    """Items in the release's order: per template, per slotting, the four cells
    (neg ambig, neg disambig, nonneg ambig, nonneg disambig)."""
    items = []
    for category, n_templates in categories.items():
        example_id = 0
        for template in range(1, n_templates + 1):
            for _ in range(slottings):
                for polarity in ("neg", "nonneg"):
                    for condition in ("ambig", "disambig"):
                        items.append(
                            BBQItem(
                                example_id=example_id,
                                question_index=str(template),
                                question_polarity=polarity,
                                context_condition=condition,
                                category=category,
                                context="c",
                                question="q",
                                ans0="a",
                                ans1="b",
                                ans2="Unknown",
                                label=2,
                                answer_info={
                                    "ans0": ["a", "a"],
                                    "ans1": ["b", "b"],
                                    "ans2": ["Unknown", "unknown"],
                                },
                            )
                        )
                        example_id += 1
    return items


ELEVEN = {
    "Age": 25,
    "Disability_status": 25,
    "Gender_identity": 50,
    "Nationality": 25,
    "Physical_appearance": 25,
    "Race_ethnicity": 50,
    "Race_x_SES": 25,
    "Race_x_gender": 25,
    "Religion": 25,
    "SES": 25,
    "Sexual_orientation": 25,
}


def test_first_n_would_be_one_cell() -> None:
    items = bbq_like(ELEVEN)
    head = items[:200]
    assert {i.category for i in head} == {"Age"}  # what --limit 200 did before


@pytest.mark.parametrize("n", [44, 200, 349])
def test_every_category_cell_is_represented_evenly(n: int) -> None:
    """Below the number of templates (350 here), every category x cell gets an equal share."""
    items = bbq_like(ELEVEN)
    chosen = stratified_sample(items, n)
    assert len(chosen) == n
    cells = Counter((i.category, i.context_condition, i.question_polarity) for i in chosen)
    assert len(cells) == 11 * 4  # every category x condition x polarity
    per_category = Counter(i.category for i in chosen)
    # Categories run out of templates in a round at different points: the two 50-template
    # categories take the rest of the round once the others have given one item per template.
    expected = n // 11 if n <= 275 else None
    if expected is not None:
        assert max(cells.values()) - min(cells.values()) <= 1
        assert max(per_category.values()) - min(per_category.values()) <= 1
    for category in ELEVEN:
        in_category = [v for (c, *_), v in cells.items() if c == category]
        assert max(in_category) - min(in_category) <= 1


def test_past_the_template_count_every_template_is_covered() -> None:
    """N >= the number of templates covers every template (per-template scores need it); the
    categories' shares then follow their template counts, each spread evenly over its cells."""
    items = bbq_like(ELEVEN)
    chosen = stratified_sample(items, 500)
    assert {(i.category, i.question_index) for i in chosen} == {
        (i.category, i.question_index) for i in items
    }
    cells = Counter((i.category, i.context_condition, i.question_polarity) for i in chosen)
    assert len(cells) == 44
    for category in ELEVEN:
        in_category = [v for (c, *_), v in cells.items() if c == category]
        assert max(in_category) - min(in_category) <= 1


def test_small_limits_have_both_conditions_and_polarities() -> None:
    chosen = stratified_sample(bbq_like({"SES": 30}), 2)
    assert {(i.context_condition, i.question_polarity) for i in chosen} == {
        ("ambig", "neg"),
        ("disambig", "nonneg"),
    }
    four = stratified_sample(bbq_like({"SES": 30}), 4)
    assert len({(i.context_condition, i.question_polarity) for i in four}) == 4


def test_spreads_over_templates_deterministically_in_original_order() -> None:
    items = bbq_like({"Age": 7, "SES": 5})
    chosen = stratified_sample(items, 12)
    assert {(i.category, i.question_index) for i in chosen} == {
        (i.category, i.question_index) for i in items
    }  # N = templates: each once
    assert chosen == stratified_sample(items, 12)
    positions = [items.index(i) for i in chosen]
    assert positions == sorted(positions)


def test_no_limit_or_large_limit_keeps_everything() -> None:
    items = bbq_like({"Age": 2}, slottings=1)
    assert stratified_sample(items, None) == items
    assert stratified_sample(items, 0) == items
    assert stratified_sample(items, 100) == items
