"""``biasbench report``: one self-contained HTML page over run folders, plus every figure as PNG
and PDF and every table as Markdown, CSV and LaTeX.

Output folder::

    OUT/report.html            opens from disk; fetches nothing (no CDN, fonts or scripts)
    OUT/figures/GROUP_NAME.png / .pdf
    OUT/tables/GROUP_NAME.md / .csv / .tex

Safety: everything read from a run folder (model outputs above all, but also prompts, evidence,
model names, paths) is untrusted. Server-side it is escaped with :func:`html.escape`; the
drill-down data travels as JSON inside ``<script type="application/json">`` with ``<``, ``>``
and ``&`` escaped, and the page's script puts it into the DOM with ``textContent`` only. A
Content-Security-Policy allows only this page's own style and script (by hash) and ``data:``
images, so even markup that slipped through could neither run nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import pandas as pd

import biasbench
from biasbench.benchmarks.bbq.robust import PROFILE_MIN_ITEMS, PROFILE_MIN_SEEDS, interval_text
from biasbench.benchmarks.honorific_bn.metrics import (
    HONORIFIC,
    MIN_USABLE_ITEMS,
    ORDINARY,
    item_differences,
    occupation_rates,
    pair_counts,
    score_models,
)
from biasbench.benchmarks.honorific_bn.tables import (
    TABLE4_NOTE,
    caveats,
    table4,
    they_table,
)
from biasbench.fsutil import write_text_atomically
from biasbench.output_health import health_cell
from biasbench.report import figures as figs
from biasbench.report.loader import (
    BBQ_FAMILY,
    HONORIFIC_BENCHMARK,
    LABELS_NAME,
    ReportPlan,
    RunGroup,
    load_runs,
)
from biasbench.stats import (
    paired_difference_interval,
    proportion_design_effect,
    wilson_interval,
    wilson_pct,
)
from biasbench.stats.intervals import MIN_SEEDS_FOR_INTERVAL
from biasbench.tables import write_table
from biasbench.textutil import slug

REPORT_NAME: Final = "report.html"
MAX_DRILLDOWN_ROWS: Final = 60_000
"""Responses embedded per comparison; beyond it whole seeds are left out (labels.jsonl has all)."""
JITTER_TEMPLATES_PER_SCORE: Final = 8
"""Jitter plots per score (s_AMB, s_DIS): the templates strongest in any model's bias profile."""
UNPARSED_TEMPLATE_ROWS: Final = 25
LETTERS: Final = ("A", "B", "C")
SCORE_NAMES: Final = {"s_amb": "s_AMB", "s_dis": "s_DIS"}


# --------------------------------------------------------------------------- escaping


def esc(value: Any) -> str:
    """HTML-escape any value (quotes too, so it is safe in attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def json_for_script(value: Any) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment: ``<``, ``>``, ``&`` and
    the JavaScript line separators are written as ``\\uXXXX`` escapes."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _is_undefined(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float | np.floating) and not math.isfinite(value)


def _display(value: Any, decimals: int) -> tuple[str, str]:
    """(text, css class) of a table cell: numbers right-aligned, undefined shown as —."""
    if _is_undefined(value):
        return "—", "num undef"
    if isinstance(value, bool | np.bool_):
        return ("yes" if value else "no"), ""
    if isinstance(value, int | np.integer):
        return f"{int(value):,}", "num"
    if isinstance(value, float | np.floating):
        number = float(value)
        if number != 0 and abs(number) < 0.5 * 10 ** -decimals:
            return f"{number:.1e}", "num"  # a tiny p-value is not 0.0000
        return f"{number:.{decimals}f}", "num"
    return str(value), ""


def html_table(table: pd.DataFrame, *, decimals: int | Mapping[str, int] = 3,
               lang: Mapping[str, str] | None = None, caption: str | None = None) -> str:
    """A DataFrame as an escaped HTML table; ``lang`` marks columns in another script
    (e.g. ``{"occupation_bn": "bn"}``) so the browser shapes them with the right font."""
    lang = lang or {}
    head = "".join(f"<th>{esc(c)}</th>" for c in table.columns)
    rows = []
    for record in table.itertuples(index=False):
        cells = []
        for column, value in zip(table.columns, record, strict=True):
            places = decimals.get(column, 3) if isinstance(decimals, Mapping) else decimals
            text, css = _display(value, places)
            content = (f'<span lang="{esc(lang[column])}">{esc(text)}</span>'
                       if column in lang and text != "—" else esc(text))
            cells.append(f'<td class="{css}">{content}</td>' if css else f"<td>{content}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (f'<div class="scroll"><table>{cap}<thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _asset(name: str) -> str:
    return resources.files("biasbench.report").joinpath("assets", name).read_text("utf-8")


def _csp_hash(text: str) -> str:
    """A CSP source that allows exactly this inline style or script."""
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


# --------------------------------------------------------------------------- section builder


@dataclass
class Section:
    """One part of the page: an anchor, a heading and its HTML."""

    anchor: str
    title: str
    body: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    """Drill-down JSON blobs of the section: element id -> data."""

    def add(self, fragment: str) -> None:
        self.body.append(fragment)

    def render(self) -> str:
        return (f'<section id="{esc(self.anchor)}"><h2>{esc(self.title)}</h2>'
                + "\n".join(self.body) + "</section>")


class Outputs:
    """Writes a group's tables and figures under the report folder and embeds them in a section."""

    def __init__(self, out: Path, slug: str, section: Section) -> None:
        self.out, self.slug, self.section = out, slug, section

    def _links(self, paths: Iterable[Path]) -> str:
        links = " ".join(f'<a href="{esc(p.relative_to(self.out).as_posix())}">'
                         f"{esc(p.suffix.lstrip('.').upper())}</a>" for p in paths)
        return f'<p class="files">files: {links}</p>'

    def table(self, table: pd.DataFrame, name: str, title: str, *, note: str | None = None,
              shown: pd.DataFrame | None = None, decimals: int | Mapping[str, int] = 3,
              lang: Mapping[str, str] | None = None, file_decimals: int = 3) -> None:
        """Write ``table`` as .md/.csv/.tex and show it (or the ``shown`` rows of it)."""
        paths = write_table(table, self.out / "tables" / f"{self.slug}_{name}",
                            decimals=file_decimals)
        self.section.add(f"<h3>{esc(title)}</h3>")
        visible = table if shown is None else shown
        if not visible.empty:
            self.section.add(html_table(visible, decimals=decimals, lang=lang))
        if note:
            self.section.add(f'<p class="note">{esc(note)}</p>')
        self.section.add(self._links(paths))

    def figure(self, build: Callable[[], Any], name: str, title: str, caption: str) -> None:
        """Draw, write (PNG + PDF) and embed one figure."""
        saved = figs.save_figure(build(), self.out / "figures" / f"{self.slug}_{name}", title)
        data = base64.b64encode(saved.png_bytes).decode("ascii")
        self.section.add(
            f'<figure id="fig-{esc(self.slug)}-{esc(name)}"><img src="data:image/png;base64,'
            f'{data}" alt="{esc(title)}"><figcaption><strong>{esc(title)}.</strong> '
            f"{esc(caption)}</figcaption></figure>")
        self.section.add(self._links([saved.png, saved.pdf]))


