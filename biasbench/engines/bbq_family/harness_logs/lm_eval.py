"""lm-evaluation-harness ``--log_samples`` output: ``samples_<task>_<date>.jsonl`` (one line per
document and filter) and the aggregate ``results_<date>.json`` beside it.

A line holds ``doc_id``, ``doc`` (the dataset row after the task's ``process_docs``: BBQ's
example_id, category, context_condition, ... ; EsBBQ's and CaBBQ's instance_id), ``target``,
``arguments``, ``resps``, ``filtered_resps`` and one field per metric with what the task's
``process_results`` returned for the document. Since lm-eval 0.4.3 the responses are written
through ``sanitize_list``, so a log-likelihood arrives as ``["-3.25", "False"]``; both that and
the numbers themselves are read. The tasks read:

* ``bbq`` (multiple_choice): the options are the two non-unknown answers in the dataset's order
  followed by ten unknown wordings (``utils.doc_to_choice``); the answer is the argmax of the
  log-likelihoods, any unknown wording being the item's unknown option;
* ``bbq_generate`` (generate_until): the generated text, read by biasbench's answer parser;
* ``esbbq_<category>`` / ``cabbq_<category>``: ans0, ans1 and nine unknown wordings; the
  argmax capped at 2 (``utils._model_answer``), ans2 being the unknown option.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family.harness_logs.common import (
    HarnessLog,
    HarnessSample,
    as_float,
    bad,
    check_same_item,
    check_unique,
    find_uid,
    local_index,
    safe_model_name,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError
from biasbench.responses import iter_jsonl, parse_json, read_text

SAMPLES_FILE = re.compile(
    r"^samples_(?P<task>.+?)(?:_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+))?"
    r"\.jsonl$"
)
RESULTS_FILE = re.compile(r"^results(?:_.+)?\.json$")
BOOKKEEPING = frozenset(
    {
        "doc_id",
        "doc",
        "target",
        "arguments",
        "resps",
        "filtered_resps",
        "filter",
        "metrics",
        "doc_hash",
        "prompt_hash",
        "target_hash",
        "input",
    }
)
"""Fields of a logged sample that are not metrics."""
SPANISH_TASK = re.compile(r"^(esbbq|cabbq)_[a-z_]+$")
log = logging.getLogger("biasbench.harness_logs")


def task_kind(task: str, source: str) -> str:
    """``bbq`` (non-unknown options first), ``capped`` (EsBBQ/CaBBQ) or ``generate``."""
    if (
        task in ("bbq", "bbq_multiple_choice")
        or re.fullmatch(r"bbq_[a-z_]+", task)
        and not task.startswith("bbq_generate")
    ):
        return "bbq"
    if task.startswith("bbq_generate"):
        return "generate"
    if SPANISH_TASK.match(task):
        return "capped"
    raise bad(
        f"lm-eval task {task!r}: biasbench reads the bbq, bbq_generate, esbbq_* and "
        "cabbq_* tasks' logs",
        source,
    )


def sample_files(path: Path) -> list[Path]:
    """The samples files at ``path``: the file itself, or every ``samples_*.jsonl`` under a
    folder (an ``--output_path`` holds one folder per model)."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise InputError("file not found", file=str(path))
    found = sorted(p for p in path.rglob("samples_*.jsonl") if SAMPLES_FILE.match(p.name))
    if not found:
        raise InputError(
            "no lm-eval samples_<task>_<date>.jsonl file here (run lm-eval with --log_samples)",
            file=str(path),
        )
    return found


def task_of(path: Path) -> str:
    match = SAMPLES_FILE.match(path.name)
    if match is None:
        raise InputError(
            "not an lm-eval samples file name (samples_<task>_<date>.jsonl)", file=str(path)
        )
    return match["task"]


def _date_of(path: Path) -> str:
    """The run's timestamp in a samples or results file name ("" where it has none)."""
    match = re.search(r"(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl?$", path.name)
    return match[1] if match else ""


def latest_runs(files: list[Path]) -> tuple[list[Path], list[str]]:
    """One samples file per folder and task: the latest run's. A rerun into the same
    ``--output_path`` adds a second ``samples_<task>_<date>.jsonl`` beside the first; lm-eval's
    current result is the later one, so the earlier is left out and said so."""
    by_task: dict[tuple[Path, str], list[Path]] = {}
    for file in files:
        by_task.setdefault((file.parent, task_of(file)), []).append(file)
    kept, notes = [], []
    for (folder, task), runs in sorted(by_task.items()):
        runs.sort(key=lambda f: (_date_of(f), f.name))
        kept.append(runs[-1])
        if len(runs) > 1:
            notes.append(
                f"{folder}: {len(runs)} runs of lm-eval task {task}; the latest "
                f"({_date_of(runs[-1]) or runs[-1].name}) is read, "
                f"{len(runs) - 1} earlier left out"
            )
    return kept, notes


