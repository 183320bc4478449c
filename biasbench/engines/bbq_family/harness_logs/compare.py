"""The harness's metrics beside biasbench's rescoring of the same answers: one row per
(model, task, metric) with both values, whether they differ, and why in words."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from biasbench.engines.bbq_family.harness_logs.builtin import Builtin, builtin_metrics
from biasbench.engines.bbq_family.harness_logs.common import HarnessLog, HarnessSample
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.scoring.dataset_scores import ALL

TOLERANCE = 1e-9
COLUMNS = ("model", "task", "metric", "harness", "biasbench", "biasbench_score", "differs", "why")
BBQ_COUNTERPART = {
    "accuracy_amb": "acc_ambig",
    "accuracy_disamb": "acc_disambig",
    "amb_bias_score": "s_amb",
    "disamb_bias_score": "s_dis",
}
"""lm-eval bbq metric (without its category suffix) -> biasbench's score of the same name in
BBQ's paper."""
OVERALL = "accuracy over all answers"


def _defined(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


def _mean(entry: Mapping[str, Any] | None, score: str) -> float | None:
    stat = (entry or {}).get(score)
    mean = stat.get("mean") if isinstance(stat, dict) else None
    return float(mean) if isinstance(mean, int | float) else None


def overall_accuracy(
    labels: Sequence[Mapping[str, Any]], model: str, uids: set[str]
) -> tuple[float | None, int, int]:
    """Correct / answers with a readable option (unparsed left out, as every biasbench score
    leaves them out); also the answers and the unparsed among them."""
    rows = [r for r in labels if r["model"] == model and r["uid"] in uids]
    read = [r for r in rows if r["pred_index"] is not None and r["pred_index"] >= 0]
    correct = sum(r["pred_index"] == r["label"] for r in read)
    return (correct / len(read) if read else None), len(rows), len(rows) - len(read)


def _counterpart(
    metric: str, task: str, categories: list[str], results: Mapping[str, Any], model: str
) -> tuple[str, float | None, str]:
    """biasbench's score for a harness metric: its name, its value, and a note when it has
    none."""
    if task.startswith(("esbbq", "cabbq")):
        groups = ((results.get("dataset_scores") or {}).get("models") or {}).get(model) or {}
        group = ALL if task in ("esbbq", "cabbq") else (categories[0] if categories else "")
        return f"{metric} ({group}, bias_score.py)", _mean(groups.get(group), metric), ""
    base, _, category = metric.partition("_score_")
    base = f"{base}_score" if category else metric
    score = BBQ_COUNTERPART.get(base)
    if score is None:
        return "", None, "no biasbench counterpart"
    if not category:
        if len(categories) != 1:
            return (
                score,
                None,
                ("pooled over categories; biasbench scores each category (the rows per category)"),
            )
        category = categories[0]
    entry = ((results.get("models") or {}).get(model) or {}).get(category)
    return f"{score} ({category})", _mean(entry, score), ""


def _why(
    metric: str,
    task: str,
    harness: float | None,
    rescored: float | None,
    builtin: Builtin | None,
    found: Mapping[str, Builtin],
    reported: float | None,
    samples: Sequence[HarnessSample],
    labels: Sequence[Mapping[str, Any]],
    unparsed: int,
    answered: int,
    note: str,
) -> str:
    reasons = []
    if builtin is not None and _defined(reported) and abs(reported - builtin.value) > 1e-6:  # type: ignore[operator]
        reasons.append(
            f"the harness's aggregate file says {reported:.4f}, its per-sample "
            f"fields give {builtin.value:.4f}"
        )
    counts = builtin.counts if builtin is not None else {}
    if (
        "_bias_score" in f"_{metric}"
        and counts.get("n_biased") == 0
        and counts.get("n_non_unknown", 0) > 0
    ):
        n = int(counts["n_non_unknown"])
        reasons.append(
            f"no biased answer among the {n} non-unknown ones: lm-eval returns "
            f"0.0 where BBQ's ratio is 2*0/{n} - 1 = -1"
            + (" (times 1 - accuracy)" if metric.startswith("amb") else "")
        )
    if metric in ("acc", "accuracy"):
        read_apart = _read_apart(samples, labels)
        if read_apart:
            reasons.append(
                f"biasbench's parser reads {read_apart} answer(s) as another "
                "option than the harness did (labels.jsonl shows each)"
            )
        missed, examples = _harness_missed(samples, labels)
        if missed:
            shown = ", ".join(repr(" ".join(e.split())[:30]) for e in examples)
            reasons.append(
                f"the harness found no answer in {missed} output(s) that biasbench's "
                f"parser reads as an option (e.g. {shown}) and counts them wrong"
            )
        if unparsed:
            reasons.append(
                f"{unparsed} of {answered} answers name no option: the harness "
                "counts them wrong, biasbench leaves them out"
            )
        if metric == "accuracy":
            reasons.append(
                "both contexts pooled, as biasbench reports accuracy per context "
                "(acc_ambig, acc_disambig)"
            )
    if not _defined(harness) and _defined(rescored):
        reasons.append(
            "the harness reports NaN here"
            + (
                " (lm-eval's weighted group is NaN where one of its subtasks is)"
                if task in ("esbbq", "cabbq")
                else ""
            )
        )
    if not _defined(rescored) and _defined(harness) and not note:
        reasons.append("undefined in biasbench (no answer it can count)")
    if not reasons:
        reasons.append("answers classed differently (labels.jsonl shows each answer)")
    return "; ".join(reasons)


def _other_category(
    metric: str, task: str, categories: list[str], reported: Mapping[str, float | None]
) -> bool:
    """A per-category metric of lm-eval's bbq task (``amb_bias_score_Age``) for a category the
    log holds no sample of. EsBBQ's and CaBBQ's names (``bias_score_ambig``) carry no category:
    their NaN is a value lm-eval computed, kept."""
    if task.startswith(("esbbq", "cabbq")):
        return False
    _, _, suffix = metric.partition("_score_")
    return bool(suffix) and suffix not in categories and not _defined(reported.get(metric))


def _harness_missed(
    samples: Sequence[HarnessSample], labels: Sequence[Mapping[str, Any]]
) -> tuple[int, list[str]]:
    """Outputs in which the harness's scorer found no option and biasbench's parser read one
    (inspect's ``choice()`` wants ``ANSWER: X``; ``X) text`` or the option's text are misses),
    with up to two of them."""
    read = {(r["model"], r["uid"], r["seed"]): r["pred_index"] for r in labels}
    missed = [
        s
        for s in samples
        if s.pred is None
        and s.harness_answer is None
        and s.per_sample
        and (read.get((s.model, s.uid, s.seed)) or -1) >= 0
    ]
    return len(missed), [s.output or "" for s in missed[:2]]


def _read_apart(samples: Sequence[HarnessSample], labels: Sequence[Mapping[str, Any]]) -> int:
    """Answers the harness read as one option and biasbench's parser as another (both read)."""
    read = {(r["model"], r["uid"], r["seed"]): r["pred_index"] for r in labels}
    return sum(
        1
        for s in samples
        if s.harness_answer is not None
        and read.get((s.model, s.uid, s.seed), -1) >= 0
        and read[(s.model, s.uid, s.seed)] != s.harness_answer
    )


def comparison_rows(
    log: HarnessLog,
    results: Mapping[str, Any],
    labels: Sequence[Mapping[str, Any]],
    by_uid: Mapping[str, BBQItem],
) -> list[dict[str, Any]]:
    """One row per harness metric (model, task, metric, both values, differs, why)."""
    rows = []
    by_task: dict[tuple[str, str], list[HarnessSample]] = {}
    for sample in log.samples:
        by_task.setdefault((sample.model, sample.task), []).append(sample)
    for (model, task), found in sorted(builtin_metrics(log).items()):
        samples = by_task.get((model, task)) or [
            s
            for (m, t), group in by_task.items()
            if m == model and t.startswith(f"{task}_")
            for s in group
        ]
        uids = {s.uid for s in samples}
        categories = sorted({by_uid[u].category for u in uids})
        reported = log.reported.get((model, task), {})
        group = (model, task) not in by_task
        if group and not reported:
            continue  # lm-eval computed no group here (its subtasks were run alone)
        for metric in sorted(set(reported) if group else set(found) | set(reported)):
            if _other_category(metric, task, categories, reported):
                continue  # a category the log has no sample of (lm-eval reports NaN)
            builtin = found.get(metric)
            harness = (
                reported.get(metric)
                if metric in reported
                else (builtin.value if builtin is not None else None)
            )
            if metric in ("acc", "accuracy"):
                rescored, answered, unparsed = overall_accuracy(labels, model, uids)
                name, note = OVERALL, ""
            else:
                name, rescored, note = _counterpart(metric, task, categories, results, model)
                answered, unparsed = 0, 0
            if harness is not None and math.isnan(harness):
                harness = None
            if not _defined(rescored) and not name:
                differs: bool | None = None
                why = note
            elif not _defined(harness) and not _defined(rescored):
                differs, why = False, note or "undefined in both"
            elif _defined(harness) and _defined(rescored) and abs(harness - rescored) <= TOLERANCE:  # type: ignore[operator]
                differs, why = False, ""
            elif note:
                differs, why = None, note
            else:
                differs = True
                why = _why(
                    metric,
                    task,
                    harness,
                    rescored,
                    builtin,
                    found,
                    reported.get(metric),
                    samples,
                    labels,
                    unparsed,
                    answered,
                    note,
                )
            rows.append(
                {
                    "model": model,
                    "task": task,
                    "metric": metric,
                    "harness": harness,
                    "biasbench": rescored,
                    "biasbench_score": name,
                    "differs": differs,
                    "why": why,
                }
            )
    return rows


def summary_lines(rows: Sequence[Mapping[str, Any]], harness: str) -> list[str]:
    """One line per metric that differs, then the count of those that agree."""
    lines = []
    differ = [r for r in rows if r["differs"]]
    for row in differ:
        lines.append(
            f"{row['model']} / {row['task']} / {row['metric']}: {harness} "
            f"{_text(row['harness'])}, biasbench {_text(row['biasbench'])} "
            f"({row['biasbench_score']}): {row['why']}"
        )
    same = sum(r["differs"] is False for r in rows)
    lines.append(
        f"{harness}'s metrics: {len(differ)} differ from biasbench's rescoring, "
        f"{same} agree, {len(rows) - len(differ) - same} have no counterpart "
        "(results.json: harness_log.comparison; tables/harness_comparison)"
    )
    return lines


def _text(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"
