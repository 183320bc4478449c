"""Building blocks of the HTML report that every benchmark's report section uses: escaping,
tables as HTML, a page section, writing a section's tables and figures, and the drill-down data.

This sits below the benchmarks (they fill their sections with it) and below
:mod:`biasbench.report.html` (which assembles the page), so layers point one way.

Safety: everything read from a run folder (model outputs above all, but also prompts, evidence,
model names, paths) is untrusted. It is escaped with :func:`html.escape`; the drill-down data
travels as JSON inside ``<script type="application/json">`` with ``<``, ``>`` and ``&`` escaped
(:func:`json_for_script`), and the page's script puts it into the DOM with ``textContent`` only.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import pandas as pd

from biasbench import figures as figs
from biasbench.runfolder import LABELS_NAME, TABLES_DIR
from biasbench.runfolder.grouping import RunGroup
from biasbench.tables import is_undefined, write_table

MAX_DRILLDOWN_ROWS: Final = 60_000
"""Responses embedded per comparison; beyond it whole seeds are left out (labels.jsonl has all)."""


def esc(value: Any) -> str:
    """HTML-escape any value (quotes too, so it is safe in attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def json_for_script(value: Any) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment: ``<``, ``>``, ``&`` and
    the JavaScript line separators are written as ``\\uXXXX`` escapes."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def html_cell(value: Any, decimals: int) -> tuple[str, str]:
    """(text, css class) of a table cell: numbers right-aligned, undefined shown as —."""
    if is_undefined(value):
        return "—", "num undef"
    if isinstance(value, bool | np.bool_):
        return ("yes" if value else "no"), ""
    if isinstance(value, int | np.integer):
        return f"{int(value):,}", "num"
    if isinstance(value, float | np.floating):
        number = float(value)
        if number != 0 and abs(number) < 0.5 * 10**-decimals:
            return f"{number:.1e}", "num"  # a tiny p-value is not 0.0000
        return f"{number:.{decimals}f}", "num"
    return str(value), ""


def html_table(
    table: pd.DataFrame,
    *,
    decimals: int | Mapping[str, int] = 3,
    lang: Mapping[str, str] | None = None,
    caption: str | None = None,
) -> str:
    """A DataFrame as an escaped HTML table; ``lang`` marks columns in another script (column ->
    BCP 47 code, from the benchmark's languages) so the browser shapes them with the right font."""
    lang = lang or {}
    head = "".join(f"<th>{esc(c)}</th>" for c in table.columns)
    rows = []
    for record in table.itertuples(index=False):
        cells = []
        for column, value in zip(table.columns, record, strict=True):
            places = decimals.get(column, 3) if isinstance(decimals, Mapping) else decimals
            text, css = html_cell(value, places)
            content = (
                f'<span lang="{esc(lang[column])}">{esc(text)}</span>'
                if column in lang and text != "—"
                else esc(text)
            )
            cells.append(f'<td class="{css}">{content}</td>' if css else f"<td>{content}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (
        f'<div class="scroll"><table>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


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
        return (
            f'<section id="{esc(self.anchor)}"><h2>{esc(self.title)}</h2>'
            + "\n".join(self.body)
            + "</section>"
        )


class Outputs:
    """Writes a group's tables and figures under the report folder and embeds them in a section."""

    def __init__(self, out: Path, slug: str, section: Section) -> None:
        self.out, self.slug, self.section = out, slug, section

    def _links(self, paths: Iterable[Path]) -> str:
        links = " ".join(
            f'<a href="{esc(p.relative_to(self.out).as_posix())}">'
            f"{esc(p.suffix.lstrip('.').upper())}</a>"
            for p in paths
        )
        return f'<p class="files">files: {links}</p>'

    def table(
        self,
        table: pd.DataFrame,
        name: str,
        title: str,
        *,
        note: str | None = None,
        shown: pd.DataFrame | None = None,
        decimals: int | Mapping[str, int] = 3,
        lang: Mapping[str, str] | None = None,
        file_decimals: int = 3,
    ) -> None:
        """Write ``table`` as .md/.csv/.tex and show it (or the ``shown`` rows of it)."""
        paths = write_table(
            table, self.out / TABLES_DIR / f"{self.slug}_{name}", decimals=file_decimals
        )
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
            f"{esc(caption)}</figcaption></figure>"
        )
        self.section.add(self._links([saved.png, saved.pdf]))


# --------------------------------------------------------------------------- drill-down data


def encode_columns(frame: pd.DataFrame) -> dict[str, dict[str, list[Any]]]:
    """Columns as JSON: repetitive ones as a vocabulary plus codes (-1 = missing), others plain.

    Keeps thousands of responses small: model names, labels and prompts repeat.
    """
    encoded: dict[str, dict[str, list[Any]]] = {}
    for name in frame.columns:
        values = [
            None if is_undefined(v) else (v if isinstance(v, int | str) else str(v))
            for v in frame[name].tolist()
        ]
        codes, vocabulary = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=True)
        if len(values) > 20 and len(vocabulary) <= len(values) // 2:
            encoded[str(name)] = {"v": list(vocabulary), "c": codes.tolist()}
        else:
            encoded[str(name)] = {"d": values}
    return encoded


