"""A mock OpenAI-compatible server (``/v1/chat/completions`` and ``/v1/completions``).

Deterministic replies, optional latency, and injected faults for the first calls, for calls
matching a prompt substring, or at a rate. A fault is an HTTP status (429 with Retry-After, 5xx,
4xx) or one of :data:`FAULT_KINDS`: ``429-no-retry-after``, ``drop`` (close the connection
without answering), ``hang`` (answer only after ``hang_s``), ``reset`` (close the connection
half-way through the body), ``malformed-json``, ``no-choices``, ``list-content`` (the reply as a
list of text parts), ``dict-content`` (an object that is not text), ``empty-content``,
``invalid-utf8`` (bytes that are not UTF-8 in the body), ``huge-body`` (the reply padded to
``huge_bytes``) and ``down`` (the server stops listening for ``outage_s`` seconds and drops
every request meanwhile, then comes back on the same port).
It counts every call (``GET /stats``), so tests can prove a rerun made zero calls, and records
the largest number of requests it served at once, so tests can check a concurrency bound.

Use it in-process (``async with MockOpenAIServer(config) as server``, or ``MockServerThread``
from synchronous code) or as a subprocess::

    python -m biasbench.testing.mock_openai --port 0 --latency 0.05 --fail-rate 0.1 \\
        --fail-status 503 --script replies.json

The subprocess prints its port alone on the first line of stdout once it is listening.

A script file is JSON::

    {"default": "hash",                      # or "echo": how to answer prompts no rule matches
     "rules": [
        {"contains": "capital of France", "reply": "Paris"},
        {"contains": "flaky", "fail": [429, 500], "reply": "ok at last"},  # 3rd call succeeds
        {"contains": "broken", "fail_always": 400, "message": "prompt rejected"},
        {"contains": "hangup", "fail_always": "drop"}]}

Replies in ``hash`` mode are ``mock-`` plus 16 hex digits of the sha256 of the prompt text (and
the seed, when one is sent), so a response can be checked against its prompt.

Only loopback addresses are served; this is a test tool, not a server to expose.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import math
import random
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from aiohttp import web

FAULT_KINDS = (
    "429-no-retry-after",
    "drop",
    "hang",
    "reset",
    "malformed-json",
    "no-choices",
    "list-content",
    "dict-content",
    "empty-content",
    "invalid-utf8",
    "huge-body",
    "down",
)
"""Faults other than a plain HTTP status (see the module docstring)."""

Failure = int | str
"""An HTTP status to answer with, or one of :data:`FAULT_KINDS`."""

# Faults that are a 200 answer of an odd shape rather than an error.
_ODD_ANSWERS = frozenset(
    {
        "malformed-json",
        "no-choices",
        "list-content",
        "dict-content",
        "empty-content",
        "invalid-utf8",
        "huge-body",
    }
)

LOOPBACK = "127.0.0.1"
_JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class ReplyRule:
    """How to answer prompts that contain ``contains``."""

    contains: str
    """Substring of the prompt text (chat messages rendered ``<role>content`` per line)."""
    reply: str | None = None
    """Reply text; None means the server's default reply."""
    fail: tuple[Failure, ...] = ()
    """Failures for the first calls with the *same prompt*, in order; later calls succeed."""
    fail_always: Failure | None = None
    """Fail every call with this status (or drop)."""
    message: str = "injected failure"
    """Error message sent with a failure; ``{authorization}`` is replaced by the request's
    Authorization header (a server that echoes credentials)."""
    finish_reason: str | None = "stop"
    """The ``finish_reason`` of the answer (None sends null)."""

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ReplyRule:
        return cls(
            contains=str(raw["contains"]),
            reply=raw.get("reply"),
            fail=tuple(raw.get("fail", ())),
            fail_always=raw.get("fail_always"),
            message=str(raw.get("message", "injected failure")),
            finish_reason=raw.get("finish_reason", "stop"),
        )


