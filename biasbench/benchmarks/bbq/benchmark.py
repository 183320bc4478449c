"""``bbq``: the original English BBQ (Parrish et al., Findings of ACL 2022; ``nyu-mll/BBQ``).

Only what is this benchmark's own lives here: where its items come from (the authors' 58,492
published items, pinned, checksummed and cached, or a local copy, through
:mod:`biasbench.benchmarks.bbq.original`), its English prompt, its decoding defaults, its options
and its paper. Requests, scoring (labels read as the authors' R analysis reads them), tables,
summary and report come with the engine (:class:`~biasbench.engines.bbq_family.benchmark.BBQBenchmark`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from biasbench.benchmarks.bbq.declaration import DECLARATION
from biasbench.benchmarks.bbq.original import (
    BBQ_COMMIT,
    BBQ_REPOSITORY,
    BBQ_SOURCE,
    BBQ_TEMPLATES,
    CATEGORIES,
    INTERSECTIONAL,
    PROMPT_RESOURCE,
    PUBLISHED_COUNTS,
    TEMPLATE_DIGESTS,
    generate_bbq,
    load_bbq_items,
    resolve_bbq_data,
    template_file,
    template_var2,
    templates_at_hand,
    templates_needed,
)
from biasbench.benchmarks.bbq.r_categories import r_categories
from biasbench.engines.bbq_family.family import (
    PromptedBBQBenchmark,
    choose_categories,
)
from biasbench.engines.bbq_family.items.items import BBQItem, SkippedRow, load_item_files
from biasbench.engines.bbq_family.items.source import resolve_pinned_folder
from biasbench.engines.bbq_family.presenting.display import score_text
from biasbench.engines.bbq_family.scoring.bias_profile import template_info_from
from biasbench.engines.bbq_family.scoring.bias_scores import Var2ByTemplate
from biasbench.engines.bbq_family.scoring.multi_seed import BBQResults
from biasbench.errors import BiasbenchError
from biasbench.registry.interface import Options, Results

DECODING_WHY = (
    "the original BBQ paper reports one run per model (no seeds, no sampling), so biasbench "
    "decodes greedily (temperature 0) under one seed unless --temperature/--seeds say otherwise"
)
"""Why the default decoding is what it is: shown in the summary and written to results.json."""


class OriginalBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """The original English BBQ: the 11 published categories, the English prompt, greedy."""

    version = "1.0"
    decoding_why: ClassVar[str] = DECODING_WHY
    prompt_files = {"en": PROMPT_RESOURCE}

    def __init__(self, options: Options) -> None:
        items, data, templates = options.items, options.data, options.templates
        loaded: list[BBQItem]
        skipped: list[SkippedRow] = []
        if items is None:
            loaded = load_bbq_items(resolve_bbq_data(data, templates_dir=templates))
            source = f"published items of {BBQ_REPOSITORY}@{BBQ_COMMIT[:12]}"
            data_source: dict[str, Any] = {
                "items": "published",
                "repository": BBQ_REPOSITORY,
                "commit": BBQ_COMMIT,
            }
        else:
            if data is not None:
                raise BiasbenchError("--items and --data name two item sources; give one")
            loaded, source, data_source = load_item_files(items, skipped)
        self.use_prompt(options.prompt or self.packaged_prompt("en"))
        super().__init__(
            loaded,
            source=source,
            data_source=data_source,
            var2=_var2(loaded, templates),
            template_info=_template_info(loaded, templates, published=items is None),
        )
        self.keep_skipped(skipped, strict=options.strict)

    def extend_results(self, results: dict[str, Any], scored: BBQResults, out_dir: Path) -> None:
        """The engine's additions, then, for the published items, the categories as the R
        script reports them: the name-proxy templates (above 25) apart (``r_categories``)."""
        super().extend_results(results, scored, out_dir)
        if self.data_source.get("items") == "published":
            split = r_categories(scored)
            if split:
                results["r_categories"] = split

    @classmethod
    def summary(cls, results: Results) -> list[str]:
        """The engine's lines, then each R category of a split one (names templates apart)."""
        lines = super().summary(results)
        split = results.get("r_categories") or {}
        for model, categories in (split.get("models") or {}).items():
            for category, entry in categories.items():
                lines.append(
                    f"{model} / {category} (as BBQ's R script): s_AMB "
                    f"{score_text(entry['s_amb'])}, s_DIS {score_text(entry['s_dis'])}"
                )
        if split:
            lines.append(f"R categories: {split['note']} (results.json: r_categories)")
        return lines

    @classmethod
    def generate_items(cls, out: Path, **options: Any) -> list[str]:
        """Generate BBQ items from the authors' template CSVs (the published count in every
        category; reproducible for a seed)."""
        seed = int(options.get("seed", 0))
        categories = choose_categories(options.get("categories"), CATEGORIES, "BBQ")
        templates = options.get("templates")
        folder = (
            _local_templates(Path(templates), categories)
            if templates is not None
            else resolve_pinned_folder(BBQ_TEMPLATES)
        )
        report = generate_bbq(folder, Path(out), seed, categories)
        lines = [
            f"{c}: {n:,} items (published {PUBLISHED_COUNTS[c]:,}) -> {report.files[c]}"
            for c, n in report.counts.items()
        ]
        lines.append(
            f"total: {report.total:,} items (seed {seed}; {len(report.warnings)} "
            "warnings: biasbench -v shows each)"
        )
        if templates is not None:
            remembered = BBQ_SOURCE.remember(Path(templates), "templates", TEMPLATE_DIGESTS)
            if remembered is not None:
                lines.append(f"remembered {remembered} (later commands need no --templates)")
        return lines


def _local_templates(folder: Path, categories: Sequence[str]) -> Path:
    """A local templates folder holding what ``categories`` need: a missing file is one error
    line; a file that differs from the pinned one is used with a warning (results are then not
    comparable with the paper's)."""
    return resolve_pinned_folder(replace(BBQ_TEMPLATES, files=templates_needed(categories)), folder)


def _template_info(
    items: Sequence[BBQItem], templates: Path | None, *, published: bool = True
) -> dict[Any, str]:
    """(category, template id) -> the template's stereotype (its Relevant_social_values and
    Known_stereotyped_groups, as FilBBQ's profiles show them), from BBQ's template CSVs where
    they are at hand: ``--templates``, or for the published items ``$BIASBENCH_BBQ_TEMPLATES``
    or the cache (other ``--items`` may reuse category names and template ids for other
    templates). Never downloaded for this: without them a profile shows the items' own
    stereotyped groups."""
    folder = (
        Path(templates) if templates is not None else templates_at_hand() if published else None
    )
    if folder is None:
        return {}
    return template_info_from(
        folder, {c: template_file(c) for c in sorted({item.category for item in items})}
    )


def _var2(items: Sequence[BBQItem], templates: Path | None) -> Var2ByTemplate | None:
    """Known_stereotyped_var2 of the intersectional templates, which scoring their items needs
    (the items do not carry it); None when no item is intersectional."""
    present = sorted({item.category for item in items} & INTERSECTIONAL)
    if not present:
        return None
    folder = (
        _local_templates(Path(templates), sorted(INTERSECTIONAL))
        if templates is not None
        else resolve_pinned_folder(BBQ_TEMPLATES)
    )
    return template_var2(folder)
