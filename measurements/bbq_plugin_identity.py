"""The BBQ engine's outputs, digested: do results.json, the tables, labels, the summary and the
report's HTML stay byte-identical across a refactoring of the engine?

Runs every BBQ-family benchmark offline on the small data slices the tests use (the mock
backend, fixture folders; FilBBQ on ../shared/reference's templates), plus the cases that reach
each of the engine's analyses: a multi-language run (by-language, cross-language, MBBQ's
control comparison), a robustness grid on it, an option-scored run (a scripted backend that
scores options), ``score --responses`` and ``score --from lm-eval|inspect``; then builds one
HTML report per folder. Paths are written as ``<WORK>`` / ``<ROOT>`` and the run time is dropped
from the summary, so two checkouts compare.

    python measurements/bbq_plugin_identity.py --write measurements/bbq_plugin_identity.json
    python measurements/bbq_plugin_identity.py --check measurements/bbq_plugin_identity.json

``--check`` prints every digest that differs and exits 1 if any does. Figures (PNG/PDF) are not
digested: matplotlib's output is not part of the claim; their file names are.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "benchmarks"
SHARED = Path(os.environ.get("BIASBENCH_SHARED", ROOT.parent / "shared"))
FILBBQ_TEMPLATES = SHARED / "reference" / "filbbq" / "templates"
MOCK = ("--model", "mock:hashed-letter", "--no-progress")
BBQ_CATEGORIES = "Disability_status,SES,Race_x_SES,Race_x_gender"
HARNESS = ROOT / "tests" / "fixtures" / "harness_logs"
TIMING = re.compile(r"; \d+(\.\d+)?s\)")
CLOCK = re.compile(r'"(started_at|finished_at|elapsed_s|requests_elapsed_s)": [-+.\deE]+')
"""results.json's timing of a run (its signature's clock): different on every run."""
DIGESTED = ("results.json", "labels.jsonl")


def cli(work: Path, *args: object) -> str:
    """``biasbench ARGS`` in a fresh interpreter; its stdout, paths and timing normalised."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "300",
        "BIASBENCH_CACHE": str(work / "cache"),
        "BIASBENCH_FILBBQ_BASE_URL": "http://127.0.0.1:9",
    }
    done = subprocess.run(
        [sys.executable, "-m", "biasbench", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"biasbench {' '.join(map(str, args))} failed:\n{done.stderr}")
    return normalise(done.stdout, work)


def normalise(text: str, work: Path) -> str:
    text = CLOCK.sub(lambda m: f'"{m.group(1)}": 0', text)
    return TIMING.sub(")", text.replace(str(work), "<WORK>").replace(str(ROOT), "<ROOT>"))


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def folder_digests(folder: Path, work: Path) -> dict[str, str]:
    """results.json, labels.jsonl, every table, the figures' names (paths normalised)."""
    out = {}
    for name in DIGESTED:
        path = folder / name
        if path.is_file():
            out[name] = sha(normalise(path.read_text(encoding="utf-8"), work).encode())
    for path in sorted((folder / "tables").glob("*")):
        out[f"tables/{path.name}"] = sha(normalise(path.read_text(encoding="utf-8"), work).encode())
    figures = sorted(p.name for p in (folder / "figures").glob("*"))
    out["figures (names)"] = sha("\n".join(figures).encode())
    return out


def report_digest(folder: Path, work: Path) -> str:
    out = work / "reports" / folder.name
    cli(work, "report", folder, "--out", out)
    return sha(normalise((out / "report.html").read_text(encoding="utf-8"), work).encode())


def runs(work: Path) -> dict[str, str]:
    """Case name -> summary (stdout) of every case; folders under work/<case>."""
    sys.path.insert(0, str(ROOT))
    from tests.benchmarks.cbbq.test_cbbq import CATEGORY_ARG as cbbq_categories

    kobbq, cbbq = TESTS / "kobbq" / "fixtures", TESTS / "cbbq" / "fixtures" / "data"
    esbbq, mbbq = TESTS / "esbbq" / "fixtures", TESTS / "mbbq" / "fixtures" / "data"
    templates = TESTS / "bbq" / "fixtures" / "bbq_templates"
    bbq_items = ",".join(str(work / "bbq_items" / f"{c}.jsonl") for c in BBQ_CATEGORIES.split(","))
    summaries = {
        "bbq": cli(
            work,
            "run",
            "bbq",
            *MOCK,
            "--limit",
            40,
            "--items",
            bbq_items,
            "--templates",
            templates,
            "--out",
            work / "bbq",
        ),
        "kobbq": cli(
            work, "run", "kobbq", *MOCK, "--limit", 48, "--data", kobbq, "--out", work / "kobbq"
        ),
        "cbbq": cli(
            work,
            "run",
            "cbbq",
            *MOCK,
            "--limit",
            40,
            "--data",
            cbbq,
            "--categories",
            cbbq_categories,
            "--out",
            work / "cbbq",
        ),
        "esbbq": cli(
            work,
            "run",
            "esbbq",
            *MOCK,
            "--limit",
            40,
            "--data",
            esbbq / "data_es",
            "--out",
            work / "esbbq",
        ),
        "esbbq_parallel": cli(
            work,
            "run",
            "esbbq",
            *MOCK,
            "--parallel",
            "--data",
            esbbq,
            "--seeds",
            2,
            "--out",
            work / "esbbq_parallel",
        ),
        "mbbq": cli(
            work,
            "run",
            "mbbq",
            *MOCK,
            "--limit",
            96,
            "--languages",
            "en,es",
            "--data",
            mbbq,
            "--seeds",
            2,
            "--out",
            work / "mbbq",
        ),
        "mbbq_grid": cli(
            work,
            "run",
            "mbbq",
            *MOCK,
            "--limit",
            48,
            "--languages",
            "en,es",
            "--data",
            mbbq,
            "--seeds",
            2,
            "--vary",
            "seeds,order",
            "--orders",
            "cyclic",
            "--out",
            work / "mbbq_grid",
        ),
        "jbbq": cli(
            work,
            "run",
            "jbbq",
            *MOCK,
            "--limit",
            20,
            "--data",
            TESTS / "jbbq" / "fixtures" / "synthetic",
            "--out",
            work / "jbbq",
        ),
        "score_bbq": cli(
            work,
            "score",
            "bbq",
            "--items",
            bbq_items,
            "--templates",
            templates,
            "--responses",
            work / "bbq_responses.jsonl",
            "--out",
            work / "score_bbq",
        ),
        "from_lm_eval": cli(
            work,
            "score",
            "bbq",
            "--items",
            HARNESS / "bbq_items.jsonl",
            "--from",
            "lm-eval",
            "--responses",
            HARNESS / "lm_eval_bbq",
            "--out",
            work / "from_lm_eval",
        ),
        "from_inspect": cli(
            work,
            "score",
            "bbq",
            "--items",
            HARNESS / "bbq_items.jsonl",
            "--from",
            "inspect",
            "--responses",
            HARNESS / "inspect_bbq.eval",
            "--out",
            work / "from_inspect",
        ),
        "from_lm_eval_esbbq": cli(
            work,
            "score",
            "esbbq",
            "--data",
            esbbq / "data_es",
            "--from",
            "lm-eval",
            "--responses",
            HARNESS / "lm_eval_esbbq",
            "--out",
            work / "from_lm_eval_esbbq",
        ),
    }
    if FILBBQ_TEMPLATES.is_dir():
        summaries["filbbq"] = cli(
            work,
            "run",
            "filbbq",
            *MOCK,
            "--limit",
            104,
            "--seeds",
            3,
            "--templates",
            FILBBQ_TEMPLATES,
            "--out",
            work / "filbbq",
        )
    summaries["option_scores"] = option_scored_run(work)
    return summaries


def bbq_responses(work: Path) -> None:
    """A responses file for ``score bbq``: the bbq run's labels as outputs produced elsewhere
    (three seeds of letters), so ``score`` reads text and parses it."""
    rows = []
    for line in (work / "bbq_items" / "SES.jsonl").read_text(encoding="utf-8").splitlines()[:24]:
        item = json.loads(line)
        for seed in range(3):
            letter = "ABC"[(item["example_id"] + seed) % 3]
            rows.append(
                {
                    "example_id": item["example_id"],
                    "category": item["category"],
                    "model": "elsewhere",
                    "seed": seed,
                    "output": f"({letter})",
                }
            )
    (work / "bbq_responses.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )


def option_scored_run(work: Path) -> str:
    """An option-scored run (results.json: option_scoring) through the API, in this process,
    on a scripted backend whose per-character and summed choices differ."""
    from biasbench.models.base import Generation, GenerationParams, ModelBackend, OptionScore
    from biasbench.models.base import Prompt as PromptType
    from biasbench.pipeline import run_benchmark

    class Scripted(ModelBackend):
        kind = "mock"
        mode = "completion"  # type: ignore[assignment]
        can_generate = True
        can_score_options = True

        @property
        def model_id(self) -> str:
            return "scripted"

        async def generate(
            self, prompt: PromptType, params: GenerationParams, seed: int | None
        ) -> Generation:
            return Generation(text="C", prompt_text=prompt.text_for(self.mode))

        async def score_options_detailed(
            self, prompt: PromptType, options: list[str]
        ) -> list[OptionScore]:
            return [
                OptionScore(-1.0 * len(o) ** 0.5 - 0.3 * (i == 1), 2) for i, o in enumerate(options)
            ]

        async def score_options(self, prompt: PromptType, options: list[str]) -> list[float]:
            return [s.logprob for s in await self.score_options_detailed(prompt, options)]

    items = ",".join(str(work / "bbq_items" / f"{c}.jsonl") for c in ("Disability_status", "SES"))
    done = run_benchmark(
        "bbq",
        "mock",
        backend=Scripted(),
        out=work / "option_scores",
        seeds=[0],
        progress=False,
        benchmark_options={"items": items},
    )
    from biasbench.registry import benchmark_class

    return "\n".join(benchmark_class("bbq").summary(done.results)) + "\n"


def digests(work: Path) -> dict[str, dict[str, str]]:
    work.mkdir(parents=True, exist_ok=True)
    cli(
        work,
        "data",
        "bbq",
        "--templates",
        TESTS / "bbq" / "fixtures" / "bbq_templates",
        "--out",
        work / "bbq_items",
        "--seed",
        3,
        "--categories",
        BBQ_CATEGORIES,
    )
    bbq_responses(work)
    summaries = runs(work)
    out: dict[str, dict[str, str]] = {}
    for case, summary in summaries.items():
        folder = work / case
        found = {
            "summary": sha(summary.encode()),
            **folder_digests(folder, work),
            "report.html": report_digest(folder, work),
        }
        out[case] = found
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, help="write the digests to this JSON file")
    action.add_argument("--check", type=Path, help="compare with the digests in this file")
    parser.add_argument(
        "--keep", type=Path, help="run in this folder (kept) instead of a temporary one"
    )
    args = parser.parse_args()
    if args.keep:
        found = digests(args.keep.resolve())
    else:
        with tempfile.TemporaryDirectory(prefix="bbq-identity-") as tmp:
            found = digests(Path(tmp))
    if args.write:
        args.write.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{sum(map(len, found.values()))} digests of {len(found)} cases -> {args.write}")
        return 0
    expected = json.loads(args.check.read_text(encoding="utf-8"))
    differ = [
        f"{case}: {name}"
        for case in sorted(set(expected) | set(found))
        for name in sorted(set(expected.get(case, {})) | set(found.get(case, {})))
        if expected.get(case, {}).get(name) != found.get(case, {}).get(name)
    ]
    for line in differ:
        print(f"DIFFERS {line}")
    print(f"{sum(map(len, found.values())) - len(differ)} digests identical, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
