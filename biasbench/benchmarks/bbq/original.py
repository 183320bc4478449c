"""The original English BBQ (Parrish et al., Findings of ACL 2022; GitHub ``nyu-mll/BBQ``):
its published items and templates, pinned, checksummed and cached; its generation; its prompt.

The authors' files are never copied into the project. Where they are looked for, in order:

* templates (``templates/new_templates - <Category>.csv``, ``vocabulary.csv``,
  ``vocabulary_proper_names.csv``): ``--templates DIR``, ``$BIASBENCH_BBQ_TEMPLATES``, the cache
  ``<cache root>/bbq/<commit>/templates``, a verified download;
* published items (``data/<Category>.jsonl``, 58,492 items): ``--data DIR``,
  ``$BIASBENCH_BBQ_DATA``, the ``data/`` folder beside a local templates folder (the
  repository's layout, used when it matches), the cache ``.../bbq/<commit>/data``, a verified
  download.

Downloads come from ``<base URL>/nyu-mll/BBQ/<commit>/<path>`` (``$BIASBENCH_BBQ_BASE_URL``
overrides GitHub's raw content host). Five of the published item files were pinned by their git
blob id (``git-blob-sha1:``) because their bytes were not at hand when the pins were written;
the others, and every template, by sha256.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasbench.benchmarks.bbq.intersectional import generate_intersectional_items
from biasbench.engines.bbq_family.items.generate import (
    BBQ_UNKNOWN_POOL,
    GenerationResult,
    generate_items,
)
from biasbench.engines.bbq_family.items.item_files import GenerationReport, write_generated
from biasbench.engines.bbq_family.items.items import BBQItem, load_bbq_jsonl
from biasbench.engines.bbq_family.items.source import (
    DOWNLOAD_TIMEOUT_S,
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)
from biasbench.engines.bbq_family.items.templates import read_csv_records
from biasbench.errors import BiasbenchError

logger = logging.getLogger(__name__)

BBQ_REPOSITORY = "nyu-mll/BBQ"
BBQ_COMMIT = "bea11bd97d79217245b5871acd247b9d6eb24598"
ENV_TEMPLATES = "BIASBENCH_BBQ_TEMPLATES"
ENV_DATA = "BIASBENCH_BBQ_DATA"
ENV_BASE_URL = "BIASBENCH_BBQ_BASE_URL"
BBQ_SOURCE = PinnedRepository(BBQ_REPOSITORY, BBQ_COMMIT, ENV_BASE_URL, "bbq")

#: The published item count of every category (the paper's 58,492 in all).
PUBLISHED_COUNTS: Mapping[str, int] = {
    "Age": 3680,
    "Disability_status": 1556,
    "Gender_identity": 5672,
    "Nationality": 3080,
    "Physical_appearance": 1576,
    "Race_ethnicity": 6880,
    "Race_x_SES": 11160,
    "Race_x_gender": 15960,
    "Religion": 1200,
    "SES": 6864,
    "Sexual_orientation": 864,
}
CATEGORIES: tuple[str, ...] = tuple(PUBLISHED_COUNTS)
INTERSECTIONAL: frozenset[str] = frozenset({"Race_x_SES", "Race_x_gender"})
LABELS_FILE = "vocabulary.csv"
NAMES_FILE = "vocabulary_proper_names.csv"


def template_file(category: str) -> str:
    return f"new_templates - {category}.csv"


def data_file(category: str) -> str:
    return f"{category}.jsonl"


#: Pinned digests of ``templates/`` at :data:`BBQ_COMMIT` (the Filler_items file is not used).
TEMPLATE_DIGESTS: Mapping[str, str] = {
    LABELS_FILE: "c60c02768e0a3406d4367d5bfe84cd526458712bfcf208f7bb350ab4928b1dbd",
    NAMES_FILE: "17009b2c9d086c19c25b5107aa4792712fdf5024270e62f40bd4818ecb2e9c5d",
    template_file("Age"): "bf7b0d47514ddf4df73ccfc7598499887d74ab15565e0526ab9030b5defedaa5",
    template_file(
        "Disability_status"
    ): "db1c4251f71a2ec68516f59b12c5db8a6677c762813c6a4d79aac42d665163aa",
    template_file(
        "Gender_identity"
    ): "7ece33ce9820c36a7786a95e2cb7faf6b176ad4cf9f07223105a486e4791aba8",
    template_file(
        "Nationality"
    ): "56cf260c15bc36e4627857c4379dacdbe4432eaeed5bd98e7c84646675656289",
    template_file(
        "Physical_appearance"
    ): "9110eedc41f63639e79604c9a3f48f12361de0b58c7be5a19d854c9683192397",
    template_file(
        "Race_ethnicity"
    ): "9e5318d28ae3251dae72e459367a9366d33242bf53ee3643056adeaaf136577b",
    template_file("Race_x_SES"): "075f27b88a961779ca5e6902a830ef59d4be4fc4a6925b1434d251618ba7dfab",
    template_file(
        "Race_x_gender"
    ): "0da43be55f1bdcee64f41ea6e3783410a55220cd96d24eca782d9e5aa5cd399f",
    template_file("Religion"): "0b5091c3f2da84028bb676aacb36fb90de2f334fd5cfc7581ac99029730ef314",
    template_file("SES"): "6d7d206febc93fe85171231bc70ac7fc45022559d699fd2c2b7057dbddeb4f9e",
    template_file(
        "Sexual_orientation"
    ): "c10bb25d2162b65f551e04a563971cc41418f3837a556cf482c594ef23836f84",
}
#: Pinned digests of ``data/`` at :data:`BBQ_COMMIT`.
DATA_DIGESTS: Mapping[str, str] = {
    data_file("Age"): "46e805b3fc2d8cbd26eeb8e8430d98cf7b2dc9c83574ff3674e8ce4f0fca2a60",
    data_file(
        "Disability_status"
    ): "375d40d9b71f056150264445ec189b13934998f3f49a1e311aa7578eb3b45e5f",
    data_file("Gender_identity"): "git-blob-sha1:dc79ceaaa9e7126edc99a200d632899c50274b16",
    data_file("Nationality"): "a583e74666aec0341ded8aa3983e7cad694eb24de72c254d28b2df3035720090",
    data_file(
        "Physical_appearance"
    ): "e48d7e13508565f4801574e611043470c25c95a0a62af3699cb5ee7cb02608fb",
    data_file("Race_ethnicity"): "git-blob-sha1:68daf3d692b27a10596772b3b15742b26f0b110e",
    data_file("Race_x_SES"): "git-blob-sha1:905cd8a5b8734e2063fe524e69a38f0a71c75907",
    data_file("Race_x_gender"): "git-blob-sha1:dd09a905b284690445d36259d675243950fa0bd7",
    data_file("Religion"): "cb9555f9f3454a52cd2df85956b59bd7fcca5aa922c8527693b1164d08417616",
    data_file("SES"): "git-blob-sha1:78d11ffbdb70f501617345e5c697d00045d57c29",
    data_file(
        "Sexual_orientation"
    ): "2c71036b9e7584fe589c42aef32c1a42bc01b9a5e9b1b8704342630cdb08cefd",
}

#: BBQ's English prompt (the prompt-file format of FilBBQ's prompt.txt), packaged in this folder.
PROMPT_RESOURCE = "data/prompt_en.txt"


# --------------------------------------------------------------------------------------------
# Locating the files
# --------------------------------------------------------------------------------------------

#: Where BBQ's templates and published items are looked for (:func:`resolve_pinned_folder`).
BBQ_TEMPLATES = PinnedFolder(
    BBQ_SOURCE, "templates", TEMPLATE_DIGESTS, "BBQ", "templates", "--templates", ENV_TEMPLATES
)
BBQ_DATA = PinnedFolder(BBQ_SOURCE, "data", DATA_DIGESTS, "BBQ", "data", "--data", ENV_DATA)


def templates_needed(categories: Sequence[str]) -> dict[str, str]:
    """The template files (and vocabularies) that generating ``categories`` reads, pinned."""
    return {
        name: TEMPLATE_DIGESTS[name]
        for name in (LABELS_FILE, NAMES_FILE, *(template_file(c) for c in categories))
    }


def templates_at_hand(cache_dir: Path | None = None) -> Path | None:
    """BBQ's templates folder where it is without a download (``$BIASBENCH_BBQ_TEMPLATES`` or
    the cache), else None; only for what may be shown without them (a profile's stereotypes)."""
    env = os.environ.get(ENV_TEMPLATES)
    folder = Path(env) if env else BBQ_SOURCE.cache_dir("templates", cache_dir)
    return folder if folder.is_dir() else None


def resolve_bbq_data(
    data_dir: Path | None = None,
    *,
    templates_dir: Path | None = None,
    cache_dir: Path | None = None,
    download: bool = True,
    strict: bool = False,
    base_url: str | None = None,
    timeout: float = DOWNLOAD_TIMEOUT_S,
) -> Path:
    """A folder holding BBQ's 11 published item files (see the module docstring)."""
    beside = Path(templates_dir).parent / "data" if templates_dir is not None else None
    return resolve_pinned_folder(
        BBQ_DATA,
        data_dir,
        beside=beside,
        cache_dir=cache_dir,
        download=download,
        strict=strict,
        base_url=base_url,
        timeout=timeout,
    )


def load_bbq_items(data_dir: Path, categories: Sequence[str] = CATEGORIES) -> list[BBQItem]:
    """The published items of ``categories`` (all 11 by default), category by category."""
    return load_bbq_jsonl([Path(data_dir) / data_file(category) for category in categories])


def template_var2(templates_dir: Path) -> dict[tuple[str, str], str]:
    """(category, Q_id) -> ``Known_stereotyped_var2`` of the intersectional templates: what
    scoring needs to find their target answers (the items do not carry it; the R analysis
    merges it in from the same CSVs)."""
    var2: dict[tuple[str, str], str] = {}
    for category in sorted(INTERSECTIONAL):
        path = Path(templates_dir) / template_file(category)
        _, records = read_csv_records(path)
        for record in records:
            if not record.get("Ambiguous_Context"):
                continue
            key, value = (category, record.get("Q_id")), record.get("Known_stereotyped_var2")
            if var2.setdefault(key, value) != value:
                raise BiasbenchError(
                    f"{path}:{record.line}: template {key[1]} has two "
                    f"Known_stereotyped_var2 values ({var2[key]}, {value})"
                )
    return var2


# --------------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------------


@dataclass
class BBQGenerationReport(GenerationReport):
    """What :func:`generate_bbq` wrote, with the published counts beside the generated ones."""

    @property
    def differs_from_published(self) -> dict[str, tuple[int, int]]:
        """Category -> (generated, published) where they differ."""
        return {
            c: (n, PUBLISHED_COUNTS[c])
            for c, n in self.counts.items()
            if c in PUBLISHED_COUNTS and n != PUBLISHED_COUNTS[c]
        }

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "published_counts": dict(PUBLISHED_COUNTS)}


