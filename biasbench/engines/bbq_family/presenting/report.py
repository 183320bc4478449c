"""The BBQ engine's part of the HTML report (any BBQ-format benchmark): per-category scores and
accuracy with seed intervals, the analyses' parts (:mod:`biasbench.engines.bbq_family.analysis`),
bias profiles, jitter plots, unparsed rates and the drill-down of every parsed answer. The report
asks :meth:`BBQBenchmark.report_section` for this.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any, Final

import pandas as pd

from biasbench import display as ui
from biasbench.engines.bbq_family.analysis import PROFILES
from biasbench.engines.bbq_family.judging.parser import LETTERS
from biasbench.engines.bbq_family.presenting import report_figures as figs
from biasbench.engines.bbq_family.presenting.display import PARTIAL_NOTE, category_display
from biasbench.engines.bbq_family.scoring.bias_profile import PROFILE_MIN_ITEMS, PROFILE_MIN_SEEDS
from biasbench.engines.bbq_family.scoring.multi_seed import MIN_ITEMS
from biasbench.runfolder.grouping import RunGroup
from biasbench.stats.intervals import MIN_SEEDS_FOR_INTERVAL
from biasbench.tables import is_undefined
from biasbench.textutil import slug

JITTER_TEMPLATES_PER_SCORE: Final = 8
"""Jitter plots per score (s_AMB, s_DIS): the templates strongest in any model's bias profile."""
UNPARSED_TEMPLATE_ROWS: Final = 25
SCORE_NAMES: Final = {"s_amb": "s_AMB", "s_dis": "s_DIS"}


def bbq_drilldown(group: RunGroup) -> tuple[dict[str, Any], str | None] | None:
    """Every parsed answer with its raw output, evidence and prompt (None without labels)."""
    parts = []
    for index, labels in group.labelled_runs():

        def letter(value: Any) -> str:
            if is_undefined(value) or not 0 <= int(value) < len(LETTERS):
                return ""
            return LETTERS[int(value)]

        texts = (
            labels["answer_text"] if "answer_text" in labels else pd.Series([None] * len(labels))
        )
        answers = [
            (f"{letter(p)}. {t}" if isinstance(t, str) else letter(p))
            if not is_undefined(p) and int(p) >= 0
            else f"unparsed ({m})"
            for p, m, t in zip(labels["pred_index"], labels["method"], texts, strict=True)
        ]
        seeds = labels["seed"]
        parts.append(
            pd.DataFrame(
                {
                    # a grid run's request is its cell (item_id), which the store's prompts are under
                    **ui.row_keys(
                        index, labels["item_id"] if "item_id" in labels else labels["uid"], seeds
                    ),
                    "model": labels["model"].astype(str),
                    "seed": [ui.seed_text(s) for s in seeds],
                    "uid": labels["uid"].astype(str),
                    "category": labels["category"],
                    "question_index": labels["question_index"].astype(str),
                    "context_condition": labels["context_condition"],
                    "question_polarity": labels["question_polarity"],
                    "answer": answers,
                    "correct": labels["label"].map(letter),
                    "evidence": [
                        f"{m}: {e}" if not is_undefined(e) and e != "" else str(m)
                        for m, e in zip(labels["method"], labels["evidence"], strict=True)
                    ],
                    "output": labels["output"].map(lambda o: "" if is_undefined(o) else str(o)),
                    # runs of several languages (namespaces) say which; others have no such column
                    **(
                        {"namespace": labels["namespace"].astype(str)}
                        if "namespace" in labels
                        else {}
                    ),
                }
            )
        )
    if not parts:
        return None
    frame, note = ui.limit_seeds(
        pd.concat(parts, ignore_index=True), ui.MAX_DRILLDOWN_ROWS, "_seed"
    )
    frame = ui.with_prompts(group, frame)
    show = [
        {"key": "model", "title": "Model"},
        {"key": "seed", "title": "Seed"},
        {"key": "question_index", "title": "Template", "alt": "category"},
        {"key": "context_condition", "title": "Context", "alt": "question_polarity"},
        {"key": "output", "title": "Output", "kind": "text"},
        {"key": "answer", "title": "Parsed answer", "kind": "label"},
        {"key": "correct", "title": "Correct"},
        {"key": "evidence", "title": "Evidence"},
        {
            "key": "prompt",
            "title": "Details",
            "kind": "details",
            "summary": "prompt",
            "parts": [{"key": "uid", "title": "Item"}, {"key": "prompt", "title": "Prompt sent"}],
        },
    ]
    filters = [
        {"key": "model", "title": "Model"},
        {"key": "category", "title": "Category"},
        {"key": "question_index", "title": "Template"},
        {"key": "context_condition", "title": "Context"},
        {"key": "question_polarity", "title": "Polarity"},
        {"key": "answer", "title": "Parsed answer"},
        {"key": "seed", "title": "Seed"},
    ]
    if "namespace" in frame:  # runs of one namespace beside runs of several: blank, not NaN
        frame["namespace"] = frame["namespace"].fillna("")
        filters.insert(1, {"key": "namespace", "title": "Language"})
    data = {
        "n": len(frame),
        "columns": ui.encode_columns(frame),
        "show": show,
        "filters": filters,
        "search": ["output", "evidence"],
        "pairs": None,
    }
    return data, note


