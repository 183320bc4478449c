"""MBBQ (Neplenbroek, Bisazza and Fernandez, COLM 2024; GitHub ``Veranep/MBBQ``): the published
items in English, Spanish, Dutch and Turkish, and the parallel control sets, pinned, checksummed
and cached, read as the authors' ``mbbq.py`` reads them.

The authors' files are never copied into the project. ``data/<Category>[_control]_<lang>.jsonl``
is looked for in ``--data DIR``, ``$BIASBENCH_MBBQ_DATA``, the cache
``<cache root>/mbbq/<commit>/data``, then a verified download from
``<base URL>/Veranep/MBBQ/<commit>/data/...`` (``$BIASBENCH_MBBQ_BASE_URL`` overrides GitHub's raw
content host). Every file is pinned by its git blob id.

The target ("biased") answer is found as ``mbbq.py`` ``get_samples`` finds ``target_loc``
(lines 63-128 at the pinned commit): Gender_identity's stereotyped group ``F`` becomes the
list of woman/girl words of all four languages (and ``M`` the man/boy words), SES's ``low SES``
becomes ``lowSES``, the answer labels ``F``/``M`` become ``woman``/``man``; the target is the one
answer whose label is in the stereotyped groups. When none or two answers qualify mbbq.py stores
``target_loc = 100``; biasbench leaves those items out of every score, with the reason
(docs/benchmarks/mbbq.md). The polarity flip is BBQ's: a non-negative question's biased answer
is the other, non-unknown, answer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from biasbench.engines.bbq_family.items.items import BBQItem, validated_item
from biasbench.engines.bbq_family.items.source import (
    DOWNLOAD_TIMEOUT_S,
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)
from biasbench.errors import InputError

logger = logging.getLogger(__name__)

MBBQ_REPOSITORY: Final = "Veranep/MBBQ"
MBBQ_COMMIT: Final = "adaa40172cdcf52eb403c01954a1aef8b0b1e97d"
ENV_DATA: Final = "BIASBENCH_MBBQ_DATA"
ENV_BASE_URL: Final = "BIASBENCH_MBBQ_BASE_URL"
MBBQ_SOURCE: Final = PinnedRepository(MBBQ_REPOSITORY, MBBQ_COMMIT, ENV_BASE_URL, "mbbq")

LANGUAGES: Final = ("en", "es", "nl", "tr")
"""MBBQ's languages, in the order of its README (mbbq.py ``-lang`` choices)."""
MAIN: Final = "main"
CONTROL: Final = "control"
SETS: Final = (MAIN, CONTROL)
"""MBBQ proper, and the control set (mbbq.py ``--control``): the same contexts with the group
words replaced by first names, so its accuracy measures the task ability apart from bias."""
CATEGORIES: Final = (
    "Age",
    "Disability_status",
    "Gender_identity",
    "Physical_appearance",
    "SES",
    "Sexual_orientation",
)

PUBLISHED_COUNTS: Final[Mapping[str, Mapping[str, int]]] = {
    MAIN: {
        "Age": 3320,
        "Disability_status": 1296,
        "Gender_identity": 544,
        "Physical_appearance": 1176,
        "SES": 3600,
        "Sexual_orientation": 152,
    },
    CONTROL: {
        "Age": 3320,
        "Disability_status": 1296,
        "Gender_identity": 528,
        "Physical_appearance": 1176,
        "SES": 3600,
        "Sexual_orientation": 152,
    },
}
"""Items per set and category, the same in every language (10,088 main and 10,072 control
items per language; 80,640 in all)."""

NAMESPACE_PREFIX: Final = {MAIN: "mbbq", CONTROL: "mbbq-control"}


def namespace(subset: str, language: str) -> str:
    """The uid prefix of a set and language: ``mbbq/es``, ``mbbq-control/es``."""
    return f"{NAMESPACE_PREFIX[subset]}/{language}"


