"""Run N synthetic requests through the real runner against an OpenAI-compatible endpoint.

A small driver for tests that need the runner in its own process (to SIGKILL it mid-run) and
for manual soak tests::

    python -m tests.runner.drive_runner --base-url http://127.0.0.1:PORT/v1 \\
        --store runs/x/responses.sqlite --n 200 --concurrency 8

Request ``i`` asks ``item i`` (item id ``i``). On success it prints the run's statistics as one
JSON line; an unreachable endpoint prints the one-line error and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from biasbench.errors import EndpointError
from biasbench.models.base import GenerationParams, Prompt
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore


def synthetic_requests(n: int) -> list[Request]:
    """``n`` distinct requests: item ``i`` asks ``item i``."""
    return [
        Request(
            item_id=str(i), prompt=Prompt(messages=(("user", f"item {i}"),), completion=f"item {i}")
        )
        for i in range(n)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.runner.drive_runner")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--flush-every", type=int, default=256)
    parser.add_argument("--flush-interval", type=float, default=0.25)
    parser.add_argument("--api", choices=("chat", "completions"), default="chat")
    parser.add_argument("--max-attempts", type=int, default=6)
    args = parser.parse_args(argv)

    backend = OpenAIBackend("mock", args.base_url, api=args.api)
    store = ResponseStore(args.store)
    try:
        stats = run_requests_sync(
            backend,
            synthetic_requests(args.n),
            GenerationParams(),
            store,
            concurrency=args.concurrency,
            progress=False,
            flush_every=args.flush_every,
            flush_interval_s=args.flush_interval,
            retry=RetryPolicy(max_attempts=args.max_attempts, base_delay_s=0.01),
        )
    except EndpointError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(json.dumps(asdict(stats)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
