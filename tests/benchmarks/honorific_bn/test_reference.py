"""Round 3, item 5: spread, HBS and eta-squared on one label per item, with an interval that
resamples items and a permutation null (mean, 95th percentile, p), said in words when a value
is within the no-effect range; and a spread that does not shrink as seeds are added."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest

from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.engines.honorific.metrics import score_model
from biasbench.engines.honorific.reference import majority_labels, reference
from biasbench.engines.honorific.tables import caveats

ITEMS = HonorificBenchmark().items
HON, ORD, UNR = "honorific", "ordinary", "unreadable"


def labels(seeds: int, p_honorific: Callable[[object], float], rng_seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(rng_seed)
    rows = [
        {
            "model": "m",
            "seed": seed,
            "item_id": it.item_id,
            "occupation_en": it.occupation_en,
            "occupation_target": it.occupation_target,
            "template_id": it.template_id,
            "primed": it.primed,
            "gender": it.gender,
            "label": HON if rng.random() < p_honorific(it) else ORD,
            "plural": False,
        }
        for seed in range(seeds)
        for it in ITEMS
    ]
    return pd.DataFrame(rows)


def coin(_: object) -> float:
    return 0.5


OCCUPATIONS = sorted({it.occupation_en for it in ITEMS})


def by_occupation(item: object) -> float:  # a strong occupation effect: 5% to 95%
    return 0.05 + 0.9 * OCCUPATIONS.index(item.occupation_en) / (len(OCCUPATIONS) - 1)


@pytest.mark.parametrize(
    ("seed_labels", "expected"),
    [
        ([HON], HON),
        ([ORD, HON, HON], HON),
        ([HON, ORD, ORD], ORD),
        ([ORD, HON], ORD),
        ([HON, ORD], HON),  # ties: the lowest seed's usable label
        ([UNR, HON, ORD], HON),  # the tie among usable labels: seed 1's
        ([UNR, UNR], UNR),  # no usable label: unusable
    ],
)
def test_majority_label_per_item(seed_labels: list[str], expected: str) -> None:
    it = ITEMS[0]
    frame = pd.DataFrame(
        [
            {
                "model": "m",
                "seed": s,
                "item_id": it.item_id,
                "occupation_en": it.occupation_en,
                "template_id": it.template_id,
                "gender": it.gender,
                "label": label,
            }
            for s, label in enumerate(seed_labels)
        ]
    )
    assert majority_labels(frame)["label"].tolist() == [expected]


def test_a_fair_coin_is_within_the_no_effect_range() -> None:
    """A fair-coin mock: a fair coin read spread ~19 pp and HBS ~20, inside the paper's range
    for real models; now each is reported with its null and said to be within it."""
    scores = score_model(labels(1, coin))
    ref = scores["no_effect_reference"]
    stats = ref["statistics"]
    assert set(stats) == {"occupation_spread_pp", "hbs", "eta2_occupation_pct", "eta2_pronoun_pct"}
    for name, stat in stats.items():
        assert stat["value"] == pytest.approx(scores[name])
        assert stat["ci_low"] <= stat["value"] <= stat["ci_high"], name
        assert stat["within_null"] is True and stat["p_value"] > 0.05, name
    spread = stats["occupation_spread_pp"]
    assert 17.0 < spread["null_mean"] < 20.5 and spread["null_p95"] > spread["null_mean"]
    assert 18.0 < stats["hbs"]["null_mean"] < 24.0
    assert 5.5 < stats["eta2_occupation_pct"]["null_mean"] < 8.5
    assert (ref["n_permutations"], ref["n_bootstrap"]) == (999, 999)
    words = [c for c in caveats(scores) if c.startswith("within what a model")]
    assert len(words) == 1 and "spread " in words[0] and "HBS " in words[0]


def test_a_real_occupation_effect_is_outside_it() -> None:
    scores = score_model(labels(1, by_occupation))
    stat = scores["no_effect_reference"]["statistics"]["occupation_spread_pp"]
    assert stat["value"] > 10 + stat["null_p95"]
    assert stat["within_null"] is False and stat["p_value"] == pytest.approx(1 / 1000)
    assert stat["ci_low"] > stat["null_p95"]
    assert not any("spread " in c for c in caveats(scores) if c.startswith("within what"))


def test_spread_compares_across_seed_counts() -> None:
    """Pooled over seeds, the same coin gave 25.2 pp with one seed and 11.9 pp with five; on
    one label per item the two agree within sampling noise, as do their nulls."""
    one, five = score_model(labels(1, coin, 3)), score_model(labels(5, coin, 4))
    assert abs(one["occupation_spread_pp"] - five["occupation_spread_pp"]) < 4.0
    nulls = [
        s["no_effect_reference"]["statistics"]["occupation_spread_pp"]["null_mean"]
        for s in (one, five)
    ]
    assert abs(nulls[0] - nulls[1]) < 1.0
    pooled = labels(5, coin, 4)  # the old definition: every seed's response pooled
    rates = (
        pooled[pooled["gender"] == "nopronoun"]
        .assign(h=lambda d: d["label"] == HON)
        .groupby("occupation_en")["h"]
        .mean()
    )
    assert float(np.std(100 * rates)) < 0.6 * five["occupation_spread_pp"]


def test_one_seed_numbers_are_unchanged() -> None:
    """With one seed the label of an item is its label: identical seeds leave every value as it
    is, and the reference is deterministic."""
    single = labels(1, by_occupation, 5)
    repeated = pd.concat([single.assign(seed=s) for s in range(3)], ignore_index=True)
    a, b = score_model(single), score_model(repeated)
    for name in ("occupation_spread_pp", "hbs", "eta2_occupation_pct", "eta2_pronoun_pct"):
        assert a[name] == pytest.approx(b[name], rel=1e-12)
    assert reference(single) == reference(single)
