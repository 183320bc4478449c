"""The fault-injection suite: every fault kind the mock server can inject, against the real
runner and HTTP backend. For each: every request ends answered or failed, none is lost or
stored twice, a rerun makes zero calls for stored answers, and the final outputs equal a
fault-free run's."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasbench.testing.faults import FAULTS, baseline_outputs, run_fault_case

N = 24
EVERY = 3
FAULTED = 8  # requests 0, 3, ..., 21

# Kinds a retry cannot fix within the run: stored failed at once, answered by the rerun.
PERMANENT = {"400", "dict content"}
# Kinds that are an answer as it is: no call is repeated.
ANSWERS = {"list content", "huge body"}


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return baseline_outputs(N, tmp_path_factory.mktemp("baseline"))


@pytest.mark.parametrize("kind", list(FAULTS))
def test_fault_once(kind: str, baseline: dict, tmp_path: Path) -> None:
    outcome = run_fault_case(
        kind, mode="once", n=N, every=EVERY, folder=tmp_path, baseline=baseline
    )
    faulted = 1 if kind == "server down and back" else FAULTED
    assert outcome.faulted == faulted
    assert outcome.injected >= faulted  # the fault really happened
    # nothing lost, nothing stored twice, every request answered or failed
    assert (outcome.lost, outcome.duplicated) == (0, 0)
    assert outcome.answered + outcome.failed == N
    assert outcome.failed == (FAULTED if kind in PERMANENT else 0)
    assert outcome.empty == 0  # an empty answer once is asked again, and answered
    # paid for once per request, plus the retries the faults called for
    if kind in ANSWERS:
        assert outcome.repaid == 0
    elif kind in PERMANENT:
        assert outcome.repaid == 0  # not retried within the run
    else:
        assert outcome.repaid >= 1
    # the rerun asks only what is not answered, and the numbers equal a fault-free run's
    assert outcome.rerun_calls_for_stored == 0
    assert outcome.rerun_calls == outcome.failed
    assert outcome.final_equal


@pytest.mark.parametrize(
    ("kind", "failed", "empty", "final_equal"),
    [
        ("503", FAULTED, 0, True),  # given up after the window, answered on rerun
        ("malformed JSON", FAULTED, 0, True),
        ("dict content", FAULTED, 0, True),
        ("empty content", 0, FAULTED, False),  # kept, marked and counted: not a fault-free run
        ("list content", 0, 0, True),
    ],
)
def test_fault_always(
    kind: str, failed: int, empty: int, final_equal: bool, baseline: dict, tmp_path: Path
) -> None:
    outcome = run_fault_case(
        kind, mode="always", n=N, every=EVERY, folder=tmp_path, baseline=baseline
    )
    assert (outcome.lost, outcome.duplicated) == (0, 0)
    assert (outcome.answered, outcome.failed, outcome.empty) == (N - failed, failed, empty)
    assert outcome.rerun_calls_for_stored == 0
    assert outcome.rerun_calls == failed
    assert outcome.final_equal is final_equal
    # a request that keeps failing costs a bounded number of calls
    assert outcome.repaid <= FAULTED * 11