def limit_seeds(
    frame: pd.DataFrame, limit: int, column: str = "seed"
) -> tuple[pd.DataFrame, str | None]:
    """At most ``limit`` rows, keeping whole seeds (``column``) in ascending order; a note when
    rows were left out."""
    if len(frame) <= limit or column not in frame.columns:
        return frame, None
    counts = frame.groupby(column, sort=True, dropna=False).size()
    kept = counts.index[counts.cumsum() <= limit].tolist() or [counts.index[0]]
    cut = frame[frame[column].isin(kept)]
    note = (
        f"The page embeds the responses of seeds {', '.join(map(str, kept[:3]))}"
        f"{'…' if len(kept) > 3 else ''} ({len(kept)} of {len(counts)} seeds, "
        f"{len(cut):,} of {len(frame):,} responses) to stay light; every response is in "
        f"each run folder's {LABELS_NAME}."
    )
    return cut, note


def drilldown(
    section: Section,
    slug: str,
    data: dict[str, Any],
    *,
    view: str = "responses",
    heading: str,
    note: str | None = None,
) -> None:
    blob_id = f"data-{slug}"
    section.data[blob_id] = data
    section.add(f"<h3>{esc(heading)}</h3>")
    if note:
        section.add(f'<p class="note">{esc(note)}</p>')
    section.add(
        f'<div class="drilldown" id="{esc(view)}-{esc(slug)}" '
        f'data-drilldown="{esc(blob_id)}" data-view="{esc(view)}">'
        "<noscript>The drill-down needs JavaScript.</noscript></div>"
    )


def row_keys(run_index: int, item_ids: pd.Series, seeds: pd.Series) -> dict[str, Any]:
    """Helper columns naming each response's run and request (dropped before embedding)."""
    return {
        "_run": run_index,
        "_item": item_ids.astype(str).to_numpy(),
        "_seed": [None if is_undefined(s) else int(s) for s in seeds],
    }


def with_prompts(group: RunGroup, frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with a ``prompt`` column read from each run's store, helper columns dropped."""
    prompts = pd.Series("", index=frame.index, dtype=object)
    for index, run in enumerate(group.runs):
        rows = frame[frame["_run"] == index]
        keys = list(zip(rows["_item"], rows["_seed"], strict=True))
        found = run.prompts_for(keys)
        prompts[rows.index] = [found.get(key, "") for key in keys]
    return frame.assign(prompt=prompts).drop(columns=["_run", "_item", "_seed"])


def seed_text(seed: Any) -> str:
    return "" if is_undefined(seed) else str(int(seed))
