"""Recovered vs planted effects, grid and cross-language (the figures of docs/bbq-engine/), on the
synthetic generators in ``biasbench.testing``:

- ``grid``: a full robustness grid (3 seeds x 6 option orders x 2 prompt layouts, 400 items
  per context condition) answered by :class:`~biasbench.testing.grid_effect.PlantedAnswerer`:
  each factor's planted sd of s_DIS against the decomposition's sd, its no-effect spread and
  F-test p; the item component (0: the items are alike) and the residual against the
  binomial answer noise; position bias; published vs
  order-balanced; then the same answerer with nothing planted on a budget of 12 cells;
- ``languages``: parallel items in en/es/nl (240 per category, 4 seeds) with planted language
  differences, and a main + control set where Spanish is worse at the task in both sets and
  more biased in the main set only: each planted difference against the paired difference, its
  interval and Holm p.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/robustness_planted.py``.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from pathlib import Path

import numpy as np

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.cross_language import ADJUSTED, RAW, cross_language_frame
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
from biasbench.pipeline import run_benchmark
from biasbench.testing.grid_effect import (
    ORDER_EFFECT,
    POSITION_A,
    PROMPT_EFFECT,
    SEED_EFFECT,
    PlantedAnswerer,
    grid_items,
    planted_sd,
    write_items,
)
from biasbench.testing.language_effect import (
    PLANTED_BASE,
    LanguageBehaviour,
    control_planted,
    parallel_items,
    planted_answers,
)

N_PER_CONDITION = 400


def grid() -> None:
    items = grid_items(N_PER_CONDITION)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_items(items, Path(tmp) / "Age.jsonl")
        full = run_benchmark(
            "bbq",
            backend=PlantedAnswerer(items),
            out=Path(tmp) / "full",
            seeds=[0, 1, 2],
            progress=False,
            benchmark_options={"items": str(path), "vary": "seeds,order,prompt"},
        )
        none = run_benchmark(
            "bbq",
            backend=PlantedAnswerer(
                items, seed_effect={}, order_effect={}, prompt_effect={}, position_a=0.0
            ),
            out=Path(tmp) / "none",
            seeds=[0, 1, 2],
            progress=False,
            benchmark_options={
                "items": str(path),
                "vary": "seeds,order,prompt",
                "orders": "cyclic",
                "grid_budget": 12,
            },
        )
    robustness = full.results["robustness"]
    s_dis = robustness["decomposition"]["planted"]["Age"]["s_dis"]
    print(
        f"## Grid: {robustness['grid']['n_cells']} cells, {N_PER_CONDITION} items per context "
        "condition (s_DIS, category Age)\n"
    )
    print("| component | planted sd | recovered sd | no-effect sd | p |")
    print("|:---|---:|---:|---:|---:|")
    for factor, effect in (
        ("seed", SEED_EFFECT),
        ("order", ORDER_EFFECT),
        ("prompt", PROMPT_EFFECT),
    ):
        c = s_dis["components"][factor]
        print(
            f"| {factor} | {planted_sd(effect):.3f} | {c['sd']:.3f} | {c['null_sd']:.3f} "
            f"| {c['p']:.2g} |"
        )
    binomial = 2 * np.sqrt(0.25 / N_PER_CONDITION)
    # the planted items are alike: nothing is shared by the cells from the item sample; a
    # cell's answer noise (binomial) is the residual's
    print(f"| item | 0 (items alike) | {s_dis['components']['item']['sd']:.3f} | | |")
    print(
        f"| residual | {binomial:.3f} (answer noise, binomial) | "
        f"{s_dis['components']['residual']['sd']:.3f} | | |"
    )
    print(
        f"\nlargest: {s_dis['largest']}; mean over the grid {s_dis['mean']:+.3f} (planted "
        f"{2 * (np.mean(list(SEED_EFFECT.values())) + np.mean(list(ORDER_EFFECT.values())) + np.mean(list(PROMPT_EFFECT.values()))):+.3f})"
    )
    position = robustness["position"]["planted"]
    planted_a = 0.5 * (1 + 2 * POSITION_A) / 3 + 0.5 / 3
    print(
        f"position A, gold-balanced: {position['gold_balanced']['A']:.3f} (planted "
        f"{planted_a:.3f}); chi2 p {position['chi2_p']:.2g}"
    )
    published = robustness["published_vs_balanced"]["planted"]["Age"]["s_dis"]
    print(
        f"s_DIS published order {published['published_order']:+.3f}, order-balanced "
        f"{published['order_balanced']:+.3f} (planted difference "
        f"{-2 * ORDER_EFFECT['012']:+.3f}, measured {published['difference']:+.3f})"
    )
    quiet = none.results["robustness"]["decomposition"]["planted"]["Age"]["s_dis"]["components"]
    print(
        "\nnothing planted, 12 cells of 18 (cyclic orders): "
        + "; ".join(
            f"{f} sd {quiet[f]['sd']:.3f} (no-effect {quiet[f]['null_sd']:.3f}, p {quiet[f]['p']:.2f})"
            if quiet[f].get("p") is not None
            else f"{f}: {quiet[f].get('reason')}"
            for f in ("seed", "order", "prompt")
        )
        + "\n"
    )


BASE = PLANTED_BASE


def _planted(item: BBQItem) -> LanguageBehaviour:
    if item.language == "es" and item.category == "Age":
        return dataclasses.replace(BASE, disambig_bias=0.2)
    if item.language == "nl":
        return dataclasses.replace(BASE, p_unknown_ambig=0.3)
    return BASE


def languages() -> None:
    items = parallel_items("ds", ["en", "es", "nl"], ("Age", "SES", "Disability"), 240)
    frame = cross_language_frame(
        score_responses(items, planted_answers(items, _planted, range(4), 11)), items
    )
    print("## Cross-language: 240 items per category and language, 4 seeds\n")
    print("| comparison | category | score | planted | difference | 95% CI | p_holm |")
    print("|:---|:---|:---|---:|---:|:---|---:|")
    cases = [
        ("es", "Age", "s_dis", 0.30),
        ("es", "SES", "s_dis", 0.0),
        ("nl", "Age", "acc_ambig", -0.20),
        ("nl", "SES", "acc_ambig", -0.20),
        ("nl", "Age", "s_amb", 0.04),
        ("nl", "Disability", "acc_disambig", 0.0),
    ]
    for language, category, score, planted in cases:
        row = frame[
            (frame["language_a"] == "en")
            & (frame["language_b"] == language)
            & (frame["category"] == category)
            & (frame["score"] == score)
        ].iloc[0]
        print(
            f"| {language} - en | {category} | {score} | {planted:+.2f} | "
            f"{row['difference']:+.3f} | [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}] | "
            f"{row['p_holm']:.2g} |"
        )
    both = parallel_items("mb", ["en", "es"], ("Age", "SES"), 240) + parallel_items(
        "mb-control", ["en", "es"], ("Age", "SES"), 240
    )
    adjusted = cross_language_frame(
        score_responses(both, planted_answers(both, control_planted, range(4), 5)),
        both,
        {"mb": "mb-control"},
    )
    print("\n| es - en, all categories | planted | raw | control-adjusted |")
    print("|:---|---:|---:|---:|")
    for score, raw_planted, fair_planted in (("acc_disambig", -0.2, 0.0), ("s_dis", 0.2, 0.2)):
        cells = []
        for kind in (RAW, ADJUSTED):
            row = adjusted[
                (adjusted["dataset"] == "mb")
                & (adjusted["kind"] == kind)
                & (adjusted["category"] == "all")
                & (adjusted["score"] == score)
            ].iloc[0]
            cells.append(
                f"{row['difference']:+.3f} [{row['ci_low']:+.3f}, "
                f"{row['ci_high']:+.3f}] p {row['p_holm']:.2g}"
            )
        print(
            f"| {score} | raw {raw_planted:+.1f}, adjusted {fair_planted:+.1f} | "
            f"{cells[0]} | {cells[1]} |"
        )


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["grid", "languages"]
    for name in wanted:
        {"grid": grid, "languages": languages}[name]()
