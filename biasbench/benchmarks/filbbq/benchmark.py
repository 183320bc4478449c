"""FilBBQ (and any BBQ-format benchmark) end to end, with the paper's robust multi-seed protocol.

Items come from FilBBQ's templates (downloaded at a pinned commit, or a local copy) generated
with one seed, or from any BBQ-format jsonl (``items=``). Every prompt is answered under every
seed; scores are computed per template per seed and summarised across seeds.
"""

from __future__ import annotations

import csv
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.benchmarks.bbq.items import BBQItem, load_bbq_jsonl
from biasbench.benchmarks.bbq.parser import LETTERS, PARSER_VERSION
from biasbench.benchmarks.bbq.results import validate_models
from biasbench.benchmarks.bbq.robust import (
    PROFILE_RULE,
    BBQResults,
    bias_profile,
    interval_text,
    profile_records,
    score_responses,
    template_stereotypes,
    to_results_json,
)
from biasbench.benchmarks.bbq.sample import stratified_sample
from biasbench.benchmarks.bbq.scores import exclusion_summary
from biasbench.benchmarks.filbbq.source import (
    FILBBQ_CATEGORIES,
    PromptTemplate,
    filbbq_items,
    load_prompt_file,
    load_prompt_template,
    resolve_published_data,
    resolve_templates,
)
from biasbench.errors import InputError
from biasbench.jsonutil import write_json
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
)
from biasbench.models.hf import OptionScore, ScoreChoice, option_choices
from biasbench.report.tables import write_csv, write_table
from biasbench.responses import check_fields, iter_jsonl, write_jsonl
from biasbench.runner.runner import Request
from biasbench.signature import Signature, common_signature
from biasbench.textutil import slug

log = logging.getLogger(__name__)

DEFAULT_SEEDS = 50
"""The paper answers every prompt under 50 seeds."""
DEFAULT_TEMPERATURE = 1.0
"""The paper does not state its temperature; seeds only matter when decoding samples, so the
default samples from the model's own distribution (temperature 1). Say --temperature to change."""

DECODING_WHY = (
    "FilBBQ's protocol averages over seeds, which only differ when decoding samples; the paper "
    "states no temperature, so biasbench samples from the model's own distribution "
    "(temperature 1.0, every truncation off: top_p 1, top_k 0, min_p 0) unless --temperature "
    "says otherwise")
"""Why the default decoding is what it is: shown in the summary and written to results.json."""
PROFILE_K = 5
OPTION_SEPARATOR = " "
"""Between the question and an appended option: the option as the text would be written
("...HIV positive? Ang tomboy"), not glued to the question mark, which changes its first token."""
DEFAULT_OPTION_SCORE: ScoreChoice = "per_char"
"""Masked LMs answer by the per-character (length-normalised) option score by default."""


