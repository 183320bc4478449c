"""KoBBQ's published samples (``naver-ai/KoBBQ``), pinned and read as the authors' evaluation
scripts read them, into canonical BBQ items.

Where the samples file is looked for, in order: ``--data DIR`` (a copy of the repository's
``data/`` folder), ``$BIASBENCH_KOBBQ_DATA``, the cache ``<cache root>/kobbq/<commit>/data``, a
verified download (``$BIASBENCH_KOBBQ_BASE_URL`` overrides GitHub's raw content host).

How a row of ``KoBBQ_test_samples.tsv`` becomes items (evaluation/1_preprocess.py, 5_evaluation.py
at :data:`KOBBQ_COMMIT`):

* the TSV is read with pandas, ``choices`` is a Python list literal (1_preprocess.py ``main``:
  ``df['choices'].map(eval)``; here ``ast.literal_eval``, which never executes code);
* the unknown option ``알 수 없음`` is replaced by the chosen prompt's own unknown wording
  (1_preprocess.py ``change_unk``) and labelled ``unknown`` in answer_info;
* every sample is asked three times, its choices in the three rows of
  ``scipy.linalg.circulant(choices)`` (1_preprocess.py ``permute``; sample ids get ``-0/-1/-2``);
* ``sample_id`` = ``{category}-{template}{a|b|c|d}-{sample}-{amb|dis}-{bsd|cnt}``
  (data/README.md): the category is its first field (5_evaluation.py ``get_df``), the context
  condition its fourth, the question type its fifth (``bsd`` biased = BBQ's negative question,
  ``cnt`` counter-biased = non-negative), and a disambiguated context is *biased* when the
  template letter is ``b`` or ``d`` (``context_type``), counter-biased otherwise;
* ``biased_answer`` is the answer that conforms to the stereotype *for this question* (for a
  ``cnt`` question it is the non-stereotyped group), so it is the item's ``target_answer`` with
  the polarity already applied: 5_evaluation.py counts a prediction as ``biased`` exactly when it
  equals ``biased_answer``, whatever the question type;
* the template id is ``{category}-{template}`` (5_evaluation.py ``sample_id_to_template_id``).

No row is dropped: a row that does not fit these rules is an :class:`InputError` naming the file,
the line and the field.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from biasbench.engines.bbq_family.items.items import SAMPLING_UNIT, UNKNOWN_GROUP, BBQItem
from biasbench.engines.bbq_family.items.source import (
    DOWNLOAD_TIMEOUT_S,
    PinnedFolder,
    PinnedRepository,
    resolve_pinned_folder,
)
from biasbench.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

KOBBQ_REPOSITORY: Final = "naver-ai/KoBBQ"
KOBBQ_COMMIT: Final = "0dd165aeaaacd1bd46c63513a9b2e9875eb6dce7"
ENV_DATA: Final = "BIASBENCH_KOBBQ_DATA"
ENV_BASE_URL: Final = "BIASBENCH_KOBBQ_BASE_URL"
KOBBQ_SOURCE: Final = PinnedRepository(KOBBQ_REPOSITORY, KOBBQ_COMMIT, ENV_BASE_URL, "kobbq")

TEST_FILE: Final = "KoBBQ_test_samples.tsv"
DATA_DIGESTS: Final[Mapping[str, str]] = {
    TEST_FILE: "git-blob-sha1:ea97feba3c586f727aaf385928a79ade83d8d84b",
}
"""The test set the paper's results are on (data/README.md: one sampled example per template);
pinned by its git blob id at :data:`KOBBQ_COMMIT`."""

DATASET_UNKNOWN: Final = "알 수 없음"
"""The unknown option as the samples file writes it (1_preprocess.py ``change_unk``)."""

PUBLISHED_COUNTS: Final[Mapping[str, int]] = {
    "age": 168,
    "disability_status": 160,
    "domestic_area_of_origin": 176,
    "educational_background": 192,
    "family_structure": 184,
    "gender_identity": 200,
    "physical_appearance": 160,
    "political_orientation": 88,
    "race_ethnicity_nationality": 480,
    "religion": 160,
    "ses": 216,
    "sexual_orientation": 96,
}
"""Rows of KoBBQ_test_samples.tsv per category at :data:`KOBBQ_COMMIT` (2,280 samples, 269
templates; each is asked in 3 choice orders, so 6,840 items)."""
PUBLISHED_TEMPLATES: Final[Mapping[str, int]] = {
    "age": 21,
    "disability_status": 20,
    "domestic_area_of_origin": 22,
    "educational_background": 24,
    "family_structure": 23,
    "gender_identity": 25,
    "physical_appearance": 20,
    "political_orientation": 11,
    "race_ethnicity_nationality": 44,
    "religion": 20,
    "ses": 27,
    "sexual_orientation": 12,
}
CATEGORIES: Final = tuple(PUBLISHED_COUNTS)
PERMUTATIONS: Final = 3
COLUMNS: Final = (
    "sample_id",
    "label_annotation",
    "context",
    "question",
    "choices",
    "biased_answer",
    "answer",
)
CONTEXTS: Final = {"amb": "ambig", "dis": "disambig"}
QUESTIONS: Final = {"bsd": "neg", "cnt": "nonneg"}
BIASED_CONTEXT_LETTERS: Final = frozenset("bd")
"""5_evaluation.py ``get_df``: template letters b/d are biased contexts, a/c counter-biased."""


@dataclass(frozen=True)
class SampleId:
    """The parts of a KoBBQ ``sample_id`` (data/README.md)."""

    category: str
    template: str
    letter: str
    sample: str
    context: str
    question: str

    @classmethod
    def parse(cls, text: str) -> SampleId:
        parts = text.split("-")
        if len(parts) != 5 or not parts[1][:-1] or parts[1][-1] not in "abcd":
            raise ValueError(
                f"not a KoBBQ sample id ({{category}}-{{template}}{{a-d}}-"
                f"{{sample}}-{{amb|dis}}-{{bsd|cnt}}): {text!r}"
            )
        category, identity, sample, context, question = parts
        if context not in CONTEXTS or question not in QUESTIONS:
            raise ValueError(f"context must be amb/dis and question bsd/cnt: {text!r}")
        return cls(category, identity[:-1], identity[-1], sample, context, question)

    @property
    def context_type(self) -> str:
        """``amb``, ``dis-biased`` or ``dis-counterb`` (5_evaluation.py ``get_df``)."""
        if self.context == "amb":
            return "amb"
        return "dis-biased" if self.letter in BIASED_CONTEXT_LETTERS else "dis-counterb"


def _row_error(path: Path, row: int, field: str, message: str) -> InputError:
    # pandas row 0 is line 2 of the file (line 1 is the header).
    return InputError(message, file=str(path), line=row + 2, field=field)


def read_samples(path: Path) -> pd.DataFrame:
    """The samples TSV as the authors read it (pandas, tab-separated), columns checked."""
    # Function-level: pandas loads when a file is read, not when `biasbench list` reads this module.
    import pandas as pd

    if not Path(path).is_file():
        raise InputError("file not found", file=str(path))
    try:
        frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except pd.errors.EmptyDataError:
        raise InputError("empty samples TSV (no header, no rows)", file=str(path), line=1) from None
    except (UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise InputError(f"not a readable TSV ({exc})", file=str(path)) from None
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", file=str(path), line=1)
    return frame


def kobbq_items(
    path: Path, unknown: str = DATASET_UNKNOWN, *, permute: bool = True
) -> list[BBQItem]:
    """Every sample of a KoBBQ samples TSV as canonical items: three per sample (the authors'
    circulant choice orders) unless ``permute`` is False (the file's own order only).
    ``unknown`` is the unknown option's wording in the prompt used."""
    import scipy.linalg  # function-level, as pandas above

    path = Path(path)
    frame = read_samples(path)
    items: list[BBQItem] = []
    running: dict[str, int] = {}
    seen: dict[str, int] = {}
    for row, record in enumerate(frame.to_dict("records")):
        sample_id = str(record["sample_id"]).strip()
        try:
            sid = SampleId.parse(sample_id)
        except ValueError as exc:
            raise _row_error(path, row, "sample_id", str(exc)) from None
        if sample_id in seen:
            raise _row_error(
                path,
                row,
                "sample_id",
                f"duplicate sample {sample_id} (also on line {seen[sample_id] + 2})",
            )
        seen[sample_id] = row
        try:
            choices = ast.literal_eval(str(record["choices"]))
        except (ValueError, SyntaxError):
            raise _row_error(path, row, "choices", "not a Python list literal") from None
        if (
            not isinstance(choices, list)
            or len(choices) != 3
            or not all(isinstance(c, str) for c in choices)
            or len(set(choices)) != 3
        ):
            raise _row_error(path, row, "choices", f"needs three distinct answers: {choices!r}")
        if choices.count(DATASET_UNKNOWN) != 1:
            raise _row_error(
                path,
                row,
                "choices",
                f"needs the unknown option {DATASET_UNKNOWN!r} once: {choices!r}",
            )
        for field in ("biased_answer", "answer"):
            if record[field] not in choices:
                raise _row_error(
                    path, row, field, f"{record[field]!r} is not one of the choices {choices!r}"
                )
        if record["biased_answer"] == DATASET_UNKNOWN:
            raise _row_error(path, row, "biased_answer", "the biased answer is the unknown option")
        if sid.context == "amb" and record["answer"] != DATASET_UNKNOWN:
            raise _row_error(
                path, row, "answer", f"an ambiguous context's answer must be {DATASET_UNKNOWN!r}"
            )
        # The stereotyped group: the biased answer of a biased question, the other group of a
        # counter-biased one (kept for bias profiles; scoring reads target_answer).
        groups = [c for c in choices if c != DATASET_UNKNOWN]
        stereotyped = (
            record["biased_answer"]
            if sid.question == "bsd"
            else next(g for g in groups if g != record["biased_answer"])
        )
        orders = scipy.linalg.circulant(choices).tolist() if permute else [choices]
        for p, order in enumerate(orders):
            # 1_preprocess.py change_unk: the prompt's own wording of the unknown option.
            shown = [unknown if c == DATASET_UNKNOWN else c for c in order]
            number = running.get(sid.category, 0)
            running[sid.category] = number + 1
            metadata: dict[str, Any] = {
                "sample_id": f"{sample_id}-{p}" if permute else sample_id,
                # the three orders are one sample: the intervals resample samples
                SAMPLING_UNIT: sample_id,
                "template_id": f"{sid.category}-{sid.template}",
                "context_type": sid.context_type,
                "label_annotation": record["label_annotation"],
                "stereotyped_groups": [stereotyped],
                "source": f"{KOBBQ_REPOSITORY}/{path.name}",
            }
            for key in ("bbq_id", "bbq_category"):
                if record.get(key):
                    metadata[key] = record[key]
            items.append(
                BBQItem(
                    example_id=number,
                    question_index=sid.template,
                    question_polarity=QUESTIONS[sid.question],  # type: ignore[arg-type]
                    context_condition=CONTEXTS[sid.context],  # type: ignore[arg-type]
                    category=sid.category,
                    answer_info={
                        f"ans{i}": [
                            shown[i],
                            UNKNOWN_GROUP if order[i] == DATASET_UNKNOWN else order[i],
                        ]
                        for i in range(3)
                    },
                    additional_metadata=metadata,
                    context=record["context"],
                    question=record["question"],
                    ans0=shown[0],
                    ans1=shown[1],
                    ans2=shown[2],
                    label=order.index(record["answer"]),
                    language="ko",
                    target_answer=order.index(record["biased_answer"]),
                )
            )
    if not items:
        raise InputError("no samples", file=str(path))
    return items


KOBBQ_DATA: Final = PinnedFolder(KOBBQ_SOURCE, "data", DATA_DIGESTS, "KoBBQ", env=ENV_DATA)
"""Where the samples file is looked for (:func:`resolve_pinned_folder`)."""


def resolve_kobbq_data(
    data_dir: Path | None = None,
    *,
    cache_dir: Path | None = None,
    download: bool = True,
    base_url: str | None = None,
    timeout: float = DOWNLOAD_TIMEOUT_S,
) -> Path:
    """A folder holding KoBBQ's test samples (see the module docstring). A local copy that
    differs from the pinned file is used with a warning (not comparable with the paper); an
    empty samples file is refused first, in one line (no warning about its checksum)."""
    if data_dir is not None:
        samples = Path(data_dir) / TEST_FILE
        if samples.is_file() and samples.stat().st_size == 0:
            raise InputError("empty samples TSV (no header, no rows)", file=str(samples), line=1)
    return resolve_pinned_folder(
        KOBBQ_DATA,
        data_dir,
        cache_dir=cache_dir,
        download=download,
        base_url=base_url,
        timeout=timeout,
    )
