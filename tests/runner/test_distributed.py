"""Scale-out on Ray: a local Ray instance on loopback, two actors, the run's store with the driver."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark  # noqa: E402
from biasbench.errors import EndpointError  # noqa: E402
from biasbench.models.base import GenerationParams  # noqa: E402
from biasbench.models.registry import ModelOptions  # noqa: E402
from biasbench.pipeline import run_benchmark  # noqa: E402
from biasbench.runner.distributed import ModelWorker  # noqa: E402
from biasbench.runner.retry import RetryPolicy  # noqa: E402
from biasbench.runner.store import ResponseStore  # noqa: E402

LIMIT = 112


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Started by the test on this machine only, and stopped after.
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        _node_ip_address="127.0.0.1",
    )
    yield
    ray.shutdown()


def test_ray_run_equals_local_run_and_resumes(local_ray: None, tmp_path: Path) -> None:
    local = run_benchmark(
        "honorific-bn", "mock:hashed-register", out=tmp_path / "local", limit=LIMIT, progress=False
    )
    spread = run_benchmark(
        "honorific-bn",
        "mock:hashed-register",
        out=tmp_path / "ray",
        limit=LIMIT,
        progress=False,
        ray_workers=2,
    )
    assert (spread.stats.total, spread.stats.completed, spread.stats.calls) == (LIMIT, LIMIT, LIMIT)
    # The same responses, so the same statistics, as the local run.
    assert spread.results["models"] == local.results["models"]
    with ResponseStore(tmp_path / "ray" / "responses.sqlite") as store:
        records = list(store.iter_records())
    assert len(records) == LIMIT and len({r.key for r in records}) == LIMIT
    assert len({r.info["worker"] for r in records}) == 2  # both actors answered
    manifest = json.loads((tmp_path / "ray" / "manifest.json").read_text())
    assert manifest["executor"] == {"kind": "ray", "address": None, "workers": 2}
    # Rerunning the same command makes no model call.
    again = run_benchmark(
        "honorific-bn",
        "mock:hashed-register",
        out=tmp_path / "ray",
        limit=LIMIT,
        progress=False,
        ray_workers=2,
    )
    assert (again.stats.cached, again.stats.calls) == (LIMIT, 0)


def test_ray_run_against_an_unreachable_endpoint_fails_in_one_line(
    local_ray: None, tmp_path: Path
) -> None:
    url = "http://127.0.0.1:9/v1"
    with pytest.raises(EndpointError) as caught:
        run_benchmark(
            "honorific-bn",
            "openai:m",
            out=tmp_path / "run",
            limit=8,
            progress=False,
            options=ModelOptions(base_url=url),
            ray_workers=2,
            retry=RetryPolicy(base_delay_s=0.01, unreachable_attempts=2),
        )
    message = str(caught.value)
    assert url in message and "\n" not in message and "Traceback" not in message
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and url in manifest["error"]


def test_a_worker_reuses_its_replica_across_chunks() -> None:
    # A Ray actor answers many chunks with one backend: each chunk must find it usable.
    worker = ModelWorker("mock:hashed-register", ModelOptions())
    requests = HonorificBenchmark().requests(limit=8)
    for _ in range(2):
        records, calls, error = worker.run_chunk(requests, GenerationParams(), 4, None)
        assert (len(records), calls, error) == (8, 8, None)
        assert all(r.status == "ok" for r in records)


class FullDiskStore(ResponseStore):
    """A store whose disk fills after the first chunk."""

    def put_many(self, records):  # type: ignore[no-untyped-def]
        import sqlite3

        if self.counts()["ok"]:
            raise sqlite3.OperationalError("database or disk is full")
        super().put_many(records)


def test_ray_driver_store_failure_stops_in_one_line(local_ray: None, tmp_path: Path) -> None:
    from biasbench.models.registry import load_model
    from biasbench.runner.distributed import run_requests_ray
    from biasbench.runner.runner import StoreWriteError

    requests = HonorificBenchmark().requests(limit=LIMIT)
    with FullDiskStore(tmp_path / "r.sqlite") as store:
        with pytest.raises(StoreWriteError) as caught:
            run_requests_ray(
                "mock:hashed-register",
                ModelOptions(),
                load_model("mock:hashed-register"),
                requests,
                GenerationParams(),
                store,
                workers=2,
                chunk_size=16,
                progress=False,
            )
        stored = store.counts()["ok"]
    message = str(caught.value)
    assert "database or disk is full" in message and "\n" not in message
    assert stored == 16  # the first chunk, then nothing more was sent or stored
