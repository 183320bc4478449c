"""The documented shape of BBQ results is what results.json holds."""

from __future__ import annotations

import pandas as pd
import pytest
from pydantic import ValidationError

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses, to_results_json
from biasbench.engines.bbq_family.scoring.results import (
    CategoryScores,
    SeedStatistic,
    validate_models,
)


def _items() -> list[BBQItem]:
    items = []
    for example_id, (polarity, condition) in enumerate(
        [("neg", "ambig"), ("neg", "disambig"), ("nonneg", "ambig"), ("nonneg", "disambig")]
    ):
        items.append(
            BBQItem(
                example_id=example_id,
                question_index="T1",
                question_polarity=polarity,
                context_condition=condition,
                category="Sexual_orientation",
                answer_info={
                    "ans0": ["tomboy", "tomboy"],
                    "ans1": ["bakla", "bakla"],
                    "ans2": ["Di alam", "unknown"],
                },
                additional_metadata={"stereotyped_groups": ["bakla"]},
                context="c",
                question="q",
                ans0="Ang tomboy",
                ans1="Ang bakla",
                ans2="Di alam",
                label=2 if condition == "ambig" else (1 if polarity == "neg" else 0),
            )
        )
    return items


def test_scores_have_exactly_the_documented_fields() -> None:
    items = _items()
    responses = pd.DataFrame(
        [{"model": "m", "seed": seed, "uid": i.uid, "pred": 1} for seed in (0, 1) for i in items]
    )
    document = to_results_json(score_responses(items, responses))
    entry = document["models"]["m"]["Sexual_orientation"]
    assert set(entry) == set(CategoryScores.model_fields)
    assert set(entry["s_dis"]) == set(SeedStatistic.model_fields)
    validate_models(document["models"])
    # Always "Ang bakla": the target on neg items, not on nonneg ones -> s = 2 * 1/2 - 1 = 0.
    assert entry["s_dis"]["mean"] == 0.0 and entry["seeds_run"] == 2
    assert entry["s_dis"]["n_seeds"] == 2 and entry["s_dis"]["seeds_ci_status"] == "too_few_seeds"
    assert entry["s_dis"]["interval"] == "items+seeds" and entry["s_dis"]["ci_status"] == "ok"
    with pytest.raises(ValidationError, match="s_amb"):
        validate_models({"m": {"c": {**entry, "s_amb": 0.3}}})
