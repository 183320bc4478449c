"""An honorific benchmark end to end: items -> requests -> labels with evidence and readings ->
statistics -> tables. A language's folder subclasses :class:`HonorificEngineBenchmark` with its
declaration, its data folder, its language code and where its judge lives; everything else is
here."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from biasbench.engines.honorific.items import (
    Definition,
    HonorificItem,
    load_definition,
    validate_definition,
)
from biasbench.engines.honorific.judging import RegisterJudge, judge_for, register_judge
from biasbench.engines.honorific.label_table import (
    ITEM_LABEL_COLUMNS,
    TARGET_COLUMN,
    TRAILING_COLUMNS,
    file_columns,
    reading_column,
)
from biasbench.engines.honorific.metrics import score_models
from biasbench.engines.honorific.occupation_scores import occupation_rates
from biasbench.engines.honorific.readings import ReadingSpec, reading_results, write_reading_tables
from biasbench.engines.honorific.results import validate_model_scores
from biasbench.engines.honorific.tables import caveats, summary_lines, write_tables
from biasbench.errors import BiasbenchError, InputError
from biasbench.models.base import GenerationParams, ModelBackend
from biasbench.registry.interface import Benchmark, Options
from biasbench.responses import check_fields, iter_jsonl, write_jsonl
from biasbench.runfolder import LABELS_NAME, TABLES_DIR
from biasbench.runner.runner import Request
from biasbench.signature import Signature, common_signature

if TYPE_CHECKING:
    from biasbench.display import Section
    from biasbench.runfolder.grouping import RunGroup

log = logging.getLogger(__name__)


class HonorificEngineBenchmark(Benchmark):
    """The honorific-register benchmark of one target language (docs/honorific-engine.md).

    A language's class sets (besides its :class:`~biasbench.registry.interface.Declaration`):

    - ``language``: the target language's code (the occupations file's column, the judge's key);
    - ``data_dir``: its folder of ``definition.json``, ``occupations.csv`` (and optionally
      ``errata.csv``; a ``frames.csv`` there replaces the engine's shared English frames);
    - ``judge_target``: ``"module:attribute"`` of its :class:`RegisterJudge` (imported on first
      use, never by ``--help`` or ``list``);
    - optionally ``reading_specs``: which of the judge's readings get the engine's analyses
      (distribution by occupation and condition; WinoMT-style gender assignment; an
      alternative binary split reported beside the main statistics).
    """

    language: ClassVar[str]
    data_dir: ClassVar[Path]
    judge_target: ClassVar[str]
    reading_specs: ClassVar[tuple[ReadingSpec, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "judge_target" in cls.__dict__:
            register_judge(cls.language, cls.judge_target)

    def __init__(
        self, options: Options | None = None, definition: Definition | None = None
    ) -> None:
        # It declares no option; ``definition`` is a loaded Definition Python code hands in.
        self.definition = definition or self.load_definition()
        self.items: list[HonorificItem] = self.definition.items()
        self.by_id = {item.item_id: item for item in self.items}

    @classmethod
    def load_definition(
        cls, occupations: Path | None = None, frames: Path | None = None
    ) -> Definition:
        """The packaged definition of this language, optionally with a user's files."""
        return load_definition(
            cls.data_dir, language=cls.language, occupations=occupations, frames=frames
        )

    @property
    def judge(self) -> RegisterJudge:
        """The language's register judge (loaded on first use)."""
        return judge_for(self.language)

    @property
    def version(self) -> str:
        return self.definition.version

    def params_for(
        self,
        backend: ModelBackend,
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> GenerationParams:
        """The paper's decoding (temperature 0); a completion prompt stops at the line end."""
        dec = self.definition.meta["decoding"]
        stop = ("\n",) if backend.mode == "completion" else ()
        return GenerationParams(
            temperature=dec["temperature"] if temperature is None else temperature,
            max_tokens=dec["max_tokens"] if max_tokens is None else max_tokens,
            stop=stop,
        )

    def adapt_backend(self, backend: ModelBackend) -> ModelBackend:
        """A mock backend answers in this language: its register scripts take the sentences of
        the definition's ``"mock"`` object (a backend without that hook is returned as is)."""
        speak = getattr(backend, "speak", None)
        mock = self.definition.mock_outputs
        if callable(speak) and mock:
            speak(mock)
        return backend

    def requests(
        self, *, limit: int | None = None, seeds: Sequence[int] | None = None
    ) -> list[Request]:
        """One request per item (per seed); ``limit`` keeps the first N items in published order."""
        items = self.items[:limit] if limit else self.items
        out: list[Request] = []
        each: list[int | None] = list(seeds) if seeds else [None]
        for seed in each:
            for item in items:
                prompt = self.definition.prompt(item.source_en, item_id=item.item_id)
                out.append(Request(item_id=item.item_id, prompt=prompt, seed=seed))
        return out

    def signature(
        self,
        model: dict[str, Any],
        params: GenerationParams | None,
        seeds: Sequence[int] | None,
        limit: int | None = None,
    ) -> Signature:
        return Signature(
            benchmark=self.name,
            benchmark_version=self.version,
            data_sha256=self.definition.checksum(limit or None),
            prompt_hash=self.definition.prompt_hash(),
            model=model,
            decoding=params.to_dict() if params else {},
            seeds=list(seeds) if seeds else None,
            judge_version=self.judge.version,
            limit=limit if limit and limit < len(self.items) else None,
        )

    # -- judge ---------------------------------------------------------------------------------
    def label_columns(self) -> list[str]:
        """The label table's columns: the item's, label, plural, the judge's readings (as
        :func:`reading_column` names them), then evidence, reason and truncated."""
        readings = [reading_column(r) for r in self.judge.readings]
        return [*ITEM_LABEL_COLUMNS, *readings, *TRAILING_COLUMNS]

    def label(self, responses: pd.DataFrame) -> pd.DataFrame:
        """Label every response (columns model, item_id, output, optional seed) with evidence
        and the judge's readings (one column each)."""
        judge = self.judge
        columns = self.label_columns()
        readings = {reading_column(r): r for r in judge.readings}
        records = list(responses.itertuples(index=False))
        keys = [
            (rec.output if isinstance(rec.output, str) else "", self.by_id[rec.item_id].gender)
            for rec in records
        ]
        # each distinct (output, condition) judged once, in one batch (an analyser-backed judge
        # analyses a batch at once)
        distinct = list(dict.fromkeys(keys))
        judged = judge.judge_many([k[0] for k in distinct], [k[1] for k in distinct])
        cache = {key: found.to_dict() for key, found in zip(distinct, judged, strict=True)}
        rows: list[dict[str, Any]] = []
        for rec, key in zip(records, keys, strict=True):
            item = self.by_id[rec.item_id]
            output = key[0]
            lab = cache[key]
            found = lab.get("readings") or {}
            seed = getattr(rec, "seed", None)
            rows.append(
                {
                    "model": rec.model,
                    "seed": None if seed is None or pd.isna(seed) else int(seed),
                    "item_id": item.item_id,
                    "occupation_en": item.occupation_en,
                    TARGET_COLUMN: item.occupation_target,
                    "template_id": item.template_id,
                    "primed": item.primed,
                    "gender": item.gender,
                    "output": output,
                    "label": lab["label"],
                    "plural": lab["plural"],
                    **{column: found.get(name, lab.get(name)) for column, name in readings.items()},
                    "evidence": lab["evidence"],
                    "reason": lab["reason"],
                    # cut at max_tokens: labelled from partial evidence, so flagged (output_health)
                    "truncated": bool(getattr(rec, "truncated", False)),
                }
            )
        return pd.DataFrame(rows, columns=columns)

    # -- scoring -------------------------------------------------------------------------------
    def evaluate(
        self, responses: pd.DataFrame, out_dir: Path, signatures: dict[str, Signature]
    ) -> dict[str, Any]:
        """Label, score and write labels.jsonl and tables/ into ``out_dir``; return the results
        (the caller writes results.json)."""
        return self.score_labels(self.label(responses), out_dir, signatures)

    def score_labels(
        self,
        labels: pd.DataFrame,
        out_dir: Path,
        signatures: dict[str, Signature],
        *,
        write_labels: bool = True,
    ) -> dict[str, Any]:
        """Score a labels table (from :meth:`label`): labels.jsonl (unless ``write_labels`` is
        False), tables/ and the results."""
        out_dir.mkdir(parents=True, exist_ok=True)
        column = self.definition.occupation_column
        if write_labels:
            write_jsonl(
                file_columns(labels, column).to_dict(orient="records"), out_dir / LABELS_NAME
            )
        scored = score_models(labels)
        models = {}
        for m, r in scored["models"].items():
            scores = {
                **r,
                "coverage": self.coverage(
                    labels[labels.model == m], getattr(signatures[m], "limit", None)
                ),
            }
            models[m] = {**scores, "caveats": caveats(scores), "signature": signatures[m].short()}
        results: dict[str, Any] = {
            "schema_version": 1,
            "benchmark": self.name,
            "signature": common_signature(signatures),
            "models": models,
            "occupation_rank_agreement": scored["occupation_rank_agreement"],
            "label_counts": {
                m: _label_counts(labels[labels.model == m]) for m in labels.model.unique()
            },
        }
        if self.reading_specs:
            results["readings"] = reading_results(labels, self.reading_specs)
        validate_model_scores(results["models"])
        write_tables(results, file_columns(occupation_rates(labels), column), out_dir / TABLES_DIR)
        if self.reading_specs:
            write_reading_tables(labels, results, self.reading_specs, out_dir / TABLES_DIR)
        return results

    def coverage(self, labels: pd.DataFrame, limit: int | None) -> dict[str, Any]:
        """What one model's scores rest on against what the benchmark defines.

        ``n_items_expected`` and ``n_pairs_possible`` are the definition's items and he/she
        pairs times the model's seeds; the run is partial when it was limited to the first N
        items or when fewer items than that have a response (failed requests, a partial
        responses file).
        """
        n_seeds = max(1, len({None if pd.isna(s) else s for s in labels["seed"]}))
        he = {(i.occupation_en, i.template_id) for i in self.items if i.gender == "male"}
        she = {(i.occupation_en, i.template_id) for i in self.items if i.gender == "female"}
        expected, scored = len(self.items) * n_seeds, len(labels)
        if limit:
            reason = f"--limit {limit}, {scored:,} of {expected:,} items"
        elif scored < expected:
            reason = f"{scored:,} of {expected:,} items have a response"
        else:
            reason = None
        return {
            "n_items_scored": scored,
            "n_items_expected": expected,
            "n_pairs_possible": len(he & she) * n_seeds,
            "n_seeds": n_seeds,
            "limit": limit,
            "partial": reason is not None,
            "reason": reason,
        }

    @classmethod
    def summary(cls, results: dict[str, Any]) -> list[str]:
        return summary_lines(results)

    @classmethod
    def score_rows(
        cls, results: dict[str, Any], labels: pd.DataFrame | None = None
    ) -> pd.DataFrame:
        """The generic rows, with HAI's interval (Newcombe, paired) and GSR's (Wilson) from the
        labels, as the report computes them (``n``: usable he/she pairs)."""
        from biasbench.engines.honorific.report import pair_interval_table
        from biasbench.registry.interface import tidy_scores

        rows = tidy_scores(results)
        models = [
            m
            for m in results.get("models", {})
            if labels is not None and (labels["model"] == m).any()
        ]
        if not models or labels is None:
            return rows
        table = pair_interval_table(labels, results["models"], models).set_index("model")
        for statistic, low, high in (
            ("hai_pp", "HAI low", "HAI high"),
            ("gsr_pct", "GSR low", "GSR high"),
        ):
            at = rows["statistic"].eq(statistic) & rows["group"].eq("") & rows["model"].isin(models)
            chosen = table.loc[rows.loc[at, "model"]]
            rows.loc[at, "ci_low"] = chosen[low].to_numpy(float)
            rows.loc[at, "ci_high"] = chosen[high].to_numpy(float)
            rows.loc[at, "n"] = chosen["N pairs"].to_numpy(int)
        return rows

    @classmethod
    def report_section(cls, group: RunGroup, out: Path, section: Section) -> None:
        """Table 4, occupation rates, HAI against GSR, singular they, primed frames, the
        readings and the drill-down (re-scored together from the runs' labels)."""
        from biasbench.engines.honorific.report import honorific_section

        honorific_section(
            group,
            out,
            section,
            language=cls.output_language or cls.language,
            definition=cls.load_definition(),
            reading_specs=cls.reading_specs,
        )

    # -- items on disk -------------------------------------------------------------------------
    @classmethod
    def generate_items(cls, out: Path, **options: Any) -> list[str]:
        """Write the items (2,016 with a packaged definition) and report inconsistencies."""
        defn = cls.load_definition(
            occupations=options.get("occupations"), frames=options.get("frames")
        )
        findings = validate_definition(defn)
        for finding in findings:  # "error: FILE:LINE field ...: message" -> logged at its level
            log.log(
                logging.ERROR if finding.severity == "error" else logging.WARNING,
                "%s",
                str(finding).split(": ", 1)[1],
            )
        if any(f.severity == "error" for f in findings):
            raise BiasbenchError("the definition has errors; no items written")
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(defn.items_csv_bytes())
        return [f"wrote {len(defn.items())} items to {out} (sha256 {defn.checksum()})"]

    # -- responses produced elsewhere ----------------------------------------------------------
    def read_responses(self, path: Path) -> pd.DataFrame:
        """Read a JSONL of ``item_id, model, output[, seed]``; bad lines name file, line, field."""
        rows = []
        seen: dict[tuple[str, str, Any], int] = {}
        for line, obj in iter_jsonl(path):
            check_fields(
                obj,
                path=path,
                line=line,
                required=("item_id", "model", "output"),
                strings=("item_id", "model", "output"),
                integers=("seed",),
            )
            if obj["item_id"] not in self.by_id:
                raise InputError(
                    f"unknown item_id {obj['item_id']!r}",
                    file=str(path),
                    line=line,
                    field="item_id",
                )
            key = (obj["model"], obj["item_id"], obj.get("seed"))
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
                    "item_id": obj["item_id"],
                    "output": obj["output"],
                    "seed": obj.get("seed"),
                }
            )
        if not rows:
            raise InputError("no responses", file=str(path))
        return pd.DataFrame(rows)


def _label_counts(labels: pd.DataFrame) -> dict[str, int]:
    return {str(k): int(v) for k, v in labels.label.value_counts().items()}
