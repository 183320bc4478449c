"""Before/after check of the BBQ answer parser: the labels must not move for the built-in
languages when the parser's rules change shape (the language tables moved from Python to pack
files, new pack fields added).

It records two things in one JSON file:

* every ``parse_answer`` call the parser test files make (their table corpora: output, the
  item's options, answer_info, unknown position and language) with the label it got, by
  running those test files under pytest with ``parse_answer`` wrapped;
* scripted runs (``biasbench.testing.synthetic_answers``: letters, option texts, unknown
  phrasings, unparsable answers) over the packaged items of several BBQ-family benchmarks,
  scored by the engine: the sha256 of each run's labels.jsonl and of its results.json without
  the signature and the parser version (meant to move), key by key: keys a newer version
  adds are not compared, every key the older one wrote must be byte-identical.

Run it on the old tree and the new one, then compare::

    mkdir /tmp/before && git archive main | tar -x -C /tmp/before
    (cd /tmp/before && PYTHONPATH=$PWD python $CHECKOUT/benchmarks/parser_before_after.py \
        record /tmp/before.json)
    PYTHONPATH=$PWD python measurements/parser_before_after.py record /tmp/after.json
    python measurements/parser_before_after.py compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

PARSER_TESTS = (
    "tests/engines/bbq_family/test_parser.py",
    "tests/engines/bbq_family/test_parser_languages.py",
    "tests/engines/bbq_family/test_refusal_phrasings.py",
    "tests/engines/bbq_family/test_hostile_inputs.py",
)
_T = Path("tests/benchmarks")
RUNS = (
    ("mbbq", {"data": _T / "mbbq/fixtures/data"}),
    ("esbbq", {"data": _T / "esbbq/fixtures/data_es"}),
    ("cabbq", {"data": _T / "esbbq/fixtures/data_ca"}),
    ("kobbq", {"data": _T / "kobbq/fixtures"}),
    ("jbbq", {"data": _T / "jbbq/fixtures/synthetic"}),
    (
        "cbbq",
        {
            "data": _T / "cbbq/fixtures/data",
            "categories": "SES,disability,disease,"
            "educational_qualification,ethnicity,gender,physical_appearance,region,"
            "religion,sexual_orientation",
        },
    ),
)
"""BBQ-family benchmarks over the test fixtures shipped in the tree (no download)."""
LIMIT = 300
MOVING = ("signature", "parser_version")
"""What is meant to move with a parser version: left out of the comparison."""


class _Recorder:
    """A pytest plugin: wraps parse_answer and keeps (call, label) pairs."""

    def __init__(self) -> None:
        self.calls: dict[str, Any] = {}

    def pytest_configure(self, config: Any) -> None:
        from biasbench.engines.bbq_family.judging import parser

        original = parser.parse_answer

        def recorded(output: Any, item: Any, language: Any = None, **kw: Any) -> Any:
            parsed = original(output, item, language, **kw)
            key = json.dumps(
                [
                    output if isinstance(output, str) else repr(output),
                    list(item.answers),
                    item.answer_info,
                    item.unknown_index,
                    getattr(item, "language", None),
                    language,
                ],
                ensure_ascii=False,
                sort_keys=True,
                default=str,
            )
            self.calls[key] = [parsed.index, str(parsed.method), parsed.evidence]
            return parsed

        parser.parse_answer = recorded


def _parser_calls() -> dict[str, Any]:
    import pytest

    recorder = _Recorder()
    pytest.main(["-q", "-p", "no:cacheprovider", "-x", *PARSER_TESTS], plugins=[recorder])
    return recorder.calls


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _runs() -> dict[str, Any]:
    from biasbench.benchmarks import get_benchmark
    from biasbench.testing.synthetic_answers import synthetic_responses

    found: dict[str, Any] = {}
    for name, options in RUNS:
        try:
            bench = get_benchmark(name, **options)
            items = bench.selected_items(LIMIT)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - a benchmark without its data here: say so
            found[name] = f"skipped: {exc}"
            continue
        frame = synthetic_responses(items, ["m1", "m2"], seeds=[0, 1, 2], rng=7)
        frame = frame.rename(columns={"uid": "item_id"})
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            signatures = {
                m: bench.signature({"name": m}, None, [0, 1, 2], LIMIT) for m in ("m1", "m2")
            }
            results = bench.evaluate(frame, out, signatures)  # type: ignore[attr-defined]
            for moving in MOVING:
                results.pop(moving, None)
            labels = (out / "labels.jsonl").read_bytes()
            found[name] = {
                "labels_sha256": _digest(labels),
                # per key: keys a newer version adds are not compared, keys it keeps are
                "results_sha256": {
                    key: _digest(json.dumps(value, sort_keys=True, default=str).encode())
                    for key, value in results.items()
                },
                "n_labels": labels.count(b"\n"),
            }
    return found


def record(path: Path) -> None:
    os.environ.setdefault("PYTHONHASHSEED", "0")
    payload = {"parser_calls": _parser_calls(), "runs": _runs()}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True))
    print(
        f"{len(payload['parser_calls'])} parser calls, runs: "
        f"{ {k: (v if isinstance(v, str) else v['n_labels']) for k, v in payload['runs'].items()} }"
        f" -> {path}"
    )


def compare(before_path: Path, after_path: Path) -> int:
    before, after = (json.loads(p.read_text()) for p in (before_path, after_path))
    moved = [
        k
        for k, v in before["parser_calls"].items()
        if k in after["parser_calls"] and after["parser_calls"][k] != v
    ]
    shared = sum(k in after["parser_calls"] for k in before["parser_calls"])
    print(f"parser calls: {shared} in both, {len(moved)} with another label")
    for key in moved[:20]:
        print("  moved:", key[:160], before["parser_calls"][key], "->", after["parser_calls"][key])
    bad = len(moved)
    for name, was in before["runs"].items():
        now = after["runs"].get(name)
        same = was == now or (
            not isinstance(was, str)
            and not isinstance(now, str)
            and now is not None
            and was["labels_sha256"] == now["labels_sha256"]
            and all(
                now["results_sha256"].get(k) == v
                for k, v in was["results_sha256"].items()
                if k not in MOVING
            )
        )
        bad += not same
        print(
            f"run {name}: {'identical' if same else 'DIFFERENT'} ({was if isinstance(was, str) else was['n_labels']} labels)"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["record"]:
        record(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
