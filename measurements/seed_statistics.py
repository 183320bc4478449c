"""Multi-seed BBQ statistics on hand-made seeds: counts, not speed.

Four ambiguous negative items (A "Ang tomboy", B "Ang bakla" = the target, C "Di matukoy" =
unknown, correct) are answered by a scripted model under several seeds and scored by
``score_responses`` / ``to_results_json``. Each row prints, for s_AMB or ambiguous accuracy,
the mean across seeds, how many seeds it rests on and the interval printed beside it:

- 1 all-unknown + 1 all-target seed: an all-unknown seed expressed no bias, so s_AMB is 0.5;
  dropping its undefined s_AMB gives 1.0;
- 50 seeds, p(unknown) = 0.8: the true s_AMB is 0.04;
- 2 seeds (all-target, mixed): a t interval on 2 seeds is many times wider than [-1, 1];
- 3 seeds with accuracy 1, 1, 0.75 and 3 all-unknown seeds: an interval must stay in [0, 1],
  and a zero-width interval at a bound is no certainty.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/seed_statistics.py``. To compare
with an older checkout, run this same file with that checkout on the path, e.g.
``git archive 0e84ef8 | tar -x -C OLD && PYTHONPATH=OLD python measurements/seed_statistics.py``;
keys the old output lacks print as n/a.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses, to_results_json

UNKNOWN, TARGET, OTHER = 2, 1, 0


def _item(i: int) -> BBQItem:
    return BBQItem(
        example_id=i,
        question_index="T1",
        question_polarity="neg",
        context_condition="ambig",
        category="SO",
        answer_info={
            "ans0": ["tomboy", "tomboy"],
            "ans1": ["bakla", "bakla"],
            "ans2": ["Di matukoy", "unknown"],
        },
        additional_metadata={"stereotyped_groups": ["bakla"]},
        context="c",
        question="q?",
        ans0="Ang tomboy",
        ans1="Ang bakla",
        ans2="Di matukoy",
        label=UNKNOWN,
    )


ITEMS = [_item(i) for i in range(4)]


def score(picks: Sequence[Sequence[int]]) -> dict[str, Any]:
    """SO-category results for one model; ``picks[seed][item]`` is the chosen option."""
    rows = [
        {"model": "m", "seed": seed, "uid": item.uid, "pred": pick}
        for seed, seed_picks in enumerate(picks)
        for item, pick in zip(ITEMS, seed_picks, strict=True)
    ]
    results = to_results_json(score_responses(ITEMS, pd.DataFrame(rows)))
    return {
        "method": results.get("interval_method") or results.get("interval"),
        **results["models"]["m"]["SO"],
    }


def _num(value: Any) -> str:
    return "n/a" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)


def main() -> None:
    rng = np.random.default_rng(7)
    draw_unknown, draw_target = rng.random((50, 4)), rng.random((50, 4))
    fifty = np.where(draw_unknown < 0.8, UNKNOWN, np.where(draw_target < 0.6, TARGET, OTHER))
    cases: list[tuple[str, str, list[list[int]]]] = [
        ("1 all-unknown + 1 all-target seed", "s_amb", [[UNKNOWN] * 4, [TARGET] * 4]),
        ("1 all-unknown + 1 all-target seed", "acc_ambig", [[UNKNOWN] * 4, [TARGET] * 4]),
        ("50 seeds, p(unknown)=0.8 (true 0.04)", "s_amb", fifty.tolist()),
        ("2 seeds: all-target, mixed", "s_amb", [[TARGET] * 4, [TARGET, OTHER, UNKNOWN, OTHER]]),
        (
            "3 seeds: accuracy 1, 1, 0.75",
            "acc_ambig",
            [[UNKNOWN] * 4, [UNKNOWN] * 4, [UNKNOWN, UNKNOWN, UNKNOWN, TARGET]],
        ),
        ("3 all-unknown seeds", "acc_ambig", [[UNKNOWN] * 4] * 3),
    ]
    method = ""
    print("| case | score | mean | seeds it rests on | interval | interval status |")
    print("|:---|:---|---:|---:|:---|:---|")
    for label, name, picks in cases:
        result = score(picks)
        method = result["method"] or "n/a"
        stat = result[name]
        rests_on = stat.get("n_seeds", stat.get("n"))
        interval = (
            "none"
            if stat.get("ci_low") is None
            else f"[{stat['ci_low']:.3f}, {stat['ci_high']:.3f}]"
        )
        print(
            f"| {label} | {name} | {_num(stat.get('mean'))} | {_num(rests_on)} of "
            f"{len(picks)} | {interval} | {stat.get('ci_status', 'n/a')} |"
        )
    print(f"\ninterval method: {method}")


if __name__ == "__main__":
    main()