def _bbq_category_frame(group: RunGroup) -> pd.DataFrame:
    """Per model and category: every score's mean and interval, from the runs' results."""
    rows = []
    for index, run in enumerate(group.runs):
        for model, categories in run.results["models"].items():
            name = group.model_names[(index, str(model))]
            for category, entry in categories.items():
                row: dict[str, Any] = {"model": name, "category": category}
                for score in ("s_amb", "s_dis", "acc_ambig", "acc_disambig"):
                    stat = entry.get(score) or {}
                    for part in ("mean", "sd", "ci_low", "ci_high"):
                        row[f"{score}_{part}"] = stat.get(part)
                    # results schema 1 called the seeds behind a score "n" and had no status
                    row[f"{score}_n_seeds"] = stat.get("n_seeds", stat.get("n"))
                    row[f"{score}_ci_status"] = stat.get("ci_status") or _legacy_status(stat)
                    row[f"{score}_n_items"] = stat.get("n_items")
                    if "seeds_ci_status" in stat:  # schema 3: ci_* over items and seeds
                        for part in ("low", "high", "status"):
                            row[f"{score}_seeds_ci_{part}"] = stat[f"seeds_ci_{part}"]
                    else:  # schemas 1-2: ci_* were across seeds; no items+seeds interval
                        for part in ("low", "high", "status"):
                            row[f"{score}_seeds_ci_{part}"] = row[f"{score}_ci_{part}"]
                        row[f"{score}_ci_low"] = row[f"{score}_ci_high"] = None
                        row[f"{score}_ci_status"] = "undefined"
                marks = (
                    (run.results.get("reliability") or {})
                    .get("models", {})
                    .get(model, {})
                    .get(category, {})
                )
                row.update(
                    seeds_run=entry.get("seeds_run", entry.get("n_seeds")),
                    unparsed_pct=entry.get("unparsed_pct"),
                    few_items=entry.get("few_items"),
                    unreliable=", ".join(marks.get("unreliable") or []),
                )
                rows.append(row)
    frame = pd.DataFrame(rows)
    numeric = [
        c
        for c in frame.columns
        if c not in ("model", "category", "few_items", "unreliable")
        and not c.endswith("_ci_status")
    ]
    return frame.astype({c: float for c in numeric})


def _legacy_status(stat: Mapping[str, Any]) -> str:
    """A schema-1 statistic's interval status, read from its numbers."""
    if stat.get("mean") is None:
        return "undefined"
    if stat.get("ci_low") is None:
        return "too_few_seeds"
    return "degenerate" if stat.get("ci_low") == stat.get("ci_high") else "ok"


def _bbq_profiles(group: RunGroup) -> pd.DataFrame | None:
    frames = []
    for index, run in enumerate(group.runs):
        for model, rows in (run.results.get("bias_profiles") or {}).items():
            if rows:
                frame = pd.DataFrame(rows)
                frame.insert(0, "model", group.model_names.get((index, str(model)), model))
                frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else None


def _bbq_unparsed_by_run(group: RunGroup) -> pd.DataFrame | None:
    return group.results_frame("unparsed_by_run", pd.DataFrame)


