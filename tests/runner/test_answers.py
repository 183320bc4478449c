"""Paid answers are never thrown away: odd answer shapes, values the store cannot bind and a
store that cannot be written all end as stored rows or one clear error, never a lost batch."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    Prompt,
    UnusableAnswerError,
    is_empty_text,
    text_from_content,
)
from biasbench.models.openai_compat import OpenAIBackend
from biasbench.runner.retry import RetryPolicy
from biasbench.runner.runner import Request, StoreWriteError, run_requests_sync
from biasbench.runner.store import ResponseRecord, ResponseStore
from biasbench.testing.mock_openai import MockConfig, MockServerThread, ReplyRule, hashed_reply

PARAMS = GenerationParams(max_tokens=16)


def fast_retry() -> RetryPolicy:
    return RetryPolicy(
        max_attempts=3,
        base_delay_s=0.001,
        max_delay_s=0.005,
        retry_window_s=0.0,
        rng=random.Random(0),
    )


def ask(text: str) -> Request:
    return Request(item_id=text, prompt=Prompt((("user", text),), text))


@pytest.fixture
def store(tmp_path: Path):
    with ResponseStore(tmp_path / "responses.sqlite") as opened:
        yield opened


# -- content shapes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "text", "notes"),
    [
        ("plain", "plain", {}),
        (None, "", {}),
        ("", "", {}),
        ([{"type": "text", "text": "ab"}, "cd"], "abcd", {"content_shape": "parts"}),
        ([{"type": "output_text", "text": "x"}], "x", {"content_shape": "parts"}),
        ([{"text": "untyped"}], "untyped", {"content_shape": "parts"}),
        (
            [{"type": "reasoning", "summary": "..."}, {"type": "text", "text": "A"}],
            "A",
            {"content_shape": "parts", "skipped_parts": ["reasoning"]},
        ),
        ([{"type": "refusal", "refusal": "no"}], "", {"content_shape": "parts", "refusal": "no"}),
        ({"type": "text", "text": "one part"}, "one part", {"content_shape": "object"}),
        ([], "", {"content_shape": "parts"}),
    ],
)
def test_text_content_is_normalised(content: Any, text: str, notes: dict) -> None:
    assert text_from_content(content) == (text, notes)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ({"unexpected": "x"}, "part that is not text"),
        (42, "is a int, not text"),
        (True, "is a bool, not text"),
        ([{"type": "image_url", "image_url": {"url": "x"}}], "no text part (only image_url)"),
        ([1, 2], "part that is not text"),
        ([{"type": "text", "text": 3}], "part that is not text"),
    ],
)
def test_unusable_content_raises_one_line(content: Any, reason: str) -> None:
    with pytest.raises(UnusableAnswerError) as caught:
        text_from_content(content)
    assert reason in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.raw == content


@pytest.mark.parametrize("api", ["chat", "completions"])
def test_list_and_object_content_from_a_server_end_up_stored(
    store: ResponseStore, api: str
) -> None:
    config = MockConfig(
        rules=[
            ReplyRule(contains="listy", fail_always="list-content"),
            ReplyRule(contains="objecty", fail_always="dict-content"),
        ]
    )
    requests = [ask("listy"), ask("objecty")] + [ask(f"q{i}") for i in range(6)]
    with MockServerThread(config) as mock:
        backend = OpenAIBackend("m", mock.base_url, api=api)  # type: ignore[arg-type]
        # one batch for everything: an odd answer must not discard the others
        stats = run_requests_sync(
            backend,
            requests,
            PARAMS,
            store,
            progress=False,
            retry=fast_retry(),
            flush_every=1000,
            flush_interval_s=60,
        )
        calls = mock.stats()["by_prompt"]
    mode = "chat" if api == "chat" else "completion"
    assert (stats.completed, stats.failed) == (7, 1)
    assert calls[ask("objecty").prompt.text_for(mode)] == 1  # not retried within the run
    rows = {r.item_id: r for r in store.iter_records()}
    assert len(rows) == 8
    listy = rows["listy"]
    assert listy.status == "ok"
    assert listy.output == hashed_reply(ask("listy").prompt.text_for(mode), None)
    assert listy.info["content_shape"] == "parts"
    objecty = rows["objecty"]
    assert objecty.status == "failed" and objecty.output is None
    assert "not text" in objecty.error and "\n" not in objecty.error
    assert objecty.info["error_type"] == "UnusableAnswerError"
    assert '"unexpected"' in objecty.info["raw_content"]  # the paid answer is kept


# -- backends that return odd values -------------------------------------------------------------


class OddBackend(ModelBackend):
    """Returns a scripted Generation per prompt text, whatever its types."""

    kind = "odd"

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers

    @property
    def model_id(self) -> str:
        return "odd"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        text = prompt.messages[-1][1]
        answer = self.answers.get(text, "fine")
        if isinstance(answer, Generation) or text == "not-a-generation":
            return answer  # type: ignore[no-any-return]
        return Generation(text=answer, prompt_text=prompt.text_for(self.mode))


class Unhashable:
    def __repr__(self) -> str:
        return "<Unhashable>"


ODD_ANSWERS: list[tuple[str, Any, str, str | None]] = [
    # (prompt, what the backend returns, stored status, stored output)
    ("int", 123, "failed", None),
    ("dict", {"a": 1}, "failed", None),
    ("bytes", b"raw", "failed", None),
    ("list", ["a", {"type": "text", "text": "b"}], "ok", "ab"),
    ("none", None, "ok", ""),
    ("surrogate", "bad \ud800 char", "ok", "bad \ufffd char"),
    (
        "odd-info",
        Generation(
            text="x", prompt_text="p", info={"s": {1}, "o": Unhashable(), "t": ("a", "\udfff")}
        ),
        "ok",
        "x",
    ),
    ("info-not-dict", Generation(text="y", prompt_text="p", info=["z"]), "ok", "y"),  # type: ignore[arg-type]
    ("prompt-not-str", Generation(text="w", prompt_text=None), "ok", "w"),  # type: ignore[arg-type]
    ("not-a-generation", "bare string", "failed", None),
]


def test_no_backend_value_can_poison_a_batch(store: ResponseStore) -> None:
    backend = OddBackend({name: answer for name, answer, _, _ in ODD_ANSWERS})
    requests = [ask(name) for name, _, _, _ in ODD_ANSWERS] + [ask("plain")]
    stats = run_requests_sync(
        backend,
        requests,
        PARAMS,
        store,
        progress=False,
        retry=fast_retry(),
        flush_every=1000,
        flush_interval_s=60,
    )
    rows = {r.item_id: r for r in store.iter_records()}
    assert len(rows) == len(requests)  # every answer stored, in one batch
    for name, _, status, output in ODD_ANSWERS:
        assert (rows[name].status, rows[name].output) == (status, output), name
        if status == "failed":
            assert "\n" not in rows[name].error
    assert rows["plain"].output == "fine"
    assert rows["surrogate"].info["replaced_surrogates"] == 1
    assert rows["odd-info"].info == {"s": "{1}", "o": "<Unhashable>", "t": ["a", "\ufffd"]}
    assert rows["info-not-dict"].info == {"info": ["z"]}
    assert rows["prompt-not-str"].prompt_text == "<user>prompt-not-str"
    assert (stats.completed, stats.failed) == (7, 4)
    assert "not a Generation" in rows["not-a-generation"].error


class PickyStore(ResponseStore):
    """A store that cannot bind one row (as SQLite refuses a value it cannot store)."""

    def put_many(self, records: Sequence[ResponseRecord]) -> None:
        if any(r.item_id == "poison" and r.status == "ok" for r in records):
            raise sqlite3.InterfaceError("Error binding parameter 7")
        super().put_many(records)


def test_a_row_the_store_refuses_is_stored_failed_and_the_batch_survives(tmp_path: Path) -> None:
    with PickyStore(tmp_path / "r.sqlite") as store:
        requests = [ask("a"), ask("poison"), ask("b")]
        stats = run_requests_sync(
            OddBackend({}),
            requests,
            PARAMS,
            store,
            progress=False,
            flush_every=1000,
            flush_interval_s=60,
        )
        rows = {r.item_id: r for r in store.iter_records()}
    assert (stats.completed, stats.failed) == (2, 1)
    assert rows["a"].status == rows["b"].status == "ok"
    assert rows["poison"].status == "failed"
    assert "could not be stored" in rows["poison"].error
    assert rows["poison"].info["raw_output"] == '"fine"'


# -- a store that cannot be written ----------------------------------------------------------------


class CountingBackend(ModelBackend):
    """Answers every prompt with a long text after yielding once; counts its calls."""

    kind = "counting"

    def __init__(self) -> None:
        self.calls = 0

    @property
    def model_id(self) -> str:
        return "counting"

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        self.calls += 1
        await asyncio.sleep(0.001)
        return Generation(text="x" * 3000, prompt_text=prompt.text_for(self.mode))


@pytest.mark.parametrize(
    ("flush_every", "flush_interval_s"),
    [
        (1, 60.0),  # the worker that fills the disk finds out
        (1000, 0.01),  # the periodic flush finds out
    ],
)
def test_full_disk_stops_requests_at_once_with_one_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, flush_every: int, flush_interval_s: float
) -> None:
    concurrency = 4
    backend = CountingBackend()
    requests = [ask(f"q{i}") for i in range(400)]
    with ResponseStore(tmp_path / "r.sqlite") as store:
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 12}")  # a disk with ~40 rows free
        caplog.set_level(logging.ERROR, logger="asyncio")
        with pytest.raises(StoreWriteError) as caught:
            run_requests_sync(
                backend,
                requests,
                PARAMS,
                store,
                progress=False,
                concurrency=concurrency,
                flush_every=flush_every,
                flush_interval_s=flush_interval_s,
            )
        stored = sum(store.counts().values())
    gc.collect()  # an unretrieved task exception would be reported now
    message = str(caught.value)
    assert "\n" not in message
    assert "database or disk is full" in message and "r.sqlite" in message
    assert backend.calls < len(requests)  # the run stopped, it did not pay for the rest
    unsaved = int(message.split(" answers could not be saved")[0].rsplit(" ", 1)[1])
    # Only what was in flight or waiting in the buffer when the disk filled is lost.
    assert backend.calls - stored <= unsaved + concurrency
    if flush_every == 1:
        assert stored > 0 and backend.calls - stored <= concurrency
    assert "never retrieved" not in caplog.text
    # The store is still usable: a rerun with space continues where the run stopped.
    with ResponseStore(tmp_path / "r.sqlite") as store:
        again = run_requests_sync(CountingBackend(), requests, PARAMS, store, progress=False)
        assert (again.cached, again.completed, again.failed) == (stored, 400 - stored, 0)


# -- empty answers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "empty"),
    [
        ("", True),
        ("   \n\t", True),
        ("\u3000", True),
        ("\u200b\ufeff ", True),
        ("a", False),
        (" শিক্ষক ", False),
        ("\u200cক", False),
        (".", False),
    ],
)
def test_what_counts_as_empty(text: str, empty: bool) -> None:
    assert is_empty_text(text) is empty


@pytest.mark.parametrize(
    ("empties", "empty_retries", "calls", "kept_empty"),
    [
        (0, 1, 1, False),  # no empty answer: asked once
        (1, 1, 2, False),  # default: one empty answer is asked again, and the retry answers
        (9, 1, 2, True),  # default: retried once, then kept and marked empty
        (9, 0, 1, True),  # the user turned retries of empty answers off
        (2, 3, 3, False),
        (9, 3, 4, True),
    ],
)
def test_empty_answers_are_retried_then_kept_marked_and_counted(
    store: ResponseStore, empties: int, empty_retries: int, calls: int, kept_empty: bool
) -> None:
    config = MockConfig(rules=[ReplyRule(contains="hollow", fail=("empty-content",) * empties)])
    policy = RetryPolicy(base_delay_s=0.001, empty_retries=empty_retries)
    with MockServerThread(config) as mock:
        stats = run_requests_sync(
            OpenAIBackend("m", mock.base_url),
            [ask("hollow"), ask("full")],
            PARAMS,
            store,
            progress=False,
            retry=policy,
        )
        assert mock.stats()["by_prompt"]["<user>hollow"] == calls
    hollow = next(r for r in store.iter_records() if r.item_id == "hollow")
    full = next(r for r in store.iter_records() if r.item_id == "full")
    assert hollow.status == "ok" and hollow.attempts == calls
    assert (stats.completed, stats.failed, stats.empty) == (2, 0, int(kept_empty))
    if kept_empty:
        assert hollow.output == ""
        assert hollow.info["empty"] is True and hollow.info["empty_retries"] == empty_retries
    else:
        assert hollow.output == hashed_reply("<user>hollow", None)
        assert "empty" not in hollow.info
    assert "empty" not in full.info


def test_whitespace_only_answer_is_empty(store: ResponseStore) -> None:
    backend = OddBackend({"blank": " \n ", "parts": [{"type": "text", "text": "  "}]})
    stats = run_requests_sync(
        backend, [ask("blank"), ask("parts"), ask("x")], PARAMS, store, progress=False
    )
    rows = {r.item_id: r for r in store.iter_records()}
    assert stats.empty == 2
    assert rows["blank"].output == " \n " and rows["blank"].info["empty"] is True
    assert rows["parts"].info["empty"] is True and rows["parts"].attempts == 2
    assert "empty" not in rows["x"].info


def test_empty_retries_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="empty_retries"):
        RetryPolicy(empty_retries=-1)


def test_an_answer_larger_than_the_cap_is_stored_failed_not_read(store: ResponseStore) -> None:
    config = MockConfig(
        huge_bytes=200_000, rules=[ReplyRule(contains="big", fail_always="huge-body")]
    )
    with MockServerThread(config) as mock:
        backend = OpenAIBackend("m", mock.base_url, max_response_bytes=50_000)
        stats = run_requests_sync(
            backend, [ask("big"), ask("small")], PARAMS, store, progress=False, retry=fast_retry()
        )
        assert mock.stats()["by_prompt"]["<user>big"] == 1  # not paid again within the run
    big = next(store.iter_records("failed"))
    assert (stats.completed, stats.failed) == (1, 1)
    assert "larger than 50000 bytes" in (big.error or "")
    assert len(big.info["raw_content"]) < 1000


# -- bad bytes and odd shapes from a real server -------------------------------------------------


class RawServer:
    """A loopback HTTP server answering every POST with one fixed raw body (status 200)."""

    def __init__(self, body: bytes) -> None:
        import http.server
        import threading

        payload = body

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _chat(content: str) -> bytes:
    return (
        '{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",'
        f'"content":{content}}}}}]}}'
    ).encode()


@pytest.mark.parametrize(
    ("body", "status", "output", "error_part"),
    [
        (_chat('"lone \\ud800 surrogate"'), "ok", "lone \ufffd surrogate", None),
        (_chat('"nul \\u0000 inside"'), "ok", "nul \x00 inside", None),
        (_chat('"\\ud83d\\ude00 paired"'), "ok", "\U0001f600 paired", None),
        (_chat("123"), "failed", None, "not text"),
        (_chat('{"text": 5}'), "failed", None, "not text"),
        (b'{"choices":[{"message":"just a string"}]}', "failed", None, "not an object"),
        (b'{"choices":[]}', "failed", None, "unreadable answer"),
        (b'{"choices":[null]}', "failed", None, "unreadable answer"),
        (b"[1, 2, 3]", "failed", None, "unreadable answer"),
        (
            b'{"choices":[{"message":{"content":"deep"}}],"usage":'
            + b"[" * 200
            + b"]" * 200
            + b"}",
            "ok",
            "deep",
            None,
        ),
        (_chat('"x"').replace(b'"x"', b'"\xc3\x28 bad utf8"'), "failed", None, "unreadable answer"),
    ],
)
def test_bad_bytes_and_odd_shapes_end_stored(
    store: ResponseStore, body: bytes, status: str, output: str | None, error_part: str | None
) -> None:
    with RawServer(body) as url:
        stats = run_requests_sync(
            OpenAIBackend("m", url),
            [ask("a"), ask("b")],
            PARAMS,
            store,
            progress=False,
            retry=fast_retry(),
        )
    rows = list(store.iter_records())
    assert len(rows) == 2 and stats.completed + stats.failed == 2
    for row in rows:
        assert (row.status, row.output) == (status, output)
        if error_part:
            assert error_part in (row.error or "") and "\n" not in (row.error or "")


def test_prompt_with_a_lone_surrogate_is_keyed_and_stored(store: ResponseStore) -> None:
    from biasbench.models.mock import MockBackend
    from biasbench.runner.keys import _KeyMaker, request_key

    prompt = "bad \ud800 prompt"
    assert _KeyMaker({"m": 1}, PARAMS)(prompt, None) == request_key({"m": 1}, prompt, PARAMS, None)
    stats = run_requests_sync(
        MockBackend("echo"), [ask(prompt), ask("fine")], PARAMS, store, progress=False
    )
    rows = {r.item_id: r for r in store.iter_records()}
    assert stats.completed == 2
    cleaned = "bad \ufffd prompt"  # what SQLite can store
    assert rows[cleaned].output == cleaned
    assert rows[cleaned].prompt_text == f"<user>{cleaned}"
    with MockServerThread() as mock:  # over HTTP it cannot even be sent: stored failed
        stats = run_requests_sync(
            OpenAIBackend("m", mock.base_url),
            [ask(prompt + "!")],
            PARAMS,
            store,
            progress=False,
            retry=fast_retry(),
        )
    assert stats.failed == 1 and "surrogate" in next(store.iter_records("failed")).error