@dataclass
class MockConfig:
    """Behaviour of a :class:`MockOpenAIServer`."""

    latency_s: float = 0.0
    """Delay before every answer (also before failures)."""
    fail_first: int = 0
    """The first ``fail_first`` calls overall fail with ``fail_status``."""
    fail_rate: float = 0.0
    """Each call fails with ``fail_status`` with this probability (seeded)."""
    fail_status: Failure = 500
    """Failure used by ``fail_first`` and ``fail_rate``."""
    retry_after_s: float | None = 1.0
    """Retry-After sent with 429 answers (also as ``retry-after-ms``); None sends none."""
    rules: Sequence[ReplyRule] = ()
    """Per-prompt replies and failures; the first matching rule applies."""
    default: Literal["hash", "echo"] = "hash"
    """Reply for prompts no rule gives one: a hash of the prompt, or the last message echoed."""
    seed: int = 0
    """Seed of the ``fail_rate`` draws."""
    keep_requests: int = 10_000
    """How many received requests to keep for inspection (oldest dropped first)."""
    hang_s: float = 30.0
    """How long a ``hang`` fault waits before answering (longer than the client's timeout)."""
    huge_bytes: int = 8 << 20
    """Size a ``huge-body`` answer is padded to."""
    outage_s: float = 3.0
    """How long a ``down`` fault keeps the server away."""

    @classmethod
    def from_script(cls, path: Path | str, **overrides: Any) -> MockConfig:
        """Load rules and default from a JSON script file; keyword arguments override."""
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        config = cls(
            rules=tuple(ReplyRule.from_dict(r) for r in raw.get("rules", ())),
            default=raw.get("default", "hash"),
        )
        for name in (
            "latency_s",
            "fail_first",
            "fail_rate",
            "fail_status",
            "retry_after_s",
            "seed",
            "hang_s",
            "huge_bytes",
            "outage_s",
        ):
            if name in raw:
                setattr(config, name, raw[name])
        for name, value in overrides.items():
            setattr(config, name, value)
        return config


def render_prompt(payload: dict[str, Any], chat: bool) -> str:
    """The prompt text of a request body, rendered like ``Prompt.text_for``."""
    if not chat:
        prompt = payload["prompt"]
        return prompt if isinstance(prompt, str) else "\n".join(map(str, prompt))
    return "\n".join(f"<{m.get('role', '')}>{m.get('content', '')}" for m in payload["messages"])


def hashed_reply(prompt_text: str, seed: int | None) -> str:
    """The default deterministic reply: ``mock-`` and 16 hex digits of sha256(prompt[, seed])."""
    material = prompt_text if seed is None else f"{prompt_text}\x00{seed}"
    return "mock-" + hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


@dataclass
class _Counters:
    calls: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    by_prompt: dict[str, int] = field(default_factory=dict)
    by_status: dict[str, int] = field(default_factory=dict)


