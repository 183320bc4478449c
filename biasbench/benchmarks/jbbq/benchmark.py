"""``jbbq``: JBBQ, the Japanese Bias Benchmark for QA (Yanaka et al., GeBNLP 2025;
``ynklab/JBBQ_data``), read from a local copy.

The data is distributed on request only (a form linked from the repository's README) and may
not be redistributed, so biasbench neither ships nor downloads it: ``--data DIR`` or
``$BIASBENCH_JBBQ_DATA`` names the folder the authors sent, and without either a run stops with
one line saying where to get it.

The format, as the README describes it, is BBQ's: ``question_polarity``, ``context_condition``,
``answer_info``, ``additional_metadeta`` (sic; the category's information and the source URL),
``context``, ``question``, ``ans0``-``ans2``, ``label`` and ``is_additional`` (1: a template
JBBQ added). Every ``.jsonl`` (or ``.json``: an array or lines) file in the folder is read;
``additional_metadeta`` is read as BBQ's ``additional_metadata`` (either spelling is accepted),
``is_additional`` is kept in it. Fields BBQ has and the README does not list are read when
present; when absent, ``category`` is the file's name, ``example_id`` the record's position in its
file and ``question_index`` ``"n/a"`` (per-template tables are then one row per category), and a
warning says which were filled in. Targets follow BBQ's rules (the stereotyped groups in the
metadata matched against answer_info labels); items without a single target are excluded by the
engine and printed with their reason. The authors' own scoring code is not published with the
data: BBQ's s_AMB / s_DIS are reported.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, Final

from biasbench.benchmarks.jbbq.declaration import (
    DECLARATION,
    ENV_DATA,
    LANGUAGE,
    PUBLISHED_COUNTS,
    REPOSITORY,
)
from biasbench.engines.bbq_family.family import PromptedBBQBenchmark
from biasbench.engines.bbq_family.items.items import BBQItem, validated_item
from biasbench.engines.bbq_family.items.source import local_copy
from biasbench.errors import BiasbenchError, InputError
from biasbench.registry.interface import Options
from biasbench.responses import iter_json_objects, parse_json, text_lines

logger = logging.getLogger(__name__)

FORM_URL: Final = (
    "https://docs.google.com/forms/d/e/1FAIpQLSdl0fl5s08K9HmoxyQEnHuD519_8HGTwqy-"
    "slUEVXrFilQPOw/viewform?usp=sf_link"
)
METADATA_SPELLINGS: Final = ("additional_metadeta", "additional_metadata")
DECODING_WHY: Final = (
    "JBBQ's evaluation is one run per model and setting, so biasbench decodes greedily "
    "(temperature 0) under one seed unless --temperature/--seeds say otherwise"
)


def where_to_get_it() -> str:
    """The one line a run without the data prints."""
    return (
        f"JBBQ is distributed on request only and cannot be shipped or downloaded: request "
        f"it with the form linked from the README of github.com/{REPOSITORY} ({FORM_URL}), "
        f"then pass --data DIR (or set {ENV_DATA}=DIR) naming the folder of its .jsonl files"
    )


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line or position, record) of a jsonl file, or of a .json file holding an array."""
    lines = list(text_lines(path))
    first = next((line for line in lines if line.strip()), "")
    if path.suffix == ".json" and first.lstrip().startswith("["):
        data = parse_json("\n".join(lines), str(path), 1)
        if not isinstance(data, list):
            raise InputError("expected a JSON array of objects", file=str(path))
        for index, obj in enumerate(data):
            if not isinstance(obj, dict):
                raise InputError(f"entry {index} is not a JSON object", file=str(path))
            yield index + 1, obj
        return
    yield from iter_json_objects(lines, str(path))


def load_jbbq(folder: Path) -> tuple[list[BBQItem], dict[str, int], list[str]]:
    """Every item in the folder's .jsonl / .json files: (items, count per category, warnings)."""
    folder = Path(folder)
    files = sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".json") and p.is_file())
    if not files:
        raise BiasbenchError(f"no .jsonl or .json files in {folder}: {where_to_get_it()}")
    items: list[BBQItem] = []
    filled: Counter[str] = Counter()
    seen: dict[str, str] = {}
    for path in files:
        for position, (line, record) in enumerate(_records(path)):
            data = dict(record)
            metadata_key = next((k for k in METADATA_SPELLINGS if k in data), None)
            metadata = (data.pop(metadata_key, None) or {}) if metadata_key else {}
            if not isinstance(metadata, dict):
                raise InputError(
                    "expected an object", file=str(path), line=line, field=metadata_key
                )
            metadata = dict(metadata)
            if "is_additional" in data:
                metadata["is_additional"] = data.pop("is_additional")
            for name, default in (
                ("category", path.stem),
                ("example_id", position),
                ("question_index", "n/a"),
            ):
                if name not in data:
                    data[name] = default
                    filled[name] += 1
            data["additional_metadata"] = metadata
            data["language"] = LANGUAGE
            item = validated_item(data, file=str(path), line=line)
            if item.uid in seen:
                raise InputError(
                    f"duplicate example {item.uid} (also in {seen[item.uid]})",
                    file=str(path),
                    line=line,
                    field="example_id",
                )
            seen[item.uid] = str(path)
            items.append(item)
    counts = dict(Counter(item.category for item in items))
    warnings = [
        f"{n} items lack {name}: filled in (see docs/benchmarks/jbbq.md)"
        for name, n in sorted(filled.items())
    ]
    for category, published in PUBLISHED_COUNTS.items():
        if counts.get(category, 0) != published:
            warnings.append(
                f"{category}: {counts.get(category, 0):,} items read, the README "
                f"publishes {published:,}"
            )
    for category in sorted(set(counts) - set(PUBLISHED_COUNTS)):
        warnings.append(f"{category}: {counts[category]:,} items in a category JBBQ does not have")
    return items, counts, warnings


def resolve_jbbq_data(data: Path | None) -> Path:
    """``--data``, else ``$BIASBENCH_JBBQ_DATA``, else the one-line error saying where to get it
    (nothing is pinned, cached or downloaded: the data is not redistributable)."""
    local = local_copy(data, ENV_DATA, "--data")
    if local is None:
        raise BiasbenchError(where_to_get_it())
    chosen, origin = local
    if not chosen.is_dir():
        raise BiasbenchError(
            f"JBBQ folder {chosen} (from {origin}) does not exist; {where_to_get_it()}"
        )
    return chosen


class JBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """JBBQ from a local copy: 5 categories, a Japanese prompt, greedy, one seed."""

    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    prompt_files = {LANGUAGE: f"data/prompt_{LANGUAGE}.txt"}

    def __init__(self, options: Options) -> None:
        folder = resolve_jbbq_data(options.data)
        loaded, self.counts, self.load_warnings = load_jbbq(folder)
        for warning in self.load_warnings:
            logger.warning("JBBQ: %s", warning)
        self.use_prompt(options.prompt or self.packaged_prompt(LANGUAGE))
        super().__init__(
            loaded,
            source=f"local JBBQ copy {folder}",
            data_source={"items": "local", "repository": REPOSITORY, "folder": str(folder)},
        )
