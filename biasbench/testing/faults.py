"""Fault injection against the real runner: one fault kind at a time, measured.

:func:`run_fault_case` runs ``n`` requests through the runner against the mock server with one
fault kind injected on every ``every``-th request (``once``: its first call only, as a transient
fault; ``always``: every call), then checks what a user relies on:

- every request ends answered or failed in the store, none lost, none stored twice;
- a rerun (after the server heals) makes zero calls for stored answers, one per failed request;
- the final outputs equal those of a fault-free run of the same requests.

It returns the counts (:class:`FaultOutcome`) that ``tests/runner/test_faults.py`` asserts on
and ``measurements/fault_matrix.py`` prints as a table.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from biasbench.models.base import GenerationParams, Prompt
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import Failure, MockConfig, MockServerThread, ReplyRule

Mode = Literal["once", "always"]

FAULTS: dict[str, Failure] = {
    "429 Retry-After": 429,
    "429 no Retry-After": "429-no-retry-after",
    "500": 500,
    "503": 503,
    "400": 400,
    "hang": "hang",
    "reset mid-body": "reset",
    "dropped connection": "drop",
    "malformed JSON": "malformed-json",
    "missing choices": "no-choices",
    "list content": "list-content",
    "dict content": "dict-content",
    "empty content": "empty-content",
    "invalid UTF-8": "invalid-utf8",
    "huge body": "huge-body",
    "server down and back": "down",
}
"""Fault kinds by display name."""

_BY_STATUS_KEY = {"429-no-retry-after": "429"}


@dataclass(frozen=True)
class FaultOutcome:
    """What one fault case did, counted from the server and the store."""

    kind: str
    mode: Mode
    requests: int
    """Distinct requests asked for."""
    faulted: int
    """Requests the fault was aimed at."""
    injected: int
    """Faults the server actually served (a dropped or hung call counts once)."""
    answered: int
    """Requests stored as ok after the first run."""
    empty: int
    """Of those, kept empty (marked ``info.empty``)."""
    failed: int
    """Requests stored as failed after the first run."""
    lost: int
    """Requests with no stored row at all after the first run (must be 0)."""
    duplicated: int
    """Stored rows beyond one per request (must be 0)."""
    calls: int
    """Model calls of the first run, retries included."""
    rerun_calls_for_stored: int
    """Calls the rerun made for requests already answered (must be 0)."""
    rerun_calls: int
    """All calls of the rerun (one per failed request)."""
    final_equal: bool
    """The outputs after the rerun equal a fault-free run's."""

    @property
    def repaid(self) -> int:
        """Calls of the first run beyond one per request."""
        return self.calls - self.requests


def fault_requests(n: int) -> list[Request]:
    """``n`` distinct requests; no prompt text contains another's (rules match substrings)."""
    return [
        Request(item_id=f"item-{i}", prompt=Prompt((("user", f"<item {i}>"),), f"<item {i}>"))
        for i in range(n)
    ]


def fault_policy() -> RetryPolicy:
    """The retry policy of the fault cases: the default's shape, scaled down 30 times (a
    1.5 s window instead of 45 s), so a whole matrix runs in seconds."""
    default = RetryPolicy()
    scale = 30.0
    return RetryPolicy(
        max_attempts=default.max_attempts,
        base_delay_s=default.base_delay_s / scale,
        max_delay_s=default.max_delay_s / scale,
        retry_window_s=default.retry_window_s / scale,
        max_retry_after_s=default.max_retry_after_s / scale,
        rng=random.Random(0),
    )


def _outputs(store: ResponseStore) -> dict[str, tuple[str, str | None]]:
    return {r.item_id: (r.status, r.output) for r in store.iter_records()}


def _run(
    base_url: str, store: ResponseStore, requests: list[Request], timeout_s: float, concurrency: int
) -> None:
    backend = OpenAIBackend("mock", base_url, timeout_s=timeout_s)
    run_requests_sync(
        backend,
        requests,
        GenerationParams(max_tokens=16),
        store,
        concurrency=concurrency,
        progress=False,
        retry=fault_policy(),
        flush_every=16,
        flush_interval_s=0.05,
    )


def baseline_outputs(n: int, folder: Path) -> dict[str, tuple[str, str | None]]:
    """What a fault-free run of ``fault_requests(n)`` stores."""
    with MockServerThread() as mock, ResponseStore(folder / "baseline.sqlite") as store:
        _run(mock.base_url, store, fault_requests(n), 5.0, 8)
        return _outputs(store)


def run_fault_case(
    kind: str,
    *,
    mode: Mode = "once",
    n: int = 24,
    every: int = 3,
    concurrency: int = 4,
    folder: Path | None = None,
    baseline: dict[str, tuple[str, str | None]] | None = None,
) -> FaultOutcome:
    """Run ``n`` requests with fault ``kind`` (a key of :data:`FAULTS`) on every ``every``-th
    one, rerun after the server heals, and count what happened."""
    failure = FAULTS[kind]
    with tempfile.TemporaryDirectory() as scratch:
        folder = folder or Path(scratch)
        requests = fault_requests(n)
        expected = baseline if baseline is not None else baseline_outputs(n, folder)
        targets = [r for i, r in enumerate(requests) if i % every == 0]
        if failure == "down":  # one outage; every request in flight meanwhile meets it
            targets = targets[1:2] if len(targets) > 1 else targets
        rules = [
            ReplyRule(
                contains=r.prompt.messages[-1][1],
                **(
                    {"fail_always": failure}
                    if mode == "always" and failure != "down"
                    else {"fail": (failure,)}
                ),
            )
            for r in targets
        ]
        config = MockConfig(
            rules=rules, retry_after_s=0.05, hang_s=3.0, huge_bytes=2 << 20, outage_s=0.3
        )
        store_path = folder / f"faults-{failure}-{mode}.sqlite"
        with MockServerThread(config) as mock:
            with ResponseStore(store_path) as store:
                _run(mock.base_url, store, requests, 0.5, concurrency)
                stats = mock.stats()
                rows = list(store.iter_records())
            key = _BY_STATUS_KEY.get(str(failure), str(failure))
            injected = stats["by_status"].get(key, 0)
            calls = stats["calls"]
            # The server heals; the rerun must ask only what is not answered.
            mock.server.config.rules = ()
            mock.reset()
            with ResponseStore(store_path) as store:
                _run(mock.base_url, store, requests, 5.0, concurrency)
                rerun = mock.stats()
                final = _outputs(store)
        ok_prompts = {r.prompt_text for r in rows if r.status == "ok"}
        item_ids = {r.item_id for r in rows}
        return FaultOutcome(
            kind=kind,
            mode=mode,
            requests=n,
            faulted=len(targets),
            injected=injected,
            answered=sum(r.status == "ok" for r in rows),
            empty=sum(r.status == "ok" and bool(r.info.get("empty")) for r in rows),
            failed=sum(r.status == "failed" for r in rows),
            lost=sum(r.item_id not in item_ids for r in requests),
            duplicated=len(rows) - len(item_ids),
            calls=calls,
            rerun_calls_for_stored=sum(
                count for prompt, count in rerun["by_prompt"].items() if prompt in ok_prompts
            ),
            rerun_calls=rerun["calls"],
            final_equal=final == expected,
        )