class MockOpenAIServer:
    """An aiohttp.web application speaking enough of the OpenAI API for tests and benchmarks."""

    def __init__(self, config: MockConfig | None = None) -> None:
        self.config = config or MockConfig()
        self.counters = _Counters()
        self.requests: deque[dict[str, Any]] = deque(maxlen=self.config.keep_requests)
        """Received requests: path, JSON body and Authorization header (for tests)."""
        self._rng = random.Random(self.config.seed)
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._down_until = 0.0  # loop time until which the server is "down"
        self._outage: asyncio.Task[None] | None = None
        self.port: int | None = None
        self.app = web.Application()
        self.app.router.add_post("/v1/chat/completions", self._chat)
        self.app.router.add_post("/v1/completions", self._completions)
        self.app.router.add_get("/stats", self._stats)
        self.app.router.add_post("/reset", self._reset)
        self.app.router.add_get("/requests", self._requests)

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, the URL to give an OpenAI client."""
        if self.port is None:
            raise RuntimeError("server not started")
        return f"http://{LOOPBACK}:{self.port}/v1"

    async def start(self, port: int = 0) -> str:
        """Listen on loopback (``port`` 0 picks a free one) and return the base URL."""
        self._runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, LOOPBACK, port, backlog=1024)
        await site.start()
        server = site._server  # the asyncio server: the only place the real port is known
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]
        self._site = site
        return self.base_url

    async def go_down(self, seconds: float) -> None:
        """Stop listening (connections are refused) and drop requests on open connections for
        ``seconds``, then listen again on the same port: a server restart."""
        loop = asyncio.get_running_loop()
        self._down_until = loop.time() + seconds
        if self._site is not None:
            site, self._site = self._site, None
            await site.stop()

        async def come_back() -> None:
            await asyncio.sleep(seconds)
            if self._runner is not None and self._site is None:
                site = web.TCPSite(self._runner, LOOPBACK, self.port, backlog=1024)
                await site.start()
                self._site = site
            self._down_until = 0.0

        self._outage = asyncio.create_task(come_back())

    @property
    def is_down(self) -> bool:
        return self._down_until > 0.0

    async def stop(self) -> None:
        if self._outage is not None and not self._outage.done():
            self._outage.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> MockOpenAIServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    def stats(self) -> dict[str, Any]:
        """Call counts: total, per prompt text, per status, and concurrency seen."""
        c = self.counters
        return {
            "calls": c.calls,
            "by_prompt": dict(c.by_prompt),
            "by_status": dict(c.by_status),
            "in_flight": c.in_flight,
            "max_in_flight": c.max_in_flight,
        }

    def reset(self) -> None:
        """Forget counts and recorded requests (per-prompt failure sequences start over)."""
        self.counters = _Counters()
        self.requests.clear()

    # -- handlers ------------------------------------------------------------------------------

    async def _stats(self, request: web.Request) -> web.Response:
        return web.json_response(self.stats())

    async def _reset(self, request: web.Request) -> web.Response:
        self.reset()
        return web.json_response({"ok": True})

    async def _requests(self, request: web.Request) -> web.Response:
        return web.json_response(list(self.requests))

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, chat=True)

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, chat=False)

    async def _handle(self, request: web.Request, chat: bool) -> web.StreamResponse:
        counters = self.counters
        counters.calls += 1
        call_number = counters.calls
        counters.in_flight += 1
        if counters.in_flight > counters.max_in_flight:
            counters.max_in_flight = counters.in_flight
        try:
            return await self._answer(request, chat, call_number, counters)
        finally:
            counters.in_flight -= 1

    async def _answer(
        self, request: web.Request, chat: bool, call_number: int, counters: _Counters
    ) -> web.StreamResponse:
        config = self.config
        try:
            payload = json.loads(await request.read())
            prompt_text = render_prompt(payload, chat)
            model = payload["model"]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return self._error(counters, 400, f"malformed request body: {exc!r}")
        seen = counters.by_prompt.get(prompt_text, 0) + 1
        counters.by_prompt[prompt_text] = seen
        self.requests.append(
            {
                "path": request.path,
                "body": payload,
                "authorization": request.headers.get("Authorization"),
            }
        )
        if config.latency_s > 0:
            await asyncio.sleep(config.latency_s)

        rule = next((r for r in config.rules if r.contains in prompt_text), None)
        failure: Failure | None = None
        message = "injected failure"
        if self.is_down:
            failure = "down"
        elif call_number <= config.fail_first:
            failure = config.fail_status
        elif rule is not None and rule.fail_always is not None:
            failure, message = rule.fail_always, rule.message
        elif rule is not None and seen <= len(rule.fail):
            failure, message = rule.fail[seen - 1], rule.message
        elif config.fail_rate > 0 and self._rng.random() < config.fail_rate:
            failure = config.fail_status
        # A careless server echoing the client's credentials back (for redaction tests).
        message = message.replace("{authorization}", request.headers.get("Authorization", ""))
        if failure == "down" and not self.is_down:
            await self.go_down(config.outage_s)
        if failure in ("drop", "down"):
            counters.by_status[str(failure)] = counters.by_status.get(str(failure), 0) + 1
            # Closing the socket with no answer is what a crashed or overloaded proxy does.
            transport = request.transport
            if transport is not None:
                transport.close()
            raise asyncio.CancelledError
        if failure == "429-no-retry-after":
            return self._error(counters, 429, message, retry_after=False)
        if failure is not None and failure not in _ODD_ANSWERS and failure not in ("hang", "reset"):
            return self._error(counters, int(failure), message)

        if rule is not None and rule.reply is not None:
            text = rule.reply
        elif config.default == "echo":
            text = payload["messages"][-1].get("content", "") if chat else payload["prompt"]
        else:
            text = hashed_reply(prompt_text, payload.get("seed"))
        if failure == "hang":
            counters.by_status["hang"] = counters.by_status.get("hang", 0) + 1
            await asyncio.sleep(config.hang_s)
        content: Any = text
        if failure == "list-content":  # OpenAI-style parts: a text part, then a plain string
            half = len(text) // 2
            content = [{"type": "text", "text": text[:half]}, text[half:]]
        elif failure == "dict-content":
            content = {"unexpected": text}
        elif failure == "empty-content":
            content = ""
        choice: dict[str, Any] = {
            "index": 0,
            "finish_reason": rule.finish_reason if rule is not None else "stop",
        }
        if chat:
            choice["message"] = {"role": "assistant", "content": content}
        else:
            choice["text"] = content
        body: dict[str, Any] = {
            "id": f"mock-{call_number}",
            "object": "chat.completion" if chat else "text_completion",
            "created": int(time.time()),
            "model": model,
            "system_fingerprint": "mock-fp",
            "choices": [choice],
            "usage": {
                "prompt_tokens": len(prompt_text.split()),
                "completion_tokens": len(text.split()),
                "total_tokens": len(prompt_text.split()) + len(text.split()),
            },
        }
        if failure == "no-choices":
            del body["choices"]
        raw = json.dumps(body).encode()
        if failure == "malformed-json":
            raw = raw[: len(raw) // 2]
        elif failure == "invalid-utf8":
            raw = raw.replace(b'"id": "mock-', b'"id": "\xff\xfemock-', 1)
        elif failure == "huge-body":
            pad = max(0, config.huge_bytes - len(raw))
            raw = raw[:-1] + b', "padding": "' + b"x" * pad + b'"}'
        if failure == "reset":
            counters.by_status["reset"] = counters.by_status.get("reset", 0) + 1
            response = web.StreamResponse(
                status=200, headers={**_JSON_HEADERS, "Content-Length": str(len(raw))}
            )
            await response.prepare(request)
            await response.write(raw[: len(raw) // 2])
            transport = request.transport
            if transport is not None:
                transport.close()  # flushes what was written, then closes: a cut body
            raise asyncio.CancelledError
        key = str(failure) if failure in _ODD_ANSWERS else "200"
        counters.by_status[key] = counters.by_status.get(key, 0) + 1
        return web.Response(body=raw, headers=_JSON_HEADERS)

    def _error(
        self, counters: _Counters, status: int, message: str, retry_after: bool = True
    ) -> web.Response:
        counters.by_status[str(status)] = counters.by_status.get(str(status), 0) + 1
        headers = dict(_JSON_HEADERS)
        if status == 429 and retry_after and self.config.retry_after_s is not None:
            # Retry-After is whole seconds by the HTTP spec; OpenAI also sends milliseconds.
            headers["Retry-After"] = str(math.ceil(self.config.retry_after_s))
            headers["retry-after-ms"] = str(round(self.config.retry_after_s * 1000))
        kind = (
            "rate_limit_error"
            if status == 429
            else ("server_error" if status >= 500 else "invalid_request_error")
        )
        body = {"error": {"message": message, "type": kind, "code": status}}
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)


class MockServerThread:
    """A :class:`MockOpenAIServer` on its own event loop in a background thread.

    For synchronous tests that drive the runner with ``asyncio.run``::

        with MockServerThread(MockConfig(latency_s=0.01)) as mock:
            backend = OpenAIBackend("m", mock.base_url)
            ...
            assert mock.stats()["calls"] == 3
    """

    def __init__(self, config: MockConfig | None = None) -> None:
        self.server = MockOpenAIServer(config)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, daemon=True, name="mock-openai"
        )

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=10)

    def start(self) -> str:
        self._thread.start()
        return self._call(self.server.start())

    def stats(self) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            return self.server.stats()

        return self._call(read())

    def reset(self) -> None:
        async def do() -> None:
            self.server.reset()

        self._call(do())

    def stop(self) -> None:
        if self._thread.is_alive():
            self._call(self.server.stop())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> MockServerThread:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def _parse_failure(text: str) -> Failure:
    return "drop" if text == "drop" else int(text)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m biasbench.testing.mock_openai",
        description="Mock OpenAI-compatible server on 127.0.0.1 (prints its port, then serves "
        "until SIGTERM or Ctrl-C).",
    )
    parser.add_argument("--port", type=int, default=0, help="port to listen on; 0 picks one")
    # Options left out keep the script's value (or MockConfig's default): None = not given.
    parser.add_argument("--latency", type=float, help="seconds before each answer (0)")
    parser.add_argument("--fail-first", type=int, help="fail the first N calls (0)")
    parser.add_argument("--fail-rate", type=float, help="fail calls at this rate (0)")
    parser.add_argument(
        "--fail-status",
        type=_parse_failure,
        help="HTTP status of injected failures, or 'drop' (500)",
    )
    parser.add_argument("--retry-after", type=float, help="Retry-After seconds sent with 429 (1)")
    parser.add_argument("--seed", type=int, help="seed of --fail-rate draws (0)")
    parser.add_argument("--default", choices=("hash", "echo"), default=None)
    parser.add_argument("--script", type=Path, default=None, help="JSON script of reply rules")
    return parser.parse_args(argv)


async def _serve(args: argparse.Namespace) -> None:
    given = {
        "latency_s": args.latency,
        "fail_first": args.fail_first,
        "fail_rate": args.fail_rate,
        "fail_status": args.fail_status,
        "retry_after_s": args.retry_after,
        "seed": args.seed,
        "default": args.default,
    }
    overrides: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    config = (
        MockConfig.from_script(args.script, **overrides) if args.script else MockConfig(**overrides)
    )
    server = MockOpenAIServer(config)
    await server.start(args.port)
    print(server.port, flush=True)
    print(f"mock OpenAI server at {server.base_url}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of ``python -m biasbench.testing.mock_openai``."""
    args = _arguments(argv)
    with contextlib.suppress(KeyboardInterrupt):
        try:
            import uvloop  # optional: a faster event loop when installed
        except ImportError:
            asyncio.run(_serve(args))
        else:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                runner.run(_serve(args))


if __name__ == "__main__":
    main()