def generate_bbq_items(
    templates_dir: Path, seed: int, categories: Sequence[str] = CATEGORIES
) -> dict[str, GenerationResult]:
    """Generate BBQ's categories in memory, each from its own ``random.Random(seed)``."""
    templates_dir = Path(templates_dir)
    labels, names = templates_dir / LABELS_FILE, templates_dir / NAMES_FILE
    results = {}
    for category in categories:
        csv_path = templates_dir / template_file(category)
        if category in INTERSECTIONAL:
            results[category] = generate_intersectional_items(
                csv_path, category, labels, names, seed=seed, unknown_pool=BBQ_UNKNOWN_POOL
            )
        else:
            results[category] = generate_items(
                csv_path,
                category,
                labels,
                names,
                seed=seed,
                unknown_pool=BBQ_UNKNOWN_POOL,
                style="bbq",
            )
    return results


def generate_bbq(
    templates_dir: Path, out_dir: Path, seed: int, categories: Sequence[str] = CATEGORIES
) -> BBQGenerationReport:
    """Write ``<Category>.jsonl`` for BBQ's categories (all 11 by default) in the release's
    format, generated from the authors' template CSVs with one seeded generator per category;
    nothing is written unless every category generates."""
    results = generate_bbq_items(templates_dir, seed, categories)
    files = {category: Path(out_dir) / data_file(category) for category in results}
    report = BBQGenerationReport(seed=seed, **write_generated(results, files, "bbq"))
    for category, (generated, published) in report.differs_from_published.items():
        message = f"{category}: generated {generated} items, the published set has {published}"
        report.warnings.append(message)
        logger.warning("%s", message)
    return report
