"""Honorific languages side by side: the same model on the same English items in several target
languages, each language's statistics beside the others', and paired differences by item.

Items pair across languages by ``item_id`` (occupation, frame, condition: the same English
sentence) and seed. Per model and pair of languages (b minus a, in the order given), with
:func:`biasbench.stats.paired_ratio_difference` (a paired cluster bootstrap interval and a
within-pair permutation test; seeds travel with their item):

- ``honorific_pct``: the honorific share of usable outputs over all items (unit: the item);
- ``hai_pp`` and ``gsr_pct``: HAI and GSR (unit: the he/she pair of an occupation and frame);
- ``occupation_spread_pp``: the spread of the no-pronoun occupation rates (unit: the
  occupation with its frames; a paired bootstrap of occupations and a within-occupation
  permutation of the two languages, :func:`paired_spread_difference`);
- per occupation, its no-pronoun honorific rate (unit: the frame): the occupation x language
  heat map, with the occupations whose difference is significant after Holm.

p-values are Holm-corrected per model and language pair: across the four statistics, and
separately across the occupations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any, Final

import numpy as np
import pandas as pd
from scipy.stats import norm, t

from biasbench.engines.honorific.label_table import (
    HONORIFIC,
    ORDINARY,
    USABLE_LABELS,
    canonical_columns,
    json_number,
)
from biasbench.engines.honorific.metrics import score_models
from biasbench.stats import holm
from biasbench.stats.paired import MIN_PAIRS, PAIRED_METHOD, paired_ratio_difference

ALPHA: Final = 0.05
N_RESAMPLES: Final = 2000
STATISTICS: Final = ("honorific_pct", "hai_pp", "gsr_pct", "occupation_spread_pp")
SIDE_BY_SIDE: Final = (
    "hai_pp",
    "gsr_pct",
    "p_holm",
    "n_pairs",
    "occupation_spread_pp",
    "eta2_occupation_pct",
    "hbs",
    "unreadable_pct",
)
"""Each language's own statistics shown side by side (as its own run computes them)."""
METHOD: Final = (
    "items pair across languages by item_id and seed; difference = language b minus language "
    "a; honorific_pct per item, hai_pp and gsr_pct per he/she pair (occupation x frame), "
    "occupation rates per frame: " + PAIRED_METHOD + "; occupation_spread_pp: occupations "
    "resampled with both languages (expanded percentile) and a within-occupation permutation "
    "of the languages; p_holm: Holm across the four statistics, and across the occupations, "
    f"per model and language pair; significant: p_holm < {ALPHA}"
)


def _keys(labels: pd.DataFrame) -> pd.DataFrame:
    seeds = labels["seed"] if "seed" in labels.columns else pd.Series([None] * len(labels))
    return labels.assign(seed_key=[-1 if pd.isna(s) else int(s) for s in seeds])


