"""The BBQ engine's benchmark: everything a BBQ-format benchmark shares, end to end.

Items in the BBQ format are answered under many seeds (the robust multi-seed protocol of the
FilBBQ paper); the answers are parsed, scored per template per seed and summarised across seeds,
with bias profiles, jitter plots and, for masked LMs, option scoring. A BBQ-format benchmark
(FilBBQ, the original BBQ) subclasses :class:`BBQBenchmark` with its own source of items, its
prompt, its decoding defaults and its paper.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from biasbench.engines.bbq_family.analysis import Evaluation
from biasbench.engines.bbq_family.declaration import (
    CONFIGURED_OPTION_NAMES,
    DEFAULT_TARGET_MATCH,
    LIMIT_HELP,
    RESPONSES_HELP,
    TARGET_MATCHES,
)
from biasbench.engines.bbq_family.items.grid import Grid, Order, parse_vary, permuted_item
from biasbench.engines.bbq_family.items.items import BBQItem, SkippedRow, items_sha256
from biasbench.engines.bbq_family.items.lint import LintReport, lint_items
from biasbench.engines.bbq_family.items.sample import stratified_sample
from biasbench.engines.bbq_family.judging.labels import read_bbq_responses, write_bbq_labels
from biasbench.engines.bbq_family.judging.languages import BUILT_IN, LanguagePacks, pack_digest
from biasbench.engines.bbq_family.judging.option_scoring import (
    DEFAULT_ANSWER_BY,
    DEFAULT_OPTION_SCORE,
    AnswerBy,
    OptionScoringBackend,
    resolve_answer_by,
)
from biasbench.engines.bbq_family.judging.parser import PARSER_VERSION, AnswerReading
from biasbench.engines.bbq_family.presenting.display import (
    PARTIAL_NOTE,
    category_table,
    score_text,
)
from biasbench.engines.bbq_family.scoring.bias_profile import (
    PROFILE_RULE,
    bias_profile,
    profile_records,
)
from biasbench.engines.bbq_family.scoring.bias_scores import Var2ByTemplate, exclusion_summary
from biasbench.engines.bbq_family.scoring.coverage import run_coverage, unparsed_hint
from biasbench.engines.bbq_family.scoring.dataset_scores import DatasetScores
from biasbench.engines.bbq_family.scoring.multi_seed import (
    BBQResults,
    score_responses,
    to_results_json,
)
from biasbench.engines.bbq_family.scoring.results import validate_models
from biasbench.errors import BiasbenchError
from biasbench.models.base import GenerationParams, ModelBackend, Prompt, ScoreChoice
from biasbench.registry.interface import Benchmark, Paper, Results
from biasbench.runfolder import FIGURES_DIR, LABELS_NAME, TABLES_DIR
from biasbench.runner.runner import Request
from biasbench.signature import Signature, common_signature
from biasbench.tables import write_csv, write_table
from biasbench.textutil import slug, unique_slug

if TYPE_CHECKING:
    from biasbench.display import Section
    from biasbench.runfolder.grouping import RunGroup

log = logging.getLogger(__name__)

PROFILE_K = 5
"""Templates per context condition in a model's bias profile."""


