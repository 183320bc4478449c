"""Several languages (or datasets) in one BBQ run: scores per (model, namespace, category).

A run whose items carry more than one namespace (``mbbq/en``, ``mbbq/es``, ``mbbq-control/es``,
see :attr:`BBQItem.namespace`) is scored per namespace: the engine's category key becomes
``<namespace>/<category>`` (:func:`~biasbench.engines.bbq_family.scoring.bias_scores.scoped_category`), so every
per-category table, profile and plot is per language as well, and this module adds the
cross-language view: per model, namespace and category, and per model and namespace over all
its categories ("all"), s_AMB, s_DIS and both accuracies with their intervals across seeds
(``results.json: by_language``, ``tables/by_language.*``, ``figures/by_language.png``).

Runs with one namespace (FilBBQ, the original BBQ) never reach this module: their outputs are
unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.presenting.display import category_display
from biasbench.engines.bbq_family.scoring.bias_scores import (
    is_scoped,
    scoped_category,
    scores_from_counts,
)
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults, across_seeds, score_entry

ALL: Final = "all"
"""The category of a namespace's row pooling all its categories (counts summed per seed)."""
KEY_COLUMNS: Final = ("model", "namespace", "language", "category")


def scopes(items: Sequence[BBQItem]) -> pd.DataFrame:
    """Scored category -> namespace, language and plain category, in the items' order."""
    scoped = is_scoped(items)
    rows: dict[str, dict[str, Any]] = {}
    for item in items:
        key = scoped_category(item, scoped)
        rows.setdefault(key, {"scoped": key, "namespace": item.namespace,
                              "language": item.language or "", "plain": item.category})
    return pd.DataFrame(list(rows.values()),
                        columns=["scoped", "namespace", "language", "plain"])


def namespace_order(items: Sequence[BBQItem]) -> list[str]:
    """Namespaces in the order their items come (a benchmark's own order of languages)."""
    return list(dict.fromkeys(item.namespace for item in items))


def language_scores(scored: BBQResults, items: Sequence[BBQItem]) -> pd.DataFrame:
    """Per model, namespace and category (and ``all`` per namespace): every score across seeds
    with its interval, ``seeds_run`` and the unparsed and excluded totals. Empty unless the
    items carry more than one namespace."""
    if not is_scoped(items):
        return pd.DataFrame(columns=list(KEY_COLUMNS))
    scope = scopes(items).set_index("scoped")
    counts = scored.counts.copy()
    counts["namespace"] = counts["category"].map(scope["namespace"])
    # A seed whose ambiguous answers are all unknown scores s_AMB 0 here too (as robust.py).
    per_seed = scores_from_counts(counts, ["model", "seed", "namespace"],
                                  all_unknown_is_no_bias=True)
    per_item = None
    if scored.per_item is not None:
        per_item = scored.per_item.assign(
            namespace=scored.per_item["category"].map(scope["namespace"]))
    pooled = across_seeds(per_seed, ["model", "namespace"], scored.confidence, per_item)
    pooled["category"] = ALL
    per_category = scored.by_category.copy()
    per_category["namespace"] = per_category["category"].map(scope["namespace"])
    per_category["category"] = per_category["category"].map(scope["plain"])
    frame = pd.concat([per_category, pooled], ignore_index=True)
    languages = dict(zip(scope["namespace"], scope["language"], strict=True))
    frame["language"] = frame["namespace"].map(languages)
    order = {name: i for i, name in enumerate(namespace_order(items))}
    categories = {name: i for i, name in enumerate(dict.fromkeys(scope["plain"]))}
    categories[ALL] = len(categories)
    frame = frame.assign(_ns=frame["namespace"].map(order),
                         _cat=frame["category"].map(categories))
    frame = frame.sort_values(["model", "_ns", "_cat"], kind="stable").drop(columns=["_ns", "_cat"])
    leading = list(KEY_COLUMNS)
    return frame[leading + [c for c in frame.columns if c not in leading]].reset_index(drop=True)


def language_results(frame: pd.DataFrame) -> dict[str, Any]:
    """``results.json: by_language``: model -> namespace -> language and categories (each with
    the same entry as ``models``; ``all`` pools the namespace's categories)."""
    out: dict[str, Any] = {}
    for row in frame.to_dict("records"):
        model = out.setdefault(str(row["model"]), {})
        space = model.setdefault(str(row["namespace"]),
                                 {"language": row["language"], "categories": {}})
        space["categories"][str(row["category"])] = score_entry(row)
    return out


