"""Round 3 of "numbers that cannot mislead": the figures each item quotes, one section each.

Sections (``python measurements/round3_numbers.py [SECTION ...]``, all by default):

- ``partial`` (item 4): a ``--limit 12`` CBBQ run on the test fixture (one seed) and a full one:
  the signature's ``limit``, results.json's ``coverage``, ``[PARTIAL]`` in the summary and the
  scope ``biasbench runs`` lists;
- ``cbbq`` (item 7): ``biasbench score cbbq`` on three seeds of built answers where seed 1
  answers "unknown" to every disambiguated item (its S_disamb undefined): the S_amb, S_disamb
  and S_total shown, and 0.4 S_amb + 0.6 S_disamb beside S_total;
- ``mde`` (item 6): the minimum detectable HAI by Connor's formula and by the exact power of
  the exact McNemar test, each with its exact power and a simulated power (20,000 runs);
- ``degenerate`` (item 2): 4 ambiguous items, 3 seeds, each item answered right with
  probability 0.98 (accuracy near 1), 400 simulated runs: how often results.json writes an
  interval, how often a written one is zero-width, how often a written one covers 0.98, and
  whether the category is flagged for resting on few items;
- ``mbbq`` (item 3): MBBQ's control gap (accuracy on MBBQ minus on its control set) on the 12
  ambiguous English item pairs of the test fixture, with per-item accuracies drawn afresh each
  run (control p ~ Beta(8, 2), main p = control p - gap, gap ~ N(0.1, 0.15) per item): the
  coverage of the gap over the item population by the code's interval, 200 runs per seed count;
- ``spread`` (item 5): ``biasbench run honorific-bn --model mock:hashed-register`` (a fair coin
  per response: no occupation or gender effect) on all 504 pairs with 1 and 5 seeds: spread,
  HBS and eta-squared, with the interval and no-effect reference where the code gives them,
  and whether the summary says the values are within the no-effect range;
- ``mbbq_paths``: the same pseudo-random answers to MBBQ's Spanish SES and
  Gender_identity files (from ``$BIASBENCH_MBBQ_CHECKOUT`` or the local mirror) scored by
  ``biasbench score mbbq --languages es`` and by ``biasbench score bbq --items
  mbbq/es=SES_es.jsonl,mbbq/es=Gender_identity_es.jsonl``: items excluded and s_DIS / s_AMB per
  category by each path;
- ``authors_mbbq``: mbbq.py's own ``detect_answer`` (taken from the MBBQ
  checkout or mirror and run, not copied) on answers that are exactly the gold option's, and
  the target option's, text, on every published MBBQ and control file: per language and
  category the options whose text ends in a space or a full stop, the answers it misses or
  reads as another option, and what biasbench's parser reads;
- ``authors_cbbq``: CBBQ's scripts' ``'a' in output.lower()`` test
  beside biasbench's parser on 16 typical outputs (bare letters, Chinese, English);
- ``authors_bbq``: BBQ_results_metadata.R counts Gender_identity's
  template 12 twice: the items that is and the weight it takes, and biasbench's s_AMB, s_DIS
  and accuracy on the UnifiedQA predictions each item once and template 12 twice (where
  ``results/UnifiedQA/preds_Gender_identity.jsonl`` is at hand, ``$BIASBENCH_BBQ_REPO`` or
  the mirror);

Run from a checkout root with that checkout's code on the path, ``PYTHONPATH=$PWD python
measurements/round3_numbers.py``; the same file runs against an older checkout (``git archive
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
    return subprocess.run(
        [sys.executable, "-m", "biasbench", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )


def _get(data: Any, *keys: Any) -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return "n/a"
        data = data[key]
    return data


# --------------------------------------------------------------------------- item 4


def partial() -> None:
    print("## item 4: a --limit BBQ-family run (cbbq fixture, SES + disability, 32 items)\n")
    print(
        "| run | signature.limit | results.limit | coverage.partial | [PARTIAL] in summary "
        "| `runs` scope |"
    )
    print("|:--|:--|:--|:--|:--|:--|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, limit in (("--limit 12", ["--limit", 12]), ("all items", [])):
            root = Path(tmp) / name.replace(" ", "_").replace("-", "")
            run_dir = root / "run"
            done = _cli(
                "run",
                "cbbq",
                "--model",
                "mock:hashed-letter",
                *limit,
                "--data",
                CBBQ_FIXTURES,
                "--categories",
                "SES,disability",
                "--out",
                run_dir,
            )
            if done.returncode != 0:
                print(f"| {name} | run failed: {done.stderr.strip()[-200:]} |")
                continue
            results = json.loads((run_dir / "results.json").read_text())
            listing = _cli("runs", root).stdout.splitlines()
            scope = (
                "partial"
                if "partial" in "\n".join(listing[1:])
                else ("full" if "scope" in listing[0] else "n/a (no scope column)")
            )
            print(
                f"| {name} | {_get(results, 'signature', 'limit')} | "
                f"{_get(results, 'limit')} | "
                f"{_get(results, 'coverage', 'mock-hashed-letter', 'partial')} | "
                f"{'[PARTIAL]' in done.stdout} | {scope} |"
            )
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
            rows.append(
                {
                    "example_id": item.example_id,
                    "category": item.category,
                    "model": "m",
                    "seed": seed,
                    "pred": int(pred),
                }
            )
    print("## item 7: CBBQ S_total and its parts over three seeds (seed 1: S_disamb undefined)\n")
    with tempfile.TemporaryDirectory() as tmp:
        responses = Path(tmp) / "responses.jsonl"
        responses.write_text("".join(json.dumps(r) + "\n" for r in rows))
        done = _cli(
            "score",
            "cbbq",
            "--responses",
            responses,
            "--data",
            CBBQ_FIXTURES,
            "--categories",
            "SES",
            "--out",
            Path(tmp) / "out",
        )
        if done.returncode != 0:
            print(f"score failed: {done.stderr.strip()[-300:]}")
            return
        entry = json.loads((Path(tmp) / "out" / "results.json").read_text())["dataset_scores"][
            "models"
        ]["m"]["all"]
    means = {m: entry[m]["mean"] for m in ("s_amb", "s_disamb", "s_total")}
    seeds = {m: entry[m]["n_seeds"] for m in means}
    print("| S_amb (seeds) | S_disamb (seeds) | S_total (seeds) | 0.4 S_amb + 0.6 S_disamb |")
    print("|--:|--:|--:|--:|")
    print(
        f"| {means['s_amb']:.3f} ({seeds['s_amb']}) | {means['s_disamb']:.3f} "
        f"({seeds['s_disamb']}) | {means['s_total']:.3f} ({seeds['s_total']}) | "
        f"{0.4 * means['s_amb'] + 0.6 * means['s_disamb']:.3f} |\n"
    )


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
    print(
        "| pairs | discordant | Connor (pp) | its exact / simulated power | exact search (pp) "
        "| its exact / simulated power |"
    )
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
            cells += [
                f"{100 * d:.3f}",
                f"{exact_power} / {_simulated_power(n, psi, d, 20000, rng):.3f}",
            ]
        print(f"| {n} | {100 * psi:.1f}% | " + " | ".join(cells) + " |")
    print()


# --------------------------------------------------------------------------- item 2


def degenerate(reps: int = 400) -> None:
    from biasbench.engines.bbq_family.items.items import BBQItem
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses, to_results_json

    items = [
        BBQItem(
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
            label=2,
        )
        for i in range(4)
    ]
    rng = np.random.default_rng(7)
    written = zero_width = covered = flagged = 0
    for _ in range(reps):
        right = rng.random((3, 4)) < 0.98
        rows = [
            {"model": "m", "seed": s, "uid": it.uid, "pred": 2 if right[s, k] else 1}
            for s in range(3)
            for k, it in enumerate(items)
        ]
        entry = to_results_json(score_responses(items, __import__("pandas").DataFrame(rows)))[
            "models"
        ]["m"]["SO"]
        stat = entry["acc_ambig"]
        flagged += bool(entry.get("few_items"))
        if stat["ci_low"] is None:
            continue
        written += 1
        zero_width += stat["ci_low"] == stat["ci_high"]
        covered += stat["ci_low"] <= 0.98 <= stat["ci_high"]
    print(f"## item 2: 4 ambiguous items, 3 seeds, accuracy 0.98 ({reps} runs)\n")
    print(
        "| intervals written | of them zero-width | written ones covering 0.98 | "
        "flagged 'few items' |"
    )
    print("|--:|--:|--:|--:|")
    share = f"{covered / written:.0%}" if written else "n/a (none written)"
    print(
        f"| {written / reps:.0%} | {zero_width / max(written, 1):.0%} | {share} | "
        f"{flagged / reps:.0%} |\n"
    )


# --------------------------------------------------------------------------- item 3


def mbbq(reps: int = 200, seed_counts: tuple[int, ...] = (1, 3, 10, 50)) -> None:
    import pandas as pd

    from biasbench.benchmarks.mbbq.control import paired_differences
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
    from biasbench.registry import get_benchmark

    fixture = Path.cwd() / "tests" / "benchmarks" / "mbbq" / "fixtures" / "data"
    bench = get_benchmark("mbbq", data=fixture, languages="en")
    items = [i for i in bench.items if i.language == "en" and i.context_condition == "ambig"]
    main = sorted(
        (i for i in items if i.namespace == "mbbq/en"), key=lambda i: (i.category, i.example_id)
    )
    control = {(i.category, i.example_id): i for i in items if i.namespace != "mbbq/en"}
    pairs = [
        (m, control[(m.category, m.example_id)])
        for m in main
        if (m.category, m.example_id) in control
    ]
    used = [i for pair in pairs for i in pair]
    rng = np.random.default_rng(11)
    big_c = rng.beta(8, 2, 400_000)
    big_gap = rng.normal(0.1, 0.15, big_c.size)
    truth = float((np.clip(big_c - big_gap, 0, 1) - big_c).mean())  # the population's gap
    print(
        f"## item 3: MBBQ control gap, {len(pairs)} ambiguous item pairs, population gap "
        f"{truth:+.3f} ({reps} runs)\n"
    )
    print("| seeds | intervals written | coverage of the population gap | pairing |")
    print("|--:|--:|--:|:--|")
    for n_seeds in seed_counts:
        written = covered = 0
        pairing = "seed"
        for _ in range(reps):
            p_c = rng.beta(8, 2, len(pairs))
            p_m = np.clip(p_c - rng.normal(0.1, 0.15, len(pairs)), 0, 1)
            rows = []
            for s in range(n_seeds):
                for k, (m, c) in enumerate(pairs):
                    for item, p in ((m, p_m[k]), (c, p_c[k])):
                        wrong = next(j for j in range(3) if j != item.label)
                        rows.append(
                            {
                                "model": "m",
                                "seed": s,
                                "uid": item.uid,
                                "pred": item.label if rng.random() < p else wrong,
                            }
                        )
            cell = paired_differences(score_responses(used, pd.DataFrame(rows)), used).get(
                ("m", "en", "acc_ambig")
            )
            if not cell or cell["ci_low"] is None:
                continue
            pairing = cell.get("pairing", "seed")
            written += 1
            covered += cell["ci_low"] <= truth <= cell["ci_high"]
        share = f"{covered / written:.1%}" if written else "n/a"
        print(f"| {n_seeds} | {written / reps:.0%} | {share} | {pairing} |")
    print()


# --------------------------------------------------------------------------- item 5


def spread() -> None:
    print("## item 5: honorific-bn, mock:hashed-register (fair coin), all 504 pairs\n")
    print(
        "| seeds | statistic | value | 95% interval (items) | null mean | null 95th pct | p "
        "| summary says within no-effect range |"
    )
    print("|--:|:--|--:|:--|--:|--:|--:|:--|")
    with tempfile.TemporaryDirectory() as tmp:
        for n_seeds in (1, 5):
            run_dir = Path(tmp) / f"s{n_seeds}"
            seeds = ["--seeds", n_seeds] if n_seeds > 1 else []
            done = _cli(
                "run", "honorific-bn", "--model", "mock:hashed-register", *seeds, "--out", run_dir
            )
            if done.returncode != 0:
                print(f"| {n_seeds} | run failed: {done.stderr.strip()[-200:]} |")
                continue
            model = next(
                iter(json.loads((run_dir / "results.json").read_text())["models"].values())
            )
            ref = (model.get("no_effect_reference") or {}).get("statistics") or {}
            said = "within what a model with no occupation" in done.stdout
            for name in ("occupation_spread_pp", "hbs", "eta2_occupation_pct", "eta2_pronoun_pct"):
                stat = ref.get(name) or {}
                interval = (
                    f"[{stat['ci_low']:.1f}, {stat['ci_high']:.1f}]"
                    if stat.get("ci_low") is not None
                    else "n/a"
                )
                cells = [
                    f"{stat[k]:.2f}" if isinstance(stat.get(k), float) else "n/a"
                    for k in ("null_mean", "null_p95", "p_value")
                ]
                print(
                    f"| {n_seeds} | {name} | {model[name]:.2f} | {interval} | "
                    + " | ".join(cells)
                    + f" | {said} |"
                )
    print()


# ------------------------------------------------------- mbbq_paths: one reading of MBBQ files


def _mbbq_files(folder: Path, categories: tuple[str, ...]) -> Path | None:
    """MBBQ's Spanish files: a checkout's data/, else the mirror's, else None."""
    import os

    checkout = os.environ.get("BIASBENCH_MBBQ_CHECKOUT")
    if checkout:
        return Path(checkout) / "data"
    mirror = Path("/work/.mirror/Veranep+MBBQ/repo")
    folder.mkdir(parents=True, exist_ok=True)
    for category in categories:
        done = subprocess.run(
            ["git", "--git-dir", str(mirror), "show", f"HEAD:data/{category}_es.jsonl"],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            return None
        (folder / f"{category}_es.jsonl").write_bytes(done.stdout)
    return folder


def mbbq_paths() -> None:
    import hashlib

    categories = ("SES", "Gender_identity")
    print(
        "## mbbq_paths: score mbbq vs score bbq --items mbbq/es=... (Spanish SES + "
        "Gender_identity, pseudo-random answers)\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = _mbbq_files(Path(tmp) / "data", categories)
        if folder is None:
            print("n/a: no copy of Veranep/MBBQ (set BIASBENCH_MBBQ_CHECKOUT)\n")
            return
        rows = []
        for category in categories:
            for line in (folder / f"{category}_es.jsonl").read_text(encoding="utf-8").split("\n"):
                if line.strip():
                    row = json.loads(line)
                    key = f"{category}:{row['example_id']}".encode()
                    rows.append(
                        {
                            "example_id": row["example_id"],
                            "category": category,
                            "model": "m",
                            "pred": int(hashlib.sha256(key).hexdigest(), 16) % 3,
                        }
                    )
        responses = Path(tmp) / "responses.jsonl"
        responses.write_text("".join(json.dumps(r) + "\n" for r in rows))
        items = ",".join(f"mbbq/es={folder / f'{c}_es.jsonl'}" for c in categories)
        paths = {
            "score mbbq --languages es": (
                "score",
                "mbbq",
                "--responses",
                responses,
                "--languages",
                "es",
                "--set",
                "main",
                "--categories",
                ",".join(categories),
                "--data",
                folder,
            ),
            "score bbq --items mbbq/es=...": (
                "score",
                "bbq",
                "--responses",
                responses,
                "--items",
                items,
            ),
        }
        print("| path | category | excluded | s_DIS | s_AMB |")
        print("|:--|:--|--:|--:|--:|")
        for name, args in paths.items():
            out = Path(tmp) / name.split()[1]
            done = _cli(*args, "--out", out)
            if done.returncode != 0:
                print(f"| {name} | failed: {done.stderr.strip()[-200:]} |")
                continue
            results = json.loads((out / "results.json").read_text())
            for category in categories:
                entry = _get(results, "models", "m", category)
                excluded = sum((results.get("excluded_by_reason") or {}).get(category, {}).values())
                print(
                    f"| {name} | {category} | {excluded} | "
                    f"{_get(entry, 's_dis', 'mean'):+.3f} | "
                    f"{_get(entry, 's_amb', 'mean'):+.3f} |"
                )
    print()


# -------------------------------------------------- authors_*: where the authors' scripts err


def _mbbq_checkout(folder: Path) -> Path | None:
    """A folder holding MBBQ's mbbq.py, answer_detection.py and data/*.jsonl: the checkout at
    ``$BIASBENCH_MBBQ_CHECKOUT``, else those files written out of the local mirror, else None."""
    import os

    checkout = os.environ.get("BIASBENCH_MBBQ_CHECKOUT")
    if checkout:
        return Path(checkout)
    mirror = Path("/work/.mirror/Veranep+MBBQ/repo")
    listed = subprocess.run(
        ["git", "--git-dir", str(mirror), "ls-tree", "--name-only", "HEAD", "data/"],
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0:
        return None
    for name in ["mbbq.py", "answer_detection.py", *listed.stdout.split()]:
        if name.endswith((".py", ".jsonl")):
            done = subprocess.run(
                ["git", "--git-dir", str(mirror), "show", f"HEAD:{name}"],
                capture_output=True,
                check=True,
            )
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(done.stdout)
    return folder


def _mbbq_detect_answer(checkout: Path) -> Callable[..., Any]:
    """mbbq.py's own ``detect_answer`` (with ``auto_detect`` and ``check_all``), read from the
    checkout and run, never copied: the three functions are taken out of mbbq.py's syntax tree
    (its module-level imports of transformers etc. are not run) and given answer_detection.py's
    lists, as ``from answer_detection import *`` gives them."""
    import ast
    import importlib.util
    import string

    spec = importlib.util.spec_from_file_location(
        "mbbq_answer_detection", checkout / "answer_detection.py"
    )
    assert spec is not None and spec.loader is not None
    lists = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lists)
    tree = ast.parse((checkout / "mbbq.py").read_text(encoding="utf-8"))
    wanted = {"auto_detect", "check_all", "detect_answer"}
    body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    namespace: dict[str, Any] = {**vars(lists), "string": string}
    exec(compile(ast.Module(body=body, type_ignores=[]), "mbbq.py", "exec"), namespace)
    return namespace["detect_answer"]


def _authors_mbbq_row(language: str, category: str, c: dict[str, int]) -> None:
    print(
        f"| {language} | {category} | {c['items']:,} | {c['with']:,} | {c['options']:,} | "
        f"{c['missed']:,} ({c['missed'] / c['items']:.2%}) | {c['other']:,} | "
        f"{c['missed_end']:,} | {c['ours']:,} | {c['target_missed']:,} of "
        f"{c['targeted']:,} |"
    )


def authors_mbbq() -> None:
    from biasbench.benchmarks.mbbq.source import (
        CATEGORIES,
        CONTROL,
        LANGUAGES,
        MAIN,
        data_file,
        load_mbbq_file,
    )
    from biasbench.engines.bbq_family.judging.parser import parse_answer

    print(
        "## authors_mbbq: mbbq.py's detect_answer on answers that are an option's exact "
        "text (MBBQ + control, every category)\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        checkout = _mbbq_checkout(Path(tmp))
        if checkout is None:
            print("n/a: no copy of Veranep/MBBQ (set BIASBENCH_MBBQ_CHECKOUT)\n")
            return
        detect_answer = _mbbq_detect_answer(checkout)
        print(
            "| language | category | items | with an option ending in a space or '.' "
            "| such options | gold text: mbbq.py misses | reads another option | of the "
            "misses, gold option ends so | biasbench right | target text: mbbq.py misses "
            "(of items with a target) |"
        )
        print("|:--|:--|--:|--:|--:|--:|--:|--:|--:|--:|")
        keys = (
            "items",
            "with",
            "options",
            "missed",
            "other",
            "missed_end",
            "ours",
            "targeted",
            "target_missed",
        )
        for language in LANGUAGES:
            total = dict.fromkeys(keys, 0)
            for category in CATEGORIES:
                count = dict.fromkeys(keys, 0)
                for subset in (MAIN, CONTROL):
                    path = checkout / "data" / data_file(category, language, subset)
                    for item in load_mbbq_file(path, category, language, subset).items:
                        options = list(item.answers)
                        ends = [o.endswith((" ", ".")) for o in options]
                        count["items"] += 1
                        count["with"] += any(ends)
                        count["options"] += sum(ends)
                        found = detect_answer(
                            options, options[item.label], item.unknown_index, language
                        )
                        found = None if found in (None, "all") else int(found)
                        count["missed"] += found is None
                        count["other"] += found is not None and found != item.label
                        count["missed_end"] += found is None and ends[item.label]
                        count["ours"] += parse_answer(options[item.label], item).index == item.label
                        if item.target_answer is not None:
                            count["targeted"] += 1
                            target = detect_answer(
                                options, options[item.target_answer], item.unknown_index, language
                            )
                            count["target_missed"] += target in (None, "all")
                total = {k: total[k] + count[k] for k in keys}
                if count["with"] or count["missed"] or count["other"]:
                    _authors_mbbq_row(language, category, count)
            _authors_mbbq_row(language, "**all**", total)
    print()


CBBQ_OUTPUTS: tuple[tuple[str, str, str], ...] = (
    ("C", "C", "letter"),
    ("A", "A", "letter"),
    ("B", "B", "letter"),
    ("答案：C", "C", "Chinese"),
    ("答案是C。", "C", "Chinese"),
    ("C. 不确定", "C", "Chinese"),
    ("选C", "C", "Chinese"),
    ("Answer: C", "C", "English"),
    ("Answer: B", "B", "English"),
    ("Answer: A", "A", "English"),
    ("The answer is C.", "C", "English"),
    ("The answer is B.", "B", "English"),
    ("(C) Cannot be determined", "C", "English"),
    ("I choose C", "C", "English"),
    ("Option C", "C", "English"),
    ("C. Unknown", "C", "English"),
)
"""Answer shapes a model gives to CBBQ's prompt, each with the option it means."""


def authors_cbbq() -> None:
    """How evaluate_amb.py / evaluate_disamb.py (CBBQ, ``evaluation scripts/<model>/``) read
    each output: biased on a ``neg`` question when ``'a' in output.lower()``, on a ``non_neg``
    one when ``'b' in ...``; S_disamb's denominator counts the output once per letter a / b it
    holds. Beside it, the option biasbench's parser reads (a CBBQ fixture item, language zh)."""
    from biasbench.benchmarks.cbbq.source import load_cbbq
    from biasbench.engines.bbq_family.judging.parser import parse_answer

    item = load_cbbq(CBBQ_FIXTURES, ("SES",))[0]
    print("## authors_cbbq: CBBQ's scripts' 'a' in output.lower() on typical outputs\n")
    print(
        "| output | means | scripts: biased if neg | biased if non_neg | counts in S_disamb's "
        "denominator | biasbench reads |"
    )
    print("|:--|:-:|:-:|:-:|--:|:-:|")
    misread: dict[str, list[int]] = {}
    for output, meant, kind in CBBQ_OUTPUTS:
        lower = output.lower()
        as_neg, as_non_neg = "a" in lower, "b" in lower
        ours = parse_answer(output, item).index
        read = "ABC"[ours] if ours is not None else "unparsed"
        tally = misread.setdefault(kind, [0, 0])
        tally[0] += (as_neg and meant != "A") or (as_non_neg and meant != "B")
        tally[1] += 1
        print(
            f"| `{output}` | {meant} | {'yes' if as_neg else 'no'} | "
            f"{'yes' if as_non_neg else 'no'} | {int(as_neg) + int(as_non_neg)} | {read} |"
        )
    print(
        "\nread by the scripts as an option not meant: "
        + ", ".join(f"{kind} {wrong} of {n}" for kind, (wrong, n) in misread.items())
        + "\n"
    )


BBQ_TEMPLATE_TWICE = "12"
"""Gender_identity's template with two ``Known_stereotyped_groups`` rows in its template CSV
(``["transgender women", "trans"]`` and ``["transgender men", "trans"]``, both with Q_id 12):
BBQ_results_metadata.R's ``merge(..., by=c("category","question_index"))`` joins each of its
items to both rows."""

BBQ_UQA_COLUMNS = ("unifiedqa-t5-11b_pred_race", "unifiedqa-t5-11b_pred_arc")
"""The UnifiedQA prediction columns scored on both conditions (the question-only baseline is
scored on ambiguous items only and is left out here)."""


def _bbq_file(repo_path: str, folder: Path) -> Path | None:
    """One nyu-mll/BBQ file from ``$BIASBENCH_BBQ_REPO``, else written out of the local mirror,
    else None (the mirror may list a large file whose bytes it lacks)."""
    import os

    checkout = os.environ.get("BIASBENCH_BBQ_REPO")
    if checkout:
        path = Path(checkout) / repo_path
        return path if path.is_file() else None
    done = subprocess.run(
        ["git", "--git-dir", "/work/.mirror/nyu-mll+BBQ/repo", "show", f"HEAD:{repo_path}"],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout:
        return None
    path = folder / repo_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(done.stdout)
    return path


def _twice(items: list[Any]) -> list[Any]:
    """``items`` with a second copy of each template-12 item (a fresh example_id), as the R
    join counts them."""
    offset = 1 + max(item.example_id for item in items)
    return items + [
        item.model_copy(update={"example_id": item.example_id + offset})
        for item in items
        if item.question_index == BBQ_TEMPLATE_TWICE
    ]


def _bbq_scores(items: list[Any], answers: dict[int, dict[str, str]]) -> dict[str, float]:
    """biasbench's Gender_identity s_AMB, s_DIS and accuracy (all items) for one prediction
    column; ``answers`` maps example_id -> column -> answer text (copies share their original's
    answers: ids past the largest original id)."""
    import pandas as pd

    from biasbench.engines.bbq_family.judging.parser import parse_answer
    from biasbench.engines.bbq_family.scoring.bias_scores import (
        NO_INDEX,
        count_statistics,
        item_table,
        scores_from_counts,
    )

    originals = sorted(answers)
    out: dict[str, float] = {}
    for column in BBQ_UQA_COLUMNS:
        rows = []
        for item in items:
            source = (
                item.example_id
                if item.example_id in answers
                else item.example_id - (1 + originals[-1])
            )
            index = parse_answer(answers[source][column], item).index
            rows.append(
                {
                    "model": column,
                    "uid": item.uid,
                    "pred_index": NO_INDEX if index is None else index,
                }
            )
        counts = count_statistics(pd.DataFrame(rows), item_table(items), keys=("model",))
        scored = scores_from_counts(counts, ["model"]).iloc[0]
        accuracy = (scored["n_correct_ambig"] + scored["n_correct_disambig"]) / (
            scored["n_ambig"] + scored["n_disambig"]
        )
        out[f"{column}:s_amb"] = float(scored["s_amb"])
        out[f"{column}:s_dis"] = float(scored["s_dis"])
        out[f"{column}:accuracy"] = float(accuracy)
    return out


def authors_bbq() -> None:
    """BBQ_results_metadata.R counts Gender_identity's template 12 twice: biasbench's scores on
    the authors' UnifiedQA predictions with each item once, and with template 12's items twice.
    Where the prediction file is not at hand, the exact item counts (from the published items,
    else generated from the templates, whose counts equal the published ones) and the weight the
    second copies take in each condition's accuracy (s_DIS and s_AMB weight them by their share
    of non-unknown answers, which needs the predictions)."""
    from biasbench.engines.bbq_family.items.items import BBQItem

    print("## authors_bbq: BBQ's metadata script counts Gender_identity's template 12 twice\n")
    with tempfile.TemporaryDirectory() as tmp:
        preds = _bbq_file("results/UnifiedQA/preds_Gender_identity.jsonl", Path(tmp))
        data = _bbq_file("data/Gender_identity.jsonl", Path(tmp))
        source = preds or data
        if source is not None:
            rows = [
                json.loads(line)
                for line in source.read_text(encoding="utf-8").splitlines()
                if line.strip()
            ]
            items = [BBQItem.model_validate(row) for row in rows]
            where = "the published " + ("predictions' items" if preds else "items")
        else:
            from biasbench.benchmarks.bbq.original import generate_bbq_items

            templates = Path(tmp) / "templates"
            for name in (
                "new_templates - Gender_identity.csv",
                "vocabulary.csv",
                "vocabulary_proper_names.csv",
            ):
                if _bbq_file(f"templates/{name}", Path(tmp)) is None:
                    print("n/a: no copy of nyu-mll/BBQ's templates (set BIASBENCH_BBQ_REPO)\n")
                    return
            generated = generate_bbq_items(templates, 0, ("Gender_identity",))
            items = [BBQItem.model_validate(row) for row in generated["Gender_identity"].items]
            rows, where = [], "items generated from the templates (seed 0)"
        twelve = sum(item.question_index == BBQ_TEMPLATE_TWICE for item in items)
        by_condition = {
            c: (
                sum(i.context_condition == c for i in items),
                sum(
                    i.context_condition == c and i.question_index == BBQ_TEMPLATE_TWICE
                    for i in items
                ),
            )
            for c in ("ambig", "disambig")
        }
        print(
            f"Gender_identity items ({where}): {len(items):,}; template 12: {twelve:,} "
            f"({twelve / len(items):.2%}); as the R join counts them: "
            f"{len(items) + twelve:,}"
        )
        for condition, (n, n12) in by_condition.items():
            weight = n12 / (n + n12)
            print(
                f"- {condition}: {n:,} items, {n12:,} of template 12; the second copies' "
                f"weight in the accuracy w = {n12}/{n + n12} = {weight:.4f} (it moves by "
                f"w * (accuracy on template 12 - accuracy), at most {weight:.4f})"
            )
        if preds is None:
            print(
                "\nUnifiedQA scores: n/a (results/UnifiedQA/preds_Gender_identity.jsonl is "
                "not at hand: set BIASBENCH_BBQ_REPO to a checkout holding it)\n"
            )
            return
        answers = {row["example_id"]: {c: row[c] for c in BBQ_UQA_COLUMNS} for row in rows}
        once, doubled = _bbq_scores(items, answers), _bbq_scores(_twice(items), answers)
        print("\n| prediction column | score | each item once | template 12 twice | difference |")
        print("|:--|:--|--:|--:|--:|")
        for key, value in once.items():
            column, score = key.split(":")
            print(
                f"| {column} | {score} | {value:.4f} | {doubled[key]:.4f} | "
                f"{doubled[key] - value:+.4f} |"
            )
    print()


SECTIONS: dict[str, Callable[[], None]] = {
    "partial": partial,
    "cbbq": cbbq,
    "mde": mde,
    "degenerate": degenerate,
    "mbbq": mbbq,
    "spread": spread,
    "mbbq_paths": mbbq_paths,
    "authors_mbbq": authors_mbbq,
    "authors_cbbq": authors_cbbq,
    "authors_bbq": authors_bbq,
}


def main(argv: list[str]) -> None:
    for name in argv or list(SECTIONS):
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