def read_results(
    folder: Path, date: str | None = None
) -> tuple[dict[str, dict[str, float | None]], str | None]:
    """The aggregate metrics of the ``results_*.json`` in ``folder`` (task -> metric, the
    filter suffix ``,none`` dropped, stderr left out) and the model's name they give. With
    ``date``, the run of that date only where its file is there (a rerun into one folder leaves
    one results file per run); else every file, later runs overriding earlier ones."""
    reported: dict[str, dict[str, float | None]] = {}
    model = None
    paths = sorted(
        (p for p in folder.glob("results*.json") if RESULTS_FILE.match(p.name)),
        key=lambda p: (_date_of(p), p.name),
    )
    same_run = [p for p in paths if date and _date_of(p) == date]
    for path in same_run or paths:
        data = parse_json(read_text(path), str(path))
        if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
            raise InputError('expected an object with "results"', file=str(path), field="results")
        for task, metrics in data["results"].items():
            if not isinstance(metrics, dict):
                raise InputError(
                    "expected an object of metrics", file=str(path), field=f"results.{task}"
                )
            for key, value in metrics.items():
                name = key.split(",", 1)[0]
                if "_stderr" in name or name in ("alias", "samples") or "," not in key:
                    continue
                number = (
                    value
                    if isinstance(value, int | float) and not isinstance(value, bool)
                    else None
                )
                reported.setdefault(str(task), {})[name] = (
                    None if number is None or number != number else float(number)
                )
        model = _model_name(data) or model
    return reported, model


def _model_name(data: Mapping[str, Any]) -> str | None:
    if isinstance(data.get("model_name"), str) and data["model_name"]:
        return str(data["model_name"])
    args = (data.get("config") or {}).get("model_args")
    if isinstance(args, str):
        for part in args.split(","):
            key, _, value = part.partition("=")
            if key.strip() in ("pretrained", "model") and value:
                return value.strip()
    return None


def option_scores(resps: Any, source: str) -> list[float] | None:
    """The per-option log-likelihoods of ``filtered_resps`` (None: a generation's text)."""
    if not isinstance(resps, list) or not resps:
        raise bad("expected a non-empty list", source, "filtered_resps")
    if all(isinstance(r, list | tuple) and len(r) == 2 for r in resps):
        return [as_float(r[0], source, f"filtered_resps[{i}]") for i, r in enumerate(resps)]
    if isinstance(resps[0], str) or (
        isinstance(resps[0], list) and resps[0] and isinstance(resps[0][0], str)
    ):
        return None
    raise bad(
        "expected [log-likelihood, is_greedy] per option or a generated text",
        source,
        "filtered_resps",
    )


def generated_text(resps: list[Any]) -> str:
    first = resps[0]
    return first if isinstance(first, str) else str(first[0])


def argmax(scores: list[float]) -> int:
    """The first highest score's position (numpy's argmax)."""
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def to_item_option(kind: str, choice: int, item: BBQItem, source: str) -> int:
    """The item's option (0-2) behind the task's choice index."""
    if kind == "capped":
        return min(choice, 2)
    unknown = item.unknown_index
    if unknown is None:
        raise bad(f"item {item.uid} has no unknown option (answer_info)", source, "doc")
    if choice >= 2:
        return unknown
    return [i for i in range(3) if i != unknown][choice]


def check_task_fits(task: str, benchmark: str | None, source: str) -> None:
    """EsBBQ's and CaBBQ's tasks are those benchmarks' logs, the bbq tasks no one else's: a
    log of another benchmark whose ids happen to match would be scored as this one."""
    if benchmark is None:
        return
    family = task.split("_", 1)[0]
    own = {"esbbq": "esbbq", "cabbq": "cabbq"}.get(family, "bbq")
    if own != benchmark and (own in ("esbbq", "cabbq") or benchmark in ("esbbq", "cabbq")):
        raise bad(
            f"lm-eval task {task!r} logs the {own} benchmark, not {benchmark} (score it with "
            f"biasbench score {own})",
            source,
        )


