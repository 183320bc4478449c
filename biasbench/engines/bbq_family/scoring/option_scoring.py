"""Option-scored runs (masked LMs, ``--answer-by scores``) under the choice that is not the
headline: sum vs per-character, read from the choices stored with every response (its
``info``), so a reader sees both as lm-evaluation-harness reports acc and acc_norm."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from biasbench.engines.bbq_family.items.items import BBQItem
from biasbench.engines.bbq_family.judging.parser import LETTERS
from biasbench.engines.bbq_family.scoring.bias_scores import Var2ByTemplate
from biasbench.engines.bbq_family.scoring.multi_seed import score_responses, to_results_json
from biasbench.signature import Signature

NOTE = (
    "answers by scores: 'sum' = highest summed (pseudo-)log-likelihood (lm-eval acc), "
    "'per_char' = highest per character of the option (acc_norm); the scores above use the "
    "headline, 'alternative_models' the other"
)


def option_scored_models(signatures: Mapping[str, Signature]) -> set[str]:
    """The models of a run that answered by option scores."""
    return {label for label, sig in signatures.items() if sig.model.get("option_score")}


def option_score_comparison(
    items: Sequence[BBQItem],
    var2: Var2ByTemplate | None,
    frame: pd.DataFrame,
    signatures: Mapping[str, Signature],
    targets: Mapping[str, int | None] | None = None,
) -> dict[str, Any] | None:
    """The scores under the other choice, with how often the two choices differ; None for
    runs without option-scored responses (and for responses produced elsewhere, which carry
    no choices)."""
    labels = option_scored_models(signatures)
    if not labels or "info" not in frame.columns:
        return None
    scored_rows = frame[frame["model"].isin(labels) & frame["info"].notna()]
    chosen: dict[tuple[str, str, int], dict[str, Any]] = {}
    for model, uid, seed, text in zip(
        scored_rows["model"],
        scored_rows["uid"],
        scored_rows["seed"],
        scored_rows["info"],
        strict=True,
    ):
        info = json.loads(text) if isinstance(text, str) else text
        if isinstance(info, dict) and "choice_sum" in info:
            chosen[(str(model), str(uid), int(seed))] = info
    if not chosen:
        return None
    headline = next(iter(chosen.values()))["option_score"]
    other = "sum" if headline == "per_char" else "per_char"
    alternative = pd.DataFrame(
        [
            {"model": m, "uid": uid, "seed": seed, "pred": LETTERS.index(info[f"choice_{other}"])}
            for (m, uid, seed), info in chosen.items()
        ]
    )
    scored = score_responses(items, alternative, var2=var2, targets=targets)
    return {
        "headline": headline,
        "alternative": other,
        "note": NOTE,
        "n_responses": len(chosen),
        "n_choices_differ": sum(i["choice_sum"] != i["choice_per_char"] for i in chosen.values()),
        "alternative_models": to_results_json(scored)["models"],
    }