def _jitter_targets(profiles: pd.DataFrame | None) -> list[tuple[str, str, str]]:
    """(category, template, score) of the templates strongest in any model's profile."""
    if profiles is None or profiles.empty:
        return []
    targets: list[tuple[str, str, str]] = []
    for context, score in (("ambiguous", "s_amb"), ("disambiguated", "s_dis")):
        rows = profiles[profiles["context"] == context]
        best = (
            rows.groupby(["category", "question_index"])["rank"]
            .min()
            .sort_values(kind="stable")
            .head(JITTER_TEMPLATES_PER_SCORE)
        )
        targets.extend((str(c), str(q), score) for c, q in best.index)
    return targets


def data_lint_lines(group: RunGroup) -> list[str]:
    """The data lint's findings of the group's runs (results.json ``data_lint``), once per
    distinct lint (runs of one dataset share it)."""
    from biasbench.engines.bbq_family.items.lint import summary_lines

    found: list[str] = []
    for run in group.runs:
        for line in summary_lines(run.results.get("data_lint") or {}):
            if line not in found:
                found.append(line)
    return found


def partial_runs(group: RunGroup) -> list[str]:
    """ "<model> [PARTIAL] (<reason>)" for every model of the group's runs that ran a subset
    of the items (``--limit``) or lacks responses (results.json: coverage)."""
    found = []
    for index, run in enumerate(group.runs):
        coverage = run.results.get("coverage") or {}
        limit = run.signature.limit
        for model in run.models:
            cov = coverage.get(model) or {}
            if cov.get("partial") or limit:
                reason = cov.get("reason") or f"--limit {limit}"
                found.append(f"{group.model_names.get((index, model), model)} [PARTIAL] ({reason})")
    return found


def _reliability_callout(group: RunGroup, section: ui.Section) -> None:
    """Scores that unparsed answers skew, and where the target rules disagree: said first."""
    from biasbench.engines.bbq_family.scoring import reliability, target_rules

    for run in group.runs:
        lines = reliability.summary_lines(
            run.results.get(reliability.KEY)
        ) + target_rules.summary_lines(run.results.get(target_rules.KEY) or {})
        if lines:
            section.add(
                '<div class="callout"><strong>Read with care.</strong><ul>'
                + "".join(f"<li>{ui.esc(line)}</li>" for line in lines)
                + "</ul></div>"
            )


def bbq_section(group: RunGroup, out: Path, section: ui.Section) -> None:
    """Per-category scores and accuracy with their intervals (items+seeds, seeds), the
    analyses' parts (by language, cross-language, the grid), bias profiles and jitter plots,
    the analyses' parts that sit beside the unparsed rates (the dataset's own scores,
    refusals), unparsed rates and the drill-down."""
    from biasbench.engines.bbq_family.analyses import ANALYSES

    output = ui.Outputs(out, group.slug, section)
    partial_models = partial_runs(group)
    if partial_models:
        section.add(
            '<div class="callout"><strong>Partial runs.</strong> '
            + ui.esc("; ".join(partial_models))
            + f": {PARTIAL_NOTE}.</div>"
        )
    _reliability_callout(group, section)
    lint_lines = data_lint_lines(group)
    if lint_lines:
        section.add(
            '<div class="callout"><strong>Data lint.</strong> '
            + "<br>".join(ui.esc(line) for line in lint_lines)
            + "</div>"
        )
    _scores_part(group, output)
    parts = sorted(ANALYSES, key=lambda analysis: analysis.report_order)
    for analysis in parts:
        if analysis.report_order < PROFILES:
            analysis.report_part(group, output)
    _profiles_part(group, output)
    for analysis in parts:
        if analysis.report_order > PROFILES:
            analysis.report_part(group, output)
    _unparsed_part(group, output)
    _drilldown_part(group, section)


