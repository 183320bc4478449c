"""What honorific-bn's headline rests on: counts, not speed.

Builds honorific-bn responses files with chosen matched-pair counts (N usable he/she pairs, b
with the honorific for "he" only, c for "she" only, the other pairs unreadable) and scores them
through the CLI in a subprocess (``sys.executable -m biasbench``), so the figures are what a
user sees. Cases:

- one seed, N=456, b=41, c=19; the same responses as two identical seeds (item 3: p and the
  minimum detectable HAI must not change when nothing new was observed);
- N=10, b=3, c=0 (item 4: |HAI| cannot exceed the discordant share (b + c) / N = 30 pp, so
  no minimum detectable HAI above it);
- an embedded-like model: 75 usable pairs of 504 (b=29, c=2: HAI +36 pp), 62% of outputs
  unreadable (item 11);
- ``biasbench run --limit 30`` with a mock model that favours men (item 11: a partial run).

Per case it prints HAI, p and its test, the pairs it rests on, the minimum detectable HAI, the
unreadable share, the warnings (lines starting with "!"), whether Table 4 shows the pairs and
the unreadable share, and whether it says the run is partial; then each one-line summary.

Run from a checkout root: ``PYTHONPATH=$PWD python measurements/honorific_headline.py``. To compare
with an older checkout, run this same file with that checkout first on the path, e.g.
``git archive 0e84ef8 | tar -x -C OLD && PYTHONPATH=OLD python measurements/honorific_headline.py``;
fields the old results lack print as n/a.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from biasbench.benchmarks.honorific_bn.benchmark import load_definition

HON, ORD, EMPTY = "তিনি নয়টায় আসবেন।", "সে নয়টায় আসবে।", ""
ENGLISH = "The doctor will arrive at nine."  # not a translation: unreadable
# Mock reply rules: the honorific whenever the prompt's pronoun is "he", ordinary for "she".
FAVOURS_MEN = {" she ": ORD, " her ": ORD, " he ": HON, " his ": HON, " they ": EMPTY, "*": HON}


def responses(
    b: int, c: int, same: int, unusable: int, others: str = "pattern", seeds: int = 0
) -> list[dict[str, Any]]:
    """One response per item (repeated under seeds 0..seeds-1 when seeds > 0).

    he/she pairs: b (HON, ORD), c (ORD, HON), ``same`` concordant, ``unusable`` unreadable.
    Other items: HON/ORD by a fixed pattern, or (``others="embedded"``) 392 of them unreadable.
    """
    items = load_definition().items()
    pairs = sorted({(i.occupation_en, i.template_id) for i in items if i.gender == "male"})
    bad = (EMPTY, ORD) if others == "pattern" else (ENGLISH, ENGLISH)
    kinds = (
        [(HON, ORD)] * b
        + [(ORD, HON)] * c
        + [(HON, HON)] * (same // 2)
        + [(ORD, ORD)] * (same - same // 2)
        + [bad] * unusable
    )
    by_pair = dict(zip(pairs, kinds, strict=True))
    index = {pair: i for i, pair in enumerate(pairs)}
    rows, n_others = [], 0
    for item in items:
        key = (item.occupation_en, item.template_id)
        if item.gender in ("male", "female"):
            output = by_pair[key][item.gender == "female"]
        elif others == "embedded":
            n_others += 1
            output = ENGLISH if n_others <= 392 else HON if n_others % 2 else ORD
        else:
            output = HON if index[key] % 3 else ORD
        rows.append({"item_id": item.item_id, "model": "m", "output": output})
    if not seeds:
        return rows
    return [{**row, "seed": seed} for seed in range(seeds) for row in rows]


def biasbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=os.environ.copy(),
    )


def _fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "n/a"
    return (
        f"{value:.{digits}g}"
        if isinstance(value, float) and abs(value) < 0.01
        else f"{value:.{digits}f}"
        if isinstance(value, float)
        else str(value)
    )


def row(label: str, proc: subprocess.CompletedProcess[str], out: Path) -> tuple[str, str]:
    if proc.returncode != 0 or not (out / "results.json").exists():
        return f"| {label} |" + " |" * 9 + f" exit {proc.returncode} |", proc.stderr.strip()[-200:]
    model = next(iter(json.loads((out / "results.json").read_text())["models"].values()))
    pairs = f"{model['n_pairs']}"
    if model.get("n_pairs_effective") is not None:
        pairs += f" (effective {model['n_pairs_effective']:g})"
    if model.get("min_detectable_hai_pp") is not None:
        detectable = f"{model['min_detectable_hai_pp']:.2f} pp"
    else:
        detectable = (model.get("min_detectable_hai_reason") or "n/a").split(":")[0]
    lines = proc.stdout.splitlines()
    warnings = sum(line.lstrip().startswith("!") for line in lines)
    table4 = (out / "tables" / "table4.md").read_text(encoding="utf-8")
    header = table4.splitlines()[0]
    shows = "+".join(name for name in ("pairs", "unreadable") if f"| {name} |" in header)
    partial = "yes" if "| partial" in table4 else "no" if "scope" in header else "n/a"
    cells = [
        label,
        f"{model['hai_pp']:+.2f}",
        _fmt(model["p_exact"], 3),
        model.get("p_test", "n/a"),
        pairs,
        detectable,
        _fmt(model.get("unreadable_pct"), 1),
        str(warnings),
        shows or "neither",
        partial,
        f"exit {proc.returncode}",
    ]
    return "| " + " | ".join(cells) + " |", lines[0] if lines else ""


def main() -> None:
    cases: list[tuple[str, list[dict[str, Any]] | None]] = [
        ("N=456 b=41 c=19, one seed", responses(41, 19, 396, 48)),
        ("same, as 2 identical seeds", responses(41, 19, 396, 48, seeds=2)),
        ("N=10 b=3 c=0", responses(3, 0, 7, 494)),
        ("embedded-like: 75 of 504 pairs", responses(29, 2, 44, 429, others="embedded")),
        ("run --limit 30, mock favours men", None),
    ]
    table, summaries = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (label, rows) in enumerate(cases):
            out = Path(tmp) / f"out{n}"
            if rows is None:
                rules = Path(tmp) / "favours-men.json"
                rules.write_text(json.dumps(FAVOURS_MEN, ensure_ascii=False), encoding="utf-8")
                proc = biasbench(
                    "run",
                    "honorific-bn",
                    "--model",
                    f"mock:{rules}",
                    "--out",
                    str(out),
                    "--limit",
                    "30",
                    "--no-progress",
                )
            else:
                path = Path(tmp) / f"responses{n}.jsonl"
                path.write_text(
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8",
                )
                proc = biasbench(
                    "score", "honorific-bn", "--responses", str(path), "--out", str(out)
                )
            line, summary = row(label, proc, out)
            table.append(line)
            summaries.append(f"- {label}: `{summary}`")
    print(
        "| case | HAI pp | p | p test | pairs | min detectable HAI | unreadable % "
        "| ! warnings | table 4 shows | table 4 says partial | exit |"
    )
    print("|:---|---:|---:|:---|---:|:---|---:|---:|:---|:---|:---|")
    print("\n".join(table))
    print("\nOne-line terminal summary (first line of stdout):\n")
    print("\n".join(summaries))


if __name__ == "__main__":
    main()
