"""Round 4 of "numbers that cannot mislead": simulations with known truth, one section each,
each a table over populations or designs (the next one is one line of its table), each figure
with its number of replicates and standard error. The same file runs against an older checkout
(``git archive 792aa25 | tar -x -C OLD; PYTHONPATH=OLD python measurements/round4_numbers.py``):
the "before" figures of docs/statistics.md.

Sections (``python measurements/round4_numbers.py [--quick] [SECTION ...]``, all by default):

- ``grid``: the robustness decomposition (``anova_components``) on cell scores of a 3 seeds x
  6 orders x 2 prompts grid, the engine's budgets of it (``balanced_sample``, full and cyclic
  orders), noise of sd 0.069 per cell, with nothing planted and with an order effect of sd
  0.085: each factor's F-test rejection rate at 0.05 and the mean recovered order variance;
- ``item``: the grid's item component with nothing planted (identical items, answer noise only)
  and with items that differ, against the true item-sampling variance of the grid's mean;
- ``kobbq``: KoBBQ's own metrics and s_AMB on synthetic KoBBQ samples (each asked in its three
  orders, which answer alike, one greedy seed): coverage of the population values by results.
  json's intervals;
- ``cross_language``: three languages with no difference between them (and with an item x
  language interaction): how often a run shows at least one row significant;
- ``refusals``: planted refusals with excluded items answered too: refused_pct against the
  share of refusals among the scored responses;
- ``honorific``: where this checkout's eta-squared(occupation) no-effect reference lives; its
  size simulation over paired no-effect models is measurements/honorific_eta_reference.py (the
  fix is applied after the honorific engine's move, see docs/statistics.md).
"""

from __future__ import annotations

import argparse
import inspect
import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd


def _rate(hits: int, n: int) -> str:
    share = hits / n if n else math.nan
    return f"{share:.1%} +- {math.sqrt(share * (1 - share) / n):.1%} (n={n})" if n else "n/a"


# --------------------------------------------------------------------------- grid (item 4)

NOISE_SD = 0.069
ORDER_SD = 0.085


def _grid_cells(orders: str, budget: int | None) -> pd.DataFrame:
    from biasbench.engines.bbq_family.items.grid import ORDER_SETS, Cell, balanced_sample

    full = [
        Cell(s, o, p) for s in (0, 1, 2) for o in ORDER_SETS[orders] for p in ("published", "lines")
    ]
    chosen = full if budget is None or budget >= len(full) else balanced_sample(full, budget)
    return pd.DataFrame(
        {
            "seed": [c.seed for c in chosen],
            "order": ["".join(map(str, c.order)) for c in chosen],
            "prompt": [c.prompt for c in chosen],
        }
    )


def _components(cells: pd.DataFrame, item_var: float = 0.0) -> dict[str, Any]:
    from biasbench.engines.bbq_family.scoring.robustness import anova_components

    return anova_components(cells, "y", ["seed", "order", "prompt"], item_var)["components"]


# design: (orders, budget)
GRID_DESIGNS: dict[str, tuple[str, int | None]] = {
    "full grid, 36 cells": ("all", None),
    "--grid-budget 12 of 36 (docs/filbbq.md)": ("all", 12),
    "--grid-budget 18 of 36": ("all", 18),
    "cyclic orders, --grid-budget 12 of 18": ("cyclic", 12),
}


# planted sd per factor (the worked example of docs/bbq.md: seed 0.21, prompt 0.12, order 0.07)
GRID_PLANTS: dict[str, dict[str, float]] = {
    "nothing": {},
    "order only": {"order": ORDER_SD},
    "seed 0.2, order 0.085, prompt 0.12": {"seed": 0.2, "order": ORDER_SD, "prompt": 0.12},
}