def _scores_part(group: RunGroup, output: ui.Outputs) -> None:
    """The per-category table and the figures of the bias scores and accuracies."""
    models = group.models
    categories = _bbq_category_frame(group)
    output.table(
        category_display(categories),
        "by_category",
        "Bias scores and accuracy per category",
        note="Means across seeds. '95% CI (items+seeds)' (the default, results.json "
        "ci_low/ci_high): the Korn-Graubard interval over items, each item with "
        "all its seeds, so it covers the score over items like these answered "
        "under fresh seeds (k = items it rests on; it exists with one seed). "
        "'95% CI (seeds)' (seeds_ci_low/seeds_ci_high): the Student-t interval "
        "across seeds cut to the score's range ('clipped' where the cut "
        "applied); it covers the mean over seeds of these very items only; none "
        f"with fewer than {MIN_SEEDS_FOR_INTERVAL} seeds; 'all N seeds = v' where "
        "every seed gave the same value (no spread, not certainty). '... seeds' "
        "columns: the seeds each score is defined in; a score undefined in every "
        "seed is shown as —; 'items' flags a context resting on fewer than "
        f"{MIN_ITEMS} items per seed.",
    )
    output.figure(
        lambda: figs.bbq_scores_figure(categories, ("s_amb", "s_dis"), models),
        "bias_scores",
        "s_AMB and s_DIS per category",
        "Mean bias score across seeds with its 95% interval over items and seeds; "
        "0 is unbiased, positive is the stereotyped answer.",
    )
    output.figure(
        lambda: figs.bbq_scores_figure(categories, ("acc_ambig", "acc_disambig"), models),
        "accuracy",
        "Accuracy per category",
        "Mean accuracy across seeds with its 95% interval over items and seeds (in "
        "ambiguous contexts the correct answer is the unknown option).",
    )


def _profiles_part(group: RunGroup, output: ui.Outputs) -> None:
    """Each model's bias profile and the jitter plots of its strongest templates."""
    models = group.models
    profiles = _bbq_profiles(group)
    if profiles is not None:
        output.table(
            profiles,
            "bias_profiles",
            "Bias profiles: each model's strongest biases",
            note="Top templates by mean score across seeds, per context condition, "
            "with the stereotype each template tests, the seeds the score is "
            "defined in (n_seeds) and the items of the context per seed "
            f"(n_items). Ranked only with >= {PROFILE_MIN_SEEDS} seeds and >= "
            f"{PROFILE_MIN_ITEMS} items; rows without a rank did not qualify and "
            "are shown, unranked, for what they are.",
        )
    per_seed = group.concat("per_template_per_seed.csv")
    if per_seed is not None:
        per_seed["question_index"] = per_seed["question_index"].astype(str)
        for category, template, score in _jitter_targets(profiles):
            output.figure(
                partial(figs.template_jitter_figure, per_seed, category, template, score, models),
                f"jitter_{slug(category)}_{slug(template)}_{score}",
                f"{category} / {template}: per-seed {SCORE_NAMES[score]}",
                "One point per seed, jittered vertically; the bar marks the mean across seeds "
                "(the FilBBQ paper's Figures 1-2).",
            )


def _unparsed_part(group: RunGroup, output: ui.Outputs) -> None:
    """Unparsed rates per model and seed, and the templates with the most unparsed answers."""
    models = group.models
    unparsed = _bbq_unparsed_by_run(group)
    if unparsed is not None:
        output.figure(
            lambda: figs.unparsed_figure(unparsed, models),
            "unparsed",
            "Unparsed rates",
            "Responses the answer parser could not map to an option, by reason, pooled over seeds.",
        )
        output.table(
            unparsed, "unparsed_by_run", "Unparsed responses per model and seed", decimals=2
        )
    by_template = group.concat("unparsed_by_template.csv")
    if by_template is not None:
        worst = by_template.sort_values(
            ["unparsed_pct", "n_unparsed"], ascending=False, kind="stable"
        )
        shown = worst[worst["n_unparsed"] > 0].head(UNPARSED_TEMPLATE_ROWS)
        output.table(
            worst,
            "unparsed_by_template",
            "Templates with the most unparsed answers",
            shown=shown,
            decimals=2,
            note=(
                f"The {len(shown)} templates with unparsed answers shown here of "
                f"{len(worst)}; the files hold all."
                if len(shown)
                else "No template has an unparsed answer."
            ),
        )


def _drilldown_part(group: RunGroup, section: ui.Section) -> None:
    """Every answer with its output, parsed option and evidence (without labels: a note)."""
    drill = bbq_drilldown(group)
    if drill is None:
        section.add(
            '<p class="note">These folders have no labels.jsonl, so there is no '
            "per-response drill-down.</p>"
        )
        return
    data, note = drill
    ui.drilldown(
        section,
        f"{group.slug}-responses",
        data,
        heading="Responses",
        note=" ".join(
            filter(
                None,
                [
                    "Every answer with its raw output, the parsed option and the evidence the "
                    "parser used; open Details for the exact prompt.",
                    note,
                ],
            )
        ),
    )