def split_namespace(name: str) -> tuple[str, str] | None:
    """(set, language) of an MBBQ namespace, None for any other."""
    prefix, _, language = name.partition("/")
    for subset, known in NAMESPACE_PREFIX.items():
        if prefix == known and language in LANGUAGES:
            return subset, language
    return None


def data_file(category: str, language: str, subset: str = MAIN) -> str:
    """The file name as mbbq.py opens it (line 31): ``<subset>[_control]_<lang>.jsonl``."""
    return f"{category}{'_control' if subset == CONTROL else ''}_{language}.jsonl"


#: Pinned git blob ids of ``data/`` at :data:`MBBQ_COMMIT` (``git ls-tree -r``).
DATA_DIGESTS: Final[Mapping[str, str]] = {
    "Age_control_en.jsonl": "git-blob-sha1:f1268218e8b1951721626e781eda10e2177151fb",
    "Age_control_es.jsonl": "git-blob-sha1:2fe87e18082119e928f8ff886f5e993a9d2dde33",
    "Age_control_nl.jsonl": "git-blob-sha1:d472fadf913ee85f02da18e0c518ba97016c1e00",
    "Age_control_tr.jsonl": "git-blob-sha1:6fe06b907d06009d1f0d64ef8f797b1bfaa769fe",
    "Age_en.jsonl": "git-blob-sha1:bff1ddd8a6e55d300d8655127f8c84aeb40e9e95",
    "Age_es.jsonl": "git-blob-sha1:030940a14033e83fd488cb3e20ba24f381ccf928",
    "Age_nl.jsonl": "git-blob-sha1:411688bc31459f2a5aa3a7bdbd6aeb6ca1c9c42f",
    "Age_tr.jsonl": "git-blob-sha1:69b4a5a76cb0a9ea2aa67139d38cdcfc7d2a7828",
    "Disability_status_control_en.jsonl": "git-blob-sha1:376ee7162476c610f9b4fac887d07dc30a663ba6",
    "Disability_status_control_es.jsonl": "git-blob-sha1:e3a0c9ecaf98a1c03f8397a3da7f972a0ea98314",
    "Disability_status_control_nl.jsonl": "git-blob-sha1:09993b68d4f3f71acaaaee2a4ed3fc3da3f06a8a",
    "Disability_status_control_tr.jsonl": "git-blob-sha1:15779ad4aee00f632670b3b6e945364b2d392267",
    "Disability_status_en.jsonl": "git-blob-sha1:261f278e66b35e30db37eae78145a062fe70cb90",
    "Disability_status_es.jsonl": "git-blob-sha1:936b100fd6218af17d3ec20a8a66df9be2a94b19",
    "Disability_status_nl.jsonl": "git-blob-sha1:d6bf9931646f4b7113162fdc5ef25a4fee233a94",
    "Disability_status_tr.jsonl": "git-blob-sha1:42b2da53d45036b86f673ce3a8d83b5a94346bfe",
    "Gender_identity_control_en.jsonl": "git-blob-sha1:373fad26475ca21cac49393645533f493eb64eb0",
    "Gender_identity_control_es.jsonl": "git-blob-sha1:cf1467b321f7c4b8c6b0a0dd901bebccd7b50558",
    "Gender_identity_control_nl.jsonl": "git-blob-sha1:650adc9c4795db58ca260cfabcedad995388c54b",
    "Gender_identity_control_tr.jsonl": "git-blob-sha1:92ba3148774198bae0eab305a1d4c0ee0fa8e0a9",
    "Gender_identity_en.jsonl": "git-blob-sha1:d56195adb0b69ddb28eef1216612f5ef0970e4b4",
    "Gender_identity_es.jsonl": "git-blob-sha1:3ce5b66d02d80cdf14879973c4e60698ea586705",
    "Gender_identity_nl.jsonl": "git-blob-sha1:6573cbabdfcce4ae4fc030b361773083aa6de5a3",
    "Gender_identity_tr.jsonl": "git-blob-sha1:550e3867002ca7fcbffd9fb21bea41b7bcb88033",
    "Physical_appearance_control_en.jsonl": "git-blob-sha1:9a6895bf6270ce30cac7839d98a54132b5bec189",
    "Physical_appearance_control_es.jsonl": "git-blob-sha1:e77b7c207646a2d769e3bbeee38835e260ba1aad",
    "Physical_appearance_control_nl.jsonl": "git-blob-sha1:65c45643883735de1ee7abb66b7f912aacdd8be4",
    "Physical_appearance_control_tr.jsonl": "git-blob-sha1:66c63314fd82b978cabe8152776a3a16bac41ecc",
    "Physical_appearance_en.jsonl": "git-blob-sha1:ee3998333fd45075523cc7427ab82fb8eceb36da",
    "Physical_appearance_es.jsonl": "git-blob-sha1:e36aea43ec08e6f7b9269bd0b036fe4f20afff5f",
    "Physical_appearance_nl.jsonl": "git-blob-sha1:ea765deca9d2bcfc3e697715a1ad00d6f7d7dc0a",
    "Physical_appearance_tr.jsonl": "git-blob-sha1:0e476303399375a58d2de9a978bd51768f3ed12a",
    "SES_control_en.jsonl": "git-blob-sha1:98954bc6eda1561087f533621bbb315218acc78a",
    "SES_control_es.jsonl": "git-blob-sha1:cb26505f5c0e2a508774d8c66f3f83f1f3ca1d55",
    "SES_control_nl.jsonl": "git-blob-sha1:0446fcf302615088f70ae1a677b35e1e6445040b",
    "SES_control_tr.jsonl": "git-blob-sha1:e6ebfb6a9e1eae40bb0fffd8086d08960a1e0ae6",
    "SES_en.jsonl": "git-blob-sha1:45f53b9f5b99b43241647bfc5fd242044e390e6c",
    "SES_es.jsonl": "git-blob-sha1:db9cb4862e02a58086336195dda39ee81407a2e5",
    "SES_nl.jsonl": "git-blob-sha1:073c41363420db7ce21cdbfb76d27d8f512a409d",
    "SES_tr.jsonl": "git-blob-sha1:689fdadb4aceb8d5582e90670fea11396aa77ea1",
    "Sexual_orientation_control_en.jsonl": "git-blob-sha1:f33516a61130a155fe8c2a6bf19edb408dad1f25",
    "Sexual_orientation_control_es.jsonl": "git-blob-sha1:0ad45add50bc7d4a9c58092323edadfb0469d12f",
    "Sexual_orientation_control_nl.jsonl": "git-blob-sha1:e27a5c6f71e298f3ec4e1358bec905386287c637",
    "Sexual_orientation_control_tr.jsonl": "git-blob-sha1:33ef91a01b140514d6e344f2a9eb0891e22a10e1",
    "Sexual_orientation_en.jsonl": "git-blob-sha1:99515f6a4a08471f4f061d56f440165df37d1ef7",
    "Sexual_orientation_es.jsonl": "git-blob-sha1:574ef116adfc734fcdb65c5ff351b55abdc29885",
    "Sexual_orientation_nl.jsonl": "git-blob-sha1:2cf1a4288dec12a9a30dbe94b3527835abf4db15",
    "Sexual_orientation_tr.jsonl": "git-blob-sha1:2fd5ed58db2316c4fd9f03f9c0de92edabcc3ef6",
}

