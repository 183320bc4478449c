"""Several honorific languages in one run or one score (``honorific-languages``): the same
English items in each language, each language judged by its own judge and scored as its own
benchmark scores it, then the languages side by side with paired differences by item
(:mod:`biasbench.engines.honorific.cross_language`).

A request's item id is ``LANG/ITEM`` (``bn/judge|T1|male``); its prompt is the language's own
and carries the plain item id, so a scripted model that keys on the item (the mock's
``hashed-register``) answers the same register for the same item in every language. The
languages are honorific benchmarks named by the registry (this module imports none).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from biasbench.engines.honorific.benchmark import HonorificEngineBenchmark
from biasbench.engines.honorific.cross_language import (
    compare_languages,
    difference_table,
    heat_map,
    occupation_difference_table,
    side_by_side_table,
    summary_lines,
    write_cross_language,
)
from biasbench.engines.honorific.declaration import LANGUAGES_DECLARATION
from biasbench.errors import BiasbenchError, InputError
from biasbench.jsonutil import jsonable
from biasbench.models.base import GenerationParams, ModelBackend
from biasbench.registry.interface import Benchmark, Options
from biasbench.responses import check_fields, iter_jsonl, write_jsonl
from biasbench.runfolder import LABELS_NAME
from biasbench.runner.runner import Request
from biasbench.signature import Signature, common_signature

if TYPE_CHECKING:
    from biasbench.display import Section
    from biasbench.runfolder.grouping import RunGroup

SEPARATOR = "/"
ALL = "all"
"""``--benchmarks all``: every registered honorific benchmark."""


def _members(benchmarks: str) -> dict[str, HonorificEngineBenchmark]:
    """language code -> its benchmark, from a comma-separated list of registry names."""
    from biasbench.registry import benchmark_class, get_benchmark

    names = [n.strip() for n in benchmarks.split(",") if n.strip()]
    if names == [ALL]:
        from biasbench.registry import names as registered

        names = [
            n
            for n in registered()
            if n != LANGUAGES_DECLARATION.name
            and issubclass(benchmark_class(n), HonorificEngineBenchmark)
        ]
    if len(names) < 2:
        raise BiasbenchError(
            f"--benchmarks names {len(names)} honorific benchmark(s); give "
            "two or more, comma-separated (e.g. honorific-bn,honorific-hi)"
        )
    members: dict[str, HonorificEngineBenchmark] = {}
    for name in names:
        if not issubclass(benchmark_class(name), HonorificEngineBenchmark):
            raise BiasbenchError(f"{name} is not an honorific benchmark")
        bench = get_benchmark(name)
        assert isinstance(bench, HonorificEngineBenchmark)
        if bench.language in members:
            raise BiasbenchError(f"{name}: language {bench.language!r} given twice")
        members[bench.language] = bench
    return members


class HonorificLanguagesBenchmark(Benchmark, declaration=LANGUAGES_DECLARATION):
    """Honorific languages side by side (docs/honorific-engine.md)."""

    judge_version = ""  # each language's judge's version enters the signature (judge_version)

    def __init__(self, options: Options | None = None) -> None:
        self.members = _members(options.benchmarks if options is not None else ALL)

    @property
    def version(self) -> str:
        return "+".join(f"{lang}:{b.version}" for lang, b in self.members.items())

    def params_for(
        self,
        backend: ModelBackend,
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> GenerationParams:
        """The first language's decoding (every packaged language decodes the same way)."""
        first = next(iter(self.members.values()))
        return first.params_for(backend, temperature=temperature, max_tokens=max_tokens)

    def adapt_backend(self, backend: ModelBackend) -> ModelBackend:
        """A mock backend answers each language's prompts in that language."""
        speak = getattr(backend, "speak", None)
        if callable(speak):
            for bench in self.members.values():
                if bench.definition.mock_outputs:
                    speak(bench.definition.mock_outputs, when=bench.definition.instruction)
        return backend

    def requests(
        self, *, limit: int | None = None, seeds: Sequence[int] | None = None
    ) -> list[Request]:
        out: list[Request] = []
        each: list[int | None] = list(seeds) if seeds else [None]
        for seed in each:
            for lang, bench in self.members.items():
                for item in bench.items[:limit] if limit else bench.items:
                    prompt = bench.definition.prompt(item.source_en, item_id=item.item_id)
                    out.append(
                        Request(
                            item_id=f"{lang}{SEPARATOR}{item.item_id}", prompt=prompt, seed=seed
                        )
                    )
        return out

    def signature(
        self,
        model: dict[str, Any],
        params: GenerationParams | None,
        seeds: Sequence[int] | None,
        limit: int | None = None,
    ) -> Signature:
        def joined(parts: Sequence[str]) -> str:
            return hashlib.sha256("|".join(parts).encode()).hexdigest()

        members = list(self.members.items())
        return Signature(
            benchmark=self.name,
            benchmark_version=self.version,
            data_sha256=joined(
                [f"{lang}:{b.definition.checksum(limit or None)}" for lang, b in members]
            ),
            prompt_hash=joined([b.definition.prompt_hash() for _, b in members])[:12],
            model=model,
            decoding=params.to_dict() if params else {},
            seeds=list(seeds) if seeds else None,
            judge_version="+".join(b.judge.version for _, b in members),
            limit=limit if limit and any(limit < len(b.items) for _, b in members) else None,
        )

    # -- scoring -------------------------------------------------------------------------------
    def split(self, responses: pd.DataFrame) -> dict[str, pd.DataFrame]:
        """language -> its responses with plain item ids."""
        parts = responses["item_id"].str.split(SEPARATOR, n=1, expand=True)
        out = {}
        for lang in self.members:
            chosen = responses[parts[0] == lang]
            out[lang] = chosen.assign(item_id=parts.loc[chosen.index, 1])
        return out

    def evaluate(
        self, responses: pd.DataFrame, out_dir: Path, signatures: dict[str, Signature]
    ) -> dict[str, Any]:
        """Each language labelled and scored as its benchmark does (its tables under
        tables/LANG/), labels.jsonl with a ``language`` column, and the comparison."""
        out_dir.mkdir(parents=True, exist_ok=True)
        per_language: dict[str, Any] = {}
        labels: dict[str, pd.DataFrame] = {}
        for lang, part in self.split(responses).items():
            if part.empty:
                continue
            bench = self.members[lang]
            labels[lang] = bench.label(part)
            per_language[lang] = bench.score_labels(
                labels[lang], out_dir / "languages" / lang, signatures, write_labels=False
            )
        if len(labels) < 2:
            raise BiasbenchError("fewer than two languages have responses; nothing to compare")
        write_jsonl(
            [
                {"language": lang, **row}
                for lang, frame in labels.items()
                for row in frame.to_dict(orient="records")
            ],
            out_dir / LABELS_NAME,
        )
        compared = compare_languages(labels)
        write_cross_language(compared, out_dir)
        models = {
            m: {
                "signature": signatures[m].short(),
                "languages": {
                    lang: _headline(per_language[lang]["models"].get(m, {}))
                    for lang in per_language
                },
            }
            for m in signatures
        }
        results: dict[str, Any] = jsonable(
            {
                "schema_version": 1,
                "benchmark": self.name,
                "signature": common_signature(signatures),
                "models": models,
                "languages": {
                    lang: {k: v for k, v in found.items() if k != "signature"}
                    for lang, found in per_language.items()
                },
                "cross_language": compared,
            }
        )
        return results

    @classmethod
    def summary(cls, results: dict[str, Any]) -> list[str]:
        lines = []
        for model, found in results.get("models", {}).items():
            for lang, head in found.get("languages", {}).items():
                lines.append(
                    f"{model} [{lang}]: HAI {_fmt(head.get('hai_pp'))} pp, "
                    f"GSR {_fmt(head.get('gsr_pct'))}%, spread "
                    f"{_fmt(head.get('occupation_spread_pp'))} pp"
                )
        return lines + summary_lines(results.get("cross_language") or {"comparisons": {}})

    @classmethod
    def report_section(cls, group: RunGroup, out: Path, section: Section) -> None:
        """Each language's statistics, the paired differences and the occupation x language
        heat map of every run of the group."""
        from biasbench.display import Outputs

        output = Outputs(out, group.slug, section)
        for index, run in enumerate(group.runs):
            compared = run.results.get("cross_language")
            if not compared:
                continue
            stem = f"run{index + 1}_"
            output.table(
                side_by_side_table(compared),
                f"{stem}side_by_side",
                "Each language's statistics",
                decimals=2,
            )
            output.table(
                difference_table(compared),
                f"{stem}differences",
                "Paired differences between languages (b - a)",
                note=compared["method"],
                decimals=3,
            )
            occupations = occupation_difference_table(compared)
            output.table(
                occupations[occupations["significant"]],
                f"{stem}occupations",
                "Occupations whose honorific rate differs between languages (Holm)",
                decimals=2,
            )
            for number, model in enumerate(compared["models"]):
                output.figure(
                    partial(heat_map, compared, model),
                    f"{stem}heat_map_{number + 1}",
                    f"{model}: occupation x language",
                    "No-pronoun honorific rate per occupation and language; * marks "
                    "an occupation whose rate differs between two languages after "
                    "Holm.",
                )

    # -- responses produced elsewhere ----------------------------------------------------------
    def read_responses(self, path: Path) -> pd.DataFrame:
        """JSONL of ``item_id, model, output[, seed]`` with ``language`` (a code or a benchmark
        name) or an item id written ``LANG/ITEM``; bad lines name file, line and field."""
        by_name = {bench.name: lang for lang, bench in self.members.items()}
        rows = []
        seen: dict[tuple[str, str, Any], int] = {}
        for line, obj in iter_jsonl(path):
            check_fields(
                obj,
                path=path,
                line=line,
                required=("item_id", "model", "output"),
                strings=("item_id", "model", "output", "language"),
                integers=("seed",),
            )
            given = obj.get("language")
            lang, _, item = (
                obj["item_id"].partition(SEPARATOR)
                if given is None
                else (by_name.get(given, given), "", obj["item_id"])
            )
            if lang not in self.members:
                known = ", ".join(self.members)
                raise InputError(
                    f"unknown language {lang!r} (this run's: {known})",
                    file=str(path),
                    line=line,
                    field="language" if given is not None else "item_id",
                )
            if item not in self.members[lang].by_id:
                raise InputError(
                    f"unknown item_id {item!r}", file=str(path), line=line, field="item_id"
                )
            key = (obj["model"], f"{lang}{SEPARATOR}{item}", obj.get("seed"))
            if key in seen:
                raise InputError(
                    f"duplicate response for {key[1]!r} of model {key[0]!r} "
                    f"(first on line {seen[key]})",
                    file=str(path),
                    line=line,
                    field="item_id",
                )
            seen[key] = line
            rows.append(
                {
                    "model": obj["model"],
                    "item_id": key[1],
                    "output": obj["output"],
                    "seed": obj.get("seed"),
                }
            )
        if not rows:
            raise InputError("no responses", file=str(path))
        return pd.DataFrame(rows)


HEADLINE = (
    "hai_pp",
    "gsr_pct",
    "p_holm",
    "n_pairs",
    "occupation_spread_pp",
    "hbs",
    "unreadable_pct",
)


def _headline(scores: dict[str, Any]) -> dict[str, Any]:
    return {k: scores.get(k) for k in HEADLINE}


def _fmt(value: Any) -> str:
    return "n/a" if value is None else f"{value:.1f}"