# --------------------------------------------------------------------------- drill-down data


def encode_columns(frame: pd.DataFrame) -> dict[str, dict[str, list[Any]]]:
    """Columns as JSON: repetitive ones as a vocabulary plus codes (-1 = missing), others plain.

    Keeps thousands of responses small: model names, labels and prompts repeat.
    """
    encoded: dict[str, dict[str, list[Any]]] = {}
    for name in frame.columns:
        values = [None if _is_undefined(v) else (v if isinstance(v, int | str) else str(v))
                  for v in frame[name].tolist()]
        codes, vocabulary = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=True)
        if len(values) > 20 and len(vocabulary) <= len(values) // 2:
            encoded[str(name)] = {"v": list(vocabulary), "c": codes.tolist()}
        else:
            encoded[str(name)] = {"d": values}
    return encoded


def _limit_seeds(frame: pd.DataFrame, limit: int,
                 column: str = "seed") -> tuple[pd.DataFrame, str | None]:
    """At most ``limit`` rows, keeping whole seeds (``column``) in ascending order; a note when
    rows were left out."""
    if len(frame) <= limit or column not in frame.columns:
        return frame, None
    counts = frame.groupby(column, sort=True, dropna=False).size()
    kept = counts.index[counts.cumsum() <= limit].tolist() or [counts.index[0]]
    cut = frame[frame[column].isin(kept)]
    note = (f"The page embeds the responses of seeds {', '.join(map(str, kept[:3]))}"
            f"{'…' if len(kept) > 3 else ''} ({len(kept)} of {len(counts)} seeds, "
            f"{len(cut):,} of {len(frame):,} responses) to stay light; every response is in "
            f"each run folder's {LABELS_NAME}.")
    return cut, note


def _drilldown(section: Section, slug: str, data: dict[str, Any], *, view: str = "responses",
               heading: str, note: str | None = None) -> None:
    blob_id = f"data-{slug}"
    section.data[blob_id] = data
    section.add(f"<h3>{esc(heading)}</h3>")
    if note:
        section.add(f'<p class="note">{esc(note)}</p>')
    section.add(f'<div class="drilldown" id="{esc(view)}-{esc(slug)}" '
                f'data-drilldown="{esc(blob_id)}" data-view="{esc(view)}">'
                '<noscript>The drill-down needs JavaScript.</noscript></div>')


def _row_keys(run_index: int, item_ids: pd.Series, seeds: pd.Series) -> dict[str, Any]:
    """Helper columns naming each response's run and request (dropped before embedding)."""
    return {"_run": run_index, "_item": item_ids.astype(str).to_numpy(),
            "_seed": [None if _is_undefined(s) else int(s) for s in seeds]}