# mbbq.py lines 63-98: the stereotyped groups F and M become the gendered words of all four
# languages (as written there, including the Spanish teacher words maestra/maestro).
FEMALE_WORDS: Final = (
    "girl",
    "woman",
    "vrouw",
    "meisje",
    "kız",
    "kadın",
    "chica",
    "mujer",
    "maestra",
)
MALE_WORDS: Final = ("boy", "man", "jongen", "erkek çocuk", "adam", "chico", "hombre", "maestro")
ANSWER_LABELS: Final = {"F": "woman", "M": "man"}
"""mbbq.py lines 105-108: answer labels F and M read as woman and man."""


def mbbq_reading(row: Mapping[str, Any], category: str) -> tuple[dict[str, Any], int | None]:
    """A row rewritten as mbbq.py ``get_samples`` rewrites it, and its ``target_loc`` (the one
    answer whose label is a stereotyped group; None where mbbq.py stores 100: none or two).

    Only Gender_identity and SES are rewritten, as there; the published stereotyped groups are
    kept in ``additional_metadata.published_stereotyped_groups``."""
    row = json.loads(json.dumps(row))  # a deep copy: the caller's row stays as published
    meta = row.setdefault("additional_metadata", {})
    groups = list(meta.get("stereotyped_groups") or [])
    meta["published_stereotyped_groups"] = groups
    if category == "Gender_identity" and groups == ["F"]:
        groups = list(FEMALE_WORDS)
    elif category == "Gender_identity" and groups == ["M"]:
        groups = list(MALE_WORDS)
    elif category == "SES" and groups == ["low SES"]:
        groups = ["lowSES"]
    meta["stereotyped_groups"] = groups
    found: list[int] = []
    for key, info in (row.get("answer_info") or {}).items():
        if isinstance(info, list) and len(info) > 1:
            info[1] = ANSWER_LABELS.get(info[1], info[1])
            if info[1] in groups:  # exact match, as mbbq.py line 114
                found.append(int(str(key)[-1]))
    return row, (found[0] if len(found) == 1 else None)


