"""CBBQ's published items (``YFHuangxxxx/CBBQ``), pinned and read as the authors' evaluation
scripts read them, into canonical BBQ items.

The items are JSON arrays, ``data/<category>/ambiguous/ambiguous.json`` and
``data/<category>/disambiguous/disambiguous.json``, written by each folder's ``util.py`` from a
CSV read without stripping its byte-order mark, so the first key is ``"\\ufeffexample_id"``; every
value is a string. The evaluation scripts (``evaluation scripts/<model>/evaluate_amb.py`` and
``evaluate_disamb.py``) read ``context``, ``question``, ``ans0..2``, ``label`` and
``question_polarity`` and count an answer as *biased* when it is option A (``ans0``) for a
``neg`` question and option B (``ans1``) for a ``non_neg`` one: that positional rule is the
item's ``target_answer`` (``--target-rule script``, the default). There is no answer_info: the
unknown option is the one worded as the authors word it (:data:`UNKNOWN_WORDINGS`; it is always
``ans2`` at the pinned commit), labelled ``unknown`` here.

The disambiguated contexts contradict the stereotype by construction (the paper's design), so
their correct answer is the *counter*-biased one. At the pinned commit that holds for the
positional rule in every category but three (gender, educational_qualification,
physical_appearance), where every disambiguated label *is* the scripts' biased answer:
:func:`target_rule_check` counts this per category, the summary prints it, and
``--target-rule labels`` takes the other named answer in those categories instead.

Where the files are looked for, in order: ``--data DIR`` (a copy of the repository's ``data/``
folder), ``$BIASBENCH_CBBQ_DATA``, the cache ``<cache root>/cbbq/<commit>/data/...``, a verified
download. No item is dropped: an element that does not fit is an :class:`InputError` naming the
file, the element (as ``line``, 1-based) and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from biasbench.engines.bbq_family.items.items import UNKNOWN_GROUP, BBQItem
from biasbench.engines.bbq_family.items.source import (
    DOWNLOAD_TIMEOUT_S,
    PinnedFolder,
    PinnedRepository,
    choose_categories,
    resolve_pinned_folder,
)
from biasbench.errors import InputError

CBBQ_REPOSITORY: Final = "YFHuangxxxx/CBBQ"
CBBQ_COMMIT: Final = "95eaf2eeaa0b936f3e97e3424f134e9d7655da98"
ENV_DATA: Final = "BIASBENCH_CBBQ_DATA"
ENV_BASE_URL: Final = "BIASBENCH_CBBQ_BASE_URL"
CBBQ_SOURCE: Final = PinnedRepository(CBBQ_REPOSITORY, CBBQ_COMMIT, ENV_BASE_URL, "cbbq")

CONDITIONS: Final = {"ambiguous": "ambig", "disambiguous": "disambig"}
POLARITIES: Final = {"neg": "neg", "non_neg": "nonneg"}
UNKNOWN_WORDINGS: Final = frozenset({"不确定", "不知道", "无法判断", "没有足够信息"})
"""Every wording of the unknown option in the published items ("not sure", "don't know",
"cannot judge", "not enough information")."""
BOM: Final = "\ufeff"
TargetRule = Literal["script", "labels"]
TARGET_RULES: Final = ("script", "labels")

S_AMB_DENOMINATORS: Final = ("parsed", "examples")
"""``parsed``: the parsed ambiguous answers (biasbench's default); ``examples``: every ambiguous
example, unparsed answers counted as not biased (the authors' evaluate_amb.py)."""

BLOBS: Final[Mapping[tuple[str, str], str]] = {
    ("SES", "ambiguous"): "ccdf1b2dfa114b0bc914b551f1a82f7873bc2003",
    ("SES", "disambiguous"): "a4c6234fe091cb703c03e289976b7c8dd5fa80ee",
    ("age", "ambiguous"): "4bb1e140c4b54c57ef4f192f7d4f4ca4fc7d6cd2",
    ("age", "disambiguous"): "614d5e34074b6da6cb552c5dc5ac81e5040c2ac6",
    ("disability", "ambiguous"): "a320ff048e63f8c77c3baf16eca93af72edf43bf",
    ("disability", "disambiguous"): "a1f3bde7369fe6fae429ee7662c055b1e0657a56",
    ("disease", "ambiguous"): "76011280c7ea9196aeaa8dc2f549e3aa3942a2cd",
    ("disease", "disambiguous"): "557f456c190e68efbb4246153cc382db7a8616bb",
    ("educational_qualification", "ambiguous"): "f1062704d93cc78bd5bacdb4fd9b31968e7737ea",
    ("educational_qualification", "disambiguous"): "c84a2c7fbca4f5c82f789395ef51defd5d70046a",
    ("ethnicity", "ambiguous"): "0cf6083770a573d3e722674a6a8827413624ae35",
    ("ethnicity", "disambiguous"): "d2d01ac0065b6808cec719af11f02cea87695294",
    ("gender", "ambiguous"): "09eab431d0be969bc022788146167f2e70d0954b",
    ("gender", "disambiguous"): "91669ac7e76c843d08c8b0194e4adc3e835b8eea",
    ("household_registration", "ambiguous"): "1f52837b9b71eacea0c6ddb5d10acd10b4b45a6e",
    ("household_registration", "disambiguous"): "db7028bd2a7d5487ef0d3d80885f16a558b85884",
    ("nationality", "ambiguous"): "234ea0342e36af5fec2565fc38f2257b70babdef",
    ("nationality", "disambiguous"): "2b1dc08ff984e1b946ed86a16ade00baa6617358",
    ("physical_appearance", "ambiguous"): "b67e3d786ca0fe7ade94d1899e243a2fce781c97",
    ("physical_appearance", "disambiguous"): "915515cc16ce51b973d3e333cb915827cea170f4",
    ("race", "ambiguous"): "fb7d3b503c6b93897cfc6d8364893b686473270f",
    ("race", "disambiguous"): "c7a595fa9f4cf8f189fb180343cd728723818ae1",
    ("region", "ambiguous"): "6608cf6a617516726859c4db94f6334d188cf895",
    ("region", "disambiguous"): "4170e6ca8a1bab0cfcc129aeb8871d82df6c1b3a",
    ("religion", "ambiguous"): "641a05a3fcffcb4f54b5905c327bc576957df049",
    ("religion", "disambiguous"): "4e711c210c6115bb8c3a0aedf6e598cee8c7bbd7",
    ("sexual_orientation", "ambiguous"): "5499601662e960a3fd2f8b80c9e5c15d4b4e6414",
    ("sexual_orientation", "disambiguous"): "df484a73dc540eaf49d565e0d352b1a06284a9e7",
}
"""Git blob ids of the 28 item files at :data:`CBBQ_COMMIT`."""
CATEGORIES: Final = tuple(dict.fromkeys(category for category, _ in BLOBS))

PUBLISHED_COUNTS: Final[Mapping[tuple[str, str], int | None]] = {
    ("SES", "ambiguous"): 3960,
    ("SES", "disambiguous"): 3960,
    ("age", "ambiguous"): 7400,
    ("age", "disambiguous"): None,
    ("disability", "ambiguous"): 1588,
    ("disability", "disambiguous"): 1556,
    ("disease", "ambiguous"): 586,
    ("disease", "disambiguous"): 586,
    ("educational_qualification", "ambiguous"): 1392,
    ("educational_qualification", "disambiguous"): 1392,
    ("ethnicity", "ambiguous"): 980,
    ("ethnicity", "disambiguous"): 980,
    ("gender", "ambiguous"): 1534,
    ("gender", "disambiguous"): 1838,
    ("household_registration", "ambiguous"): 8700,
    ("household_registration", "disambiguous"): None,
    ("nationality", "ambiguous"): 11988,
    ("nationality", "disambiguous"): None,
    ("physical_appearance", "ambiguous"): 1856,
    ("physical_appearance", "disambiguous"): 1856,
    ("race", "ambiguous"): None,
    ("race", "disambiguous"): None,
    ("region", "ambiguous"): 2176,
    ("region", "disambiguous"): 2176,
    ("religion", "ambiguous"): 2944,
    ("religion", "disambiguous"): 2956,
    ("sexual_orientation", "ambiguous"): 560,
    ("sexual_orientation", "disambiguous"): 560,
}
"""Items per file at :data:`CBBQ_COMMIT`, counted in the files themselves (household
registration and nationality ambiguous: in the CSV each JSON was converted from, since the
JSON was not at hand). None: not counted (the file was not at hand). They differ from the
README's table of "generated instances" in 8 of the 10 categories counted in full."""


def file_path(category: str, condition: str) -> str:
    """A file's path under the repository's ``data/`` folder."""
    return f"{category}/{condition}/{condition}.json"


def _error(path: Path, index: int | None, field: str | None, message: str) -> InputError:
    where = "" if index is None else f"array element {index + 1}: "
    return InputError(
        where + message, file=str(path), line=None if index is None else index + 1, field=field
    )


def read_records(path: Path) -> list[dict[str, str]]:
    """One CBBQ file: a JSON array of objects, the BOM stripped from file and keys."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"not a JSON file ({exc})", file=str(path)) from None
    if not isinstance(data, list):
        raise InputError("not a JSON array", file=str(path))
    records = []
    for index, obj in enumerate(data):
        if not isinstance(obj, dict):
            raise _error(path, index, None, "not a JSON object")
        records.append({str(k).lstrip(BOM).strip(): v for k, v in obj.items()})
    return records


REQUIRED: Final = (
    "example_id",
    "question_index",
    "question_polarity",
    "context_condition",
    "context",
    "question",
    "ans0",
    "ans1",
    "ans2",
    "label",
)


def cbbq_items(path: Path, category: str, condition: str, *, start: int = 0) -> list[BBQItem]:
    """The items of one CBBQ file with the scripts' positional targets; example ids run from
    ``start`` (the authors' ids restart at 1 in every file, so they are kept in
    ``additional_metadata`` as ``cbbq_example_id``)."""
    path = Path(path)
    items = []
    for index, record in enumerate(read_records(path)):
        for field in REQUIRED:
            if field not in record or record[field] is None:
                raise _error(path, index, field, "missing")
        polarity = str(record["question_polarity"]).strip()
        if polarity not in POLARITIES:
            raise _error(
                path, index, "question_polarity", f"must be neg or non_neg, not {polarity!r}"
            )
        if str(record["context_condition"]).strip() != condition:
            raise _error(
                path,
                index,
                "context_condition",
                f"{record['context_condition']!r} in the {condition} file",
            )
        answers = [str(record[f"ans{i}"]).strip() for i in range(3)]
        unknown = [i for i, a in enumerate(answers) if a in UNKNOWN_WORDINGS]
        if len(unknown) != 1:
            raise _error(
                path,
                index,
                "ans2",
                f"needs exactly one unknown option (worded "
                f"{'/'.join(sorted(UNKNOWN_WORDINGS))}): {answers!r}",
            )
        try:
            label = int(str(record["label"]).strip())
        except ValueError:
            raise _error(path, index, "label", f"not a number: {record['label']!r}") from None
        if label not in (0, 1, 2):
            raise _error(path, index, "label", f"must be 0, 1 or 2, not {label}")
        # The evaluation scripts: option A is the biased answer of a neg question, B of non_neg.
        target = 0 if polarity == "neg" else 1
        if target in unknown:
            raise _error(
                path, index, f"ans{target}", "the scripts' biased answer is the unknown option"
            )
        metadata: dict[str, Any] = {
            "cbbq_example_id": str(record["example_id"]).strip(),
            "subcategory": record.get("subcategory", ""),
            "stereotyped_groups": [str(record.get("bias_targeted_groups", ""))],
            "source": record.get("source", ""),
            "file": f"{CBBQ_REPOSITORY}/data/{file_path(category, condition)}",
        }
        items.append(
            BBQItem(
                example_id=start + index,
                question_index=str(record["question_index"]).strip(),
                question_polarity=POLARITIES[polarity],  # type: ignore[arg-type]
                context_condition=CONDITIONS[condition],  # type: ignore[arg-type]
                category=category,
                answer_info={
                    f"ans{i}": [answers[i], UNKNOWN_GROUP if i in unknown else answers[i]]
                    for i in range(3)
                },
                additional_metadata=metadata,
                context=str(record["context"]),
                question=str(record["question"]),
                ans0=answers[0],
                ans1=answers[1],
                ans2=answers[2],
                label=label,
                language="zh",
                target_answer=target,
            )
        )
    return items


def target_rule_check(items: Sequence[BBQItem]) -> dict[str, dict[str, int]]:
    """Per category: disambiguated items whose correct answer is the scripts' biased answer
    (``label_is_target``) out of all disambiguated items (``n_disambig``). The paper's
    disambiguated contexts contradict the stereotype, so 0 is expected; a category where
    every label is the target has the positional rule reversed."""
    out: dict[str, dict[str, int]] = {}
    for item in items:
        if item.context_condition != "disambig":
            continue
        entry = out.setdefault(item.category, {"n_disambig": 0, "label_is_target": 0})
        entry["n_disambig"] += 1
        entry["label_is_target"] += int(item.label == item.target_answer)
    return out


def reversed_categories(check: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Categories where most disambiguated labels are the scripts' biased answer."""
    return sorted(c for c, e in check.items() if 2 * e["label_is_target"] > e["n_disambig"])


def apply_target_rule(items: list[BBQItem], rule: TargetRule) -> list[BBQItem]:
    """``script``: the items as they are. ``labels``: in the categories whose disambiguated
    labels reverse the positional rule, the target is the other named answer."""
    if rule == "script":
        return items
    flip = set(reversed_categories(target_rule_check(items)))
    return [
        item.model_copy(update={"target_answer": 1 - item.target_answer})
        if item.category in flip and item.target_answer in (0, 1)
        else item
        for item in items
    ]


def load_cbbq(folder: Path, categories: Sequence[str] = CATEGORIES) -> list[BBQItem]:
    """Both files of every category in ``categories`` from a ``data/``-like folder."""
    items: list[BBQItem] = []
    for category in categories:
        start = 0
        for condition in CONDITIONS:
            loaded = cbbq_items(
                Path(folder) / file_path(category, condition), category, condition, start=start
            )
            start += len(loaded)
            items.extend(loaded)
    return items


def parse_categories(text: str | None) -> tuple[str, ...]:
    """``--categories``: CBBQ's categories named (all 14 when none is)."""
    return choose_categories(text, CATEGORIES, "CBBQ")


def resolve_cbbq_data(
    data_dir: Path | None,
    categories: Sequence[str],
    *,
    cache_dir: Path | None = None,
    download: bool = True,
    base_url: str | None = None,
    timeout: float = DOWNLOAD_TIMEOUT_S,
) -> Path:
    """A ``data/``-like folder holding both files of every category in ``categories``: the
    local copy (a file differing from the pin: a warning), else the cache, else a verified
    download of what is missing (:func:`resolve_pinned_folder`)."""
    wanted = {
        file_path(c, cond): f"git-blob-sha1:{BLOBS[(c, cond)]}"
        for c in categories
        for cond in CONDITIONS
    }
    spec = PinnedFolder(
        CBBQ_SOURCE,
        "data",
        wanted,
        "CBBQ",
        env=ENV_DATA,
        hint="choose categories with --categories",
    )
    return resolve_pinned_folder(
        spec, data_dir, cache_dir=cache_dir, download=download, base_url=base_url, timeout=timeout
    )
