"""honorific-bn responses with chosen pair counts, for tests and for measuring by hand.

``python -m tests.benchmarks.honorific_bn.pair_responses OUT.jsonl N B C [SEEDS]`` writes one
response per item: N usable he/she pairs, B with the honorific for he only, C for she only, the
rest concordant; the other 504 - N pairs have an unreadable man; they/no-pronoun sentences are
honorific or ordinary by a fixed pattern. With SEEDS > 0 the same responses are repeated under
seeds 0..SEEDS-1 (identical seeds: the item-level statistics must not change).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from biasbench.benchmarks.honorific_bn.benchmark import load_definition

HON, ORD, UNREADABLE = "তিনি নয়টায় আসবেন।", "সে নয়টায় আসবে।", ""


def pair_responses(
    n_pairs: int, b: int, c: int, seeds: int = 0, model: str = "m"
) -> list[dict[str, object]]:
    items = load_definition().items()
    pairs = sorted({(i.occupation_en, i.template_id) for i in items if i.gender == "male"})
    same = n_pairs - b - c
    if min(b, c, same) < 0 or n_pairs > len(pairs):
        raise ValueError(f"need 0 <= b + c <= N <= {len(pairs)}")
    kinds = (
        [(HON, ORD)] * b
        + [(ORD, HON)] * c
        + [(HON, HON)] * (same // 2)
        + [(ORD, ORD)] * (same - same // 2)
        + [(UNREADABLE, ORD)] * (len(pairs) - n_pairs)
    )
    by_pair = dict(zip(pairs, kinds, strict=True))
    index = {pair: i for i, pair in enumerate(pairs)}
    rows = []
    for item in items:
        key = (item.occupation_en, item.template_id)
        output = (
            by_pair[key][item.gender == "female"]
            if item.gender in ("male", "female")
            else HON
            if index[key] % 3
            else ORD
        )
        rows.append({"item_id": item.item_id, "model": model, "output": output})
    if not seeds:
        return rows
    return [{**row, "seed": seed} for seed in range(seeds) for row in rows]


def write(path: Path, rows: list[dict[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


if __name__ == "__main__":
    out, *counts = sys.argv[1:]
    write(Path(out), pair_responses(*map(int, counts)))
