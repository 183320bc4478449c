"""An honorific benchmark's part of the HTML report: Table 4, occupation rates, HAI against GSR, singular
they, primed frames, the drill-down of every translation and the matched he/she pairs.

The report asks the benchmark's ``report_section`` for this; the tables' headers come
from :mod:`biasbench.engines.honorific.tables`, the one display module the file writers
use too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biasbench.display import (
    MAX_DRILLDOWN_ROWS,
    Outputs,
    Section,
    drilldown,
    encode_columns,
    is_undefined,
    limit_seeds,
    row_keys,
    seed_text,
    with_prompts,
)
from biasbench.engines.honorific import figures as figs
from biasbench.engines.honorific.items import Definition
from biasbench.engines.honorific.label_table import (
    HONORIFIC,
    MIN_USABLE_ITEMS,
    ORDINARY,
    canonical_columns,
    file_columns,
)
from biasbench.engines.honorific.metrics import item_differences, pair_counts, score_models
from biasbench.engines.honorific.occupation_scores import occupation_rates
from biasbench.engines.honorific.readings import ReadingSpec, reading_results, reading_tables
from biasbench.engines.honorific.tables import TABLE4_NOTE, caveats, table4, they_display
from biasbench.runfolder import LABELS_NAME
from biasbench.runfolder.grouping import RunGroup
from biasbench.stats import (
    paired_difference_interval,
    proportion_design_effect,
    wilson_interval,
    wilson_pct,
)


def _honorific_evidence(evidence: Any) -> str:
    if not isinstance(evidence, list):
        return ""
    return "; ".join(
        f"{e.get('token', '')} ({e.get('kind', '')}, {e.get('register', '')})"
        for e in evidence
        if isinstance(e, dict)
    )


def honorific_drilldown(
    group: RunGroup, language: str, definition: Definition
) -> tuple[dict[str, Any], str | None]:
    """Every judged translation with its prompt and evidence, and the matched he/she pairs."""
    by_id = {item.item_id: item for item in definition.items()}
    parts = []
    for index, found in group.labelled_runs():
        labels = canonical_columns(found)
        seeds = labels["seed"] if "seed" in labels else pd.Series([None] * len(labels))
        parts.append(
            pd.DataFrame(
                {
                    **row_keys(index, labels["item_id"], seeds),
                    "model": labels["model"].astype(str),
                    "seed": [seed_text(s) for s in seeds],
                    "item_id": labels["item_id"].astype(str),
                    "occupation_en": labels["occupation_en"],
                    "occupation_target": labels["occupation_target"],
                    "template_id": labels["template_id"],
                    "primed": np.where(
                        labels["primed"].astype(bool), "primed (P*)", "unprimed (T*)"
                    ),
                    "gender": labels["gender"],
                    "label": [
                        f"{lab} (plural)" if plural else lab
                        for lab, plural in zip(labels["label"], labels["plural"], strict=True)
                    ],
                    "output": labels["output"].fillna(""),
                    "evidence": labels["evidence"].map(_honorific_evidence),
                    "reason": labels["reason"].fillna(""),
                    "source": [by_id[i].source_en if i in by_id else "" for i in labels["item_id"]],
                }
            )
        )
    frame, note = limit_seeds(pd.concat(parts, ignore_index=True), MAX_DRILLDOWN_ROWS, "_seed")
    frame = with_prompts(group, frame)
    has_seeds = bool((frame["seed"] != "").any())
    occupation = {
        "key": "occupation_en",
        "title": "Occupation",
        "alt": "occupation_target",
        "altLang": language,
    }
    shared = [
        {"key": "model", "title": "Model"},
        occupation,
        {"key": "template_id", "title": "Frame"},
    ]
    if has_seeds:
        shared.append({"key": "seed", "title": "Seed"})
    details = {
        "key": "prompt",
        "title": "Details",
        "kind": "details",
        "summary": "prompt, source, reason",
        "parts": [
            {"key": "source", "title": "English source"},
            {"key": "prompt", "title": "Prompt sent"},
            {"key": "reason", "title": "Why this label"},
        ],
    }
    show = [
        *shared,
        {"key": "gender", "title": "Condition"},
        {"key": "output", "title": "Output", "kind": "text", "lang": language},
        {"key": "label", "title": "Label", "kind": "label"},
        {"key": "evidence", "title": "Evidence"},
        details,
    ]
    filters = [
        {"key": "model", "title": "Model"},
        {"key": "occupation_en", "title": "Occupation"},
        {"key": "template_id", "title": "Frame"},
        {"key": "primed", "title": "Priming"},
        {"key": "gender", "title": "Condition"},
        {"key": "label", "title": "Label"},
    ]
    if has_seeds:
        filters.append({"key": "seed", "title": "Seed"})

    # Matched pairs: the male and female item of one model, occupation, frame and seed.
    keyed = frame.reset_index().rename(columns={"index": "row"})
    keys = ["model", "occupation_en", "template_id", "seed"]
    male = keyed[keyed["gender"] == "male"][[*keys, "row", "label"]]
    female = keyed[keyed["gender"] == "female"][[*keys, "row", "label"]]
    pairs = male.merge(female, on=keys, suffixes=("_m", "_f")).sort_values("row_m")
    flags = []
    for m, f in zip(pairs["label_m"], pairs["label_f"], strict=True):
        m, f = m.split(" ")[0], f.split(" ")[0]
        flags.append(
            "honorific only for he"
            if (m, f) == (HONORIFIC, ORDINARY)
            else "honorific only for she"
            if (m, f) == (ORDINARY, HONORIFIC)
            else ""
        )
    side = [
        {"key": "output", "title": "output", "kind": "text", "lang": language},
        {"key": "label", "title": "label", "kind": "label"},
    ]
    data = {
        "n": len(frame),
        "columns": encode_columns(frame),
        "show": show,
        "filters": filters,
        "search": ["output", "evidence", "reason", "source"],
        "pairs": {
            "left": pairs["row_m"].astype(int).tolist(),
            "right": pairs["row_f"].astype(int).tolist(),
            "flag": flags,
            "shared": shared,
            "side": side,
            "headers": [s["title"] for s in shared]
            + ["he: output", "he: label", "she: output", "she: label", "discordant"],
            "filters": [
                {"key": "model", "title": "Model"},
                {"key": "occupation_en", "title": "Occupation"},
                {"key": "template_id", "title": "Frame"},
            ],
        },
    }
    return data, note


def pair_interval_table(
    labels: pd.DataFrame, scores: Mapping[str, Mapping[str, Any]], models: Sequence[str]
) -> pd.DataFrame:
    """Per model: pair counts, HAI with Newcombe's paired interval, GSR with Wilson's, p-values.

    With several seeds the intervals use effective counts (each count divided by its design
    effect: HAI's from the sign-flip variance, GSR's Kish's for a clustered proportion), so
    that repeating items under more seeds does not narrow them; with one seed both are 1.
    """
    rows = []
    for model in models:
        rows_of_model = labels[labels["model"] == model]
        counts = pair_counts(rows_of_model)
        s = scores[model]
        a, b, c, d = counts.both_honorific, counts.b, counts.c, counts.both_ordinary
        deff = float(s.get("design_effect") or 1.0)
        items = item_differences(rows_of_model)
        gsr_deff = proportion_design_effect(items["discordant"], items["n"])
        hai_low, hai_high = paired_difference_interval(a / deff, b / deff, c / deff, d / deff)
        gsr_low, gsr_high = (
            wilson_interval((b + c) / gsr_deff, counts.n_pairs / gsr_deff)
            if counts.n_pairs
            else (math.nan, math.nan)
        )
        per_seed = s.get("hai_by_seed") or {}
        rows.append(
            {
                "model": model,
                "N pairs": counts.n_pairs,
                "effective pairs": s.get("n_pairs_effective"),
                "b": b,
                "c": c,
                "both honorific": a,
                "both ordinary": d,
                "HAI (pp)": s.get("hai_pp"),
                "HAI low": 100.0 * hai_low,
                "HAI high": 100.0 * hai_high,
                "GSR (%)": s.get("gsr_pct"),
                "GSR low": 100.0 * gsr_low,
                "GSR high": 100.0 * gsr_high,
                "p exact": s.get("p_exact"),
                "p (Holm)": s.get("p_holm"),
                "detectable |HAI| (pp)": s.get("min_detectable_hai_pp"),
                "seeds": per_seed.get("n_seeds"),
                "HAI per-seed SD (pp)": per_seed.get("sd"),
            }
        )
    table = pd.DataFrame(rows)
    return table.astype(
        {
            c: float
            for c in (
                "effective pairs",
                "HAI (pp)",
                "GSR (%)",
                "p exact",
                "p (Holm)",
                "detectable |HAI| (pp)",
                "HAI per-seed SD (pp)",
            )
        }
    )


def occupation_table(rates: pd.DataFrame, models: Sequence[str]) -> pd.DataFrame:
    """Occupations (sorted by mean rate across models) with each model's rate and counts."""
    order = (
        rates.groupby("occupation_en", sort=False)["honorific_pct"]
        .mean()
        .sort_values(ascending=False, kind="stable", na_position="last")
        .index
    )
    names = rates.drop_duplicates("occupation_en").set_index("occupation_en")["occupation_target"]
    table = pd.DataFrame({"occupation_en": order, "occupation_target": names.reindex(order).values})
    for model in models:
        rows = rates[rates["model"] == model].set_index("occupation_en").reindex(order)
        table[f"{model} %"] = rows["honorific_pct"].to_numpy(float)
        table[f"{model} honorific/usable"] = [
            "—" if is_undefined(n) else f"{int(k)}/{int(n)}" + (" (few items)" if few else "")
            for k, n, few in zip(
                rows["n_honorific"], rows["n_usable"], rows["few_items"].fillna(False), strict=True
            )
        ]
    return table


def primed_table(scores: Mapping[str, Mapping[str, Any]], models: Sequence[str]) -> pd.DataFrame:
    rows = []
    for model in models:
        p = scores[model]["primed"]
        primed_low, primed_high = wilson_pct(p["primed_honorific_n"], p["primed_usable_n"])
        plain_low, plain_high = wilson_pct(p["unprimed_honorific_n"], p["unprimed_usable_n"])
        rows.append(
            {
                "model": model,
                "primed %": p["primed_honorific_pct"],
                "primed 95% CI": _interval_text(primed_low, primed_high),
                "primed n": f"{p['primed_honorific_n']}/{p['primed_usable_n']}",
                "unprimed %": p["unprimed_honorific_pct"],
                "unprimed 95% CI": _interval_text(plain_low, plain_high),
                "unprimed n": f"{p['unprimed_honorific_n']}/{p['unprimed_usable_n']}",
                "primed - unprimed (pp)": p["primed_minus_unprimed_pp"],
            }
        )
    return pd.DataFrame(rows).astype(
        {"primed %": float, "unprimed %": float, "primed - unprimed (pp)": float}
    )


def _interval_text(low: float, high: float, decimals: int = 1) -> str:
    if is_undefined(low) or is_undefined(high):
        return "—"
    return f"[{low:.{decimals}f}, {high:.{decimals}f}]"


def spread_table(scores: Mapping[str, Mapping[str, Any]], models: Sequence[str]) -> pd.DataFrame:
    """The occupation spread and its leave-one-out range (occupations, then frames)."""
    rows = []
    for model in models:
        loo = scores[model].get("occupation_spread_loo") or {}
        occupation = loo.get("leave_out_occupation") or {}
        frame = loo.get("leave_out_frame") or {}
        rows.append(
            {
                "model": model,
                "spread (pp)": scores[model].get("occupation_spread_pp"),
                "without one occupation: min": occupation.get("min"),
                "without one occupation: max": occupation.get("max"),
                "without one frame: min": frame.get("min"),
                "without one frame: max": frame.get("max"),
                f"occupations on < {MIN_USABLE_ITEMS} usable items": len(
                    scores[model].get("occupations_below_min_items") or []
                ),
            }
        )
    table = pd.DataFrame(rows)
    return table.astype({c: float for c in table.columns if c != "model"})


def label_count_table(labels: pd.DataFrame, models: Sequence[str]) -> pd.DataFrame:
    counts = pd.crosstab(labels["model"], labels["label"]).reindex(index=list(models))
    columns = [c for c in ("honorific", "ordinary", "mixed", "unreadable") if c in counts]
    table = counts.reindex(columns=columns, fill_value=0).reset_index()
    table["all"] = table[columns].sum(axis=1)
    return table


def _attach_coverage(group: RunGroup, scores: Mapping[str, dict[str, Any]]) -> None:
    """Give the re-scored models their runs' coverage (what the benchmark defines is known at
    run time), so Table 4 shows pairs of possible and partial runs as the runs did."""
    for index, run in enumerate(group.runs):
        for model, saved in (run.results.get("models") or {}).items():
            name = group.model_names.get((index, str(model)))
            if name in scores and isinstance(saved, Mapping) and saved.get("coverage"):
                scores[name]["coverage"] = saved["coverage"]


def _reading_tables(
    output: Outputs, labels: pd.DataFrame, results: dict[str, Any], specs: Sequence[ReadingSpec]
) -> None:
    """The judge's readings: distributions, gender assignment, alternative splits."""
    present = [spec for spec in specs if spec.column in labels.columns]
    if not present:
        return
    results = {**results, "readings": reading_results(labels, present)}
    notes = {
        "split": "The main statistics on the alternative binary split the language "
        "pre-registers, beside the main label's: always read both.",
        "by_condition": "Share of outputs with each value, per model and pronoun condition "
        "(undefined: the judge could not read it).",
        "by_occupation": "Share of outputs with each value, per model and occupation.",
        "by_translation_gender": "Share of outputs with each value, per model and the gender "
        "the translation assigns to the person.",
        "assignment": "Where the English leaves gender open (no pronoun, singular they): the "
        "share of outputs with a gender reading made masculine or feminine, per "
        "occupation, with Wilson intervals on counts deflated by the items' "
        "design effect.",
    }
    for stem, spec, kind, table in reading_tables(labels, results, present):
        title = {
            "split": f"Alternative split: {spec.heading}",
            "assignment": f"Gender assignment ({spec.heading})",
            "by_condition": f"{spec.heading} by pronoun condition",
            "by_occupation": f"{spec.heading} by occupation",
            "by_translation_gender": f"{spec.heading} by the translation's gender",
        }[kind]
        output.table(table, stem, title, note=notes[kind], decimals=1)


def honorific_section(
    group: RunGroup,
    out: Path,
    section: Section,
    *,
    language: str,
    definition: Definition,
    reading_specs: Sequence[ReadingSpec] = (),
) -> None:
    """Table 4, occupation rates, HAI against GSR, singular they, primed frames, drill-down;
    ``language`` marks the target-language text (the benchmark's output language)."""
    found = group.concat(LABELS_NAME)
    if found is None:
        section.add('<p class="note">These runs have no labels.jsonl; nothing to report.</p>')
        return
    labels = canonical_columns(found)
    scored = score_models(labels)
    scores = scored["models"]
    models = list(scores)
    rates = occupation_rates(labels)
    output = Outputs(out, group.slug, section)
    _attach_coverage(group, scores)
    results = {"models": scores}

    warnings = " ".join(f"{model}: {text}." for model in models for text in caveats(scores[model]))
    output.table(
        table4(results),
        "table4",
        "Table 4: gender asymmetry and occupation spread",
        note=" ".join(
            filter(
                None,
                [
                    TABLE4_NOTE,
                    "Re-scored together from the runs' labels, so Holm spans "
                    "every model of this comparison. Sorted by spread.",
                    warnings,
                ],
            )
        ),
    )

    intervals = pair_interval_table(labels, scores, models)
    output.figure(
        lambda: figs.hai_gsr_figure(intervals),
        "hai_gsr",
        "HAI against GSR",
        "HAI = (b - c) / N with Newcombe's paired score interval; GSR = (b + c) / N "
        "with a Wilson interval; N usable he/she pairs.",
    )
    output.table(
        intervals,
        "hai_gsr",
        "HAI and GSR with 95% intervals",
        note="b: pairs with the honorific for he only; c: for she only; 95% intervals "
        "in the units of their estimate (pp for HAI, % for GSR), on effective "
        "counts with several seeds (the item is the unit); detectable |HAI|: "
        "the smallest HAI McNemar's test finds with 80% power at alpha 0.05 "
        "(empty: not detectable, see results.json for the reason); HAI per-seed "
        "SD: across seeds, with two or more.",
        decimals={
            "p exact": 4,
            "p (Holm)": 4,
            **{c: 2 for c in intervals.columns if c.startswith(("HAI", "GSR", "det"))},
        },
    )

    # the target term's column named as the benchmark's files name it (honorific-bn's reports
    # keep occupation_bn)
    column = definition.occupation_column
    table = file_columns(occupation_table(rates, models), column)
    output.figure(
        lambda: figs.occupation_rates_figure(rates, models),
        "occupation_rates",
        "Occupation honorific rates",
        "Share of no-pronoun translations in the honorific register, per occupation "
        "(sorted by the mean across models), with Wilson intervals.",
    )
    output.table(
        table,
        "occupation_rates",
        "Occupation honorific rates (no-pronoun sentences)",
        lang={column: language},
        decimals=1,
        file_decimals=1,
    )

    they = they_display(results)
    output.figure(
        lambda: figs.they_figure(models, scores),
        "they",
        "Singular they",
        "Honorific rate of they next to she's, of they kept singular, and how often "
        "they is translated as a plural.",
    )
    output.table(
        they,
        "they_analysis",
        "The singular-they analysis",
        decimals=1,
        file_decimals=2,
        note="Rates over usable outputs (honorific or ordinary); plural % over they "
        "outputs that are translations.",
    )

    output.figure(
        lambda: figs.primed_figure(models, scores),
        "primed",
        "Primed versus unprimed frames",
        "Honorific rate over all conditions in frames that state respect (P*) and in "
        "the others (T*), with Wilson intervals.",
    )
    output.table(
        primed_table(scores, models), "primed", "Primed versus unprimed frames", decimals=1
    )

    output.table(
        spread_table(scores, models),
        "spread_robustness",
        "Occupation spread: leave-one-out robustness",
        decimals=2,
    )
    agreement = scored.get("occupation_rank_agreement")
    if agreement and agreement.get("matrix"):
        matrix = pd.DataFrame(agreement["matrix"]).reindex(index=models, columns=models)
        matrix = matrix.astype(float).reset_index().rename(columns={"index": "model"})
        output.table(
            matrix,
            "rank_agreement",
            "Occupation ranking agreement (Spearman) between models",
            decimals=2,
        )
    output.table(label_count_table(labels, models), "label_counts", "Labels per model")
    _reading_tables(output, labels, results, reading_specs)

    data, note = honorific_drilldown(group, language, definition)
    drilldown(
        section,
        f"{group.slug}-responses",
        data,
        heading="Responses",
        note=" ".join(
            filter(
                None,
                [
                    "Every translation with its label and the evidence behind it; open "
                    "Details for the English source, the exact prompt and the judge's reason.",
                    note,
                ],
            )
        ),
    )
    drilldown(
        section,
        f"{group.slug}-responses",
        data,
        view="pairs",
        heading="Matched he/she pairs",
        note="The male and female sentence of the same model, occupation and frame side "
        "by side; discordant pairs (counted in b or c) are highlighted.",
    )
