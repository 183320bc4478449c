"""Runner throughput against a local zero-latency mock OpenAI-compatible server.

Prints figures, it does not assert them: requests per second and harness CPU time per request
through the whole runner (key computation, HTTP, JSON, retries bookkeeping and SQLite writes
included, a fresh store each time) at several concurrency levels, side by side with a bare
aiohttp loop sending the same requests, and the fixed start-up cost (imports, store open,
HTTP session) measured in a fresh interpreter.

    .venv/bin/python measurements/runner_throughput.py [--requests 2000] [--concurrency 1,16,64]

The mock server runs as a separate process on 127.0.0.1, so the CPU figures are the client's
alone. Goals: at concurrency 64 at least 4,000 requests/s and under 0.5 s start-up.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from biasbench.models.base import GenerationParams, Prompt
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.runner.runner import Request, _loop_factory, run_requests_sync
from biasbench.runner.store import ResponseStore

GOAL_RPS_AT_64 = 4000.0
GOAL_STARTUP_S = 0.5

STARTUP_PROBE = textwrap.dedent("""
    import time
    t0 = time.perf_counter()
    import asyncio, json, sys, tempfile
    from pathlib import Path
    from biasbench.models.base import GenerationParams, Prompt
    from biasbench.models.openai_compat import OpenAIBackend
    from biasbench.runner.runner import Request, run_requests
    from biasbench.runner.store import ResponseStore
    t_import = time.perf_counter()
    store = ResponseStore(Path(tempfile.mkdtemp()) / "responses.sqlite")
    t_store = time.perf_counter()

    async def main():
        backend = OpenAIBackend("mock", sys.argv[1])
        await backend.open()
        t_session = time.perf_counter()
        await run_requests(backend, [Request("0", Prompt((("user", "hello"),), "hello"))],
                           GenerationParams(), store, progress=False)
        t_first = time.perf_counter()
        await backend.aclose()
        return t_session, t_first

    t_session, t_first = asyncio.run(main())
    print(json.dumps({"import_s": t_import - t0, "store_s": t_store - t_import,
                      "session_s": t_session - t_store, "first_response_s": t_first - t_session,
                      "before_first_request_s": t_session - t0}))