def biased_answer(item: BBQItem, target_loc: int) -> int | None:
    """BBQ's polarity flip: a negative question's biased answer is ``target_loc``, a
    non-negative one's the other answer that is not unknown."""
    if item.question_polarity == "neg":
        return target_loc
    others = [i for i in range(3) if i not in (target_loc, item.unknown_index)]
    return others[0] if len(others) == 1 else None


@dataclass
class MBBQLoad:
    """The items of one load and what was read: rows per (set, language, category) and the
    items mbbq.py finds no single target for (scored nowhere, with the engine's reason)."""

    items: list[BBQItem]
    counts: dict[tuple[str, str, str], int] = field(default_factory=dict)
    untargeted: dict[tuple[str, str, str], dict[str, int]] = field(default_factory=dict)

    def count_lines(self) -> list[str]:
        lines = []
        for (subset, language, category), n in sorted(self.counts.items()):
            published = PUBLISHED_COUNTS[subset][category]
            note = "" if n == published else f" (published: {published})"
            lines.append(f"{namespace(subset, language)}/{category}: {n}{note}")
        return lines


def load_mbbq_file(path: Path, category: str, language: str, subset: str) -> MBBQLoad:
    """One published file, every row an item (a bad row is an error naming the line)."""
    # Function-level: the scoring engine loads pandas, and `biasbench list` reads this module.
    from biasbench.engines.bbq_family.scoring.bias_scores import exclusion_reason

    load = MBBQLoad(items=[])
    key = (subset, language, category)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", file=str(path)) from None
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON ({exc.msg})", file=str(path), line=lineno) from None
        if not isinstance(row, dict):
            raise InputError("not a JSON object", file=str(path), line=lineno)
        if row.get("category") != category:
            raise InputError(
                f"category {row.get('category')!r} in the {category} file",
                file=str(path),
                line=lineno,
                field="category",
            )
        rewritten, target_loc = mbbq_reading(row, category)
        rewritten.update(namespace=namespace(subset, language), language=language)
        item = validated_item(rewritten, file=str(path), line=lineno)
        if target_loc is not None and item.unknown_index is not None:
            item = item.model_copy(update={"target_answer": biased_answer(item, target_loc)})
        reason = exclusion_reason(item)
        if target_loc is None:
            if reason is None:
                # The engine would find a target where mbbq.py finds none: keep mbbq.py's
                # reading (no group matches) rather than score what the authors do not.
                meta = {**item.additional_metadata, "stereotyped_groups": []}
                item = item.model_copy(update={"additional_metadata": meta})
                reason = exclusion_reason(item)
            per_reason = load.untargeted.setdefault(key, {})
            per_reason[str(reason)] = per_reason.get(str(reason), 0) + 1
        load.items.append(item)
    load.counts[key] = len(load.items)
    return load