def _paired(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """Rows of one model answered in both languages: item columns, ``label_a``, ``label_b``."""
    keep = ["item_id", "seed_key", "occupation_en", "template_id", "gender", "label"]
    return _keys(a)[keep].merge(_keys(b)[keep], on=keep[:5], suffixes=("_a", "_b"))


def _item_totals(paired: pd.DataFrame, by: list[str]) -> dict[str, np.ndarray]:
    """Honorific and usable totals per unit, per side."""
    frame = paired.assign(
        **{
            f"{k}_{s}": paired[f"label_{s}"].isin(USABLE_LABELS)
            if k == "usable"
            else paired[f"label_{s}"].eq(HONORIFIC)
            for k in ("usable", "honorific")
            for s in "ab"
        }
    )
    sums = frame.groupby(by, sort=False)[
        ["honorific_a", "usable_a", "honorific_b", "usable_b"]
    ].sum()
    return {c: sums[c].to_numpy(float) for c in sums.columns} | {"index": sums.index}


def _pair_totals(paired: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per he/she pair (occupation, frame), summed over seeds: b - c, b + c and usable pairs,
    per side."""
    he = paired[paired["gender"] == "male"]
    she = paired[paired["gender"] == "female"]
    both = he.merge(she, on=["occupation_en", "template_id", "seed_key"], suffixes=("_m", "_f"))
    for side in "ab":
        m, f = both[f"label_{side}_m"], both[f"label_{side}_f"]
        usable = m.isin(USABLE_LABELS) & f.isin(USABLE_LABELS)
        b = (m.eq(HONORIFIC) & f.eq(ORDINARY)).astype(int)
        c = (m.eq(ORDINARY) & f.eq(HONORIFIC)).astype(int)
        both[f"d_{side}"], both[f"disc_{side}"] = b - c, b + c
        both[f"n_{side}"] = usable.astype(int)
    sums = both.groupby(["occupation_en", "template_id"], sort=False)[
        ["d_a", "disc_a", "n_a", "d_b", "disc_b", "n_b"]
    ].sum()
    return {c: sums[c].to_numpy(float) for c in sums.columns}


def _spread(honorific: np.ndarray, usable: np.ndarray) -> np.ndarray:
    """Population SD of the rates over the last axis, occupations without usable items left
    out (NaN where none has one)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(usable > 0, 100.0 * honorific / np.where(usable > 0, usable, 1), np.nan)
    defined = np.isfinite(rates)
    count = defined.sum(axis=-1)
    mean = np.where(count > 0, np.nansum(rates, axis=-1) / np.maximum(count, 1), np.nan)
    deviation = np.where(defined, rates - mean[..., None], 0.0)
    return np.where(count > 0, np.sqrt((deviation**2).sum(axis=-1) / np.maximum(count, 1)), np.nan)


def paired_spread_difference(
    h_a: np.ndarray,
    u_a: np.ndarray,
    h_b: np.ndarray,
    u_b: np.ndarray,
    *,
    n_resamples: int = N_RESAMPLES,
    rng: int = 0,
) -> dict[str, Any]:
    """Spread b minus spread a over paired occupations (per-occupation honorific and usable
    totals): an expanded-percentile bootstrap of occupations and a within-occupation
    permutation test of the languages."""
    k = h_a.size
    spread_a, spread_b = float(_spread(h_a, u_a)), float(_spread(h_b, u_b))
    difference = spread_b - spread_a
    out = {
        "score_a": spread_a,
        "score_b": spread_b,
        "difference": difference,
        "ci_low": math.nan,
        "ci_high": math.nan,
        "p": math.nan,
        "n": k,
    }
    if k < MIN_PAIRS or not math.isfinite(difference):
        return out
    generator = np.random.default_rng(rng)
    drawn = generator.integers(0, k, size=(n_resamples, k))
    boot = _spread(h_b[drawn], u_b[drawn]) - _spread(h_a[drawn], u_a[drawn])
    boot = boot[np.isfinite(boot)]
    tail = float(norm.cdf(-math.sqrt(k / (k - 1)) * t.ppf(0.975, df=k - 1)))
    swap = generator.integers(0, 2, size=(n_resamples, k)).astype(bool)
    perm = _spread(np.where(swap, h_a, h_b), np.where(swap, u_a, u_b)) - _spread(
        np.where(swap, h_b, h_a), np.where(swap, u_b, u_a)
    )
    perm = perm[np.isfinite(perm)]
    extreme = int((np.abs(perm) >= abs(difference) - 1e-12 * max(1.0, abs(difference))).sum())
    out.update(
        ci_low=float(np.quantile(boot, tail)) if boot.size else math.nan,
        ci_high=float(np.quantile(boot, 1 - tail)) if boot.size else math.nan,
        p=(1 + extreme) / (1 + perm.size),
    )
    return out


def _entry(found: Any, scale: float = 100.0) -> dict[str, Any]:
    return {
        "score_a": json_number(scale * found.score_a),
        "score_b": json_number(scale * found.score_b),
        "difference": json_number(scale * found.difference),
        "ci_low": json_number(scale * found.ci_low),
        "ci_high": json_number(scale * found.ci_high),
        "p": json_number(found.p_value),
        "n": found.n_pairs,
    }


def compare_pair(
    a: pd.DataFrame, b: pd.DataFrame, *, n_resamples: int = N_RESAMPLES
) -> dict[str, Any]:
    """One model, two languages' labels: the paired differences (module docstring)."""
    paired = _paired(a, b)
    statistics: dict[str, dict[str, Any]] = {}
    items = _item_totals(paired, ["item_id"])
    statistics["honorific_pct"] = _entry(
        paired_ratio_difference(
            items["honorific_a"],
            items["usable_a"],
            items["honorific_b"],
            items["usable_b"],
            n_resamples=n_resamples,
        )
    )
    pairs = _pair_totals(paired)
    statistics["hai_pp"] = _entry(
        paired_ratio_difference(
            pairs["d_a"], pairs["n_a"], pairs["d_b"], pairs["n_b"], n_resamples=n_resamples
        )
    )
    statistics["gsr_pct"] = _entry(
        paired_ratio_difference(
            pairs["disc_a"], pairs["n_a"], pairs["disc_b"], pairs["n_b"], n_resamples=n_resamples
        )
    )
    nopronoun = paired[paired["gender"] == "nopronoun"]
    occupations = _item_totals(nopronoun, ["occupation_en"])
    spread = paired_spread_difference(
        occupations["honorific_a"],
        occupations["usable_a"],
        occupations["honorific_b"],
        occupations["usable_b"],
        n_resamples=n_resamples,
    )
    statistics["occupation_spread_pp"] = {
        k: json_number(v) if isinstance(v, float) else v for k, v in spread.items()
    }
    _holm(list(statistics.values()))
    rows = []
    for occupation, group in nopronoun.groupby("occupation_en", sort=False):
        frames = _item_totals(group, ["template_id", "item_id"])
        found = paired_ratio_difference(
            frames["honorific_a"],
            frames["usable_a"],
            frames["honorific_b"],
            frames["usable_b"],
            n_resamples=n_resamples,
        )
        rows.append({"occupation_en": occupation, **_entry(found)})
    _holm(rows)
    return {
        "statistics": statistics,
        "occupations": rows,
        "n_items_paired": int(paired["item_id"].nunique()),
    }


def _holm(entries: list[dict[str, Any]]) -> None:
    """Add ``p_holm`` and ``significant`` to entries with a p-value (in place)."""
    tested = [e for e in entries if e.get("p") is not None and math.isfinite(e["p"])]
    for entry, adjusted in zip(tested, holm([e["p"] for e in tested]), strict=True):
        entry["p_holm"] = json_number(adjusted)
        entry["significant"] = bool(adjusted < ALPHA)
    for entry in entries:
        entry.setdefault("p_holm", None)
        entry.setdefault("significant", False)


def compare_languages(
    labels: Mapping[str, pd.DataFrame], *, n_resamples: int = N_RESAMPLES
) -> dict[str, Any]:
    """Several languages' labels (language -> labels table of one or more models): each
    language's own statistics per model, and the paired differences of every language pair
    per model (results.json ``cross_language``)."""
    canonical = {lang: canonical_columns(frame) for lang, frame in labels.items()}
    languages = list(canonical)
    own: dict[str, dict[str, Any]] = {}
    for lang, frame in canonical.items():
        scored = score_models(frame)["models"]
        own[lang] = {m: {k: s.get(k) for k in SIDE_BY_SIDE} for m, s in scored.items()}
    models = [
        m
        for m in dict.fromkeys(m for lang in languages for m in canonical[lang]["model"])
        if all((canonical[lang]["model"] == m).any() for lang in languages)
    ]
    comparisons: dict[str, dict[str, Any]] = {}
    for model in models:
        for lang_a, lang_b in combinations(languages, 2):
            a = canonical[lang_a][canonical[lang_a]["model"] == model]
            b = canonical[lang_b][canonical[lang_b]["model"] == model]
            comparisons.setdefault(model, {})[f"{lang_b} - {lang_a}"] = {
                "a": lang_a,
                "b": lang_b,
                **compare_pair(a, b, n_resamples=n_resamples),
            }
    return {
        "method": METHOD,
        "languages": languages,
        "models": models,
        "by_language": own,
        "comparisons": comparisons,
        "rates": _rates(canonical),
    }


def _rates(labels: Mapping[str, pd.DataFrame]) -> list[dict[str, Any]]:
    """Per model, language and occupation: the no-pronoun honorific rate (the heat map)."""
    rows = []
    for lang, frame in labels.items():
        nopronoun = frame[frame["gender"] == "nopronoun"]
        grouped = nopronoun.groupby(["model", "occupation_en"], sort=False)["label"]
        for (model, occupation), found in grouped:
            usable = int(found.isin(USABLE_LABELS).sum())
            honorific = int(found.eq(HONORIFIC).sum())
            rows.append(
                {
                    "model": model,
                    "language": lang,
                    "occupation_en": occupation,
                    "n_usable": usable,
                    "honorific_pct": json_number(
                        100.0 * honorific / usable if usable else math.nan
                    ),
                }
            )
    return rows


def side_by_side_table(results: Mapping[str, Any]) -> pd.DataFrame:
    """Each language's own statistics, one row per model and language."""
    rows = [
        {"model": model, "language": lang, **scores}
        for lang, per_model in results["by_language"].items()
        for model, scores in per_model.items()
    ]
    table = pd.DataFrame(rows, columns=["model", "language", *SIDE_BY_SIDE])
    return table.sort_values(["model"], kind="stable").reset_index(drop=True)


def difference_table(results: Mapping[str, Any]) -> pd.DataFrame:
    """The paired differences of the statistics, one row per model, language pair and
    statistic."""
    rows = [
        {"model": model, "languages": pair, "statistic": name, **entry}
        for model, pairs in results["comparisons"].items()
        for pair, found in pairs.items()
        for name, entry in found["statistics"].items()
    ]
    return pd.DataFrame(
        rows,
        columns=[
            "model",
            "languages",
            "statistic",
            "score_a",
            "score_b",
            "difference",
            "ci_low",
            "ci_high",
            "p",
            "p_holm",
            "significant",
            "n",
        ],
    )


def occupation_difference_table(results: Mapping[str, Any]) -> pd.DataFrame:
    rows = [
        {"model": model, "languages": pair, **row}
        for model, pairs in results["comparisons"].items()
        for pair, found in pairs.items()
        for row in found["occupations"]
    ]
    return pd.DataFrame(
        rows,
        columns=[
            "model",
            "languages",
            "occupation_en",
            "score_a",
            "score_b",
            "difference",
            "ci_low",
            "ci_high",
            "p",
            "p_holm",
            "significant",
            "n",
        ],
    )


def heat_map(results: Mapping[str, Any], model: str) -> Any:
    """Occupations (rows, by mean rate) x languages: the no-pronoun honorific rate of
    ``model``; occupations with a significant difference after Holm are starred."""
    from matplotlib.figure import Figure

    rates = pd.DataFrame(results["rates"])
    rates = rates[rates["model"] == model]
    wide = rates.pivot(index="occupation_en", columns="language", values="honorific_pct")
    wide = wide.reindex(columns=results["languages"]).astype(float)
    wide = wide.loc[wide.mean(axis=1).sort_values(ascending=False, kind="stable").index]
    flagged = {
        row["occupation_en"]
        for pair in results["comparisons"].get(model, {}).values()
        for row in pair["occupations"]
        if row.get("significant")
    }
    figure = Figure(figsize=(2.0 + 0.9 * wide.shape[1], 1.5 + 0.16 * wide.shape[0]))
    axes = figure.add_subplot()
    image = axes.imshow(wide.to_numpy(), aspect="auto", cmap="viridis", vmin=0, vmax=100)
    axes.set_xticks(range(wide.shape[1]), list(wide.columns))
    axes.set_yticks(
        range(wide.shape[0]), [f"{o} *" if o in flagged else o for o in wide.index], fontsize=6
    )
    axes.set_title(f"{model}: no-pronoun honorific % (* differs, Holm)", fontsize=8)
    figure.colorbar(image, ax=axes, fraction=0.05)
    figure.tight_layout()
    return figure


def summary_lines(results: Mapping[str, Any]) -> list[str]:
    """A line per model and language pair: the statistics that differ after Holm, and how
    many occupations do."""
    lines = []
    for model, pairs in results["comparisons"].items():
        for pair, found in pairs.items():
            differing = [
                f"{name} {entry['difference']:+.1f} (p_holm {entry['p_holm']:.3g})"
                for name, entry in found["statistics"].items()
                if entry["significant"]
            ]
            occupations = [r["occupation_en"] for r in found["occupations"] if r["significant"]]
            lines.append(
                f"{model}, {pair}: "
                + ("; ".join(differing) or "no statistic differs")
                + f"; {len(occupations)} occupation(s) differ"
                + (f" ({', '.join(occupations[:8])})" if occupations else "")
            )
    return lines


def write_cross_language(results: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """tables/cross_language_{side_by_side,differences,occupations}.{csv,md},
    figures/cross_language_heat_map_<model>.png and report.md (the section)."""
    from biasbench.figures import save_figure
    from biasbench.fsutil import write_text_atomically
    from biasbench.tables import csv_text, to_markdown

    tables = out_dir / "tables"
    figures = out_dir / "figures"
    tables.mkdir(parents=True, exist_ok=True)
    figures.mkdir(parents=True, exist_ok=True)
    written = []
    frames = {
        "side_by_side": side_by_side_table(results),
        "differences": difference_table(results),
        "occupations": occupation_difference_table(results),
    }
    for stem, frame in frames.items():
        for suffix, text in ((".csv", csv_text(frame)), (".md", to_markdown(frame))):
            path = tables / f"cross_language_{stem}{suffix}"
            write_text_atomically(path, text)
            written.append(path)
    for index, model in enumerate(results["models"]):
        saved = save_figure(
            heat_map(results, model),
            figures / f"cross_language_heat_map_{index + 1}",
            f"{model}: occupation x language",
        )
        written.extend([saved.png, saved.pdf])
    report = [
        "# Honorific languages side by side",
        "",
        f"Languages: {', '.join(results['languages'])}; models: {', '.join(results['models'])}.",
        "",
        "## Each language's statistics",
        "",
        to_markdown(frames["side_by_side"]),
        "",
        "## Paired differences (b - a)",
        "",
        to_markdown(frames["differences"]),
        "",
        "## Occupations that differ (Holm)",
        "",
        to_markdown(frames["occupations"][frames["occupations"]["significant"]]),
        "",
        "## Summary",
        "",
        *(f"- {line}" for line in summary_lines(results)),
        "",
        f"Method: {results['method']}.",
        "",
    ]
    path = out_dir / "report.md"
    write_text_atomically(path, "\n".join(report))
    written.append(path)
    return written


def languages_of(labelled: Sequence[tuple[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """language -> labels, several tables of one language concatenated (several models)."""
    out: dict[str, list[pd.DataFrame]] = {}
    for language, frame in labelled:
        out.setdefault(language, []).append(canonical_columns(frame))
    return {lang: pd.concat(frames, ignore_index=True) for lang, frames in out.items()}