def _with_prompts(group: RunGroup, frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with a ``prompt`` column read from each run's store, helper columns dropped."""
    prompts = pd.Series("", index=frame.index, dtype=object)
    for index, run in enumerate(group.runs):
        rows = frame[frame["_run"] == index]
        keys = list(zip(rows["_item"], rows["_seed"], strict=True))
        found = run.prompts_for(keys)
        prompts[rows.index] = [found.get(key, "") for key in keys]
    return frame.assign(prompt=prompts).drop(columns=["_run", "_item", "_seed"])


def _seed_text(seed: Any) -> str:
    return "" if _is_undefined(seed) else str(int(seed))


def _honorific_evidence(evidence: Any) -> str:
    if not isinstance(evidence, list):
        return ""
    return "; ".join(f"{e.get('token', '')} ({e.get('kind', '')}, {e.get('register', '')})"
                     for e in evidence if isinstance(e, dict))


def honorific_drilldown(group: RunGroup) -> tuple[dict[str, Any], str | None]:
    """Every judged translation with its prompt and evidence, and the matched he/she pairs."""
    from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark

    by_id = HonorificBenchmark().by_id
    parts = []
    for index, labels in group.labelled_runs():
        seeds = labels["seed"] if "seed" in labels else pd.Series([None] * len(labels))
        parts.append(pd.DataFrame({
            **_row_keys(index, labels["item_id"], seeds),
            "model": labels["model"].astype(str),
            "seed": [_seed_text(s) for s in seeds],
            "item_id": labels["item_id"].astype(str),
            "occupation_en": labels["occupation_en"], "occupation_bn": labels["occupation_bn"],
            "template_id": labels["template_id"],
            "primed": np.where(labels["primed"].astype(bool), "primed (P*)", "unprimed (T*)"),
            "gender": labels["gender"],
            "label": [f"{lab} (plural)" if plural else lab
                      for lab, plural in zip(labels["label"], labels["plural"], strict=True)],
            "output": labels["output"].fillna(""),
            "evidence": labels["evidence"].map(_honorific_evidence),
            "reason": labels["reason"].fillna(""),
            "source": [by_id[i].source_en if i in by_id else "" for i in labels["item_id"]],
        }))
    frame, note = _limit_seeds(pd.concat(parts, ignore_index=True), MAX_DRILLDOWN_ROWS, "_seed")
    frame = _with_prompts(group, frame)
    has_seeds = bool((frame["seed"] != "").any())
    occupation = {"key": "occupation_en", "title": "Occupation", "alt": "occupation_bn",
                  "altLang": "bn"}
    shared = [{"key": "model", "title": "Model"}, occupation,
              {"key": "template_id", "title": "Frame"}]
    if has_seeds:
        shared.append({"key": "seed", "title": "Seed"})
    details = {"key": "prompt", "title": "Details", "kind": "details",
               "summary": "prompt, source, reason",
               "parts": [{"key": "source", "title": "English source"},
                         {"key": "prompt", "title": "Prompt sent"},
                         {"key": "reason", "title": "Why this label"}]}
    show = [*shared, {"key": "gender", "title": "Condition"},
            {"key": "output", "title": "Output", "kind": "text", "lang": "bn"},
            {"key": "label", "title": "Label", "kind": "label"},
            {"key": "evidence", "title": "Evidence"}, details]
    filters = [{"key": "model", "title": "Model"}, {"key": "occupation_en", "title": "Occupation"},
               {"key": "template_id", "title": "Frame"}, {"key": "primed", "title": "Priming"},
               {"key": "gender", "title": "Condition"}, {"key": "label", "title": "Label"}]
    if has_seeds:
        filters.append({"key": "seed", "title": "Seed"})

    # Matched pairs: the male and female item of one model, occupation, frame and seed.
    keyed = frame.reset_index().rename(columns={"index": "row"})
    keys = ["model", "occupation_en", "template_id", "seed"]
    male = keyed[keyed["gender"] == "male"][[*keys, "row", "label"]]
    female = keyed[keyed["gender"] == "female"][[*keys, "row", "label"]]
    pairs = male.merge(female, on=keys, suffixes=("_m", "_f")).sort_values("row_m")
    flags = []
    for m, f in zip(pairs["label_m"], pairs["label_f"], strict=True):
        m, f = m.split(" ")[0], f.split(" ")[0]
        flags.append("honorific only for he" if (m, f) == (HONORIFIC, ORDINARY) else
                     "honorific only for she" if (m, f) == (ORDINARY, HONORIFIC) else "")
    side = [{"key": "output", "title": "output", "kind": "text", "lang": "bn"},
            {"key": "label", "title": "label", "kind": "label"}]
    data = {
        "n": len(frame), "columns": encode_columns(frame), "show": show, "filters": filters,
        "search": ["output", "evidence", "reason", "source"],
        "pairs": {
            "left": pairs["row_m"].astype(int).tolist(),
            "right": pairs["row_f"].astype(int).tolist(), "flag": flags,
            "shared": shared, "side": side,
            "headers": [s["title"] for s in shared] + ["he: output", "he: label", "she: output",
                                                      "she: label", "discordant"],
            "filters": [{"key": "model", "title": "Model"},
                        {"key": "occupation_en", "title": "Occupation"},
                        {"key": "template_id", "title": "Frame"}],
        },
    }
    return data, note


def bbq_drilldown(group: RunGroup) -> tuple[dict[str, Any], str | None] | None:
    """Every parsed answer with its raw output, evidence and prompt (None without labels)."""
    parts = []
    for index, labels in group.labelled_runs():

        def letter(value: Any) -> str:
            if _is_undefined(value) or not 0 <= int(value) < len(LETTERS):
                return ""
            return LETTERS[int(value)]

        texts = (labels["answer_text"] if "answer_text" in labels
                 else pd.Series([None] * len(labels)))
        answers = [(f"{letter(p)}. {t}" if isinstance(t, str) else letter(p))
                   if not _is_undefined(p) and int(p) >= 0 else f"unparsed ({m})"
                   for p, m, t in zip(labels["pred_index"], labels["method"], texts, strict=True)]
        seeds = labels["seed"]
        parts.append(pd.DataFrame({
            **_row_keys(index, labels["uid"], seeds),
            "model": labels["model"].astype(str), "seed": [_seed_text(s) for s in seeds],
            "uid": labels["uid"].astype(str), "category": labels["category"],
            "question_index": labels["question_index"].astype(str),
            "context_condition": labels["context_condition"],
            "question_polarity": labels["question_polarity"], "answer": answers,
            "correct": labels["label"].map(letter),
            "evidence": [f"{m}: {e}" if not _is_undefined(e) and e != "" else str(m)
                         for m, e in zip(labels["method"], labels["evidence"], strict=True)],
            "output": labels["output"].map(lambda o: "" if _is_undefined(o) else str(o)),
        }))
    if not parts:
        return None
    frame, note = _limit_seeds(pd.concat(parts, ignore_index=True), MAX_DRILLDOWN_ROWS, "_seed")
    frame = _with_prompts(group, frame)
    show = [{"key": "model", "title": "Model"}, {"key": "seed", "title": "Seed"},
            {"key": "question_index", "title": "Template", "alt": "category"},
            {"key": "context_condition", "title": "Context", "alt": "question_polarity"},
            {"key": "output", "title": "Output", "kind": "text"},
            {"key": "answer", "title": "Parsed answer", "kind": "label"},
            {"key": "correct", "title": "Correct"},
            {"key": "evidence", "title": "Evidence"},
            {"key": "prompt", "title": "Details", "kind": "details", "summary": "prompt",
             "parts": [{"key": "uid", "title": "Item"}, {"key": "prompt", "title": "Prompt sent"}]}]
    filters = [{"key": "model", "title": "Model"}, {"key": "category", "title": "Category"},
               {"key": "question_index", "title": "Template"},
               {"key": "context_condition", "title": "Context"},
               {"key": "question_polarity", "title": "Polarity"},
               {"key": "answer", "title": "Parsed answer"}, {"key": "seed", "title": "Seed"}]
    data = {"n": len(frame), "columns": encode_columns(frame), "show": show, "filters": filters,
            "search": ["output", "evidence"], "pairs": None}
    return data, note


# --------------------------------------------------------------------------- honorific-bn


def pair_interval_table(labels: pd.DataFrame, scores: Mapping[str, Mapping[str, Any]],
                        models: Sequence[str]) -> pd.DataFrame:
    """Per model: pair counts, HAI with Newcombe's paired interval, GSR with Wilson's, p-values.

    With several seeds the intervals use effective counts (each count divided by its design
    effect: HAI's from the sign-flip variance, GSR's Kish's for a clustered proportion), so
    that repeating items under more seeds does not narrow them; with one seed both are 1.
    """
    rows = []
    for model in models:
        rows_of_model = labels[labels["model"] == model]
        counts = pair_counts(rows_of_model)
        s = scores[model]
        a, b, c, d = counts.both_honorific, counts.b, counts.c, counts.both_ordinary
        deff = float(s.get("design_effect") or 1.0)
        items = item_differences(rows_of_model)
        gsr_deff = proportion_design_effect(items["discordant"], items["n"])
        hai_low, hai_high = paired_difference_interval(a / deff, b / deff, c / deff, d / deff)
        gsr_low, gsr_high = (wilson_interval((b + c) / gsr_deff, counts.n_pairs / gsr_deff)
                             if counts.n_pairs else (math.nan, math.nan))
        per_seed = s.get("hai_by_seed") or {}
        rows.append({"model": model, "N pairs": counts.n_pairs,
                     "effective pairs": s.get("n_pairs_effective"), "b": b, "c": c,
                     "both honorific": a, "both ordinary": d,
                     "HAI (pp)": s.get("hai_pp"), "HAI low": 100.0 * hai_low,
                     "HAI high": 100.0 * hai_high, "GSR (%)": s.get("gsr_pct"),
                     "GSR low": 100.0 * gsr_low, "GSR high": 100.0 * gsr_high,
                     "p exact": s.get("p_exact"), "p (Holm)": s.get("p_holm"),
                     "detectable |HAI| (pp)": s.get("min_detectable_hai_pp"),
                     "seeds": per_seed.get("n_seeds"), "HAI per-seed SD (pp)": per_seed.get("sd")})
    table = pd.DataFrame(rows)
    return table.astype({c: float for c in ("effective pairs", "HAI (pp)", "GSR (%)", "p exact",
                                            "p (Holm)", "detectable |HAI| (pp)",
                                            "HAI per-seed SD (pp)")})


def occupation_table(rates: pd.DataFrame, models: Sequence[str]) -> pd.DataFrame:
    """Occupations (sorted by mean rate across models) with each model's rate and counts."""
    order = (rates.groupby("occupation_en", sort=False)["honorific_pct"].mean()
             .sort_values(ascending=False, kind="stable", na_position="last").index)
    names = rates.drop_duplicates("occupation_en").set_index("occupation_en")["occupation_bn"]
    table = pd.DataFrame({"occupation_en": order, "occupation_bn": names.reindex(order).values})
    for model in models:
        rows = rates[rates["model"] == model].set_index("occupation_en").reindex(order)
        table[f"{model} %"] = rows["honorific_pct"].to_numpy(float)
        table[f"{model} honorific/usable"] = [
            "—" if _is_undefined(n) else f"{int(k)}/{int(n)}" + (" (few items)" if few else "")
            for k, n, few in zip(rows["n_honorific"], rows["n_usable"],
                                 rows["few_items"].fillna(False), strict=True)]
    return table


def they_display(results: Mapping[str, Any]) -> pd.DataFrame:
    """The singular-they analysis with readable headers and its counts."""
    they = they_table(results)
    return pd.DataFrame({
        "model": they["model"],
        "they honorific %": they["they_honorific_pct"].astype(float),
        "she honorific %": they["female_honorific_pct"].astype(float),
        "they - she (pp)": they["they_minus_female_pp"].astype(float),
        "plural %": they["plural_pct"].astype(float),
        "singular they honorific %": they["singular_honorific_pct"].astype(float),
        "singular - all they (pp)": they["singular_minus_they_pp"].astype(float),
        "they honorific/usable": [f"{k}/{n}" for k, n in zip(they["they_honorific_n"],
                                                            they["they_usable_n"], strict=True)],
        "plural/translated": [f"{k}/{n}" for k, n in zip(they["plural_n"],
                                                        they["plural_denominator"],
                                                        strict=True)],
    })


def primed_table(scores: Mapping[str, Mapping[str, Any]], models: Sequence[str]) -> pd.DataFrame:
    rows = []
    for model in models:
        p = scores[model]["primed"]
        primed_low, primed_high = wilson_pct(p["primed_honorific_n"], p["primed_usable_n"])
        plain_low, plain_high = wilson_pct(p["unprimed_honorific_n"], p["unprimed_usable_n"])
        rows.append({"model": model, "primed %": p["primed_honorific_pct"],
                     "primed 95% CI": _interval_text(primed_low, primed_high),
                     "primed n": f"{p['primed_honorific_n']}/{p['primed_usable_n']}",
                     "unprimed %": p["unprimed_honorific_pct"],
                     "unprimed 95% CI": _interval_text(plain_low, plain_high),
                     "unprimed n": f"{p['unprimed_honorific_n']}/{p['unprimed_usable_n']}",
                     "primed - unprimed (pp)": p["primed_minus_unprimed_pp"]})
    return pd.DataFrame(rows).astype({"primed %": float, "unprimed %": float,
                                      "primed - unprimed (pp)": float})


def _interval_text(low: float, high: float, decimals: int = 1) -> str:
    if _is_undefined(low) or _is_undefined(high):
        return "—"
    return f"[{low:.{decimals}f}, {high:.{decimals}f}]"


def spread_table(scores: Mapping[str, Mapping[str, Any]], models: Sequence[str]) -> pd.DataFrame:
    """The occupation spread and its leave-one-out range (occupations, then frames)."""
    rows = []
    for model in models:
        loo = scores[model].get("occupation_spread_loo") or {}
        occupation = loo.get("leave_out_occupation") or {}
        frame = loo.get("leave_out_frame") or {}
        rows.append({"model": model, "spread (pp)": scores[model].get("occupation_spread_pp"),
                     "without one occupation: min": occupation.get("min"),
                     "without one occupation: max": occupation.get("max"),
                     "without one frame: min": frame.get("min"),
                     "without one frame: max": frame.get("max"),
                     f"occupations on < {MIN_USABLE_ITEMS} usable items":
                         len(scores[model].get("occupations_below_min_items") or [])})
    table = pd.DataFrame(rows)
    return table.astype({c: float for c in table.columns if c != "model"})


def label_count_table(labels: pd.DataFrame, models: Sequence[str]) -> pd.DataFrame:
    counts = pd.crosstab(labels["model"], labels["label"]).reindex(index=list(models))
    columns = [c for c in ("honorific", "ordinary", "mixed", "unreadable") if c in counts]
    table = counts.reindex(columns=columns, fill_value=0).reset_index()
    table["all"] = table[columns].sum(axis=1)
    return table


def _attach_coverage(group: RunGroup, scores: Mapping[str, dict[str, Any]]) -> None:
    """Give the re-scored models their runs' coverage (what the benchmark defines is known at
    run time), so Table 4 shows pairs of possible and partial runs as the runs did."""
    for index, run in enumerate(group.runs):
        for model, saved in (run.results.get("models") or {}).items():
            name = group.model_names.get((index, str(model)))
            if name in scores and isinstance(saved, Mapping) and saved.get("coverage"):
                scores[name]["coverage"] = saved["coverage"]


def honorific_section(group: RunGroup, out: Path, section: Section) -> None:
    """Table 4, occupation rates, HAI against GSR, singular they, primed frames, drill-down."""
    labels = group.concat(LABELS_NAME)
    if labels is None:
        section.add('<p class="note">These runs have no labels.jsonl; nothing to report.</p>')
        return
    scored = score_models(labels)
    scores = scored["models"]
    models = list(scores)
    rates = occupation_rates(labels)
    output = Outputs(out, group.slug, section)
    _attach_coverage(group, scores)
    results = {"models": scores}

    warnings = " ".join(f"{model}: {text}." for model in models for text in caveats(scores[model]))
    output.table(table4(results), "table4", "Table 4: gender asymmetry and occupation spread",
                 note=" ".join(filter(None, [
                     TABLE4_NOTE, "Re-scored together from the runs' labels, so Holm spans "
                     "every model of this comparison. Sorted by spread.", warnings])))

    intervals = pair_interval_table(labels, scores, models)
    output.figure(lambda: figs.hai_gsr_figure(intervals), "hai_gsr", "HAI against GSR",
                  "HAI = (b - c) / N with Newcombe's paired score interval; GSR = (b + c) / N "
                  "with a Wilson interval; N usable he/she pairs.")
    output.table(intervals, "hai_gsr", "HAI and GSR with 95% intervals",
                 note="b: pairs with the honorific for he only; c: for she only; 95% intervals "
                      "in the units of their estimate (pp for HAI, % for GSR), on effective "
                      "counts with several seeds (the item is the unit); detectable |HAI|: "
                      "the smallest HAI McNemar's test finds with 80% power at alpha 0.05 "
                      "(empty: not detectable, see results.json for the reason); HAI per-seed "
                      "SD: across seeds, with two or more.",
                 decimals={"p exact": 4, "p (Holm)": 4, **{c: 2 for c in intervals.columns
                                                          if c.startswith(("HAI", "GSR", "det"))}})

    table = occupation_table(rates, models)
    output.figure(lambda: figs.occupation_rates_figure(rates, models), "occupation_rates",
                  "Occupation honorific rates",
                  "Share of no-pronoun translations in the honorific register, per occupation "
                  "(sorted by the mean across models), with Wilson intervals.")
    output.table(table, "occupation_rates", "Occupation honorific rates (no-pronoun sentences)",
                 lang={"occupation_bn": "bn"}, decimals=1, file_decimals=1)

    they = they_display(results)
    output.figure(lambda: figs.they_figure(models, scores), "they", "Singular they",
                  "Honorific rate of they next to she's, of they kept singular, and how often "
                  "they is translated as a plural.")
    output.table(they, "they_analysis", "The singular-they analysis", decimals=1,
                 file_decimals=2,
                 note="Rates over usable outputs (honorific or ordinary); plural % over they "
                      "outputs that are translations.")

    output.figure(lambda: figs.primed_figure(models, scores), "primed",
                  "Primed versus unprimed frames",
                  "Honorific rate over all conditions in frames that state respect (P*) and in "
                  "the others (T*), with Wilson intervals.")
    output.table(primed_table(scores, models), "primed", "Primed versus unprimed frames",
                 decimals=1)

    output.table(spread_table(scores, models), "spread_robustness",
                 "Occupation spread: leave-one-out robustness", decimals=2)
    agreement = scored.get("occupation_rank_agreement")
    if agreement and agreement.get("matrix"):
        matrix = pd.DataFrame(agreement["matrix"]).reindex(index=models, columns=models)
        matrix = matrix.astype(float).reset_index().rename(columns={"index": "model"})
        output.table(matrix, "rank_agreement",
                     "Occupation ranking agreement (Spearman) between models", decimals=2)
    output.table(label_count_table(labels, models), "label_counts", "Labels per model")

    data, note = honorific_drilldown(group)
    _drilldown(section, f"{group.slug}-responses", data, heading="Responses",
               note=" ".join(filter(None, [
                   "Every translation with its label and the evidence behind it; open "
                   "Details for the English source, the exact prompt and the judge's reason.",
                   note])))
    _drilldown(section, f"{group.slug}-responses", data, view="pairs",
               heading="Matched he/she pairs",
               note="The male and female sentence of the same model, occupation and frame side "
                    "by side; discordant pairs (counted in b or c) are highlighted.")


# --------------------------------------------------------------------------- FilBBQ / BBQ


def _bbq_category_frame(group: RunGroup) -> pd.DataFrame:
    """Per model and category: every score's mean and interval, from the runs' results."""
    rows = []
    for index, run in enumerate(group.runs):
        for model, categories in run.results["models"].items():
            name = group.model_names[(index, str(model))]
            for category, entry in categories.items():
                row: dict[str, Any] = {"model": name, "category": category}
                for score in ("s_amb", "s_dis", "acc_ambig", "acc_disambig"):
                    stat = entry.get(score) or {}
                    for part in ("mean", "sd", "ci_low", "ci_high"):
                        row[f"{score}_{part}"] = stat.get(part)
                    # results schema 1 called the seeds behind a score "n" and had no status
                    row[f"{score}_n_seeds"] = stat.get("n_seeds", stat.get("n"))
                    row[f"{score}_ci_status"] = stat.get("ci_status") or _legacy_status(stat)
                row.update(seeds_run=entry.get("seeds_run", entry.get("n_seeds")),
                           unparsed_pct=entry.get("unparsed_pct"))
                rows.append(row)
    frame = pd.DataFrame(rows)
    numeric = [c for c in frame.columns
               if c not in ("model", "category") and not c.endswith("_ci_status")]
    return frame.astype({c: float for c in numeric})


def _legacy_status(stat: Mapping[str, Any]) -> str:
    """A schema-1 statistic's interval status, read from its numbers."""
    if stat.get("mean") is None:
        return "undefined"
    if stat.get("ci_low") is None:
        return "too_few_seeds"
    return "degenerate" if stat.get("ci_low") == stat.get("ci_high") else "ok"


def bbq_category_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The per-category table: each score's mean across seeds, its 95% interval and the
    number of seeds the score is defined in (what the mean rests on)."""
    table = pd.DataFrame({"model": frame["model"], "category": frame["category"]})
    for score, title in (("s_amb", "s_AMB"), ("s_dis", "s_DIS"), ("acc_ambig", "acc ambig"),
                         ("acc_disambig", "acc disambig")):
        table[title] = frame[f"{score}_mean"]
        table[f"{title} 95% CI"] = [
            interval_text(lo, hi, status, n, mean) for lo, hi, status, n, mean in zip(
                frame[f"{score}_ci_low"], frame[f"{score}_ci_high"],
                frame[f"{score}_ci_status"], frame[f"{score}_n_seeds"], frame[f"{score}_mean"],
                strict=True)]
        table[f"{title} seeds"] = frame[f"{score}_n_seeds"].astype("Int64")
    table["seeds run"] = frame["seeds_run"].astype("Int64")
    table["unparsed %"] = frame["unparsed_pct"]
    return table


def _bbq_profiles(group: RunGroup) -> pd.DataFrame | None:
    frames = []
    for index, run in enumerate(group.runs):
        for model, rows in (run.results.get("bias_profiles") or {}).items():
            if rows:
                frame = pd.DataFrame(rows)
                frame.insert(0, "model", group.model_names.get((index, str(model)), model))
                frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else None


def _bbq_unparsed_by_run(group: RunGroup) -> pd.DataFrame | None:
    frames = []
    for index, run in enumerate(group.runs):
        rows = run.results.get("unparsed_by_run")
        if rows:
            frames.append(group.rename(index, pd.DataFrame(rows)))
    return pd.concat(frames, ignore_index=True) if frames else None


def _jitter_targets(profiles: pd.DataFrame | None) -> list[tuple[str, str, str]]:
    """(category, template, score) of the templates strongest in any model's profile."""
    if profiles is None or profiles.empty:
        return []
    targets = []
    for context, score in (("ambiguous", "s_amb"), ("disambiguated", "s_dis")):
        rows = profiles[profiles["context"] == context]
        best = (rows.groupby(["category", "question_index"])["rank"].min()
                .sort_values(kind="stable").head(JITTER_TEMPLATES_PER_SCORE))
        targets.extend((str(c), str(q), score) for c, q in best.index)
    return targets


def bbq_section(group: RunGroup, out: Path, section: Section) -> None:
    """Per-category scores and accuracy with seed intervals, bias profiles, jitter plots,
    unparsed rates and the drill-down."""
    output = Outputs(out, group.slug, section)
    models = group.models
    categories = _bbq_category_frame(group)
    output.table(bbq_category_table(categories), "by_category",
                 "Bias scores and accuracy per category",
                 note="Means across seeds with 95% Student-t intervals across seeds, "
                      "intersected with each score's range (accuracy [0, 1], bias [-1, 1]; "
                      "'clipped' where the cut applied); no interval with fewer than "
                      f"{MIN_SEEDS_FOR_INTERVAL} seeds; 'all N seeds = v' where every seed gave "
                      "the same value (no spread, not certainty). '... seeds' columns: the seeds "
                      "each score is defined in; a score undefined in every seed is shown as —.")
    output.figure(lambda: figs.bbq_scores_figure(categories, ("s_amb", "s_dis"), models),
                  "bias_scores", "s_AMB and s_DIS per category",
                  "Mean bias score across seeds with its 95% t-interval truncated to [-1, 1] "
                  f"(none with fewer than {MIN_SEEDS_FOR_INTERVAL} seeds); 0 is unbiased, "
                  "positive is the stereotyped answer.")
    output.figure(lambda: figs.bbq_scores_figure(categories, ("acc_ambig", "acc_disambig"),
                                                 models),
                  "accuracy", "Accuracy per category",
                  "Mean accuracy across seeds with its 95% t-interval truncated to [0, 1] "
                  f"(none with fewer than {MIN_SEEDS_FOR_INTERVAL} seeds; in ambiguous contexts "
                  "the correct answer is the unknown option).")

    profiles = _bbq_profiles(group)
    if profiles is not None:
        output.table(profiles, "bias_profiles", "Bias profiles: each model's strongest biases",
                     note="Top templates by mean score across seeds, per context condition, "
                          "with the stereotype each template tests, the seeds the score is "
                          "defined in (n_seeds) and the items of the context per seed "
                          f"(n_items). Ranked only with >= {PROFILE_MIN_SEEDS} seeds and >= "
                          f"{PROFILE_MIN_ITEMS} items; rows without a rank did not qualify and "
                          "are shown, unranked, for what they are.")
    per_seed = group.concat("per_template_per_seed.csv")
    if per_seed is not None:
        per_seed["question_index"] = per_seed["question_index"].astype(str)
        for category, template, score in _jitter_targets(profiles):
            output.figure(
                lambda c=category, t=template, s=score: figs.template_jitter_figure(
                    per_seed, c, t, s, models),
                f"jitter_{slug(category)}_{slug(template)}_{score}",
                f"{category} / {template}: per-seed {SCORE_NAMES[score]}",
                "One point per seed, jittered vertically; the bar marks the mean across seeds "
                "(the FilBBQ paper's Figures 1-2).")

    unparsed = _bbq_unparsed_by_run(group)
    if unparsed is not None:
        output.figure(lambda: figs.unparsed_figure(unparsed, models), "unparsed",
                      "Unparsed rates", "Responses the answer parser could not map to an "
                      "option, by reason, pooled over seeds.")
        output.table(unparsed, "unparsed_by_run", "Unparsed responses per model and seed",
                     decimals=2)
    by_template = group.concat("unparsed_by_template.csv")
    if by_template is not None:
        worst = by_template.sort_values(["unparsed_pct", "n_unparsed"], ascending=False,
                                        kind="stable")
        shown = worst[worst["n_unparsed"] > 0].head(UNPARSED_TEMPLATE_ROWS)
        output.table(worst, "unparsed_by_template", "Templates with the most unparsed answers",
                     shown=shown, decimals=2,
                     note=(f"The {len(shown)} templates with unparsed answers shown here of "
                           f"{len(worst)}; the files hold all." if len(shown)
                           else "No template has an unparsed answer."))

    drill = bbq_drilldown(group)
    if drill is None:
        section.add('<p class="note">These folders have no labels.jsonl, so there is no '
                    "per-response drill-down.</p>")
        return
    data, note = drill
    _drilldown(section, f"{group.slug}-responses", data, heading="Responses",
               note=" ".join(filter(None, [
                   "Every answer with its raw output, the parsed option and the evidence the "
                   "parser used; open Details for the exact prompt.", note])))


# --------------------------------------------------------------------------- page


def _runs_section(plan: ReportPlan) -> Section:
    section = Section("runs", "Runs")
    rows = []
    for group in plan.groups:
        for run in group.runs:
            short = run.results.get("signature", {}).get("short") or run.signature.short()
            health = run.results.get("output_health") or {}  # empty/truncated/<think> shares
            rows.append({"folder": str(run.path), "benchmark": run.benchmark,
                         "models": ", ".join(run.models), "status": run.status,
                         "outputs": "; ".join(f"{m}: {health_cell(h)}" for m, h in health.items())
                         or "—", "comparison": group.slug, "signature": short})
    section.add(html_table(pd.DataFrame(rows)))
    unfinished = [r for r in rows if r["status"] not in ("complete", "scored")]
    if unfinished:
        section.add('<div class="callout"><strong>Unfinished runs.</strong> Some requests '
                    "failed or were never made, and are missing from the scores: "
                    + esc(", ".join(f"{r['folder']} ({r['status']})" for r in unfinished))
                    + ". Rerun the same command to retry them.</div>")
    for group in plan.groups:
        if not group.differences:
            continue
        items = "".join(f"<li>{esc(d.description)}</li>" for d in group.differences)
        folders = ", ".join(run.name for run in group.runs)
        section.add(
            f'<div class="callout" id="not-merged-{esc(group.slug)}"><strong>Not merged:</strong> '
            f"{esc(folders)} ({esc(group.benchmark)}) reported separately as "
            f'<a href="#{esc(group.slug)}">{esc(group.slug)}</a>, not compared with '
            f'<a href="#{esc(group.compared_with)}">{esc(group.compared_with)}</a>: '
            f"the runs differ in<ul>{items}</ul>Scores obtained under different "
            "items, prompts, decoding, seeds or judges are not comparable.</div>")
    merged = [g for g in plan.groups if len(g.runs) > 1]
    for group in merged:
        section.add(f'<p class="note">Merged into <a href="#{esc(group.slug)}">'
                    f"{esc(group.slug)}</a>: {esc(', '.join(r.name for r in group.runs))} "
                    "(comparable signatures, same items).</p>")
    return section


def _group_section(group: RunGroup, out: Path) -> Section:
    title = f"{group.slug}: {', '.join(group.models) or 'no scored model'}"
    section = Section(group.slug, title)
    signature = group.signature.model_copy(update={"model": {}})
    section.add(f'<p class="note">Signature (without the model): '
                f'<span class="sig">{esc(signature.short())}</span></p>')
    if not group.models:
        notes = {str(run.results.get("note") or "nothing scored") for run in group.runs}
        section.add(f'<p class="note">No scores: {esc("; ".join(sorted(notes)))}.</p>')
    elif group.benchmark == HONORIFIC_BENCHMARK:
        honorific_section(group, out, section)
    elif group.benchmark in BBQ_FAMILY:
        bbq_section(group, out, section)
    else:
        section.add(f'<p class="note">No report layout for benchmark '
                    f"{esc(group.benchmark)}; see results.json in the run folders.</p>")
    return section


def render_page(plan: ReportPlan, sections: Sequence[Section]) -> str:
    """The complete HTML document (styles and script inline, data as escaped JSON)."""
    style, script = _asset("report.css"), _asset("report.js")
    csp = ("default-src 'none'; img-src data:; "
           f"style-src {_csp_hash(style)}; script-src {_csp_hash(script)}; "
           "base-uri 'none'; form-action 'none'")
    benchmarks = sorted({g.benchmark for g in plan.groups})
    toc = "".join(f'<a href="#{esc(s.anchor)}">{esc(s.anchor)}</a>' for s in sections)
    blobs = "".join(f'<script type="application/json" id="{esc(blob_id)}">'
                    f"{json_for_script(data)}</script>\n"
                    for s in sections for blob_id, data in s.data.items())
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>biasbench report: {esc(', '.join(benchmarks))}</title>",
        '<link rel="icon" href="data:,">',
        f"<style>{style}</style>",
        "</head>",
        "<body>",
        '<header class="page"><h1>biasbench report</h1>'
        f"<p>{len(plan.runs)} run folder(s); {esc(', '.join(benchmarks))}; "
        f"biasbench {esc(biasbench.__version__)}. Model outputs are shown as text, never "
        "interpreted.</p></header>",
        f'<nav class="toc">{toc}</nav>',
        "<main>",
        *[s.render() for s in sections],
        "</main>",
        blobs,
        f"<script>{script}</script>",
        "</body>",
        "</html>",
    ]) + "\n"


def build_report(run_dirs: Sequence[Path | str], out: Path | str) -> Path:
    """Build ``out/report.html`` with its figures (PNG, PDF) and tables (Markdown, CSV, LaTeX).

    Runs of one benchmark whose signatures are comparable and that answered the same items are
    merged into one comparison; the others are reported separately with the reason.
    Returns the path of the HTML file.
    """
    out = Path(out)
    plan = load_runs(run_dirs)
    out.mkdir(parents=True, exist_ok=True)
    sections = [_runs_section(plan)] + [_group_section(g, out) for g in plan.groups]
    path = out / REPORT_NAME
    write_text_atomically(path, render_page(plan, sections))
    return path