class BBQBenchmark(Benchmark):
    """Any BBQ-format benchmark: items, a prompt per item, many seeds, the robust scores.

    Subclasses give the items (``items``), the prompt (:meth:`prompt`), where they came from
    (``source``, ``data_source``), the templates' stereotypes (``template_info``) and their
    decoding defaults; ``var2`` is what intersectional items need to be scored (their
    templates' Known_stereotyped_var2, :func:`biasbench.benchmarks.bbq.original.template_var2`).
    """

    name: ClassVar[str] = "bbq_family"
    """The engine's own name, not a benchmark's: every benchmark it serves takes its registered
    name (``bbq``, ``kobbq``...) from its declaration, so no run is named after the engine."""
    languages: ClassVar[tuple[str, ...]] = ("en",)
    paper: ClassVar[Paper] = Paper(
        "BBQ: A hand-built bias benchmark for question answering",
        "Parrish et al., Findings of ACL 2022",
        "https://aclanthology.org/2022.findings-acl.165",
    )
    items_summary: ClassVar[str] = "any BBQ-format jsonl"
    judge_version: ClassVar[str] = PARSER_VERSION
    limit_help: ClassVar[str] = LIMIT_HELP
    responses_help: ClassVar[str] = RESPONSES_HELP
    default_seed_count: ClassVar[int] = 50
    """Seeds a run uses when none are given (the FilBBQ paper's protocol)."""
    default_temperature: ClassVar[float] = 1.0
    decoding_why: ClassVar[str] = ""
    """Why the default decoding is what it is: shown in the summary and written to results."""
    configured_options: ClassVar[tuple[str, ...]] = CONFIGURED_OPTION_NAMES
    """``--answer-by``, ``--option-score`` and the robustness grid's options: every BBQ-format
    benchmark takes them (declared once, ``declaration.py``), applied by :meth:`configure`."""
    grid: Grid | None = None
    """The robustness grid asked for (``--vary``), or None: a plain run."""
    dataset_scores: ClassVar[DatasetScores | None] = None
    """The dataset's own metrics beside BBQ's (KoBBQ's diff-bias, CBBQ's bias score), declared as
    data: the engine computes them from the parsed answers and writes results.json's
    ``dataset_scores``, the tables, the summary lines and the export rows from it. None: BBQ's
    scores only."""
    control_datasets: ClassVar[dict[str, str]] = {}
    """Dataset -> its control dataset (namespaces ``<dataset>/<lang>``): the cross-language
    comparison adds control-adjusted differences for these (MBBQ: ``mbbq-control``)."""

    def __init__(
        self,
        items: list[BBQItem],
        *,
        source: str,
        data_source: dict[str, Any],
        template_info: dict[Any, str] | None = None,
        var2: Var2ByTemplate | None = None,
    ) -> None:
        self.items = items
        self.var2 = var2
        self.source = source
        self.data_source = data_source
        self.template_info = template_info or {}
        self.option_score: ScoreChoice = DEFAULT_OPTION_SCORE
        """How option-scored answers are chosen (``--option-score``)."""
        self.answer_by: AnswerBy = DEFAULT_ANSWER_BY
        """How a run answers (``--answer-by``)."""
        self.language_packs: LanguagePacks = BUILT_IN
        """The packs answers are read with (``--language-rules`` adds the user's)."""
        self.target_match: str = DEFAULT_TARGET_MATCH
        """Which target rule the headline scores use (``--target-match``)."""
        self.by_uid = {item.uid: item for item in self.items}
        self.skipped_rows: list[SkippedRow] = []
        """Published rows the reader skipped as invalid (file, line, field, reason): the data
        lint lists every one (results.json ``data_lint``)."""
        self.prompt_items: dict[str, BBQItem] = dict(self.by_uid)
        """The item behind each request's ``item_id`` (grid cells added as their requests are
        built): what option scoring reads the options of."""

    # -- the options every BBQ-format benchmark takes -----------------------------------------
    # Narrower than the interface's ``**options`` on purpose: only the declared options
    # (configured_options) reach it, by name.
    def configure(  # type: ignore[override]
        self,
        *,
        answer_by: AnswerBy = DEFAULT_ANSWER_BY,
        option_score: ScoreChoice = DEFAULT_OPTION_SCORE,
        vary: str | None = None,
        orders: str = "all",
        grid_budget: int | None = None,
        language_rules: str | Path | Sequence[str | Path] | None = None,
        target_match: str = DEFAULT_TARGET_MATCH,
    ) -> None:
        """``--answer-by`` and ``--option-score``: how the run answers (:meth:`adapt_backend`);
        ``--vary seeds,order,prompt`` (with ``--orders``, ``--grid-budget``): ask every item
        under each cell of the robustness grid (items/grid.py, scoring/robustness.py) instead
        of once per seed."""
        # Their choices were checked once, against the declaration (registry Options).
        self.answer_by, self.option_score = answer_by, option_score
        if target_match not in TARGET_MATCHES:
            raise BiasbenchError(
                f"--target-match must be one of {', '.join(TARGET_MATCHES)}, not {target_match!r}"
            )
        self.target_match = target_match
        if language_rules:
            files = (
                [language_rules]
                if isinstance(language_rules, (str, Path))
                else list(language_rules)
            )
            self.language_packs = LanguagePacks.from_files(files)
        if vary is None:
            if orders != "all" or grid_budget is not None:
                raise BiasbenchError("--orders and --grid-budget need --vary")
            return
        self.grid = Grid(parse_vary(vary), orders, grid_budget)

    def prompt_variants(self) -> tuple[str, ...]:
        """The prompt variants ``--vary prompt`` asks under, the one a plain run sends first
        (names without ``~``). One by default."""
        return ("published",)

    def variant_item(self, item: BBQItem, variant: str) -> BBQItem:
        """``item`` as prompt ``variant`` words it (KoBBQ's prompts word the unknown option
        each their own way); by default unchanged."""
        return item

    def variant_prompt(self, item: BBQItem, variant: str) -> Prompt:
        """The prompt of ``item`` under prompt ``variant``; by default :meth:`prompt`."""
        return self.prompt(item)

    def cell_item(self, item: BBQItem, order: Order, variant: str) -> BBQItem:
        """``item`` as a grid cell shows it: its variant's wording, options in ``order``."""
        return permuted_item(self.variant_item(item, variant), order)

    def _grid_requests(self, items: Sequence[BBQItem], seeds: Sequence[int]) -> list[Request]:
        import dataclasses

        assert self.grid is not None
        cells = self.grid.cells(seeds, self.prompt_variants())
        shown: dict[tuple[Order, str], list[Prompt]] = {}
        requests: list[Request] = []
        for cell in cells:
            key = (cell.order, cell.prompt)
            if key not in shown:
                prompts = []
                for item in items:
                    cell_id = cell.item_id(item.uid)
                    view = self.cell_item(item, cell.order, cell.prompt)
                    self.prompt_items[cell_id] = view
                    prompts.append(
                        dataclasses.replace(self.variant_prompt(view, cell.prompt), item_id=cell_id)
                    )
                shown[key] = prompts
            requests.extend(
                Request(item_id=cell.item_id(item.uid), prompt=p, seed=cell.seed)
                for item, p in zip(items, shown[key], strict=True)
            )
        return requests

    # -- requests ------------------------------------------------------------------------------
    def params_for(
        self,
        backend: ModelBackend,
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> GenerationParams:
        stop = ("\n",) if backend.mode == "completion" else ()
        return GenerationParams(
            temperature=self.default_temperature if temperature is None else temperature,
            max_tokens=max_tokens or (8 if backend.mode == "completion" else 32),
            stop=stop,
        )

    def prompt(self, item: BBQItem) -> Prompt:
        """The prompt of one item (subclasses give their own)."""
        raise NotImplementedError

    @property
    def prompt_hash(self) -> str:
        """Hash of the prompt (part of the signature)."""
        raise NotImplementedError

    def selected_items(self, limit: int | None) -> list[BBQItem]:
        """All items, or ``limit`` of them stratified over category x context condition x
        polarity and spread over every template (``bbq.sample.stratified_sample``)."""
        return stratified_sample(self.items, limit)

    def requests(
        self, *, limit: int | None = None, seeds: Sequence[int] | None = None
    ) -> list[Request]:
        seeds = self.default_seeds(seeds)
        items = self.selected_items(limit)
        if self.grid is not None:
            return self._grid_requests(items, seeds)
        prompts = [self.prompt(item) for item in items]
        return [
            Request(item_id=item.uid, prompt=p, seed=seed)
            for seed in seeds
            for item, p in zip(items, prompts, strict=True)
        ]

    def default_seeds(self, seeds: Sequence[int] | None) -> list[int]:
        return list(seeds) if seeds else list(range(self.default_seed_count))

    def adapt_backend(self, backend: ModelBackend) -> ModelBackend:
        """Answer by generating, or by option scores (``answer_by``, see
        :func:`~biasbench.engines.bbq_family.judging.option_scoring.resolve_answer_by`): masked LMs by the
        options' pseudo-log-likelihoods after the item's text, causal LMs by their
        log-likelihoods after the prompt's answer cue. A grid that varies seeds refuses a
        model that answers deterministically: every seed would give the same answers."""
        adapted = backend
        if resolve_answer_by(self.answer_by, backend) != "generate":
            adapted = OptionScoringBackend(
                backend,
                self.prompt_items,
                self.option_score,
                scored_text="prompt" if backend.can_generate else "item",
            )
        if adapted.deterministic and self.grid is not None and "seeds" in self.grid.vary:
            raise BiasbenchError(
                f"--vary seeds: {backend.model_id} answers deterministically "
                "(by option scores), so every seed gives the same answers; "
                "drop seeds from --vary"
            )
        return adapted

    def signature(
        self,
        model: dict[str, Any],
        params: GenerationParams | None,
        seeds: Sequence[int] | None,
        limit: int | None = None,
    ) -> Signature:

        # The checksum covers the items that are run, so --limit changes the signature; the
        # limit itself is recorded too (a partial run), as honorific-bn records it.
        data_source, run_seeds = self.data_source, self.default_seeds(seeds)
        if self.grid is not None:  # another grid is another run
            grid = self.grid.describe(run_seeds, self.prompt_variants())
            data_source, run_seeds = {**data_source, "grid": grid}, grid["seeds"]
        if self.language_packs.user:  # the user's packs read the answers: their digests
            data_source = {**data_source, "language_rules": self.language_packs.describe()}
        if self.target_match != DEFAULT_TARGET_MATCH:
            data_source = {**data_source, "target_match": self.target_match}
        return Signature(
            benchmark=self.name,
            benchmark_version=self.version,
            data_sha256=items_sha256(self.selected_items(limit)),
            prompt_hash=self.prompt_hash,
            model=model,
            decoding=params.to_dict() if params else {},
            seeds=run_seeds,
            limit=limit if limit and limit < len(self.items) else None,
            judge_version=self.reading_version(),
            data_source=data_source,
        )

    def reading_version(self) -> str:
        """The judge's version as this run reads answers: the parser's, with the digest of the
        user's language packs (``bbq-parser/3.0+packs:1a2b3c4d5e6f``) when there are any."""
        digest = pack_digest(self.language_packs.user)
        return f"{self.judge_version}+packs:{digest[:12]}" if digest else self.judge_version

    def answer_reading(self) -> AnswerReading:
        """The run's packs and the unknown wordings of every item (all of them count)."""
        return AnswerReading.for_items(self.items, self.language_packs)

    def target_overrides(self, rule: str) -> dict[str, int | None] | None:
        """uid -> target under ``rule`` where it is not the exact rule's (None: exact)."""
        if rule == DEFAULT_TARGET_MATCH:
            return None
        from biasbench.engines.bbq_family.scoring.target_rules import disagreements

        return {uid: pair[1] for uid, pair in disagreements(self.items, self.var2).items()}

    # -- scoring -------------------------------------------------------------------------------
    def evaluate(
        self, responses: pd.DataFrame, out_dir: Path, signatures: dict[str, Signature]
    ) -> dict[str, Any]:
        """Parse, score across seeds, and write labels, results, tables and jitter plots."""
        out_dir.mkdir(parents=True, exist_ok=True)
        frame = responses.rename(columns={"item_id": "uid"})
        frame["seed"] = frame["seed"].fillna(0).astype(int)
        reading = self.answer_reading()
        if self.grid is not None:  # answers read against the options as shown, mapped back
            from biasbench.engines.bbq_family.scoring.robustness import expand_grid_responses

            frame = expand_grid_responses(frame, self.by_uid, self.cell_item, reading)
        scored = score_responses(
            self.items,
            frame if self.grid is None else frame.drop(columns=["output"]),
            var2=self.var2,
            reading=reading,
            targets=self.target_overrides(self.target_match),
        )
        write_bbq_labels(scored.responses, frame, self.items, out_dir / LABELS_NAME)
        results = to_results_json(scored)
        results["benchmark"] = self.name
        results["items_source"] = self.source
        results["signature"] = common_signature(signatures)
        results["decoding"] = {**results["signature"].get("decoding", {}), "why": self.decoding_why}
        results["unparsed_by_run"] = scored.unparsed_by_run.to_dict(orient="records")
        hint = (
            unparsed_hint(scored, self.items) if self.data_source.get("items") == "files" else None
        )
        if hint:
            results["unparsed_hint"] = hint
        results["coverage"] = {
            m: run_coverage(
                frame[frame["model"] == m],
                len(self.items),
                getattr(signatures.get(m), "limit", None),
            )
            for m in scored.by_template["model"].unique()
        }
        results["limit"] = results["signature"].get("limit")
        profiles = {
            m: bias_profile(scored, m, PROFILE_K, self.template_info)
            for m in scored.by_template["model"].unique()
        }
        results["bias_profiles"] = {m: profile_records(p) for m, p in profiles.items()}
        results["bias_profile_rule"] = PROFILE_RULE
        validate_models(results["models"])
        results["data_lint"] = self.data_lint().to_dict()
        self._write_tables(scored, profiles, out_dir / TABLES_DIR)
        self._write_figures(scored, profiles, out_dir / FIGURES_DIR)
        from biasbench.engines.bbq_family.analyses import ANALYSES

        run = Evaluation(
            self, scored, frame, signatures, results, out_dir / TABLES_DIR, out_dir / FIGURES_DIR
        )
        for analysis in ANALYSES:  # by language, the grid, refusals, the dataset's own...
            if analysis.applies(run):
                results.update(analysis.evaluate(run))
        self.extend_results(results, scored, out_dir)
        return results

    def target_rules_entry(self, models: dict[str, Any], scored: BBQResults) -> dict[str, Any]:
        """results.json's ``target_rules``: where the exact and the substring rule disagree,
        the items and both rules' scores (the parsed answers scored again, not re-read);
        ``models``: results.json's scores under the run's own rule."""
        from biasbench.engines.bbq_family.scoring.target_rules import (
            disagreements,
            target_rules_results,
        )

        both: dict[Any, dict[str, Any]] | None = None
        if disagreements(self.items, self.var2):
            answers = scored.responses[["model", "seed", "uid"]].assign(
                pred=pd.array(
                    [p if p >= 0 else None for p in scored.responses["pred_index"]], dtype="Int64"
                )
            )
            both = {}
            for rule in TARGET_MATCHES:
                if rule == self.target_match:
                    both[rule] = models
                    continue
                other = score_responses(
                    self.items, answers, var2=self.var2, targets=self.target_overrides(rule)
                )
                both[rule] = to_results_json(other)["models"]
        return target_rules_results(
            self.items,
            self.target_match,  # type: ignore[arg-type]
            both,
            self.var2,
        )

    def keep_skipped(self, rows: list[SkippedRow], *, strict: bool) -> None:
        """Rows of ``--items`` files that are not valid items: refused under ``--strict`` (all
        named in one line), else kept for the data lint and said in one warning."""
        from biasbench.engines.bbq_family.items.published import ReadResult, refuse_skipped

        refuse_skipped(ReadResult(skipped=rows), strict=strict)
        self.skipped_rows = list(rows)
        if rows:
            log.warning(
                "%d invalid row(s) skipped (the data lint lists them; --strict refuses them): "
                "first %s",
                len(rows),
                rows[0].line_text(),
            )

    @classmethod
    def lint_files(cls, paths: Sequence[str | Path]) -> LintReport:
        """The data lint of item files in a published format (BBQ or GG-BBQ JSONL, BharatBBQ
        or GBFA CSV; ``NAMESPACE=FILE`` allowed): every invalid row, and every finding."""
        from biasbench.engines.bbq_family.items.lint import lint_files

        return lint_files(paths)

    def data_lint(self) -> LintReport:
        """The data lint of this run's items and the rows its reader skipped
        (docs/bbq-engine/data-lint.md)."""
        return lint_items(self.items, self.skipped_rows)

    def own_responses(self, responses: pd.DataFrame) -> pd.DataFrame:
        """The responses :attr:`dataset_scores` reads: all of them, unless a run adds another
        dataset's items beside its own (EsBBQ/CaBBQ ``--parallel``)."""
        return responses

    def extend_results(self, results: dict[str, Any], scored: BBQResults, out_dir: Path) -> None:
        """A benchmark's own additions to the engine's results and files that are not its
        metrics (those are :attr:`dataset_scores`), given the results so far: MBBQ's item
        counts and control comparison (which reads their by_language), BBQ's R categories.
        Nothing by default."""

    def _write_tables(
        self, scored: BBQResults, profiles: dict[str, pd.DataFrame], out: Path
    ) -> None:
        out.mkdir(parents=True, exist_ok=True)
        write_csv(scored.per_seed, out / "per_template_per_seed.csv")
        write_csv(scored.per_seed_category, out / "per_category_per_seed.csv")
        write_csv(scored.by_template, out / "by_template.csv")
        write_csv(scored.unparsed_by_template, out / "unparsed_by_template.csv")
        write_table(category_table(scored), out / "by_category")
        for model, profile in profiles.items():
            # unique: "m 1" and "m/1" must not overwrite each other
            write_table(profile, out / f"bias_profile_{unique_slug(model)}")

    def _write_figures(
        self, scored: BBQResults, profiles: dict[str, pd.DataFrame], out: Path
    ) -> None:
        """Jitter plots (the paper's Figures 1-2) for the templates in any model's profile."""
        from biasbench.engines.bbq_family.presenting.jitter import (
            jitter_plot,  # matplotlib only when drawing
        )

        out.mkdir(parents=True, exist_ok=True)
        wanted = {
            (
                r["category"],
                r["question_index"],
                "s_amb" if r["context"] == "ambiguous" else "s_dis",
            )
            for p in profiles.values()
            for r in p.to_dict("records")
        }
        for category, template, score in sorted(wanted):
            jitter_plot(
                scored.per_seed,
                template,
                score,  # type: ignore[arg-type]
                out / f"jitter_{slug(category)}_{slug(template)}_{score}.png",
                category=category,
            )

    @classmethod
    def summary(cls, results: Results) -> list[str]:
        from biasbench.engines.bbq_family.scoring import reliability

        lines = []
        coverage = results.get("coverage") or {}
        marks = results.get(reliability.KEY)
        for model, cats in results["models"].items():
            partial = " [PARTIAL]" if (coverage.get(model) or {}).get("partial") else ""
            for cat, r in cats.items():
                lines.append(
                    f"{model}{partial}{reliability.score_mark(marks, model, cat)} / {cat}: "
                    f"s_AMB {score_text(r['s_amb'])}, s_DIS {score_text(r['s_dis'])}, "
                    f"acc ambig {score_text(r['acc_ambig'], '')}, "
                    f"acc disambig {score_text(r['acc_disambig'], '')} "
                    f"({r['seeds_run']} seeds run, unparsed {r['unparsed_pct']:.1f}%"
                    + (f"; {r['few_items']}" if r.get("few_items") else "")
                    + ")"
                )
        from biasbench.engines.bbq_family.analyses import ANALYSES

        for analysis in ANALYSES:
            if not analysis.summary_after_notes:
                lines.extend(analysis.summary_lines(cls, results))
        for model, cov in coverage.items():
            if cov.get("partial"):
                lines.append(f"{model}: partial run ({cov['reason']}): {PARTIAL_NOTE}")
        if lines:
            lines.append(f"intervals: {results['interval_method']}")
            decoding = results.get("decoding") or {}
            if "temperature" in decoding:
                t = decoding["temperature"]
                lines.append(
                    f"decoding: temperature {t} "
                    + (
                        f"(the default: {cls.decoding_why})"
                        if t == cls.default_temperature
                        else f"(set by --temperature; the default is {cls.default_temperature}, see "
                        "results.json: decoding.why)"
                    )
                )
        if results.get("unparsed_hint"):
            lines.append(results["unparsed_hint"])
        if results.get("data_lint", {}).get("findings"):
            from biasbench.engines.bbq_family.items.lint import summary_lines as lint_lines

            lines.extend(lint_lines(results["data_lint"]))
        if results.get("excluded_by_reason"):  # never only in results.json
            lines.append(exclusion_summary(results["excluded_by_reason"]))
        for analysis in ANALYSES:
            if analysis.summary_after_notes:
                lines.extend(analysis.summary_lines(cls, results))
        return lines

    @classmethod
    def report_section(cls, group: RunGroup, out: Path, section: Section) -> None:
        """Per-category scores and accuracy with seed intervals, bias profiles, jitter plots,
        unparsed rates and the drill-down."""
        from biasbench.engines.bbq_family.presenting.report import bbq_section

        bbq_section(group, out, section)

    # -- responses produced elsewhere ----------------------------------------------------------
    def read_responses(self, path: Path) -> pd.DataFrame:
        return read_bbq_responses(path, self.by_uid)

    def read_harness_log(self, harness: str, path: Path) -> Any:
        """An lm-evaluation-harness or inspect_ai log (``harness_logs/``)."""
        from biasbench.engines.bbq_family.harness_logs.rescore import read_harness_log

        return read_harness_log(harness, path, self)

    def score_harness_log(self, log: Any, out_dir: Path, *, source: str) -> Results:
        from biasbench.engines.bbq_family.harness_logs.rescore import score_harness_log

        return score_harness_log(self, log, out_dir, source)

    @classmethod
    def harness_summary(cls, results: Results) -> list[str]:
        from biasbench.engines.bbq_family.harness_logs.compare import summary_lines

        log = results["harness_log"]
        return summary_lines(log["comparison"], log["harness"])
