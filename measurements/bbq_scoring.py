"""Scoring time and peak memory for FilBBQ's robust protocol: 10,576 items x 50 seeds.

528,800 synthetic responses (letters, option texts, unknown phrasings, refusals, in Filipino and
English) go through the whole scoring path: parse, sufficient statistics, per template per seed,
across seeds. Prints figures; not a timed test.

Needs FilBBQ's templates: --templates DIR, $BIASBENCH_FILBBQ_TEMPLATES, the cache, or a download.
Run: python measurements/bbq_scoring.py [--templates DIR] [--seeds 50]
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc
from pathlib import Path

from biasbench.benchmarks.filbbq.source import FILBBQ_TEMPLATES, generate_filbbq_items
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.items.source import resolve_pinned_folder
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
from biasbench.testing.synthetic_answers import SyntheticModel, synthetic_responses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--templates", type=Path, default=None)
    parser.add_argument("--seeds", type=int, default=50)
    args = parser.parse_args()

    t0 = time.perf_counter()
    templates = resolve_pinned_folder(FILBBQ_TEMPLATES, args.templates)
    generated = generate_filbbq_items(templates, seed=0)
    items = [BBQItem.model_validate(d) for r in generated.values() for d in r.items]
    t1 = time.perf_counter()
    model = SyntheticModel("synthetic", p_target=0.6, seed_sd=0.3, p_unparsed=0.03)
    responses = synthetic_responses(items, [model], list(range(args.seeds)), rng=0)
    t2 = time.perf_counter()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    results = score_responses(items, responses)
    t3 = time.perf_counter()
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # A second pass under tracemalloc measures the peak of Python allocations (it runs slower).
    tracemalloc.start()
    score_responses(items, responses)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"items: {len(items):,} (generated in {t1 - t0:.2f} s); seeds: {args.seeds}; "
        f"responses: {len(responses):,} (synthesised in {t2 - t1:.2f} s, "
        f"{responses['output'].nunique():,} distinct outputs)"
    )
    print(
        f"score_responses (parse + counts + per-seed + across-seed): {t3 - t2:.2f} s "
        f"({1e6 * (t3 - t2) / len(responses):.1f} us/response)"
    )
    print(
        f"peak traced memory while scoring: {peak / 2**20:.0f} MiB; process max RSS "
        f"{rss_before / 1024:.0f} MiB before scoring, {rss_after / 1024:.0f} MiB after"
    )
    print(
        f"per-template-per-seed rows: {len(results.per_seed):,}; "
        f"unparsed: {100 * (results.responses['pred_index'] < 0).mean():.1f}%"
    )
    print(
        results.by_category[
            ["category", "s_amb_mean", "s_amb_ci_low", "s_amb_ci_high", "s_dis_mean", "n_seeds"]
        ].to_string(index=False)
    )


if __name__ == "__main__":
    main()