def grid(reps: int) -> None:
    rng = np.random.default_rng(44)
    factors = ("seed", "order", "prompt")
    print(
        f"## Grid decomposition: cell noise sd {NOISE_SD}; {reps} runs per row; F rejects: "
        "share of runs with p < 0.05; variance: mean recovered component +- its standard "
        "error (planted)\n"
    )
    print(
        "| design | planted | "
        + " | ".join(f"{f} F rejects" for f in factors)
        + " | "
        + " | ".join(f"{f} variance" for f in factors)
        + " |"
    )
    print("|:--|:--|" + "--:|" * 6)
    for name, (orders, budget) in GRID_DESIGNS.items():
        cells = _grid_cells(orders, budget)
        codes = {f: pd.factorize(cells[f], sort=True)[0] for f in factors}
        for label, plants in GRID_PLANTS.items():
            rejects = {f: 0 for f in factors}
            tested = {f: 0 for f in factors}
            variances: dict[str, list[float]] = {f: [] for f in factors}
            for _ in range(reps):
                y = rng.normal(0, NOISE_SD, len(cells))
                for factor, sd in plants.items():
                    y = y + rng.normal(0.0, sd, codes[factor].max() + 1)[codes[factor]]
                found = _components(cells.assign(y=y))
                for factor in factors:
                    c = found.get(factor, {})
                    if c.get("p") is not None:
                        tested[factor] += 1
                        rejects[factor] += c["p"] < 0.05
                    variances[factor].append(c.get("variance", math.nan))
            parts = []
            for factor in factors:
                v = np.asarray(variances[factor], float)
                v = v[np.isfinite(v)]
                parts.append(
                    f"{v.mean():.4f} +- {v.std() / math.sqrt(v.size):.4f} "
                    f"({plants.get(factor, 0.0) ** 2:.4f})"
                    if v.size
                    else "n/a"
                )
            print(
                f"| {name} | {label} | "
                + " | ".join(_rate(rejects[f], tested[f]) for f in factors)
                + " | "
                + " | ".join(parts)
                + " |",
                flush=True,
            )


# --------------------------------------------------------------------------- item (item 5)


def _grid_item_run(
    rng: np.random.Generator, n_items: int, item_sd: float, cells: pd.DataFrame
) -> tuple[dict[str, Any], float]:
    """A grid's responses for one category of disambiguated items scored by the engine; each
    item's target propensity is 0.5 + an item offset, every cell answers afresh."""
    from biasbench.engines.bbq_family.scoring.bias_scores import item_table
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
    from biasbench.engines.bbq_family.scoring.robustness import item_variance
    from tests.engines.bbq_family.test_bias_scores import make_item

    items = [
        make_item(i, "neg" if i % 2 else "nonneg", "disambig", qid=f"T{i % 4}")
        for i in range(n_items)
    ]
    offsets = rng.uniform(-item_sd * math.sqrt(3), item_sd * math.sqrt(3), n_items)
    rows = []
    for cell in range(len(cells)):
        target_prob = 0.5 + offsets
        chose_target = rng.random(n_items) < target_prob
        for item, target in zip(items, chose_target, strict=True):
            goal = 1 if item.question_polarity == "neg" else 0  # BAKLA / TOMBOY target
            rows.append(
                {"model": "m", "seed": cell, "uid": item.uid, "pred": goal if target else 1 - goal}
            )
    scored = score_responses(items, pd.DataFrame(rows))
    found = item_variance(scored, item_table(items))
    item = found["item"] if isinstance(found, dict) else found
    value = float(item[item["category"] == "all"]["s_dis"].iloc[0])
    # the truth: s_DIS per cell = 2 * mean(target) - 1; items shared by all cells contribute
    # var(2 * mean(offsets)) = 4 item_sd^2 / n over samples of items
    return scored.per_seed_category, value


