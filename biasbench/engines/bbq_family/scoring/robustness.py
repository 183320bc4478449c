"""Scores of a robustness grid (``--vary seeds,order,prompt``): each answer read against the
options as they were shown and mapped back to the original option, the scores per grid cell, a
decomposition of each score's variance into seed, option order, prompt and item, position bias,
and the bias scores in the published order beside the order-balanced ones.

**The decomposition** (results.json ``robustness.decomposition``). Per model, category (and
``all``) and score (s_DIS, s_AMB, accuracy in each context), the score of every cell ``y_c``
(seed s, order o, prompt p; over all the category's items) is read as a crossed main-effects
random-effects model ``y = mu + a_s + b_o + c_p + e``. Each factor's sum of squares is its
Type II one from least squares (the residual sum of squares without the factor minus the
full model's: each factor after the others), the residual ``SS_e`` the full model's, and its
variance component Henderson's method III estimate ``var_f = max(0, (SS_f - df_f MS_e) /
tr(Z_f' (I - P_others) Z_f))`` (``Z_f``: the factor's level indicators, ``P_others``: the
projection on the other factors), unbiased on any design and the textbook
``(MS_f - MS_e) / (N / L_f)`` on the full, balanced grid. (The plain one-way sums of squares
used before are right only on the full grid: on ``--grid-budget 12`` of 36 cells the F tests
rejected 15-17% of the time with nothing planted and the order component came out about
twice its size; measurements/round4_numbers.py grid.) A factor the budget's cells confound with
the others has no component: ``estimable: false`` and the reason.

``item`` is the variance that every cell's score shares from the sample of items: a
delete-a-group jackknife over :data:`ITEM_GROUPS` groups of items within each cell, and the
jackknife *covariance* of two cells' scores, averaged over pairs of cells. It is what another
sample of items would move the grid's scores by; a cell's answer noise, independent from cell
to cell, is in the residual and is not counted here again. Each component is given as a
variance, its standard deviation (score units) and its share of the total.

**No-effect reference.** For each factor: the F test of ``MS_f / MS_e`` on ``(df_f, df_e)``
(its p-value; a test per factor and score, not corrected across them), and ``null_sd`` =
``sqrt(MS_e df_f / tr(...))``, the spread of the factor's level means that residual noise
alone would give; a component whose ``sd`` is not clearly above ``null_sd`` (p >= 0.05) is
indistinguishable from noise. With no residual degrees of freedom (one factor varied), a
cell's own sampling variance (the jackknife variance within a cell: items and answer noise)
stands in for ``MS_e`` and ``reference`` says so.

**Reading the components.** The factors' and the residual's variances add up to the variance
of one cell's score around the grid's mean; ``item`` is shared by every cell, so it moves the
grid's mean (and every cell with it) and is not part of a cell's distance from that mean.

**Position bias** (``robustness.position``). How often the answer chosen was shown at A, B, C:
overall, and balanced for the gold position (the mean over the gold's three positions of the
choice rates given that position), with a chi-square test of the overall counts against equal
thirds (valid when the orders are balanced, each option in each position equally often).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import pandas as pd

from biasbench.engines.bbq_family.items.grid import (
    PUBLISHED_ORDER,
    Order,
    decode_cell_id,
    order_text,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.parser import DEFAULT_READING, LETTERS, AnswerReading
from biasbench.engines.bbq_family.scoring.bias_scores import (
    Var2ByTemplate,
    count_statistics,
    item_table,
    scores_from_counts,
)
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults, parse_responses

SCORES: Final = ("s_dis", "s_amb", "acc_disambig", "acc_ambig")
FACTORS: Final = ("seed", "order", "prompt")
COMPONENTS: Final = (*FACTORS, "item", "residual")
ITEM_GROUPS: Final = 10
"""Groups of items of the jackknife behind the item component."""
ALL: Final = "all"
METHOD: Final = (
    "crossed main-effects random-effects model y = mu + seed + order + prompt + residual on the "
    "per-cell scores; Type II sums of squares by least squares (each factor after the others) "
    "and Henderson's method III variance components (unbiased on a budget's unbalanced cells "
    "as on the full grid; negative estimates set to 0; a factor the cells confound is not "
    "estimable); item = the variance every cell shares from the sample of items (jackknife "
    f"covariance between cells over {ITEM_GROUPS} groups of items; answer noise is in the "
    "residual, not here); no-effect reference: F test of each factor against the residual "
    "(one test per factor and score, uncorrected) and null_sd = sqrt(MS_residual df / trace)"
)

CellItem = Callable[[BBQItem, Order, str], BBQItem]
"""The item as one cell shows it: its prompt variant's wording, options in the cell's order."""


def expand_grid_responses(
    frame: pd.DataFrame,
    by_uid: Mapping[str, BBQItem],
    cell_item: CellItem,
    reading: AnswerReading = DEFAULT_READING,
) -> pd.DataFrame:
    """Grid responses (``uid`` = cell ids, ``seed``, ``output``) read against the options as
    shown: columns model, seed (the cell's index, the replicate the engine scores), uid (the
    item's), pred (original option index, missing when unparsed), shown (position chosen, -1),
    gold (position of the correct answer), method, evidence (the parse of the options as shown),
    grid_seed, order, prompt, output."""
    decoded = [decode_cell_id(str(u)) for u in frame["uid"]]
    work = frame.reset_index(drop=True).assign(
        base=[d[0] for d in decoded],
        order=[order_text(d[1]) for d in decoded],
        prompt=[d[2] for d in decoded],
        grid_seed=frame["seed"].to_numpy(),
    )
    cells = (
        work[["grid_seed", "order", "prompt"]]
        .drop_duplicates()
        .sort_values(["grid_seed", "order", "prompt"])
        .reset_index(drop=True)
    )
    cells["cell"] = np.arange(len(cells))
    work = work.merge(cells, on=["grid_seed", "order", "prompt"], how="left")
    parts = []
    for (order_key, prompt), sub in work.groupby(["order", "prompt"], sort=True):
        order = tuple(int(c) for c in str(order_key))
        uids = list(dict.fromkeys(sub["base"]))
        shown_items = [cell_item(by_uid[u], order, str(prompt)) for u in uids]  # type: ignore[arg-type]
        parsed = parse_responses(
            shown_items,
            pd.DataFrame(
                {
                    "model": sub["model"].to_numpy(),
                    "seed": sub["cell"].to_numpy(),
                    "uid": sub["base"].to_numpy(),
                    "output": sub["output"].to_numpy(),
                }
            ),
            reading,
        )
        shown = parsed["pred_index"].to_numpy(dtype=np.int64)
        mapping = np.array(order)
        original = np.where(shown >= 0, mapping[np.clip(shown, 0, 2)], -1)
        gold = {item.uid: item.label for item in shown_items}
        parts.append(
            pd.DataFrame(
                {
                    "model": sub["model"].to_numpy(),
                    "seed": sub["cell"].to_numpy(),
                    "uid": sub["base"].to_numpy(),
                    "pred": pd.array(np.where(original >= 0, original, 0), dtype="Int64"),
                    "shown": shown,
                    "gold": sub["base"].map(gold).to_numpy(),
                    "method": parsed["method"].astype(str).to_numpy(),
                    "evidence": parsed["evidence"].to_numpy(),
                    "grid_seed": sub["grid_seed"].to_numpy(),
                    "order": str(order_key),
                    "prompt": str(prompt),
                    "output": sub["output"].to_numpy(),
                    **{c: sub[c].to_numpy() for c in ("finish_reason", "truncated") if c in sub},
                }
            )
        )
    mapped = pd.concat(parts, ignore_index=True)
    mapped.loc[mapped["shown"] < 0, "pred"] = pd.NA
    return mapped


def cell_scores(scored: BBQResults, mapped: pd.DataFrame) -> pd.DataFrame:
    """Per model, cell and category (and ``all``): the scores, with the cell's factors."""
    by_category = scored.per_seed_category
    pooled = scores_from_counts(scored.counts, ["model", "seed"], all_unknown_is_no_bias=True)
    pooled.insert(2, "category", ALL)
    frame = pd.concat([by_category, pooled[by_category.columns]], ignore_index=True)
    cells = mapped[["seed", "grid_seed", "order", "prompt"]].drop_duplicates()
    frame = frame.merge(cells, on="seed", how="left").rename(columns={"seed": "cell"})
    return frame


def item_variance(
    scored: BBQResults, table: pd.DataFrame, groups: int = ITEM_GROUPS
) -> dict[str, pd.DataFrame]:
    """Per model, category (and ``all``), from a delete-a-group jackknife over ``groups``
    groups of items within each cell: ``"item"``, each score's variance from the sample of
    items that every cell shares (the jackknife covariance of two cells' replicates, averaged
    over pairs of cells), and ``"cell"``, a cell's own sampling variance (the jackknife
    variance within a cell, averaged over cells: item sampling plus the cell's answer noise).

    Only the shared part is a component: answer noise is independent from cell to cell, so
    it is in the residual already; the within-cell variance holds it too, and as the item
    component it counted the answer noise twice (nothing planted: item sd 0.0705 beside
    residual sd 0.067, for answer noise of sd 0.069)."""
    counts = count_statistics(scored.responses, table, keys=("model", "seed", "uid"))
    uids = sorted(counts["uid"].unique())
    size = max(1, min(groups, len(uids)))
    group_of = {u: i % size for i, u in enumerate(uids)}
    counts["group"] = counts["uid"].map(group_of)
    leave_out = []
    for g in range(size):
        kept = counts[counts["group"] != g]
        by_cat = scores_from_counts(
            kept, ["model", "seed", "category"], all_unknown_is_no_bias=True
        )
        pooled = scores_from_counts(kept, ["model", "seed"], all_unknown_is_no_bias=True)
        pooled["category"] = ALL
        leave_out.append(pd.concat([by_cat, pooled], ignore_index=True).assign(group=g))
    frame = pd.concat(leave_out, ignore_index=True)
    shared: dict[str, dict[tuple[Any, Any], float]] = {score: {} for score in SCORES}
    within: dict[str, dict[tuple[Any, Any], float]] = {score: {} for score in SCORES}
    for key, part in frame.groupby(["model", "category"], sort=True):
        for score in SCORES:
            table_g = part.pivot_table(
                index="seed", columns="group", values=score, aggfunc="first"
            ).dropna(axis=0, how="any")
            n_cells, n_groups = table_g.shape
            if n_groups < 2 or n_cells < 1:
                shared[score][key] = within[score][key] = float("nan")
                continue
            values = table_g.to_numpy(float)
            deviations = values - values.mean(axis=1, keepdims=True)
            factor = (n_groups - 1) / n_groups
            per_cell = factor * (deviations**2).sum(axis=1)  # jackknife variance per cell
            within[score][key] = float(per_cell.mean())
            if n_cells < 2:
                shared[score][key] = float("nan")
                continue
            summed = factor * float((deviations.sum(axis=0) ** 2).sum())  # var of cell sum
            covariance = (summed - float(per_cell.sum())) / (n_cells * (n_cells - 1))
            shared[score][key] = max(0.0, covariance)
    out = {}
    for name, source in (("item", shared), ("cell", within)):
        rows = pd.DataFrame({score: pd.Series(source[score]) for score in SCORES})
        rows.index = rows.index.set_names(["model", "category"])
        out[name] = rows.reset_index()
    return out


def _projection_residual(design: np.ndarray, target: np.ndarray) -> float:
    """The residual sum of squares of ``target`` (one column or several) on ``design``."""
    coef, *_ = np.linalg.lstsq(design, target, rcond=None)
    return float(((target - design @ coef) ** 2).sum())


def _dummies(levels: pd.Series) -> np.ndarray:
    """Indicator columns of every level of one factor."""
    codes, uniques = pd.factorize(levels, sort=True)
    indicators: np.ndarray = np.eye(len(uniques))[codes]
    return indicators


def anova_components(
    cells: pd.DataFrame,
    score: str,
    factors: Sequence[str],
    item_var: float,
    cell_var: float | None = None,
) -> dict[str, Any]:
    """The variance components of ``score`` over ``cells`` (module docstring): Type II sums of
    squares from least squares (each factor after all the others), and Henderson's method III
    expected mean squares, which hold on a budget's unbalanced sample of the grid as on the
    full grid; each factor's F test and no-effect spread. ``item_var``: the item component
    (:func:`item_variance`'s shared part); ``cell_var``: a cell's own sampling variance, the
    reference where no residual degrees of freedom are left."""
    from scipy import stats

    data = cells[[*factors, score]].dropna()
    n = len(data)
    result: dict[str, Any] = {"n_cells": n, "mean": float(data[score].mean()) if n else None}
    if n < 2:
        result["components"] = {}
        return result
    y = data[score].to_numpy(float)
    blocks = {factor: _dummies(data[factor]) for factor in factors}
    ones = np.ones((n, 1))
    full = np.hstack([ones, *blocks.values()])
    rank_full = int(np.linalg.matrix_rank(full))
    rss_full = _projection_residual(full, y)
    df_e = n - rank_full
    effects: dict[str, dict[str, float]] = {}
    for factor in factors:
        others = np.hstack([ones, *(b for f, b in blocks.items() if f != factor)])
        df = rank_full - int(np.linalg.matrix_rank(others))
        ss = max(0.0, _projection_residual(others, y) - rss_full)
        # E[SS] = df sigma_e^2 + trace(Z' (I - P_others) Z) sigma_f^2 (Henderson III)
        coefficient = _projection_residual(others, blocks[factor])
        effects[factor] = {
            "ss": ss,
            "df": df,
            "coefficient": coefficient,
            "levels": blocks[factor].shape[1],
        }
    if df_e > 0:
        ms_e, reference = rss_full / df_e, "residual"
    else:
        fallback = cell_var if cell_var is not None and np.isfinite(cell_var) else item_var
        ms_e, df_e, reference = (
            fallback,
            10**6,
            (
                "a cell's own sampling variance (items and "
                "answer noise; no residual degrees of "
                "freedom)"
            ),
        )
    components: dict[str, dict[str, Any]] = {}
    for factor, e in effects.items():
        if e["levels"] < 2:
            continue
        if e["df"] == 0 or e["coefficient"] <= 1e-12:
            confounded = [f for f in factors if f != factor]
            components[factor] = {
                "variance": 0.0,
                "levels": int(e["levels"]),
                "F": None,
                "p": None,
                "null_sd": None,
                "estimable": False,
                "reason": f"the budget's cells confound {factor} with "
                f"{' and '.join(confounded)}: not estimable",
            }
            continue
        ms = e["ss"] / e["df"]
        variance = max(0.0, (e["ss"] - e["df"] * ms_e) / e["coefficient"])
        f_value = ms / ms_e if ms_e > 0 else float("inf")
        p = float(stats.f.sf(f_value, e["df"], df_e)) if np.isfinite(f_value) else 0.0
        components[factor] = {
            "variance": variance,
            "levels": int(e["levels"]),
            "F": f_value,
            "p": p,
            "null_sd": float(np.sqrt(ms_e * e["df"] / e["coefficient"])),
        }
    components["item"] = {"variance": float(item_var) if np.isfinite(item_var) else 0.0}
    if reference == "residual":
        components["residual"] = {"variance": ms_e, "df": int(df_e)}
    total = sum(c["variance"] for c in components.values())
    for c in components.values():
        c["sd"] = float(np.sqrt(c["variance"]))
        c["share"] = c["variance"] / total if total > 0 else 0.0
    result["components"] = components
    result["reference"] = reference
    result["largest"] = max(components, key=lambda k: components[k]["variance"]) if total else None
    return result


def position_bias(mapped: pd.DataFrame) -> dict[str, Any]:
    """Per model: the share of parsed answers shown at A, B, C, overall and balanced for the
    gold position, and a chi-square test of the overall counts against equal thirds."""
    from scipy import stats

    out: dict[str, Any] = {}
    for model, sub in mapped[mapped["shown"] >= 0].groupby("model", sort=True):
        counts = np.bincount(sub["shown"].to_numpy(dtype=np.int64), minlength=3)[:3]
        conditional = []
        for gold in range(3):
            at = sub[sub["gold"] == gold]
            if len(at):
                conditional.append(
                    np.bincount(at["shown"].to_numpy(dtype=np.int64), minlength=3)[:3] / len(at)
                )
        balanced = np.mean(conditional, axis=0) if conditional else np.full(3, np.nan)
        test = stats.chisquare(counts) if counts.sum() else None
        out[str(model)] = {
            "n": int(counts.sum()),
            "overall": {LETTERS[k]: float(counts[k] / counts.sum()) for k in range(3)},
            "gold_balanced": {LETTERS[k]: float(balanced[k]) for k in range(3)},
            "gold_positions": len(conditional),
            "chi2_p": None if test is None else float(test.pvalue),
        }
    return out


def published_vs_balanced(cells: pd.DataFrame) -> dict[str, Any]:
    """Per model and category: each bias score in the published order (cells with order 012)
    and order-balanced (the mean over orders of each order's mean), and their difference."""
    out: dict[str, Any] = {}
    published = order_text(PUBLISHED_ORDER)
    for (model, category), sub in cells.groupby(["model", "category"], sort=True):
        entry: dict[str, Any] = {}
        for score in SCORES:
            by_order = sub.groupby("order")[score].mean()
            balanced = float(by_order.mean()) if by_order.notna().any() else None
            shown = by_order.get(published)
            pub = None if shown is None or pd.isna(shown) else float(shown)
            entry[score] = {
                "published_order": pub,
                "order_balanced": balanced,
                "difference": None if pub is None or balanced is None else balanced - pub,
                "n_orders": int(by_order.notna().sum()),
            }
        out.setdefault(str(model), {})[str(category)] = entry
    return out


def robustness_results(
    scored: BBQResults,
    mapped: pd.DataFrame,
    items: Sequence[BBQItem],
    grid: Mapping[str, Any],
    var2: Var2ByTemplate | None = None,
) -> tuple[dict[str, Any], pd.DataFrame, pd.DataFrame]:
    """``results["robustness"]``, the per-cell scores and the decomposition as a tidy table."""
    cells = cell_scores(scored, mapped)
    table = item_table(items, var2)
    sampling = item_variance(scored, table)
    items_var, cell_var = sampling["item"], sampling["cell"]
    varied = [f for f in FACTORS if cells[{"seed": "grid_seed"}.get(f, f)].nunique() > 1]
    factor_column = {"seed": "grid_seed", "order": "order", "prompt": "prompt"}
    decomposition: dict[str, Any] = {}
    rows = []
    for (model, category), sub in cells.groupby(["model", "category"], sort=True):
        item_row = items_var[(items_var["model"] == model) & (items_var["category"] == category)]
        cell_row = cell_var[(cell_var["model"] == model) & (cell_var["category"] == category)]
        entry = {}
        for score in SCORES:
            item_v = float(item_row[score].iloc[0]) if len(item_row) else float("nan")
            cell_v = float(cell_row[score].iloc[0]) if len(cell_row) else float("nan")
            renamed = sub.rename(columns={v: k for k, v in factor_column.items()})
            found = anova_components(renamed, score, varied, item_v, cell_v)
            entry[score] = found
            for component, c in found.get("components", {}).items():
                rows.append(
                    {
                        "model": model,
                        "category": category,
                        "score": score,
                        "component": component,
                        "variance": c["variance"],
                        "sd": c["sd"],
                        "share": c["share"],
                        "p": c.get("p"),
                        "null_sd": c.get("null_sd"),
                        "mean": found["mean"],
                        "n_cells": found["n_cells"],
                    }
                )
        decomposition.setdefault(str(model), {})[str(category)] = entry
    results = {
        "grid": dict(grid),
        "method": METHOD,
        "factors_varied": varied,
        "headline": "the scores above (models) are means over the grid's cells, each cell "
        "(seed x order x prompt) one replicate where a plain run has seeds",
        "decomposition": decomposition,
        "position": position_bias(mapped),
        "published_vs_balanced": published_vs_balanced(cells),
    }
    return results, cells, pd.DataFrame(rows)
