"""Round 3 of "numbers that cannot mislead": the figures each item quotes, one section each.

Sections (``python benchmarks/round3_numbers.py [SECTION ...]``, all by default):

- ``partial`` (item 4): a ``--limit 12`` CBBQ run on the test fixture (one seed) and a full one:
  the signature's ``limit``, results.json's ``coverage``, ``[PARTIAL]`` in the summary and the
  scope ``biasbench runs`` lists;
- ``cbbq`` (item 7): ``biasbench score cbbq`` on three seeds of built answers where seed 1
  answers "unknown" to every disambiguated item (its S_disamb undefined): the S_amb, S_disamb
  and S_total shown, and 0.4 S_amb + 0.6 S_disamb beside S_total;
- ``mde`` (item 6): the minimum detectable HAI by Connor's formula and by the exact power of
  the exact McNemar test, each with its exact power and a simulated power (20,000 runs);

Run from a checkout root with that checkout's code on the path, ``PYTHONPATH=$PWD python
benchmarks/round3_numbers.py``; the same file runs against an older checkout (``git archive
f46b479 | tar -x -C OLD; cd OLD; PYTHONPATH=$PWD python .../round3_numbers.py``) and prints
``n/a`` for what the older code lacks.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
CBBQ_FIXTURES = Path.cwd() / "tests" / "benchmarks" / "cbbq" / "fixtures" / "data"
if not CBBQ_FIXTURES.is_dir():
    CBBQ_FIXTURES = HERE.parent / "tests" / "benchmarks" / "cbbq" / "fixtures" / "data"


def _cli(*args: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "biasbench", *map(str, args)],
                          capture_output=True, text=True, check=False)


def _get(data: Any, *keys: Any) -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return "n/a"
        data = data[key]
    return data


# --------------------------------------------------------------------------- item 4


def partial() -> None:
    print("## item 4: a --limit BBQ-family run (cbbq fixture, SES + disability, 32 items)\n")
    print("| run | signature.limit | results.limit | coverage.partial | [PARTIAL] in summary "
          "| `runs` scope |")
    print("|:--|:--|:--|:--|:--|:--|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, limit in (("--limit 12", ["--limit", 12]), ("all items", [])):
            root = Path(tmp) / name.replace(" ", "_").replace("-", "")
            run_dir = root / "run"
            done = _cli("run", "cbbq", "--model", "mock:hashed-letter", *limit, "--data",
                        CBBQ_FIXTURES, "--categories", "SES,disability", "--out", run_dir)
            if done.returncode != 0:
                print(f"| {name} | run failed: {done.stderr.strip()[-200:]} |")
                continue
            results = json.loads((run_dir / "results.json").read_text())
            listing = _cli("runs", root).stdout.splitlines()
            scope = "partial" if "partial" in "\n".join(listing[1:]) else (
                "full" if "scope" in listing[0] else "n/a (no scope column)")
            print(f"| {name} | {_get(results, 'signature', 'limit')} | "
                  f"{_get(results, 'limit')} | "
                  f"{_get(results, 'coverage', 'mock-hashed-letter', 'partial')} | "
                  f"{'[PARTIAL]' in done.stdout} | {scope} |")
    print()


# --------------------------------------------------------------------------- item 7


def cbbq() -> None:
    """Seeds 0 and 2 answer the same; seed 1 answers "unknown" to every disambiguated item and
    the biased answer to every ambiguous one."""
    sys.path.insert(0, str(Path.cwd()))
    from biasbench.benchmarks.cbbq.source import load_cbbq

    items = load_cbbq(CBBQ_FIXTURES, ["SES"])
    rows = []
    for seed in (0, 1, 2):
        for n, item in enumerate(items):
            if item.context_condition == "disambig" and seed == 1:
                pred = item.unknown_index
            elif item.context_condition == "ambig":  # seed 1: every ambiguous answer biased
                pred = item.target_answer if (n % 2 == 0 or seed == 1) else item.unknown_index
            else:
                pred = item.target_answer if n % 3 else 3 - item.target_answer - item.unknown_index
            rows.append({"example_id": item.example_id, "category": item.category, "model": "m",
                         "seed": seed, "pred": int(pred)})
    print("## item 7: CBBQ S_total and its parts over three seeds (seed 1: S_disamb undefined)\n")
    with tempfile.TemporaryDirectory() as tmp:
        responses = Path(tmp) / "responses.jsonl"
        responses.write_text("".join(json.dumps(r) + "\n" for r in rows))
        done = _cli("score", "cbbq", "--responses", responses, "--data", CBBQ_FIXTURES,
                    "--categories", "SES", "--out", Path(tmp) / "out")
        if done.returncode != 0:
            print(f"score failed: {done.stderr.strip()[-300:]}")
            return
        entry = json.loads((Path(tmp) / "out" / "results.json").read_text())[
            "dataset_scores"]["models"]["m"]["all"]
    means = {m: entry[m]["mean"] for m in ("s_amb", "s_disamb", "s_total")}
    seeds = {m: entry[m]["n_seeds"] for m in means}
    print("| S_amb (seeds) | S_disamb (seeds) | S_total (seeds) | 0.4 S_amb + 0.6 S_disamb |")
    print("|--:|--:|--:|--:|")
    print(f"| {means['s_amb']:.3f} ({seeds['s_amb']}) | {means['s_disamb']:.3f} "
          f"({seeds['s_disamb']}) | {means['s_total']:.3f} ({seeds['s_total']}) | "
          f"{0.4 * means['s_amb'] + 0.6 * means['s_disamb']:.3f} |\n")


# --------------------------------------------------------------------------- item 6


def _simulated_power(n: int, psi: float, d: float, reps: int, rng: np.random.Generator) -> float:
    from scipy.stats import binom

    counts = rng.multinomial(n, [(psi + d) / 2, (psi - d) / 2, 1 - psi], size=reps)
    b, c = counts[:, 0], counts[:, 1]
    k = b + c
    p = np.where(k > 0, np.minimum(1.0, 2 * binom.cdf(np.minimum(b, c), k, 0.5)), 1.0)
    return float((p <= 0.05).mean())


def mde() -> None:
    from biasbench import stats

    exact: Callable[..., Any] | None = getattr(stats, "exact_min_detectable_difference", None)
    power: Callable[..., float] | None = getattr(stats, "mcnemar_exact_power", None)
    rng = np.random.default_rng(20261201)
    print("## item 6: minimum detectable HAI at 80% power, alpha 0.05 (exact McNemar test)\n")
    print("| pairs | discordant | Connor (pp) | its exact / simulated power | exact search (pp) "
          "| its exact / simulated power |")
    print("|--:|--:|--:|--:|--:|--:|")
    for n, psi in ((502, 14 / 502), (456, 60 / 456), (504, 0.3), (200, 0.3), (2520, 0.2)):
        connor = stats.min_detectable_difference(n, psi).as_float()
        found = exact(n, psi).value if exact else None
        cells = []
        for d in (connor, found):
            if d is None:
                cells += ["n/a", "n/a"]
                continue
            exact_power = f"{power(n, psi, d):.3f}" if power else "n/a"
            cells += [f"{100 * d:.3f}",
                      f"{exact_power} / {_simulated_power(n, psi, d, 20000, rng):.3f}"]
        print(f"| {n} | {100 * psi:.1f}% | " + " | ".join(cells) + " |")
    print()


SECTIONS: dict[str, Callable[[], None]] = {"partial": partial, "cbbq": cbbq, "mde": mde}


def main(argv: list[str]) -> None:
    for name in argv or list(SECTIONS):
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
