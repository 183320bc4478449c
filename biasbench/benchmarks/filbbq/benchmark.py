"""FilBBQ: the Filipino BBQ (Gamboa, Feng, Lee) on the BBQ engine, with its robust multi-seed
protocol.

What is FilBBQ's own lives here: its source (the authors' templates, published items and prompt,
downloaded at a pinned commit, in :mod:`~biasbench.benchmarks.filbbq.source`), its prompt and
answer cue, its decoding defaults and its options. Everything any BBQ-format benchmark shares
(requests over seeds, option scoring, parsing, scores, tables, report) is the engine's:
:class:`biasbench.engines.bbq_family.benchmark.BBQBenchmark`. With ``items=`` it serves any
BBQ-format jsonl under FilBBQ's protocol.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from biasbench.benchmarks.filbbq.declaration import DECLARATION
from biasbench.benchmarks.filbbq.source import (
    FILBBQ_CATEGORIES,
    FILBBQ_TEMPLATES,
    filbbq_items,
    generate_filbbq,
    load_prompt_template,
    remember_templates,
    resolve_published_data,
)
from biasbench.engines.bbq_family.family import PromptedBBQBenchmark
from biasbench.engines.bbq_family.items.items import SkippedRow, load_item_files
from biasbench.engines.bbq_family.items.source import resolve_pinned_folder
from biasbench.engines.bbq_family.scoring.bias_profile import template_info_from
from biasbench.registry.interface import Options

DEFAULT_SEEDS = 50
"""The paper answers every prompt under 50 seeds."""
DEFAULT_TEMPERATURE = 1.0
"""The paper does not state its temperature; seeds only matter when decoding samples, so the
default samples from the model's own distribution (temperature 1). Say --temperature to change."""

DECODING_WHY = (
    "FilBBQ's protocol averages over seeds, which only differ when decoding samples; the paper "
    "states no temperature, so biasbench samples from the model's own distribution "
    "(temperature 1.0, every truncation off: top_p 1, top_k 0, min_p 0) unless --temperature "
    "says otherwise"
)
"""Why the default decoding is what it is: shown in the summary and written to results.json."""


class FilBBQBenchmark(PromptedBBQBenchmark, declaration=DECLARATION):
    """FilBBQ (docs/benchmarks/filbbq.md); with ``items=`` it serves any BBQ-format jsonl."""

    version = "1.0"
    default_seed_count: ClassVar[int] = DEFAULT_SEEDS
    default_temperature: ClassVar[float] = DEFAULT_TEMPERATURE
    decoding_why: ClassVar[str] = DECODING_WHY

    def __init__(self, options: Options) -> None:
        items, templates, prompt = options.items, options.templates, options.prompt
        data_seed, regenerate_items = options.data_seed, options.regenerate_items
        published_data = options.published_data
        self.data_seed = data_seed
        # Given items are read first, so a missing file is named before any template lookup.
        skipped: list[SkippedRow] = []
        given = load_item_files(items, skipped) if items is not None else None
        templates_dir: Path | None = None
        if items is None or prompt is None:
            templates_dir = resolve_pinned_folder(FILBBQ_TEMPLATES, templates)
        self.data_source: dict[str, Any]
        if items is None:
            assert templates_dir is not None
            # The authors' published items where they published them (as released, in their
            # answer order); regenerated with data_seed elsewhere.
            published_dir = (
                None
                if regenerate_items
                else resolve_published_data(published_data, templates_dir=templates_dir)
            )
            loaded = filbbq_items(
                templates_dir, data_seed, published_dir=published_dir, regenerate=regenerate_items
            )
            loaded_items = loaded.items
            self.data_source = loaded.sources
            self.source = "; ".join(
                f"{c}: published {s['file']}"
                if s["items"] == "published"
                else f"{c}: regenerated (seed {s['seed']})"
                for c, s in loaded.sources.items()
            )
        else:
            assert given is not None
            loaded_items, self.source, self.data_source = given
        if prompt is not None:
            self.use_prompt(prompt)
        else:
            assert templates_dir is not None
            self.prompt_template = load_prompt_template(templates_dir)
        super().__init__(
            loaded_items,
            source=self.source,
            data_source=self.data_source,
            template_info=(
                template_info_from(templates_dir, FILBBQ_CATEGORIES) if templates_dir else {}
            ),
        )
        self.keep_skipped(skipped, strict=options.strict)

    @classmethod
    def generate_items(cls, out: Path, **options: Any) -> list[str]:
        """Generate FilBBQ items from the authors' templates (reproducible for a seed)."""
        seed = int(options.get("seed", 0))
        given = options.get("templates")
        templates = resolve_pinned_folder(FILBBQ_TEMPLATES, given)
        report = generate_filbbq(
            templates,
            Path(out),
            seed=seed,
            apply_subcategory_filter=options.get("subcategory_filter", True),
        )
        lines = [
            f"{category}: {n:,} items -> {report.files[category]}"
            for category, n in report.counts.items()
        ]
        lines.append(
            f"total: {report.total:,} items (seed {seed}; {len(report.warnings)} "
            "warnings: biasbench -v shows each)"
        )
        if given is not None:
            remembered = remember_templates(Path(given))
            lines.extend(
                f"remembered {folder} (later commands need no --templates)" for folder in remembered
            )
        return lines
