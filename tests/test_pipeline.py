"""A run against an OpenAI-compatible endpoint that fails: nothing finished is lost, and a rerun
completes the run calling only for what is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasbench.models.openai_compat import OpenAIBackend
from biasbench.pipeline import run_benchmark
from biasbench.runfolder import RunFolderError
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.store import ResponseStore
from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule

LIMIT = 56
QUICK_RETRY = RetryPolicy(max_attempts=3, base_delay_s=0.01, max_delay_s=0.05, retry_window_s=0.0)


def test_failing_requests_are_recorded_then_retried_on_rerun(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-key")
    run_dir = tmp_path / "run"
    # Every magistrate sentence fails with 503 whatever the retries; the rest answer in Bengali.
    failing = MockConfig(
        rules=[
            ReplyRule(contains="magistrate", fail_always=503),
            ReplyRule(contains="", reply="তিনি নয়টায় আসবেন।"),
        ],
        retry_after_s=None,
    )
    with MockServerThread(failing) as server:
        backend = OpenAIBackend("served-model", server.base_url)
        first = run_benchmark(
            "honorific-bn",
            out=run_dir,
            limit=LIMIT,
            progress=False,
            backend=backend,
            retry=QUICK_RETRY,
        )
    assert (first.stats.completed, first.stats.failed) == (28, 28)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["status"] == "incomplete" and manifest["counts"]["failed"] == 28
    with ResponseStore(run_dir / "responses.sqlite") as store:
        failed = [r for r in store.iter_records(status="failed")]
        assert len(failed) == 28 and all("503" in (r.error or "") for r in failed)
        assert all(r.attempts == 3 for r in failed)
    # The key never reaches the run folder.
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert b"sk-test-secret-key" not in path.read_bytes(), path
    # Rerun against a healthy endpoint: only the 28 failed requests are sent.
    healthy = MockConfig(rules=[ReplyRule(contains="", reply="সে নয়টায় আসবে।")])
    with MockServerThread(healthy) as server:
        backend = OpenAIBackend("served-model", server.base_url)
        second = run_benchmark(
            "honorific-bn", out=run_dir, limit=LIMIT, progress=False, backend=backend
        )
        calls = server.stats()["calls"]
    assert calls == 28
    assert (second.stats.cached, second.stats.completed, second.stats.failed) == (28, 28, 0)
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "complete"
    counts = second.results["label_counts"]["served-model"]
    assert counts == {"honorific": 28, "ordinary": 28}


def test_a_run_where_everything_failed_says_so(tmp_path: Path) -> None:
    config = MockConfig(rules=[ReplyRule(contains="", fail_always=500)], retry_after_s=None)
    with MockServerThread(config) as server:
        result = run_benchmark(
            "honorific-bn",
            out=tmp_path / "run",
            limit=4,
            progress=False,
            backend=OpenAIBackend("m", server.base_url),
            retry=QUICK_RETRY,
        )
    assert (result.stats.completed, result.stats.failed) == (0, 4)
    assert result.results["models"] == {}
    assert result.summary == ["m: no successful responses to score"]
    saved = json.loads((tmp_path / "run" / "results.json").read_text())
    assert saved["note"] == "no successful responses to score"


def test_replay_key_covers_the_file(tmp_path: Path) -> None:
    responses = tmp_path / "outputs.jsonl"

    def write(outputs: dict[str, str]) -> None:
        responses.write_text(
            "".join(
                json.dumps({"item_id": k, "model": "m", "output": v}, ensure_ascii=False) + "\n"
                for k, v in outputs.items()
            ),
            encoding="utf-8",
        )

    items = ["judge|T1|male", "judge|T1|female", "judge|T1|nopronoun", "judge|T1|they"]
    write({i: "সে নয়টায় আসবে।" for i in items})
    first = run_benchmark(
        "honorific-bn", f"replay:{responses}", out=tmp_path / "run", limit=4, progress=False
    )
    assert first.results["label_counts"]["replay:m"] == {"ordinary": 4}
    # The file is edited: its answers are another model's answers. They are never served from
    # the store, and never mixed into the first file's folder (one configuration per folder).
    write({i: "তিনি নয়টায় আসবেন।" for i in items})
    with pytest.raises(
        RunFolderError,
        match=r"holds honorific-bn answers of replay:replay:m "
        r"\(chat\), --limit 4.*differs in model \(file_sha256\)",
    ):
        run_benchmark(
            "honorific-bn", f"replay:{responses}", out=tmp_path / "run", limit=4, progress=False
        )
    second = run_benchmark(
        "honorific-bn", f"replay:{responses}", out=tmp_path / "run2", limit=4, progress=False
    )
    assert (second.stats.cached, second.stats.completed) == (0, 4)
    assert second.results["label_counts"]["replay:m"] == {"honorific": 4}


def test_replay_keys_by_item_other_backends_by_prompt(tmp_path: Path) -> None:
    from biasbench.models.base import GenerationParams, Prompt
    from biasbench.models.mock import MockBackend
    from biasbench.models.replay import ReplayBackend
    from biasbench.runner.runner import Request, request_keys

    path = tmp_path / "r.jsonl"
    path.write_text('{"item_id": "a", "output": "x"}\n{"item_id": "b", "output": "y"}\n')
    same = Prompt(messages=(("user", "identical prompt"),), completion="identical prompt")
    requests = [Request("a", same), Request("b", same)]
    replay_keys = request_keys(ReplayBackend(path), requests, GenerationParams())
    mock_keys = request_keys(MockBackend("echo"), requests, GenerationParams())
    assert replay_keys[0] != replay_keys[1]  # recorded answers belong to items
    assert mock_keys[0] == mock_keys[1]  # a model sees only the prompt