def language_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The cross-language table: per model, namespace, language and category, s_AMB, s_DIS and
    both accuracies with their intervals (worded as the per-category table)."""
    table = category_display(frame.reset_index(drop=True))
    table.insert(1, "namespace", frame["namespace"].to_numpy())
    table.insert(2, "language", frame["language"].to_numpy())
    return table


def frame_from_results(by_language: dict[str, Any]) -> pd.DataFrame:
    """``results.json: by_language`` back as :func:`language_scores`'s columns (the report)."""
    rows = []
    for model, spaces in by_language.items():
        for name, space in spaces.items():
            for category, entry in space["categories"].items():
                row: dict[str, Any] = {"model": model, "namespace": name,
                                       "language": space.get("language", ""),
                                       "category": category}
                for score in ("s_amb", "s_dis", "acc_ambig", "acc_disambig"):
                    for stat, value in (entry.get(score) or {}).items():
                        row[f"{score}_{stat}"] = value
                row.update(seeds_run=entry.get("seeds_run"), unparsed_pct=entry.get("unparsed_pct"),
                           few_items=entry.get("few_items"))
                rows.append(row)
    frame = pd.DataFrame(rows)
    numeric = [c for c in frame.columns if c not in (*KEY_COLUMNS, "few_items")
               and not c.endswith(("_ci_status", "_ci_reason", "_interval"))]
    return frame.astype({c: float for c in numeric})


def language_figure(frame: pd.DataFrame, models: Sequence[str]) -> Figure:
    """Per namespace (language), s_AMB and s_DIS over all its categories: mean across seeds
    with its default interval (items+seeds), one marker per model."""
    from biasbench.figures import errors, offsets, plt, to_float

    rows = frame[frame["category"] == ALL]
    spaces = list(dict.fromkeys(rows["namespace"].astype(str)))
    scores = (("s_amb", "s_AMB (ambiguous contexts)"), ("s_dis", "s_DIS (disambiguated contexts)"))
    fig, axes = plt.subplots(1, len(scores), figsize=(4.6 * len(scores),
                                                      1.4 + 0.5 * len(spaces)
                                                      * max(1.0, len(models) / 3)),
                             layout="constrained", sharey=True, squeeze=False)
    shifts = offsets(len(models), 0.5)
    position = {name: i for i, name in enumerate(spaces)}
    for ax, (score, title) in zip(axes[0], scores, strict=True):
        for index, model in enumerate(models):
            part = rows[rows["model"] == model]
            y = part["namespace"].astype(str).map(position).to_numpy(float) + shifts[index]
            values = part[f"{score}_mean"].map(to_float).to_numpy(float)
            ax.errorbar(values, y, xerr=errors(
                values, part[f"{score}_ci_low"].map(to_float).to_numpy(float),
                part[f"{score}_ci_high"].map(to_float).to_numpy(float)),
                fmt="o", capsize=3, color=f"C{index % 10}", label=model)
        ax.set_xlim(-1.05, 1.05)
        ax.axvline(0.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(title)
        ax.grid(axis="x", alpha=0.3)
    axes[0][0].set_yticks(range(len(spaces)), spaces)
    axes[0][0].set_ylim(-0.6, max(len(spaces), 1) - 0.4)
    axes[0][0].invert_yaxis()
    if len(models) > 1:
        axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle("Bias by language (all categories): mean across seeds, 95% interval over "
                 "items+seeds")
    return fig


def write_language_outputs(frame: pd.DataFrame, tables: Path, figures: Path) -> None:
    """tables/by_language.{csv,md,tex} and figures/by_language.{png,pdf}."""
    from biasbench.figures import save_figure
    from biasbench.tables import write_table

    write_table(language_table(frame), tables / "by_language")
    models = list(dict.fromkeys(frame["model"].astype(str)))
    save_figure(language_figure(frame, models), figures / "by_language",
                "s_AMB and s_DIS by language")


def summary_lines(by_language: dict[str, Any]) -> list[str]:
    """One line per model and namespace: its scores over all categories."""
    lines = []
    for model, spaces in by_language.items():
        for name, space in spaces.items():
            entry = space["categories"].get(ALL)
            if entry is None:
                continue
            parts = [f"{label} {_mean(entry[score])}" for score, label in (
                ("s_amb", "s_AMB"), ("s_dis", "s_DIS"), ("acc_ambig", "acc ambig"),
                ("acc_disambig", "acc disambig"))]
            lines.append(f"{model} / {name} (all categories): " + ", ".join(parts))
    return lines


def _mean(stat: dict[str, Any]) -> str:
    mean = stat.get("mean")
    if mean is None or (isinstance(mean, float) and np.isnan(mean)):
        return "undefined"
    low, high = stat.get("ci_low"), stat.get("ci_high")
    interval = (f" [{low:.3f}, {high:.3f}]" if low is not None and high is not None
                and stat.get("ci_status") in ("ok", "clipped") else "")
    return f"{mean:.3f}{interval}"


def add_languages(results: dict[str, Any], scored: BBQResults, items: Sequence[BBQItem],
                  tables: Path, figures: Path) -> None:
    """Items of several namespaces (languages, datasets): results.json gets ``by_language``,
    tables/ and figures/ get ``by_language`` (nothing changes for items of one namespace)."""
    frame = language_scores(scored, items)
    if frame.empty:
        return
    results["by_language"] = language_results(frame)
    write_language_outputs(frame, tables, figures)
