"""Agreement of the honorific-hi register judge with its labelled tables, and its speed.

    PYTHONPATH=$PWD python measurements/judge_agreement_hi.py

Prints, for the labelled table written from the spec before the rules
(``tests/benchmarks/honorific_hi_ur/data/labelled_hi.jsonl``) and the probe set written after
the first judge (``probes_hi.jsonl``) and 56 real outputs of the embedded gemma-3-270m, labelled
before the judge read them (``real_hi.jsonl``): agreement on the label and on every reading, the
confusion matrix (rows expected, columns judged), the rows missed, and the time to judge 2,016
outputs (the labelled outputs repeated) in a fresh process, import included, with ``uptime``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from biasbench.benchmarks.honorific_hi_ur.agreement import main  # noqa: E402

if __name__ == "__main__":
    main("hi")
