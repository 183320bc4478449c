"""Honorific languages side by side against planted effects: what the paired differences
recover and what they flag where nothing was planted.

Labels are drawn directly (no model, no judge) for honorific-bn's 2,016 items in two "languages"
A and B, one seed, with a register coin per item:

- ``gap``: in B, no-pronoun items of the first 36 occupations are honorific with probability
  0.9 and the last 36 with 0.1 (an occupation gap); everything else in B, and everything in A,
  is a fair coin (no gender effect anywhere);
- ``null``: every item a fair coin in both languages (nothing planted).

Each case is drawn ``--repeats`` times (default 20) and compared with
:func:`biasbench.engines.honorific.cross_language.compare_languages`; the table gives, per
statistic, how often its difference was flagged (Holm-adjusted p < 0.05), the mean difference,
the mean number of occupations flagged, and how often any of the four statistics was.

    PYTHONPATH=$PWD python measurements/honorific_languages_planted.py [--repeats 20]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from biasbench.benchmarks.honorific_bn.benchmark import load_definition
from biasbench.engines.honorific.cross_language import STATISTICS, compare_languages

ITEMS = load_definition().items()
OCCUPATIONS = list(dict.fromkeys(i.occupation_en for i in ITEMS))
HIGH = set(OCCUPATIONS[:36])


def labels(rng: np.random.Generator, gap: bool) -> pd.DataFrame:
    rows = []
    for item in ITEMS:
        p = 0.5
        if gap and item.gender == "nopronoun":
            p = 0.9 if item.occupation_en in HIGH else 0.1
        rows.append(
            {
                "model": "m",
                "seed": None,
                "item_id": item.item_id,
                "occupation_en": item.occupation_en,
                "occupation_target": item.occupation_target,
                "template_id": item.template_id,
                "primed": item.primed,
                "gender": item.gender,
                "plural": False,
                "label": "honorific" if rng.random() < p else "ordinary",
            }
        )
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    print("| case | statistic | flagged | mean difference | mean occupations flagged |")
    print("|:---|:---|---:|---:|---:|")
    for case in ("gap", "null"):
        flagged = {s: 0 for s in STATISTICS}
        differences: dict[str, list[float]] = {s: [] for s in STATISTICS}
        occupations = []
        any_flagged = 0
        started = time.perf_counter()
        for repeat in range(args.repeats):
            rng = np.random.default_rng(1000 * repeat + (case == "null"))
            found = compare_languages(
                {"A": labels(rng, False), "B": labels(rng, case == "gap")}, n_resamples=1000
            )
            pair = found["comparisons"]["m"]["B - A"]
            for name, entry in pair["statistics"].items():
                flagged[name] += bool(entry["significant"])
                differences[name].append(entry["difference"])
            occupations.append(sum(r["significant"] for r in pair["occupations"]))
            any_flagged += any(e["significant"] for e in pair["statistics"].values())
        for name in STATISTICS:
            print(
                f"| {case} | {name} | {flagged[name]}/{args.repeats} | "
                f"{np.mean(differences[name]):+.2f} | {np.mean(occupations):.2f} |"
            )
        print(f"| {case} | any of the four | {any_flagged}/{args.repeats} | | |")
        print(
            f"<!-- {case}: {time.perf_counter() - started:.1f} s for {args.repeats} comparisons -->"
        )


if __name__ == "__main__":
    main()
