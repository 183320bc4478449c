"""FilBBQ (and any BBQ-format benchmark) end to end, with the paper's robust multi-seed protocol.

Items come from FilBBQ's templates (downloaded at a pinned commit, or a local copy) generated
with one seed, or from any BBQ-format jsonl (``items=``). Every prompt is answered under every
seed; scores are computed per template per seed and summarised across seeds.
"""

from __future__ import annotations

import csv
import logging
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from biasbench.benchmarks.bbq.items import BBQItem, load_bbq_jsonl
from biasbench.benchmarks.bbq.parser import LETTERS, PARSER_VERSION
from biasbench.benchmarks.bbq.results import validate_models
from biasbench.benchmarks.bbq.robust import (
    BBQResults,
    bias_profile,
    score_responses,
    template_stereotypes,
    to_results_json,
)
from biasbench.benchmarks.filbbq.source import (
    FILBBQ_CATEGORIES,
    PromptTemplate,
    generate_filbbq_items,
    load_prompt_file,
    load_prompt_template,
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
from biasbench.models.hf import answer_by_scores
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
PROFILE_K = 5


class FilBBQBenchmark:
    """FilBBQ (specs/bbq.md); with ``items=`` it serves any BBQ-format jsonl."""

    name = "filbbq"
    version = "1.0"
    judge_version = PARSER_VERSION

    def __init__(self, items: str | Sequence[str | Path] | None = None,
                 templates: Path | None = None, data_seed: int = 0,
                 prompt: Path | None = None) -> None:
        self.data_seed = data_seed
        templates_dir: Path | None = None
        if items is None or prompt is None:
            templates_dir = resolve_templates(templates)
        if items is None:
            assert templates_dir is not None
            generated = generate_filbbq_items(templates_dir, data_seed)
            self.items = [BBQItem.model_validate(d) for r in generated.values() for d in r.items]
            self.source = f"filbbq-templates(seed={data_seed})"
        else:
            self.items = load_bbq_jsonl(items)
            self.source = ",".join(str(p) for p in ([items] if isinstance(items, str) else items))
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
        """All items, or ``limit`` of them spread over every template (round robin)."""
        if not limit or limit >= len(self.items):
            return self.items
        by_template: dict[tuple[str, str], list[BBQItem]] = defaultdict(list)
        for item in self.items:
            by_template[(item.category, item.question_index)].append(item)
        chosen: list[BBQItem] = []
        depth = 0
        while len(chosen) < limit:
            for group in by_template.values():
                if depth < len(group) and len(chosen) < limit:
                    chosen.append(group[depth])
            depth += 1
        return chosen

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
            return OptionScoringBackend(backend, self.by_uid)
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
            judge_version=self.judge_version)

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
        results["unparsed_by_run"] = scored.unparsed_by_run.to_dict(orient="records")
        profiles = {m: bias_profile(scored, m, PROFILE_K, self.template_info)
                    for m in scored.by_template["model"].unique()}
        results["bias_profiles"] = {m: p.to_dict(orient="records") for m, p in profiles.items()}
        validate_models(results["models"])
        write_json(results, out_dir / "results.json")
        self._write_tables(scored, profiles, out_dir / "tables")
        self._write_figures(scored, profiles, out_dir / "figures")
        return results

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
                    f"({r['n_seeds']} seeds, unparsed {r['unparsed_pct']:.1f}%)")
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
    """Per model and category: each score's mean and 95% interval across seeds."""
    rows = []
    for r in scored.by_category.to_dict("records"):
        row: dict[str, Any] = {"model": r["model"], "category": r["category"]}
        for score in ("acc_ambig", "acc_disambig", "s_amb", "s_dis"):
            row[score] = r[f"{score}_mean"]
            low, high = r[f"{score}_ci_low"], r[f"{score}_ci_high"]
            # One seed has no interval: undefined, shown as such rather than "[nan, nan]".
            row[f"{score}_ci"] = "—" if pd.isna(low) else f"[{low:.3f}, {high:.3f}]"
        row["n_seeds"] = r["n_seeds"]
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

    The scoring prompt is the item's context and question (as the paper scores
    roberta-tagalog-base); the chosen letter is the response and every option's score is
    recorded with it as evidence.
    """

    deterministic = True
    """Option scores do not depend on a seed, so one seed suffices."""

    def __init__(self, inner: ModelBackend, by_uid: dict[str, BBQItem]) -> None:
        self.inner, self.by_uid = inner, by_uid
        self.kind, self.mode, self.max_concurrency = inner.kind, "completion", inner.max_concurrency

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def describe(self) -> dict[str, Any]:
        return {**self.inner.describe(), "answers_by": "option pseudo-log-likelihood"}

    async def generate(self, prompt: Prompt, params: GenerationParams,
                       seed: int | None) -> Generation:
        item = self.by_uid[prompt.item_id or ""]
        context = f"{item.context} {item.question}"
        scores = await self.inner.score_options(
            Prompt(messages=(("user", context),), completion=context), list(item.answers))
        try:
            best = answer_by_scores(scores)
        except ValueError as exc:  # every score NaN: no answer (recorded as failed, not lost)
            raise PermanentModelError(str(exc)) from None
        return Generation(text=LETTERS[best], prompt_text=context,
                          info={"option_scores": scores})

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
    """Mean [95% interval]; bias scores carry their sign, accuracies do not."""
    if stat["mean"] is None:
        return "undefined"
    if stat["ci_low"] is None:
        return f"{stat['mean']:{sign}.3f}"
    return (f"{stat['mean']:{sign}.3f} [{stat['ci_low']:{sign}.3f}, "
            f"{stat['ci_high']:{sign}.3f}]")
