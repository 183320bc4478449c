"""The run folder: its layout (every file name, defined only here) and what it guarantees: one
writer at a time, one configuration, and derived files that match the store they were computed
from.

- **One writer.** :func:`~biasbench.runfolder.lock.run_lock` takes an exclusive ``flock`` on
  ``RUN_DIR/.lock`` for the whole run. The kernel drops it when the process ends, however it
  ends (SIGKILL included), so a stale lock never blocks anyone. A second writer fails at once
  with one line naming the folder and the process holding it, or waits for it (``--wait``).
- **One configuration.** The store records the folder's identity (benchmark, item set, prompt,
  model description, decoding, seeds, ``--limit``) on first use; a run of anything else into
  the folder is refused with one line that names what the folder holds
  (:mod:`~biasbench.runfolder.identity`).
- **Derived files are never torn or trusted blindly.** Scoring writes every derived file
  (labels.jsonl, results.json, tables/, figures/) into a staging folder inside the run folder,
  then moves them into place (``os.replace``: each file is either the old one or the new one).
  The manifest, written last, records each derived file's size, line count and sha256 and the
  number of stored answers they were computed from. Readers
  (:func:`~biasbench.runfolder.derived.verify_derived`) check them and refuse, with one line, a
  folder whose files do not match: they never compute from a short or stale file.

The modules, by purpose: ``lock`` (one writer), ``identity`` (one configuration), ``targets``
(what a writer may write into), ``derived`` (staging, publishing, verifying, results.json),
``history`` (history.jsonl), ``records`` (the manifest and history entries, typed), ``reading``
(one folder read for reports and exports), ``grouping`` (which runs compare), ``catalog``
(``biasbench runs``: the folders under a directory and their state). The response store itself
(``responses.sqlite``) belongs to the runner that writes it (:mod:`biasbench.runner.store`).
"""

from __future__ import annotations

from biasbench.errors import BiasbenchError

LOCK_NAME = ".lock"
STAGING_PREFIX = ".staging-"
RETIRED_PREFIX = ".retired-"
# The run-folder layout, defined here only (the pipeline, the benchmarks and the report read it).
MANIFEST_NAME = "manifest.json"
"""Signature, command options, counts, status and the record of every derived file."""
STORE_NAME = "responses.sqlite"
"""Every request and response: the source of truth of a run (resumable)."""
LABELS_NAME = "labels.jsonl"
"""One judged response per line, with its evidence."""
RESULTS_NAME = "results.json"
"""Scores with their statistics and the signature (written once, by the pipeline or score)."""
TABLES_DIR = "tables"
"""Markdown, CSV and LaTeX tables."""
FIGURES_DIR = "figures"
HISTORY_NAME = "history.jsonl"
"""One line per invocation that wrote to the folder (options, counts, timing, package version):
appended, never rewritten, and not a derived file (scoring never replaces it)."""
DERIVED_NAMES = (LABELS_NAME, RESULTS_NAME, TABLES_DIR, FIGURES_DIR)
"""Everything scoring writes into a run folder (files and folders), all rebuilt from the store."""


class RunFolderError(BiasbenchError):
    """A run folder that cannot be used as asked (busy, another configuration, torn files)."""


def is_leftover(name: str) -> bool:
    """Whether a file name is one biasbench's own writers leave behind: the lock, a staging or
    retired folder, or the temporary file of an atomic write (``.NAME.XXXX.tmp``)."""
    return (
        name == LOCK_NAME
        or name.startswith((STAGING_PREFIX, RETIRED_PREFIX))
        or (name.startswith(".") and name.endswith(".tmp"))
    )
