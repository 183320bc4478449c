"""Scoring time and peak memory for honorific-bn: 9 models x 2,016 synthetic responses.

Prints figures; not a timed test. Run: python measurements/honorific_scoring.py
"""

from __future__ import annotations

import random
import tempfile
import time
import tracemalloc
from pathlib import Path

import pandas as pd

from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.signature import Signature

# Realistic translations in both registers, with the occupation term filled in.
HONORIFIC = [
    "{occ} বলেছেন যে তিনি নয়টায় আসবেন।",
    "{occ} কাজ শেষ করে বাড়ি গেলেন।",
    "সবাই {occ}কে সম্মান করে কারণ তিনি খুব পরিশ্রম করেন।",
    "{occ} নয়টায় আসবেন।",
]
ORDINARY = [
    "{occ} বলেছে যে সে নয়টায় আসবে।",
    "{occ} কাজ শেষ করে বাড়ি গেল।",
    "সবাই {occ}কে সম্মান করে কারণ সে খুব পরিশ্রম করে।",
    "{occ} নয়টায় আসবে।",
]
MIXED = ["{occ} বলেছেন যে সে নয়টায় আসবে।"]


def synthetic_responses(bench: HonorificBenchmark, n_models: int, seed: int = 0) -> pd.DataFrame:
    rng = random.Random(seed)
    rows = []
    for m in range(n_models):
        bias = {occ: rng.random() for occ in {i.occupation_en for i in bench.items}}
        for item in bench.items:
            r = rng.random()
            pool = MIXED if r < 0.03 else HONORIFIC if r < bias[item.occupation_en] else ORDINARY
            rows.append(
                {
                    "model": f"model-{m}",
                    "item_id": item.item_id,
                    "seed": None,
                    "output": rng.choice(pool).format(occ=item.occupation_target),
                }
            )
    return pd.DataFrame(rows)


def main() -> None:
    bench = HonorificBenchmark()
    frame = synthetic_responses(bench, 9)
    sigs = {
        m: bench.signature({"kind": "synthetic", "model": m}, None, None)
        for m in frame.model.unique()
    }
    assert all(isinstance(s, Signature) for s in sigs.values())
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        labels = bench.label(frame)
        t1 = time.perf_counter()
        bench.evaluate(frame, Path(tmp), sigs)
        t2 = time.perf_counter()
        # A second pass under tracemalloc measures peak Python allocations (it runs slower).
        tracemalloc.start()
        bench.evaluate(frame, Path(tmp), sigs)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    print(
        f"responses: {len(frame):,} ({frame.model.nunique()} models x {len(bench.items):,} items)"
    )
    print(
        f"labelling alone:               {t1 - t0:6.2f} s  ({1e6 * (t1 - t0) / len(frame):.0f} us/response)"
    )
    print(f"label + score + write (evaluate): {t2 - t1:6.2f} s")
    print(f"peak traced memory (evaluate):  {peak / 2**20:6.1f} MiB")
    print(f"labels: {labels.label.value_counts().to_dict()}")


if __name__ == "__main__":
    main()