def read_lm_eval(
    path: Path,
    by_uid: Mapping[str, BBQItem],
    model: str | None = None,
    benchmark: str | None = None,
) -> HarnessLog:
    """Every sample of the lm-eval log at ``path`` (a samples file or a folder), mapped to the
    items in ``by_uid``; errors name file, line and field. ``benchmark``: the benchmark scored
    (its tasks only, :func:`check_task_fits`). A folder's latest run of each task is read
    (:func:`latest_runs`); where one model answered the same items in two tasks (``bbq`` and
    ``bbq_generate`` in one run), each task's answers are a model of their own,
    ``<model> [<task>]``, so neither is taken for a duplicate of the other."""
    index = local_index(by_uid)
    samples: list[HarnessSample] = []
    reported: dict[tuple[str, str], dict[str, float | None]] = {}
    files, tasks = [], []
    found_files = sample_files(Path(path))
    chosen, notes = latest_runs(found_files) if len(found_files) > 1 else (found_files, [])
    planned = []
    for file in chosen:
        task = task_of(file)
        kind = task_kind(task, str(file))
        check_task_fits(task, benchmark, str(file))
        found, named = read_results(file.parent, _date_of(file))
        planned.append(
            (file, task, kind, found, model or safe_model_name(named or file.parent.name))
        )
    read: list[tuple[str, str, list[HarnessSample], dict[str, dict[str, float | None]]]] = []
    for file, task, kind, found, label in planned:
        files.append(str(file))
        tasks.append(task)
        read.append(
            (
                label,
                task,
                _read_file(file, task, kind, label, by_uid, index),
                {
                    name: metrics
                    for name, metrics in found.items()
                    if name == task or kind == "capped"
                },
            )
        )
    overlapping = _tasks_over_the_same_items(read)
    for label, task, got, found in read:
        if task in overlapping.get(label, ()):
            got = [replace(s, model=f"{label} [{task}]") for s in got]
            label = f"{label} [{task}]"
        for name, metrics in found.items():
            reported.setdefault((label, name), {}).update(metrics)
        samples.extend(got)
    if not samples:
        raise InputError("no samples", file=str(path))
    for label, both in sorted(overlapping.items()):
        notes.append(
            f"model {label} answered the same items in lm-eval tasks "
            f"{', '.join(sorted(both))}: each task is scored apart, as "
            + ", ".join(f"'{label} [{t}]'" for t in sorted(both))
        )
    for note in notes:
        log.warning("%s", note)
    check_unique(samples, "doc_id")
    return HarnessLog("lm-eval", samples, reported, files, tasks, notes=notes)


def _tasks_over_the_same_items(
    read: list[tuple[str, str, list[HarnessSample], Any]],
) -> dict[str, set[str]]:
    """model -> its tasks that share an item with another of its tasks (bbq and bbq_generate
    do; bbq_ambig and bbq_disambig, or two EsBBQ categories, do not)."""
    uids: dict[tuple[str, str], set[str]] = {}
    for label, task, got, _ in read:
        uids.setdefault((label, task), set()).update(s.uid for s in got)
    overlapping: dict[str, set[str]] = {}
    for (label, task), mine in uids.items():
        for (other_label, other), theirs in uids.items():
            if other_label == label and other != task and mine & theirs:
                overlapping.setdefault(label, set()).update((task, other))
    return overlapping


def _read_file(
    file: Path,
    task: str,
    kind: str,
    model: str,
    by_uid: Mapping[str, BBQItem],
    index: Mapping[tuple[str, int], list[str]],
) -> list[HarnessSample]:
    samples = []
    first_filter = None
    for line, obj in iter_jsonl(file):
        source = f"{file}:{line}"
        keep = obj.get("filter", "none")
        first_filter = keep if first_filter is None else first_filter
        if keep != first_filter:  # another filter's view of the same documents
            continue
        doc = obj.get("doc")
        if not isinstance(doc, dict):
            raise bad(
                "missing field (log with --log_samples, which writes the dataset row)"
                if doc is None
                else "expected an object",
                source,
                "doc",
            )
        id_field = "instance_id" if kind == "capped" else "example_id"
        if doc.get(id_field) is None:
            raise bad("missing field", source, f"doc.{id_field}")
        uid = find_uid(
            index,
            by_uid,
            doc.get("category"),
            doc[id_field],
            source,
            f"doc.{id_field}",
            "doc.category",
        )
        item = by_uid[uid]
        check_same_item(item, doc, source)
        scores = option_scores(obj.get("filtered_resps"), source)
        metrics = {k: v for k, v in obj.items() if k not in BOOKKEEPING}
        if scores is None:
            if kind != "generate":
                raise bad(
                    f"a generated text in a multiple-choice task ({task})", source, "filtered_resps"
                )
            samples.append(
                HarnessSample(
                    uid,
                    model,
                    task,
                    source,
                    output=generated_text(obj["filtered_resps"]),
                    per_sample=metrics,
                )
            )
            continue
        if kind == "generate" or len(scores) < 3:
            raise bad(
                f"{len(scores)} option scores; task {task} has at least 3", source, "filtered_resps"
            )
        if max(scores) == -math.inf:  # argmax would pick the first option for no reason
            raise bad("every option's log-likelihood is -infinity", source, "filtered_resps")
        option = to_item_option(kind, argmax(scores), item, source)
        samples.append(
            HarnessSample(
                uid, model, task, source, pred=option, harness_answer=option, per_sample=metrics
            )
        )
    return samples