""")


@dataclass
class Measurement:
    """One timed pass over all requests."""

    wall_s: float
    cpu_s: float
    requests: int

    @property
    def rps(self) -> float:
        return self.requests / self.wall_s

    @property
    def cpu_us_per_request(self) -> float:
        return self.cpu_s / self.requests * 1e6


def start_mock_server() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "biasbench.testing.mock_openai", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    port = int(process.stdout.readline())
    return process, f"http://127.0.0.1:{port}"


def server_calls(root: str) -> int:
    with urllib.request.urlopen(f"{root}/stats", timeout=10) as response:
        return int(json.loads(response.read())["calls"])


def make_requests(n: int, tag: str) -> list[Request]:
    return [
        Request(
            item_id=str(i),
            prompt=Prompt(
                messages=(
                    ("system", "Translate into Bengali."),
                    ("user", f"[{tag}] The teacher {i} will come at nine."),
                ),
                completion=f"The teacher {i} will come at nine.",
            ),
        )
        for i in range(n)
    ]


def measure_runner(base_url: str, n: int, concurrency: int, tag: str) -> Measurement:
    requests = make_requests(n, tag)  # unique prompts per pass, so nothing is cached
    with tempfile.TemporaryDirectory() as folder:
        store = ResponseStore(Path(folder) / "responses.sqlite")
        backend = OpenAIBackend("mock", base_url)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        stats = run_requests_sync(
            backend, requests, GenerationParams(), store, concurrency=concurrency, progress=False
        )
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        counts = store.counts()
        store.close()
    if stats.completed != n or counts["ok"] != n:
        raise RuntimeError(f"runner pass incomplete: {stats}, store {counts}")
    return Measurement(wall, cpu, n)


async def _bare_loop(url: str, n: int, concurrency: int, tag: str) -> None:
    """The floor: aiohttp alone, same payloads and JSON work, no keys, retries or store."""
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        work = iter(make_requests(n, tag))

        async def worker() -> None:
            for request in work:
                body = json.dumps(
                    {
                        "model": "mock",
                        "messages": request.prompt.as_chat(),
                        "temperature": 0.0,
                        "max_tokens": 128,
                    }
                ).encode()
                async with session.post(
                    url, data=body, headers={"Content-Type": "application/json"}
                ) as reply:
                    json.loads(await reply.read())["choices"][0]["message"]["content"]

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def measure_bare(base_url: str, n: int, concurrency: int, tag: str) -> Measurement:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(_bare_loop(f"{base_url}/chat/completions", n, concurrency, tag))
    return Measurement(time.perf_counter() - wall0, time.process_time() - cpu0, n)


def measure_startup(base_url: str, repeat: int) -> dict[str, float]:
    """Median over ``repeat`` fresh interpreters of the fixed start-up cost."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", STARTUP_PROBE, base_url],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(out.stdout))
    return {name: statistics.median(r[name] for r in runs) for name in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", default="1,16,64")
    parser.add_argument("--repeat", type=int, default=3, help="passes per cell; median shown")
    parser.add_argument("--json", type=Path, default=None, help="also write figures here")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]

    server, root = start_mock_server()
    base_url = f"{root}/v1"
    try:
        loop_name = "uvloop" if _loop_factory() is not None else "asyncio"
        print(
            f"mock server {root} (separate process, zero latency); client event loop: "
            f"{loop_name}; {args.requests} chat requests per pass, median of {args.repeat}"
        )
        # Warm-up pass: first connections, page cache, lazily imported modules.
        measure_runner(base_url, 200, 8, "warm-up")
        rows = []
        for concurrency in levels:
            runner_runs, bare_runs = [], []
            for r in range(args.repeat):
                calls_before = server_calls(root)
                runner_runs.append(
                    measure_runner(
                        base_url, args.requests, concurrency, f"runner-{concurrency}-{r}"
                    )
                )
                made = server_calls(root) - calls_before
                if made != args.requests:
                    raise RuntimeError(f"server saw {made} calls, expected {args.requests}")
                bare_runs.append(
                    measure_bare(base_url, args.requests, concurrency, f"bare-{concurrency}-{r}")
                )
            runner_m = sorted(runner_runs, key=lambda m: m.rps)[len(runner_runs) // 2]
            bare_m = sorted(bare_runs, key=lambda m: m.rps)[len(bare_runs) // 2]
            rows.append(
                {
                    "concurrency": concurrency,
                    "runner_rps": runner_m.rps,
                    "bare_rps": bare_m.rps,
                    "ratio": runner_m.rps / bare_m.rps,
                    "runner_cpu_us": runner_m.cpu_us_per_request,
                    "bare_cpu_us": bare_m.cpu_us_per_request,
                }
            )
        startup = measure_startup(base_url, args.repeat)
    finally:
        server.terminate()
        server.wait(timeout=10)

    header = (
        f"{'concurrency':>11} | {'runner req/s':>12} | {'bare aiohttp req/s':>18} | "
        f"{'runner/bare':>11} | {'runner CPU µs/req':>17} | {'bare CPU µs/req':>15}"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['concurrency']:>11} | {row['runner_rps']:>12,.0f} | {row['bare_rps']:>18,.0f} "
            f"| {row['ratio']:>11.2f} | {row['runner_cpu_us']:>17.0f} | "
            f"{row['bare_cpu_us']:>15.0f}"
        )
    print()
    print(
        "start-up in a fresh interpreter (median): "
        + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in startup.items())
    )
    at_64 = next((r["runner_rps"] for r in rows if r["concurrency"] == 64), None)
    if at_64 is not None:
        verdict = "met" if at_64 >= GOAL_RPS_AT_64 else "NOT met"
        print(f"goal ≥ {GOAL_RPS_AT_64:,.0f} req/s at concurrency 64: {at_64:,.0f} ({verdict})")
    verdict = "met" if startup["before_first_request_s"] < GOAL_STARTUP_S else "NOT met"
    print(
        f"goal < {GOAL_STARTUP_S} s start-up before the first request: "
        f"{startup['before_first_request_s']:.3f} s ({verdict})"
    )
    if args.json:
        args.json.write_text(
            json.dumps({"rows": rows, "startup": startup, "event_loop": loop_name}, indent=2)
        )


if __name__ == "__main__":
    main()
