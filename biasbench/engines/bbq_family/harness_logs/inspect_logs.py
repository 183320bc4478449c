"""inspect_ai eval logs of a BBQ task (inspect_evals ``bbq``): the JSON log (``.json``: one
object with ``eval``, ``results`` and ``samples``) and the zipped ``.eval`` log (``header.json``
with ``eval`` and ``results``, one ``samples/<id>_epoch_<n>.json`` per sample).

A sample is mapped to its item by its ``metadata``: ``example_id`` (or ``source_id``) and
``category``; without a category, by the only item with that example id. Its answer is the text
of ``output.choices[0].message.content`` (a string, or content parts whose ``text`` is joined),
read by biasbench's answer parser; a sample without output is an empty answer (""). The
harness's own reading is the first scorer's ``answer`` letter and its ``value`` (C / I).
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from biasbench.engines.bbq_family.harness_logs.common import (
    HarnessLog,
    HarnessSample,
    bad,
    check_unique,
    find_uid,
    local_index,
    safe_model_name,
)
from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.errors import InputError
from biasbench.responses import MAX_LINE_BYTES, parse_json, read_text

LETTERS = "ABC"
MAX_MEMBER_BYTES = 4 * MAX_LINE_BYTES
"""The most bytes read for one member of an ``.eval`` zip."""


def _members(path: Path) -> tuple[dict[str, Any], Iterator[tuple[str, Any]]]:
    """The header (eval, results) and (source, sample) pairs of a log file."""
    if path.suffix == ".eval" or zipfile.is_zipfile(path):
        return _zip_members(path)
    data = parse_json(read_text(path), str(path))
    if not isinstance(data, dict):
        raise InputError("expected an inspect eval log (a JSON object)", file=str(path))
    samples = data.get("samples")
    if not isinstance(samples, list):
        raise InputError("missing field (an inspect log written with its samples)",
                         file=str(path), field="samples")
    return data, ((f"{path}!samples[{i}]", s) for i, s in enumerate(samples))


def _zip_members(path: Path) -> tuple[dict[str, Any], Iterator[tuple[str, Any]]]:
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise InputError("not a zip file (an inspect .eval log is one)", file=str(path)) from None
    names = archive.namelist()

    def member(name: str) -> Any:
        info = archive.getinfo(name)
        if info.file_size > MAX_MEMBER_BYTES:
            raise InputError(f"member larger than {MAX_MEMBER_BYTES:,} bytes",
                             file=f"{path}!{name}")
        raw = archive.read(name)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not UTF-8", file=f"{path}!{name}") from None
        return parse_json(text, f"{path}!{name}")

    if "header.json" not in names:
        raise InputError("no header.json in the zip (not an inspect .eval log)", file=str(path))
    header = member("header.json")
    if not isinstance(header, dict):
        raise InputError("expected an object", file=f"{path}!header.json")
    sample_names = sorted(n for n in names if n.startswith("samples/") and n.endswith(".json"))
    return header, ((f"{path}!{n}", member(n)) for n in sample_names)


def output_text(sample: Mapping[str, Any], source: str) -> str:
    """The completion's text, "" when the sample has no output (an error, a limit)."""
    output = sample.get("output")
    if output is None:
        return ""
    if not isinstance(output, dict):
        raise bad("expected an object", source, "output")
    choices = output.get("choices") or []
    if not isinstance(choices, list):
        raise bad("expected a list", source, "output.choices")
    if not choices:
        return str(output.get("completion") or "")
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content
                       if isinstance(part, dict) and part.get("type", "text") == "text")
    raise bad("expected a string or content parts", source, "output.choices[0].message.content")


def harness_reading(sample: Mapping[str, Any], source: str) -> tuple[int | None, dict[str, Any]]:
    """The first scorer's answer (an option index, None for none) and its score as logged."""
    scores = sample.get("scores") or {}
    if not isinstance(scores, dict):
        raise bad("expected an object", source, "scores")
    if not scores:
        return None, {}
    name, score = next(iter(scores.items()))
    if not isinstance(score, dict):
        raise bad("expected an object", source, f"scores.{name}")
    answer = score.get("answer")
    index = LETTERS.index(answer) if isinstance(answer, str) and answer in LETTERS and \
        answer else None
    return index, {"scorer": name, "value": score.get("value"), "answer": answer}


def reported_metrics(header: Mapping[str, Any]) -> dict[str, float | None]:
    """``results.scores[0].metrics`` as metric -> value (accuracy, stderr...)."""
    results = header.get("results") or {}
    scores = results.get("scores") if isinstance(results, dict) else None
    if not isinstance(scores, list) or not scores or not isinstance(scores[0], dict):
        return {}
    metrics = scores[0].get("metrics") or {}
    found: dict[str, float | None] = {}
    for name, metric in metrics.items():
        value = metric.get("value") if isinstance(metric, dict) else None
        if name != "stderr":
            found[str(name)] = float(value) if isinstance(value, int | float) and \
                not isinstance(value, bool) else None
    return found


def read_inspect(path: Path, by_uid: Mapping[str, BBQItem],
                 model: str | None = None) -> HarnessLog:
    """Every sample of the inspect log at ``path`` (.json or .eval), mapped to the items."""
    path = Path(path)
    if path.is_dir():
        logs = sorted(p.name for p in path.iterdir() if p.suffix in (".eval", ".json"))
        raise InputError("a folder: --from inspect reads one eval log (.eval or .json); "
                         + (f"this one holds {', '.join(logs[:3])}{', ...' if len(logs) > 3 else ''}"
                            if logs else "this one holds none"), file=str(path))
    if not path.is_file():
        raise InputError("file not found", file=str(path))
    header, members = _members(path)
    spec = header.get("eval") or {}
    task = str(spec.get("task") or "bbq") if isinstance(spec, dict) else "bbq"
    label = model or (safe_model_name(str(spec.get("model")))
                      if isinstance(spec, dict) and spec.get("model") else "inspect")
    index = local_index(by_uid)
    samples = []
    for source, sample in members:
        if not isinstance(sample, dict):
            raise bad("expected a sample object", source)
        metadata = sample.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise bad("expected an object", source, "metadata")
        id_field = "example_id" if "example_id" in metadata else "source_id"
        if metadata.get(id_field) is None:
            raise bad("missing field (the sample's BBQ example id)", source,
                      "metadata.example_id")
        uid = find_uid(index, by_uid, metadata.get("category"), metadata[id_field], source,
                       f"metadata.{id_field}", "metadata.category")
        epoch = sample.get("epoch", 1)
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch < 1:
            raise bad(f"expected an epoch of 1 or more, got {epoch!r}", source, "epoch")
        answer, score = harness_reading(sample, source)
        samples.append(HarnessSample(uid, label, task, source, seed=epoch - 1,
                                     output=output_text(sample, source),
                                     harness_answer=answer, per_sample=score))
    if not samples:
        raise InputError("no samples", file=str(path))
    check_unique(samples, "id")
    reported = reported_metrics(header)
    return HarnessLog("inspect", samples, {(label, task): reported} if reported else {}, [str(path)],
                      [task])
