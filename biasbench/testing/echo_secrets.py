"""A server that echoes the credentials it is sent, in every encoding, and what reaches the user.

:func:`echo_secret_leaks` starts a local HTTP server that answers each request with the API key
(taken from the Authorization header) or the URL password echoed back: in a non-JSON error
body where a 500-byte cut falls inside the key, as base64 of the key, of ``Bearer KEY`` and of
the password, as ``\\uXXXX`` escapes, percent-encoded, and (on success) in the answer text,
``model``, ``system_fingerprint``, ``usage`` and ``finish_reason``. It sends one request per
scenario through :class:`~biasbench.models.openai_compat.OpenAIBackend` and returns, per
scenario, how many encoded forms of a secret (any prefix of 8+ characters of the plain key
included) remain in what biasbench keeps: the error message, the stored text and ``info``.
``tests/models/test_echo_secrets.py`` asserts they are all zero; ``measurements/echo_secrets.py``
prints the table.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote

KEY = "sk-ATTACK-SECRET-1234567890"
PASSWORD = "hunter2-PASSWORD-xyz"


def _escaped(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in text)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _bodies(secret: str, header: str) -> dict[str, tuple[int, str, bytes]]:
    """scenario -> (status, content type, body) for one echoed ``secret``."""
    cut = "x" * (500 - 19) + secret  # a 500-byte cut falls 19 characters into the secret
    answer = {
        "model": secret,
        "system_fingerprint": f"fp-{secret}",
        "usage": {"prompt_tokens": 1, "note": secret},
        "choices": [
            {
                "message": {"role": "assistant", "content": f"the key is {secret}."},
                "finish_reason": secret,
            }
        ],
    }
    return {
        "error cut at 500 bytes": (400, "text/plain", cut.encode()),
        "error base64 of secret": (400, "text/plain", f"bad {_b64(secret)}".encode()),
        "error base64 of header": (400, "text/plain", f"bad {_b64(header)}".encode()),
        "error \\u escapes": (400, "text/plain", f'{{"e": "{_escaped(secret)}"'.encode()),
        "error percent-encoded": (400, "text/plain", f"bad {quote(secret, safe='')}".encode()),
        "error JSON message": (
            400,
            "application/json",
            json.dumps({"error": {"message": f"bad key {secret}"}}).encode(),
        ),
        "answer and info": (200, "application/json", json.dumps(answer).encode()),
    }


class _Handler(BaseHTTPRequestHandler):
    scenario = ""
    secret = ""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        header = self.headers.get("Authorization", "")
        status, kind, body = _bodies(type(self).secret, header)[type(self).scenario]
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _leaks(kept: str, secret: str, header: str) -> int:
    forms = {secret[:n] for n in range(8, len(secret) + 1)} | {
        _b64(secret),
        _b64(header),
        _escaped(secret),
        quote(secret, safe=""),
    }
    return sum(1 for form in forms if form in kept)


def echo_secret_leaks() -> list[dict[str, Any]]:
    """One row per (credential, scenario): what biasbench kept and how many secret forms it
    still holds (``leaks``, must be 0)."""
    from biasbench.models.base import (
        GenerationParams,
        PermanentModelError,
        Prompt,
        TransientModelError,
    )
    from biasbench.models.openai_compat import OpenAIBackend

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    rows = []
    saved = os.environ.get("BIASBENCH_ECHO_KEY")
    try:
        for credential in ("API key", "URL password"):
            if credential == "API key":
                os.environ["BIASBENCH_ECHO_KEY"] = KEY
                url, secret, header = f"http://127.0.0.1:{port}/v1", KEY, f"Bearer {KEY}"
            else:
                os.environ.pop("BIASBENCH_ECHO_KEY", None)
                url = f"http://user:{PASSWORD}@127.0.0.1:{port}/v1"
                secret, header = PASSWORD, "Basic " + _b64(f"user:{PASSWORD}")
            _Handler.secret = secret
            for scenario in _bodies(secret, header):
                _Handler.scenario = scenario
                backend = OpenAIBackend("m", url, api_key_env="BIASBENCH_ECHO_KEY", timeout_s=10)
                prompt = Prompt((("user", "hello"),), "hello")

                async def once(backend: OpenAIBackend = backend, prompt: Prompt = prompt) -> str:
                    try:
                        found = await backend.generate(prompt, GenerationParams(max_tokens=8), 0)
                        return json.dumps({"text": found.text, "info": found.info})
                    except (TransientModelError, PermanentModelError) as exc:
                        return str(exc)
                    finally:
                        await backend.aclose()

                kept = asyncio.run(once())
                rows.append(
                    {
                        "credential": credential,
                        "scenario": scenario,
                        "leaks": _leaks(kept, secret, header),
                        "redacted": "[redacted]" in kept or "***" in kept,
                        "kept": kept[-160:],
                    }
                )
    finally:
        server.shutdown()
        if saved is None:
            os.environ.pop("BIASBENCH_ECHO_KEY", None)
        else:
            os.environ["BIASBENCH_ECHO_KEY"] = saved
    return rows