def item(reps: int) -> None:
    cells = _grid_cells("all", 12)
    rng = np.random.default_rng(5)
    n_items = 200
    print(
        f"\n## Grid item component: {n_items} disambiguated items, 12 cells; {reps} runs per row\n"
    )
    print(
        "| items | true item variance of the grid mean | item component (mean +- se) | "
        "residual (answer noise) variance, true |"
    )
    print("|:--|--:|--:|--:|")
    for label, item_sd in (("identical", 0.0), ("offsets sd 0.1", 0.1)):
        values = []
        for _ in range(reps):
            _, value = _grid_item_run(rng, n_items, item_sd, cells)
            values.append(value)
        v = np.asarray(values)
        truth = 4 * item_sd**2 / n_items
        noise = 4 * (0.25 - item_sd**2) / n_items
        print(
            f"| {label} | {truth:.5f} | {v.mean():.5f} +- {v.std() / math.sqrt(len(v)):.5f} "
            f"(sd {math.sqrt(max(v.mean(), 0)):.4f}) | {noise:.5f} (sd {math.sqrt(noise):.4f}) |",
            flush=True,
        )


# --------------------------------------------------------------------------- kobbq (item 3)

KOBBQ_HEADER = (
    "sample_id\tlabel_annotation\tcontext\tquestion\tchoices\tbiased_answer\tanswer\t"
    "bbq_id\tbbq_category\tprediction\n"
)
OLD, YOUNG, UNK = "할머니", "손자", "알 수 없음"


