"""``biasbench report``: one self-contained HTML page over run folders, plus every figure as PNG
and PDF and every table as Markdown, CSV and LaTeX.

Output folder::

    OUT/report.html            opens from disk; fetches nothing (no CDN, fonts or scripts)
    OUT/figures/GROUP_NAME.png / .pdf
    OUT/tables/GROUP_NAME.md / .csv / .tex

The page names no benchmark: it lists the runs, then asks each comparison's benchmark (found in
the registry, :func:`biasbench.benchmarks.report_class`) for its section. The building blocks
(escaping, tables, sections, drill-down data) are :mod:`biasbench.display`.

Safety: everything read from a run folder is untrusted and escaped (see
:mod:`biasbench.display`). A Content-Security-Policy allows only this page's own style and
script (by hash) and ``data:`` images, so even markup that slipped through could neither run
nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Final

import pandas as pd

from biasbench.display import Section, esc, html_table, json_for_script
from biasbench.errors import BiasbenchError
from biasbench.fsutil import staged_folder, write_text_atomically
from biasbench.output_health import health_cell
from biasbench.registry import report_class
from biasbench.runfolder.grouping import ReportPlan, RunGroup, load_runs
from biasbench.runfolder.targets import output_target_refusal
from biasbench.version import __version__

REPORT_NAME: Final = "report.html"


def _asset(name: str) -> str:
    return resources.files("biasbench.report").joinpath("assets", name).read_text("utf-8")


def _csp_hash(text: str) -> str:
    """A CSP source that allows exactly this inline style or script."""
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


# --------------------------------------------------------------------------- page


def run_scope(limit: int | None) -> str:
    """ "full", or "partial: --limit N" for a run of a subset of the items."""
    return f"partial: --limit {limit}" if limit else "full"


def _runs_section(plan: ReportPlan) -> Section:
    section = Section("runs", "Runs")
    rows = []
    for group in plan.groups:
        for run in group.runs:
            short = run.results.get("signature", {}).get("short") or run.signature.short()
            health = run.results.get("output_health") or {}
            if not isinstance(health, dict):  # a damaged results file: shown as unknown
                health = {}  # empty/truncated/<think> shares
            rows.append(
                {
                    "folder": str(run.path),
                    "benchmark": run.benchmark,
                    "models": ", ".join(run.models),
                    "status": run.status,
                    "scope": run_scope(run.signature.limit),
                    "outputs": "; ".join(f"{m}: {health_cell(h)}" for m, h in health.items())
                    or "—",
                    "comparison": group.slug,
                    "signature": short,
                }
            )
    section.add(html_table(pd.DataFrame(rows)))
    unfinished = [r for r in rows if r["status"] not in ("complete", "scored")]
    if unfinished:
        section.add(
            '<div class="callout"><strong>Unfinished runs.</strong> Some requests '
            "failed or were never made, and are missing from the scores: "
            + esc(", ".join(f"{r['folder']} ({r['status']})" for r in unfinished))
            + ". Rerun the same command to retry them.</div>"
        )
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
            "items, prompts, decoding, seeds or judges are not comparable.</div>"
        )
    merged = [g for g in plan.groups if len(g.runs) > 1]
    for group in merged:
        section.add(
            f'<p class="note">Merged into <a href="#{esc(group.slug)}">'
            f"{esc(group.slug)}</a>: {esc(', '.join(r.name for r in group.runs))} "
            "(comparable signatures, same items).</p>"
        )
    return section


def _group_section(group: RunGroup, out: Path) -> Section:
    title = f"{group.slug}: {', '.join(group.models) or 'no scored model'}"
    section = Section(group.slug, title)
    signature = group.signature.model_copy(update={"model": {}})
    section.add(
        f'<p class="note">Signature (without the model): '
        f'<span class="sig">{esc(signature.short())}</span></p>'
    )
    benchmark = report_class(group.benchmark)
    if not group.models:
        notes = {str(run.results.get("note") or "nothing scored") for run in group.runs}
        section.add(f'<p class="note">No scores: {esc("; ".join(sorted(notes)))}.</p>')
    elif benchmark is not None:
        benchmark.report_section(group, out, section)  # the benchmark owns its section
    else:
        section.add(
            f'<p class="note">No report layout for benchmark '
            f"{esc(group.benchmark)}; see results.json in the run folders.</p>"
        )
    return section


def render_page(plan: ReportPlan, sections: Sequence[Section]) -> str:
    """The complete HTML document (styles and script inline, data as escaped JSON)."""
    style, script = _asset("report.css"), _asset("report.js")
    csp = (
        "default-src 'none'; img-src data:; "
        f"style-src {_csp_hash(style)}; script-src {_csp_hash(script)}; "
        "base-uri 'none'; form-action 'none'"
    )
    benchmarks = sorted({g.benchmark for g in plan.groups})
    toc = "".join(f'<a href="#{esc(s.anchor)}">{esc(s.anchor)}</a>' for s in sections)
    blobs = "".join(
        f'<script type="application/json" id="{esc(blob_id)}">{json_for_script(data)}</script>\n'
        for s in sections
        for blob_id, data in s.data.items()
    )
    return (
        "\n".join(
            [
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
                f"biasbench {esc(__version__)}. Model outputs are shown as text, never "
                "interpreted.</p></header>",
                f'<nav class="toc">{toc}</nav>',
                "<main>",
                *[s.render() for s in sections],
                "</main>",
                blobs,
                f"<script>{script}</script>",
                "</body>",
                "</html>",
            ]
        )
        + "\n"
    )


def build_report(run_dirs: Sequence[Path | str], out: Path | str) -> Path:
    """Build ``out/report.html`` with its figures (PNG, PDF) and tables (Markdown, CSV, LaTeX).

    Runs of one benchmark whose signatures are comparable and that answered the same items are
    merged into one comparison; the others are reported separately with the reason.
    Returns the path of the HTML file.
    """
    out = Path(out)
    refusal = output_target_refusal(out, "report")
    if refusal:
        raise BiasbenchError(refusal)
    plan = load_runs(run_dirs)
    # Figures and tables are written into a staging folder beside ``out``, moved into place
    # once the page is complete: a full disk leaves no partial report.
    with staged_folder(out, "report") as staging:
        sections = [_runs_section(plan)] + [_group_section(g, staging) for g in plan.groups]
        write_text_atomically(staging / REPORT_NAME, render_page(plan, sections))
    return out / REPORT_NAME
