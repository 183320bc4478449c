"""Results that travel: a run's scores and responses in the field's shared formats.

- ``eee``: Every Eval Ever aggregate and instance records (:mod:`.eee`);
- ``hf-eval-results``: a model repository's ``.eval_results/*.yaml`` and a benchmark owner's
  ``eval.yaml`` draft (:mod:`.hf_results`);
- ``inspect``: an Inspect eval log per run and model, for ``inspect view`` (:mod:`.inspect_log`).

Every record carries the run's signature and the dataset's licence and terms
(:mod:`.provenance`); the public-hub formats are refused, in one line, for data whose items may
not be redistributed. docs/exporting.md maps the fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from biasbench.errors import BiasbenchError

TRAVEL_FORMATS: tuple[str, ...] = ("eee", "hf-eval-results", "inspect")


def export_travelling(
    runs: Sequence[Path | str], fmt: str, out: Path, hf_dataset: str | None = None
) -> tuple[list[Path], list[str]]:
    """Write ``runs`` in ``fmt`` (one of :data:`TRAVEL_FORMATS`) under ``out``. Returns the
    files written and notes for the user (fields left out, scores with no headline)."""
    from biasbench.exporting.provenance import provenance_of, refuse_public
    from biasbench.runfolder.reading import load_run
    from biasbench.runfolder.targets import output_target_refusal

    if fmt not in TRAVEL_FORMATS:
        raise BiasbenchError(f"--format must be one of {', '.join(TRAVEL_FORMATS)}, not {fmt!r}")
    if not runs:
        raise BiasbenchError("no run folders given")
    out = Path(out)
    refusal = output_target_refusal(out, "export")
    if refusal:
        raise BiasbenchError(refusal)
    folders = [load_run(r) for r in runs]
    provenances = {f.benchmark: provenance_of(f.benchmark) for f in folders}
    for provenance in provenances.values():  # before anything is written
        refuse_public(provenance, fmt)
    if fmt == "eee":
        from biasbench.exporting.eee import write_eee

        return write_eee(folders, provenances, out), []
    if fmt == "hf-eval-results":
        from biasbench.exporting.hf_results import write_hf_results

        return write_hf_results(folders, provenances, out, hf_dataset)
    from biasbench.exporting.inspect_log import write_inspect_logs

    return write_inspect_logs(folders, provenances, out)