class FilBBQBenchmark:
    """FilBBQ (specs/bbq.md); with ``items=`` it serves any BBQ-format jsonl."""

    name = "filbbq"
    version = "1.0"
    judge_version = PARSER_VERSION

    def __init__(self, items: str | Sequence[str | Path] | None = None,
                 templates: Path | None = None, data_seed: int = 0,
                 prompt: Path | None = None, published_data: Path | None = None,
                 regenerate_items: bool = False,
                 option_score: ScoreChoice = DEFAULT_OPTION_SCORE) -> None:
        self.data_seed = data_seed
        self.option_score = option_score
        templates_dir: Path | None = None
        if items is None or prompt is None:
            templates_dir = resolve_templates(templates)
        self.data_source: dict[str, Any]
        if items is None:
            assert templates_dir is not None
            # The authors' published items where they published them (as released, in their
            # answer order); regenerated with data_seed elsewhere.
            published_dir = None if regenerate_items else resolve_published_data(
                published_data, templates_dir=templates_dir)
            loaded = filbbq_items(templates_dir, data_seed, published_dir=published_dir,
                                  regenerate=regenerate_items)
            self.items = loaded.items
            self.data_source = loaded.sources
            self.source = "; ".join(
                f"{c}: published {s['file']}" if s["items"] == "published"
                else f"{c}: regenerated (seed {s['seed']})" for c, s in loaded.sources.items())
        else:
            self.items = load_bbq_jsonl(items)
            self.source = ",".join(str(p) for p in ([items] if isinstance(items, str) else items))
            self.data_source = {"items": "files", "files": self.source}
        if prompt is not None:
            self.prompt_template: PromptTemplate = load_prompt_file(prompt)
        else:
            assert templates_dir is not None
            self.prompt_template = load_prompt_template(templates_dir)
        self.template_info = _template_info(templates_dir) if templates_dir else {}
        self.by_uid = {item.uid: item for item in self.items}

    # -- requests ------------------------------------------------------------------------------
    def params_for(self, backend: ModelBackend, *, temperature: float | None = None,
                   max_tokens: int | None = None) -> GenerationParams:
        stop = ("\n",) if backend.mode == "completion" else ()
        return GenerationParams(
            temperature=DEFAULT_TEMPERATURE if temperature is None else temperature,
            max_tokens=max_tokens or (8 if backend.mode == "completion" else 32), stop=stop)

    def prompt(self, item: BBQItem) -> Prompt:
        """The authors' prompt as the user turn; base models continue it after "Sagot:"."""
        text = self.prompt_template.render(item)
        return Prompt(messages=(("user", text),), completion=f"{text}\nSagot:", item_id=item.uid)

    def selected_items(self, limit: int | None) -> list[BBQItem]:
        """All items, or ``limit`` of them stratified over category x context condition x
        polarity and spread over every template (``bbq.sample.stratified_sample``)."""
        return stratified_sample(self.items, limit)

    def requests(self, *, limit: int | None = None,
                 seeds: Sequence[int] | None = None) -> list[Request]:
        seeds = self.default_seeds(seeds)
        items = self.selected_items(limit)
        prompts = [self.prompt(item) for item in items]
        return [Request(item_id=item.uid, prompt=p, seed=seed)
                for seed in seeds for item, p in zip(items, prompts, strict=True)]

    def default_seeds(self, seeds: Sequence[int] | None) -> list[int]:
        return list(seeds) if seeds else list(range(DEFAULT_SEEDS))

    def adapt_backend(self, backend: ModelBackend) -> ModelBackend:
        """Masked LMs cannot generate: they answer by the options' pseudo-log-likelihoods."""
        if getattr(backend, "task", None) == "masked":
            return OptionScoringBackend(backend, self.by_uid, self.option_score)
        return backend

    def signature(self, model: dict[str, Any], params: GenerationParams | None,
                  seeds: Sequence[int] | None, limit: int | None = None) -> Signature:

        # The checksum covers the items that are run, so --limit changes the signature.
        return Signature(
            benchmark=self.name, benchmark_version=self.version,
            data_sha256=items_sha256(self.selected_items(limit)),
            prompt_hash=self.prompt_template.sha256[:12], model=model,
            decoding=params.to_dict() if params else {},
            seeds=self.default_seeds(seeds),
            judge_version=self.judge_version, data_source=self.data_source)

    # -- scoring -------------------------------------------------------------------------------
    def evaluate(self, responses: pd.DataFrame, out_dir: Path,
                 signatures: dict[str, Signature]) -> dict[str, Any]:
        """Parse, score across seeds, and write labels, results, tables and jitter plots."""
        out_dir.mkdir(parents=True, exist_ok=True)
        frame = responses.rename(columns={"item_id": "uid"})
        frame["seed"] = frame["seed"].fillna(0).astype(int)
        scored = score_responses(self.items, frame)
        write_bbq_labels(scored, frame, self.items, out_dir / "labels.jsonl")
        results = to_results_json(scored)
        results["benchmark"] = self.name
        results["items_source"] = self.source
        results["signature"] = common_signature(signatures)
        results["decoding"] = {**results["signature"].get("decoding", {}), "why": DECODING_WHY}
        results["unparsed_by_run"] = scored.unparsed_by_run.to_dict(orient="records")
        profiles = {m: bias_profile(scored, m, PROFILE_K, self.template_info)
                    for m in scored.by_template["model"].unique()}
        results["bias_profiles"] = {m: profile_records(p) for m, p in profiles.items()}
        results["bias_profile_rule"] = PROFILE_RULE
        comparison = self.option_score_comparison(frame, out_dir, signatures)
        if comparison is not None:
            results["option_scoring"] = comparison
        validate_models(results["models"])
        write_json(results, out_dir / "results.json")
        self._write_tables(scored, profiles, out_dir / "tables")
        self._write_figures(scored, profiles, out_dir / "figures")
        return results

    def option_score_comparison(self, frame: pd.DataFrame, out_dir: Path,
                                signatures: dict[str, Signature]) -> dict[str, Any] | None:
        """For option-scored (masked LM) runs: the scores under the choice that is not the
        headline (sum vs per-character), from the choices stored with every response, so a
        reader sees both as lm-evaluation-harness reports acc and acc_norm. None otherwise."""
        from biasbench.runfolder import store_of  # a run scores into a staging folder

        store_path = store_of(out_dir)
        labels = {json.dumps(sig.model, sort_keys=True): label
                  for label, sig in signatures.items() if sig.model.get("option_score")}
        if not labels or store_path is None:
            return None
        from biasbench.runner.store import ResponseStore

        wanted = set(zip(frame["model"], frame["uid"], frame["seed"].astype(int), strict=True))
        chosen: dict[tuple[str, str, int], dict[str, Any]] = {}
        store = ResponseStore(store_path, readonly=True)
        try:
            for record in store.iter_records("ok"):
                label = labels.get(json.dumps(json.loads(record.model), sort_keys=True))
                key = (label, record.item_id, int(record.seed or 0))
                if label is not None and key in wanted and "choice_sum" in record.info:
                    chosen[key] = record.info
        finally:
            store.close()
        if not chosen:
            return None
        headline = next(iter(chosen.values()))["option_score"]
        other = "sum" if headline == "per_char" else "per_char"
        alternative = pd.DataFrame([
            {"model": m, "uid": uid, "seed": seed, "pred": LETTERS.index(info[f"choice_{other}"])}
            for (m, uid, seed), info in chosen.items()])
        scored = score_responses(self.items, alternative)
        return {
            "headline": headline, "alternative": other,
            "note": "masked LMs: 'sum' = highest summed pseudo-log-likelihood (lm-eval acc), "
                    "'per_char' = highest per character of the option (acc_norm); the scores "
                    "above use the headline, 'alternative_models' the other",
            "n_responses": len(chosen),
            "n_choices_differ": sum(i["choice_sum"] != i["choice_per_char"]
                                    for i in chosen.values()),
            "alternative_models": to_results_json(scored)["models"]}

    def _write_tables(self, scored: BBQResults, profiles: dict[str, pd.DataFrame],
                      out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        write_csv(scored.per_seed, out / "per_template_per_seed.csv")
        write_csv(scored.per_seed_category, out / "per_category_per_seed.csv")
        write_csv(scored.by_template, out / "by_template.csv")
        write_csv(scored.unparsed_by_template, out / "unparsed_by_template.csv")
        write_table(category_table(scored), out / "by_category")
        for model, profile in profiles.items():
            write_table(profile, out / f"bias_profile_{slug(model)}")

    def _write_figures(self, scored: BBQResults, profiles: dict[str, pd.DataFrame],
                       out: Path) -> None:
        """Jitter plots (the paper's Figures 1-2) for the templates in any model's profile."""
        from biasbench.benchmarks.bbq.plots import jitter_plot  # matplotlib only when drawing

        out.mkdir(parents=True, exist_ok=True)
        wanted = {(r["category"], r["question_index"], "s_amb" if r["context"] == "ambiguous"
                   else "s_dis") for p in profiles.values() for r in p.to_dict("records")}
        for category, template, score in sorted(wanted):
            jitter_plot(scored.per_seed, template, score,  # type: ignore[arg-type]
                        out / f"jitter_{slug(category)}_{slug(template)}_{score}.png",
                        category=category)

    def summary(self, results: dict[str, Any]) -> list[str]:
        lines = []
        for model, cats in results["models"].items():
            for cat, r in cats.items():
                lines.append(
                    f"{model} / {cat}: s_AMB {_fmt(r['s_amb'])}, s_DIS {_fmt(r['s_dis'])}, "
                    f"acc ambig {_fmt(r['acc_ambig'], '')}, "
                    f"acc disambig {_fmt(r['acc_disambig'], '')} "
                    f"({r['seeds_run']} seeds run, unparsed {r['unparsed_pct']:.1f}%)")
        if lines:
            lines.append(f"intervals: {results['interval_method']}")
            decoding = results.get("decoding") or {}
            if "temperature" in decoding:
                t = decoding["temperature"]
                lines.append(f"decoding: temperature {t} " + (
                    f"(the default: {DECODING_WHY})" if t == DEFAULT_TEMPERATURE else
                    f"(set by --temperature; the default is {DEFAULT_TEMPERATURE}, see "
                    "results.json: decoding.why)"))
        if results.get("excluded_by_reason"):  # never only in results.json (issue 9)
            lines.append(exclusion_summary(results["excluded_by_reason"]))
        scoring = results.get("option_scoring")
        if scoring:
            lines.append(
                f"option scores: answers chosen by {scoring['headline']} (the numbers above); "
                f"by {scoring['alternative']} the choice differs on "
                f"{scoring['n_choices_differ']} of {scoring['n_responses']} responses "
                "(results.json: option_scoring)")
        return lines

    # -- responses produced elsewhere ----------------------------------------------------------
    def read_responses(self, path: Path) -> pd.DataFrame:
        return read_bbq_responses(path, self.by_uid)


def items_sha256(items: Sequence[BBQItem]) -> str:
    """Checksum of a BBQ item set as parsed (the data checksum of a signature)."""
    import hashlib

    return hashlib.sha256("\n".join(i.model_dump_json() for i in items).encode()).hexdigest()


def write_bbq_labels(scored: BBQResults, frame: pd.DataFrame, items: Sequence[BBQItem],
                     path: Path) -> None:
    """One line per response: its raw output, the parsed answer (index and text), how it was
    matched and the evidence, with the item's category, template, context and correct answer."""
    flags = ["truncated"] if "truncated" in frame.columns else []  # cut at max_tokens
    parsed = scored.responses.merge(frame[["model", "seed", "uid", "output", *flags]],
                                    on=["model", "seed", "uid"], how="left")
    meta = pd.DataFrame([{"uid": i.uid, "category": i.category,
                          "question_index": i.question_index,
                          "context_condition": i.context_condition,
                          "question_polarity": i.question_polarity, "label": i.label,
                          "answers": list(i.answers)} for i in items])
    parsed = parsed.merge(meta, on="uid", how="left")
    parsed["answer_text"] = [a[p] if p >= 0 else None
                             for a, p in zip(parsed["answers"], parsed["pred_index"], strict=True)]
    write_jsonl(parsed.to_dict(orient="records"), path)


def category_table(scored: BBQResults) -> pd.DataFrame:
    """Per model and category: each score's mean, 95% interval and the seeds it rests on."""
    rows = []
    for r in scored.by_category.to_dict("records"):
        row: dict[str, Any] = {"model": r["model"], "category": r["category"]}
        for score in ("acc_ambig", "acc_disambig", "s_amb", "s_dis"):
            row[score] = r[f"{score}_mean"]
            row[f"{score}_ci"] = interval_text(
                r[f"{score}_ci_low"], r[f"{score}_ci_high"], r[f"{score}_ci_status"],
                r[f"{score}_n_seeds"], r[f"{score}_mean"])
            row[f"{score}_n_seeds"] = r[f"{score}_n_seeds"]
        row["seeds_run"] = r["seeds_run"]
        row["unparsed_pct"] = r["unparsed_pct"]
        rows.append(row)
    return pd.DataFrame(rows)


def read_bbq_responses(path: Path, by_uid: dict[str, BBQItem]) -> pd.DataFrame:
    """JSONL lines with example_id, category, model, [seed], and output or pred."""
    rows = []
    seen: dict[tuple[str, int, str], int] = {}
    for line, obj in iter_jsonl(path):
        check_fields(obj, path=path, line=line, required=("example_id", "category", "model"),
                     strings=("category", "model", "output"), integers=("example_id", "seed",
                                                                         "pred"))
        if obj.get("output") is None and obj.get("pred") is None:
            raise InputError("needs either output or pred", file=str(path), line=line,
                             field="output")
        uid = f"{obj['category']}:{obj['example_id']}"
        if uid not in by_uid:
            raise InputError(f"unknown example_id {obj['example_id']} in category "
                             f"{obj['category']!r}", file=str(path), line=line, field="example_id")
        if obj.get("pred") is not None and obj["pred"] not in (0, 1, 2):
            raise InputError(f"pred must be 0, 1 or 2, not {obj['pred']}", file=str(path),
                             line=line, field="pred")
        seed = obj.get("seed") or 0
        key = (obj["model"], seed, uid)
        if key in seen:
            raise InputError(f"a second response of model {obj['model']!r} to {uid} under seed "
                             f"{seed} (first on line {seen[key]})", file=str(path), line=line,
                             field="example_id")
        seen[key] = line
        rows.append({"model": obj["model"], "uid": uid, "seed": seed,
                     "output": obj.get("output"), "pred": obj.get("pred")})
    if not rows:
        raise InputError("no responses", file=str(path))
    return pd.DataFrame(rows)


def score_bbq_files(items: str, responses: Path, out: Path) -> list[str]:
    """``biasbench score bbq``: score outputs produced elsewhere against BBQ-format items."""
    loaded = load_bbq_jsonl(items)
    by_uid = {i.uid: i for i in loaded}
    frame = read_bbq_responses(responses, by_uid)
    scored = score_responses(loaded, frame)
    results = to_results_json(scored)
    seeds = sorted(int(s) for s in frame["seed"].unique())
    sig = Signature(benchmark="bbq", benchmark_version="external",
                    data_sha256=items_sha256(loaded), prompt_hash="external",
                    model={"models": sorted(frame["model"].unique())}, seeds=seeds,
                    judge_version=PARSER_VERSION)
    results["signature"] = {**sig.model_dump(), "short": sig.short()}
    validate_models(results["models"])
    write_json(results, out / "results.json")
    write_bbq_labels(scored, frame, loaded, out / "labels.jsonl")
    write_csv(scored.per_seed, out / "per_template_per_seed.csv")
    write_csv(scored.by_template, out / "by_template.csv")
    write_table(category_table(scored), out / "by_category")
    return [f"scored {len(frame):,} responses of {frame['model'].nunique()} model(s) over "
            f"{len(seeds)} seed(s); wrote {out / 'results.json'}"]


class OptionScoringBackend(ModelBackend):
    """Wraps a backend that scores options (masked LMs): answers with the best option's letter.

    The scoring text is the item's context and question followed by :data:`OPTION_SEPARATOR`
    and the option. Both choices lm-evaluation-harness reports are computed: by the summed
    pseudo-log-likelihood (``sum``, its acc) and by the per-character one (``per_char``, its
    acc_norm); ``headline`` says which one answers (default ``per_char``: FilBBQ's unknown
    option is often much longer than the group answers, and a sum penalises it for its length).
    Every score and both choices are recorded with the response. The FilBBQ paper does not
    say how it scored roberta-tagalog-base; this is biasbench's protocol, recorded in the
    signature (``describe``).
    """

    deterministic = True
    """Option scores do not depend on a seed, so one seed suffices."""

    def __init__(self, inner: ModelBackend, by_uid: dict[str, BBQItem],
                 headline: ScoreChoice = DEFAULT_OPTION_SCORE) -> None:
        if headline not in ("sum", "per_char"):
            raise InputError(f"option score must be 'sum' or 'per_char', not {headline!r}")
        self.inner, self.by_uid, self.headline = inner, by_uid, headline
        self.kind, self.mode, self.max_concurrency = inner.kind, "completion", inner.max_concurrency

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def describe(self) -> dict[str, Any]:
        return {**self.inner.describe(), "answers_by": "option pseudo-log-likelihood",
                "option_text": "context + ' ' + question + ' ' + option",
                "option_score": self.headline}

    async def generate(self, prompt: Prompt, params: GenerationParams,
                       seed: int | None) -> Generation:
        item = self.by_uid[prompt.item_id or ""]
        context = f"{item.context} {item.question}"
        options = [OPTION_SEPARATOR + answer for answer in item.answers]
        scoring_prompt = Prompt(messages=(("user", context),), completion=context)
        detailed = getattr(self.inner, "score_options_detailed", None)
        if detailed is not None:
            scores = await detailed(scoring_prompt, options)
        else:  # a backend that only sums: token counts unknown
            scores = [OptionScore(total, 0)
                      for total in await self.inner.score_options(scoring_prompt, options)]
        try:
            choices = option_choices(scores, options)
        except ValueError as exc:  # every score NaN: no answer (recorded as failed, not lost)
            raise PermanentModelError(str(exc)) from None
        best = choices[f"choice_{self.headline}"]
        return Generation(text=LETTERS[best], prompt_text=context, info={
            "option_scores": choices["scores"],
            "option_scores_per_char": choices["scores_per_char"],
            "option_n_tokens": choices["n_tokens"] if detailed is not None else None,
            "option_n_chars": choices["n_chars"],
            "choice_sum": LETTERS[choices["choice_sum"]],
            "choice_per_char": LETTERS[choices["choice_per_char"]],
            "option_score": self.headline})

    async def aclose(self) -> None:
        await self.inner.aclose()


def _template_info(templates_dir: Path) -> dict[Any, str]:
    """(category, template id) -> the template's stereotype, from the template CSVs."""
    info: dict[Any, str] = {}
    for category, file_name in FILBBQ_CATEGORIES.items():
        path = templates_dir / file_name
        if not path.is_file():
            continue
        with path.open(encoding="utf-8-sig", newline="") as fh:
            for qid, text in template_stereotypes(csv.DictReader(fh)).items():
                info[(category, qid)] = text
    return info


def _fmt(stat: dict[str, Any], sign: str = "+") -> str:
    """Mean [95% interval] and the seeds it rests on; bias scores carry their sign."""
    if stat["mean"] is None:
        return "undefined (0 seeds)"
    text = interval_text(stat["ci_low"], stat["ci_high"], stat["ci_status"], stat["n_seeds"],
                         stat["mean"], sign=sign)
    if stat["ci_status"] == "degenerate":
        return text
    if stat["ci_status"] == "too_few_seeds":
        return f"{stat['mean']:{sign}.3f} (n={stat['n_seeds']} seeds: too few for an interval)"
    return f"{stat['mean']:{sign}.3f} {text} n={stat['n_seeds']}"
