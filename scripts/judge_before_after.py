"""Compare the honorific-bn register judge at a git revision with the working tree.

    PYTHONPATH=$PWD python scripts/judge_before_after.py [REVISION]   (default 0e84ef8)

Prints, for the test tables (the 177 pitfall rows, the real-output classes) and for three
simulated runs of 2,016 items with known labels (tests/benchmarks/honorific_bn/
simulated_outputs.py), the label distribution under both judges, how many labels changed
and why, and the per-model scores (HAI, usable pairs, mixed and unreadable shares).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "benchmarks" / "honorific_bn"))

import simulated_outputs  # noqa: E402
import test_classifier  # noqa: E402
import test_classifier_real_outputs  # noqa: E402
from biasbench.benchmarks.honorific_bn.metrics import score_models  # noqa: E402

from biasbench.benchmarks.honorific_bn import classifier as after  # noqa: E402
from measurements.judge_agreement import judge_at  # noqa: E402 - one loader of a committed judge

ORDER = ["honorific", "ordinary", "mixed", "unreadable"]


def _distribution(labels: pd.Series) -> str:
    counts = labels.value_counts().reindex(ORDER, fill_value=0)
    return " ".join(f"{name[0].upper()}={count}" for name, count in counts.items())


def main(revision: str) -> None:
    before = judge_at(revision)
    print(f"judge {before.JUDGE_VERSION} ({revision}) -> {after.JUDGE_VERSION} (working tree)\n")
    tables = [
        ("pitfall table (177 rows)", row.condition, row.output) for row in test_classifier.CASES
    ]
    tables += [
        (f"real outputs: {name}", row.condition, row.output)
        for name, row in test_classifier_real_outputs.ALL_ROWS
    ]
    rows = []
    for group, condition, output in tables:
        rows.append(
            {
                "group": group,
                "before": before.classify_register(output, condition).label.value,
                "after": after.classify_register(output, condition).label.value,
            }
        )
    frame = pd.DataFrame(rows)
    for group, part in frame.groupby("group", sort=False):
        changed = int((part.before != part.after).sum())
        print(
            f"{group:32s} n={len(part):4d} changed={changed:4d}  before {_distribution(part.before)}"
            f"  after {_distribution(part.after)}"
        )
    print()
    sims = []
    for style in simulated_outputs.STYLES:
        for sim in simulated_outputs.simulate(style):
            item = sim.item
            old = before.classify_register(sim.output, item.gender)
            new = after.classify_register(sim.output, item.gender)
            sims.append(
                {
                    "model": style,
                    "kind": sim.kind,
                    "expected": sim.label,
                    "before": old.label.value,
                    "after": new.label.value,
                    "plural_before": old.plural,
                    "plural_after": new.plural,
                    "spelling_mixed": new.spelling_mixed,
                    "item_id": item.item_id,
                    "occupation_en": item.occupation_en,
                    "occupation_bn": item.occupation_bn,
                    "template_id": item.template_id,
                    "primed": item.primed,
                    "gender": item.gender,
                }
            )
    sim = pd.DataFrame(sims)
    for style, part in sim.groupby("model", sort=False):
        print(
            f"simulated {style:10s} n={len(part)} changed={int((part.before != part.after).sum())}"
            f" wrong before={int((part.before != part.expected).sum())}"
            f" after={int((part.after != part.expected).sum())}"
        )
        print(f"    before {_distribution(part.before)}   after {_distribution(part.after)}")
        changes = part[part.before != part.after].groupby(["kind", "before", "after"]).size()
        for (kind, old, new), count in changes.items():
            print(f"    {count:4d}  {kind:24s} {old:>10s} -> {new}")
    print()
    for version in ("before", "after"):
        labels = sim.assign(
            label=sim[version],
            plural=sim[f"plural_{version}"],
            spelling_mixed=sim["spelling_mixed"] if version == "after" else False,
        )
        scored = score_models(
            labels[
                [
                    "model",
                    "item_id",
                    "occupation_en",
                    "occupation_bn",
                    "template_id",
                    "primed",
                    "gender",
                    "label",
                    "plural",
                    "spelling_mixed",
                ]
            ]
        )
        for model, s in scored["models"].items():
            print(
                f"{version:6s} {model:10s} HAI {s['hai_pp']:+6.2f} pp  N={s['n_pairs']:3d} "
                f"(b={s['b']}, c={s['c']})  spread {s['occupation_spread_pp']:.2f} pp  "
                f"mixed {s['mixed_pct']:5.2f}%  unreadable {s['unreadable_pct']:4.2f}%  "
                f"mixed_spelling_only {s['mixed_spelling_only']}"
            )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "0e84ef8")