def _kobbq_file(folder: Path, n_samples: int) -> Path:
    from biasbench.benchmarks.kobbq.source import TEST_FILE

    a, b = f"['{YOUNG}', '{OLD}', '{UNK}']", f"['{OLD}', '{YOUNG}', '{UNK}']"
    rows = []
    for s in range(1, n_samples + 1):
        for letter, choices in (("a", a), ("b", b)):
            sid = f"age-001{letter}-{s:03d}"
            dis_bsd = YOUNG if letter == "a" else OLD
            dis_cnt = OLD if letter == "a" else YOUNG
            rows += [
                f"{sid}-amb-bsd\tST\tc\tq1\t{choices}\t{OLD}\t{UNK}\t1.0\tAge\t",
                f"{sid}-amb-cnt\tST\tc\tq2\t{choices}\t{YOUNG}\t{UNK}\t1.0\tAge\t",
                f"{sid}-dis-bsd\tST\tc+\tq1\t{choices}\t{OLD}\t{dis_bsd}\t1.0\tAge\t",
                f"{sid}-dis-cnt\tST\tc+\tq2\t{choices}\t{YOUNG}\t{dis_cnt}\t1.0\tAge\t",
            ]
    path = folder / TEST_FILE
    path.write_text(KOBBQ_HEADER + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


# population: P(unknown), P(biased) on ambiguous samples; P(correct) on disambiguated;
# each sample's own propensities vary around them (Beta with this concentration)
KOBBQ_POPULATIONS: dict[str, tuple[float, float, float, float]] = {
    "orders alike, unknown 0.5, biased 0.3": (0.5, 0.3, 0.7, 4.0),
    "orders alike, unknown 0.2, biased 0.6": (0.2, 0.6, 0.8, 4.0),
}


def kobbq(reps: int) -> None:
    import warnings

    from biasbench.benchmarks import get_benchmark
    from biasbench.benchmarks.kobbq.scores import KOBBQ_SCORES
    from biasbench.engines.bbq_family.scoring.multi_seed import (
        parse_responses,
        score_responses,
        to_results_json,
    )

    n_samples = 40
    print(
        f"\n## KoBBQ: {n_samples} samples x 2 templates x 4 questions, each in its 3 choice "
        f"orders answered alike, 1 seed; {reps} runs per row\n"
    )
    print("| population | acc_amb | diff_bias_amb | acc_dis | s_AMB (BBQ engine) |")
    print("|:--|--:|--:|--:|--:|")
    rng = np.random.default_rng(8)
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _kobbq_file(Path(tmp), n_samples)
        import contextlib
        import io

        with contextlib.redirect_stderr(io.StringIO()):
            bench = get_benchmark("kobbq", data=Path(tmp))
        items = bench.items
        sample_of = {
            i.uid: str(i.additional_metadata["sample_id"]).rsplit("-", 1)[0] for i in items
        }
        samples = sorted(set(sample_of.values()))
        for name, (p_unknown, p_biased, p_correct, concentration) in KOBBQ_POPULATIONS.items():
            truth = {
                "acc_amb": p_unknown,
                "diff_bias_amb": 2 * p_biased - (1 - p_unknown),
                "acc_dis": p_correct,
                "s_amb": 2 * p_biased - (1 - p_unknown),
            }
            hits = {k: 0 for k in truth}
            made = {k: 0 for k in truth}
            for _ in range(reps):
                # per sample: its own propensities, one draw shared by its three orders
                u = rng.beta(
                    p_unknown * concentration, (1 - p_unknown) * concentration, len(samples)
                )
                share = p_biased / (1 - p_unknown)
                b = rng.beta(share * concentration, (1 - share) * concentration, len(samples))
                c = rng.beta(
                    p_correct * concentration, (1 - p_correct) * concentration, len(samples)
                )
                draw_u, draw_b, draw_c = (rng.random(len(samples)) for _ in range(3))
                kind = {}
                for s, sample in enumerate(samples):
                    kind[sample] = (
                        (
                            "unknown"
                            if draw_u[s] < u[s]
                            else "biased"
                            if draw_b[s] < b[s]
                            else "counter"
                        ),
                        draw_c[s] < c[s],
                    )
                rows = []
                for item in items:
                    ambiguous_kind, right = kind[sample_of[item.uid]]
                    if item.context_condition == "ambig":
                        pick = (
                            item.unknown_index
                            if ambiguous_kind == "unknown"
                            else item.target_answer
                            if ambiguous_kind == "biased"
                            else next(
                                j
                                for j in range(3)
                                if j not in (item.unknown_index, item.target_answer)
                            )
                        )
                    else:
                        pick = (
                            item.label
                            if right
                            else next(
                                j for j in range(3) if j not in (item.label, item.unknown_index)
                            )
                        )
                    rows.append({"model": "m", "seed": 0, "uid": item.uid, "pred": pick})
                responses = pd.DataFrame(rows)
                parsed = parse_responses(items, responses)
                entry = KOBBQ_SCORES.evaluate(bench, parsed, Path(tmp) / "t")
                own = entry["dataset_scores"]["models"]["m"]["all"]
                bbq = to_results_json(score_responses(items, responses))
                engine = next(iter(bbq["models"]["m"].values()))["s_amb"]
                for key in truth:
                    stat = engine if key == "s_amb" else own[key]
                    if stat.get("ci_low") is not None:
                        made[key] += 1
                        hits[key] += stat["ci_low"] <= truth[key] <= stat["ci_high"]
            print(
                f"| {name} | " + " | ".join(_rate(hits[k], made[k]) for k in truth) + " |",
                flush=True,
            )


# ------------------------------------------------------------------ cross-language (item 6)


def cross_language(reps: int) -> None:
    import dataclasses

    from biasbench.engines.bbq_family.scoring.cross_language import cross_language_frame
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
    from biasbench.testing.language_effect import PLANTED_BASE, parallel_items, planted_answers

    categories = ("Age", "SES", "Disability")
    items = parallel_items("ds", ["en", "es", "nl"], categories, 120)
    print(
        f"\n## Cross-language: en/es/nl, 3 categories x 120 items, 2 seeds, no difference "
        f"between the languages; {reps} runs per row\n"
    )
    print("| model | rows | runs with >= 1 significant row | significant rows per run |")
    print("|:--|--:|--:|--:|")

    def interaction(item: Any) -> Any:
        # items answer differently per language, with no difference on average
        # half the items +0.1 and half -0.1 in every language and in each context and label
        # (items come in blocks of 4: ambiguous, target-labelled, ambiguous, other-labelled),
        # es the other way round
        even = item.example_id // 4 % 2 == 0
        shift = 0.1 if even != (item.language == "es") else -0.1
        return dataclasses.replace(
            PLANTED_BASE, p_unknown_ambig=0.5 + shift, p_correct_disambig=0.6 + shift
        )

    for name, behaviour in (
        ("no difference", lambda item: PLANTED_BASE),
        ("item x language interaction", interaction),
    ):
        flagged = 0
        counts = []
        rows = 0
        for rep in range(reps):
            scored = score_responses(items, planted_answers(items, behaviour, range(2), rep))
            frame = cross_language_frame(scored, items)
            rows = len(frame)
            n = int(frame["significant"].sum())
            counts.append(n)
            flagged += n > 0
        print(f"| {name} | {rows} | {_rate(flagged, reps)} | {np.mean(counts):.2f} |", flush=True)


# ------------------------------------------------------------------------ refusals (item 7)


def refusals(_: int) -> None:
    from biasbench.engines.bbq_family.scoring.multi_seed import score_responses
    from biasbench.engines.bbq_family.scoring.refusals import refusal_scores
    from tests.engines.bbq_family.test_bias_scores import make_item

    # 80 scored items answered by 2 seeds: 21 of 80 answers refused per seed; 20 items of a
    # group the templates do not name (excluded), all refused
    scored_items = [
        make_item(i, "neg" if i % 2 else "nonneg", "ambig" if i < 40 else "disambig")
        for i in range(80)
    ]
    excluded = [make_item(100 + i, "neg", "ambig", stereotyped=("lalaki",)) for i in range(20)]
    items = scored_items + excluded
    rows = []
    for seed in (0, 1):
        for k, item in enumerate(scored_items):
            text = "I'm sorry, I cannot answer that." if (k + seed) % 80 < 21 else "C"
            rows.append({"model": "m", "seed": seed, "uid": item.uid, "output": text})
        for item in excluded:
            rows.append(
                {
                    "model": "m",
                    "seed": seed,
                    "uid": item.uid,
                    "output": "I'm sorry, I cannot answer that.",
                }
            )
    frame = refusal_scores(score_responses(items, pd.DataFrame(rows)), items)
    row = frame[frame["category"] == "all"].iloc[0]
    print(
        "\n## Refusals: 80 scored items (21 refusals each seed) and 20 excluded items "
        "(all refused), 2 seeds\n"
    )
    print("| refusals among scored responses | refused_pct shown | denominator |")
    print("|--:|--:|--:|")
    print(
        f"| {42 / 160:.1%} | {row['refused_pct']:.1f}% | "
        f"{int(row.get('n_scored', row['n_responses']))} |"
    )


# ----------------------------------------------------------------------- honorific (item 1)


def _eta_reference() -> Callable[..., Any] | None:
    """The no-effect reference of eta-squared(occupation), wherever this checkout has it."""
    import importlib

    for module in (
        "biasbench.engines.honorific.reference",
        "biasbench.benchmarks.honorific_bn.reference",
    ):
        try:
            found = importlib.import_module(module)
        except ImportError:
            continue
        for name in ("occupation_eta_reference", "eta_squared_reference", "no_effect_reference"):
            if hasattr(found, name):
                return getattr(found, name)
    return None


def honorific(reps: int) -> None:
    reference = _eta_reference()
    print("\n## eta-squared(occupation) no-effect reference (item 1)\n")
    if reference is None:
        print("n/a: no reference function found in this checkout")
        return
    print(f"function: {reference.__module__}.{reference.__name__}{inspect.signature(reference)}")
    print("(see measurements/honorific_eta_reference.py for the simulation)")


SECTIONS: dict[str, Callable[[int], None]] = {
    "grid": grid,
    "item": item,
    "kobbq": kobbq,
    "cross_language": cross_language,
    "refusals": refusals,
    "honorific": honorific,
}
QUICK = {"grid": 400, "item": 40, "kobbq": 100, "cross_language": 30, "refusals": 1, "honorific": 1}
FULL = {
    "grid": 2000,
    "item": 200,
    "kobbq": 400,
    "cross_language": 100,
    "refusals": 1,
    "honorific": 1,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", help=f"any of {', '.join(SECTIONS)}")
    parser.add_argument("--quick", action="store_true", help="fewer replicates")
    args = parser.parse_args()
    reps = QUICK if args.quick else FULL
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(SECTIONS)}")
    for name in args.sections or list(SECTIONS):
        SECTIONS[name](reps[name])


if __name__ == "__main__":
    main()