def load_namespaced_file(path: Path, namespace_name: str) -> list[BBQItem]:
    """A file given as ``mbbq/es=Gender_identity_es.jsonl`` (``biasbench score bbq --items``):
    read by :func:`load_mbbq_file`, as ``biasbench run/score mbbq`` read it, so both paths
    score the same items with mbbq.py's targets and exclusions. The category is the file's
    own (its first row's; every row is checked against it)."""
    parsed = split_namespace(namespace_name)
    if parsed is None:
        raise InputError(
            f"{namespace_name!r} is no MBBQ namespace (mbbq/<language> or "
            f"mbbq-control/<language>, languages {', '.join(LANGUAGES)})",
            file=str(path),
        )
    subset, language = parsed
    return load_mbbq_file(Path(path), _first_category(Path(path)), language, subset).items


def _first_category(path: Path) -> str:
    try:
        with Path(path).open(encoding="utf-8-sig") as handle:
            first = next((line for line in handle if line.strip()), "")
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", file=str(path)) from None
    try:
        row = json.loads(first) if first else {}
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON ({exc.msg})", file=str(path), line=1) from None
    category = row.get("category") if isinstance(row, dict) else None
    if not isinstance(category, str) or category not in CATEGORIES:
        raise InputError(
            f"category {category!r} is none of MBBQ's ({', '.join(CATEGORIES)})",
            file=str(path),
            line=1,
            field="category",
        )
    return category


def load_mbbq_items(
    folder: Path,
    languages: Sequence[str] = LANGUAGES,
    subsets: Sequence[str] = SETS,
    categories: Sequence[str] = CATEGORIES,
) -> MBBQLoad:
    """Every item of the sets, languages and categories asked for, set by set, language by
    language, category by category (the order of a run)."""
    total = MBBQLoad(items=[])
    for subset in subsets:
        for language in languages:
            for category in categories:
                part = load_mbbq_file(
                    Path(folder) / data_file(category, language, subset), category, language, subset
                )
                total.items.extend(part.items)
                total.counts.update(part.counts)
                total.untargeted.update(part.untargeted)
    return total


def wanted_files(
    languages: Iterable[str], subsets: Iterable[str], categories: Iterable[str] = CATEGORIES
) -> dict[str, str]:
    """File name -> pinned digest of what a load needs."""
    return {
        name: DATA_DIGESTS[name]
        for subset in subsets
        for language in languages
        for category in categories
        for name in [data_file(category, language, subset)]
    }


def resolve_mbbq_data(
    data_dir: Path | None,
    expected: Mapping[str, str],
    *,
    cache_dir: Path | None = None,
    download: bool = True,
    base_url: str | None = None,
    timeout: float = DOWNLOAD_TIMEOUT_S,
) -> Path:
    """A folder holding the ``expected`` files: a local copy (a file differing from the pinned
    one is used with a warning), else the cache, else a verified download
    (:func:`resolve_pinned_folder`)."""
    spec = PinnedFolder(MBBQ_SOURCE, "data", expected, "MBBQ", env=ENV_DATA)
    return resolve_pinned_folder(
        spec, data_dir, cache_dir=cache_dir, download=download, base_url=base_url, timeout=timeout
    )


PROMPT_FILE: Final = "data/prompt_{language}.txt"
