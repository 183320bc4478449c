"""JSON helpers shared by results writers."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from biasbench.fsutil import write_text_atomically


def jsonable(obj: Any) -> Any:
    """NaN/inf -> None (undefined is null in JSON, never 0); numpy scalars and arrays -> Python."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def write_json(obj: Any, path: Path) -> None:
    """Write ``obj`` as indented UTF-8 JSON atomically (a crash never leaves half a file)."""
    write_text_atomically(path, json.dumps(jsonable(obj), indent=2, ensure_ascii=False) + "\n")
