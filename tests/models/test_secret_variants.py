"""An API key echoed back in odd forms never reaches the store, a run folder or an export: case
changed, reversed, hex, spaced, split by a zero-width space or a newline, HTML-escaped; and an
unusable answer's raw content is redacted before it is cut."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from biasbench.models.redaction import redact_text, secret_matcher
from biasbench.runner.answers import raw_json

KEY = "sk-ATTACK-SECRET-1234567890"


def _html(text: str) -> str:
    return "".join(f"&#{ord(c)};" for c in text)


def _html_hex(text: str) -> str:
    return "".join(f"&#x{ord(c):X};" for c in text)


FORMS = [
    ("upper-cased", KEY.upper()),
    ("lower-cased", KEY.lower()),
    ("reversed", KEY[::-1]),
    ("hex", KEY.encode().hex()),
    ("hex upper-cased", KEY.encode().hex().upper()),
    ("hex spaced", " ".join(f"{b:02x}" for b in KEY.encode())),
    ("spaced", " ".join(KEY)),
    ("zero-width space", KEY[:10] + "\u200b" + KEY[10:]),
    ("zero-width everywhere", "\u200b".join(KEY)),
    ("newline", KEY[:12] + "\n" + KEY[12:]),
    ("CRLF and tab", KEY[:5] + "\r\n\t" + KEY[5:]),
    ("HTML decimal", _html(KEY)),
    ("HTML hex", _html_hex(KEY)),
    ("HTML partly", KEY[:4] + _html(KEY[4:9]) + KEY[9:]),
    ("Bearer lower-cased", f"bearer {KEY}".lower()),
    ("plain", KEY),
]


def _leaks(text: str) -> list[str]:
    """Any 8-character run of the key left in ``text``, in any case, once white space and
    invisible characters are removed; the key reversed and hex are checked the same way."""
    import html
    import re

    flat = re.sub(r"[\s\u200b-\u200f\u2060\ufeff\u00ad]", "", html.unescape(text)).lower()
    found = []
    for variant in (KEY.lower(), KEY[::-1].lower(), KEY.encode().hex()):
        found += [variant[i : i + 8] for i in range(len(variant) - 7) if variant[i : i + 8] in flat]
    return found


@pytest.mark.parametrize(("name", "form"), FORMS, ids=[name for name, _ in FORMS])
def test_each_form_is_redacted(name: str, form: str) -> None:
    forms = secret_matcher(key=KEY)
    text, count = redact_text(f"the server said: {form} (end)", forms, "***")
    assert count >= 1
    assert _leaks(text) == [], (name, text)
    assert text.startswith("the server said: ") and text.endswith(" (end)")


@pytest.mark.parametrize(
    "text",
    [
        "Der Arzt kam um neun Uhr an.",
        "SK-ATTACK is a word, and so is SECRET",  # parts of the key, never the whole
        "tiến sĩ " * 40,
        "a" * 5000,
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact_text(text, secret_matcher(key=KEY), "***") == (text, 0)


def test_short_secrets_are_matched_exactly_only() -> None:
    forms = secret_matcher(user="bob", password="pw1")
    assert redact_text("PW1 and p w 1 stay; pw1 goes", forms, "***") == (
        "PW1 and p w 1 stay; *** goes",
        1,
    )


@pytest.mark.parametrize("cut", [3990, 3995, 3999, 4000, 4001])
def test_raw_content_is_redacted_before_it_is_cut(cut: int) -> None:
    forms = secret_matcher(key=KEY)
    content = [{"type": "image", "data": "x" * cut + KEY + "y" * 100}]
    kept = raw_json(content, lambda text: redact_text(text, forms, "***")[0])
    assert _leaks(kept) == []


class _Echo(BaseHTTPRequestHandler):
    """Answers 200 with content that is unusable (a non-text part) and carries the key in odd
    forms, or a usable answer holding them."""

    usable = False

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = self.headers.get("Authorization", "").removeprefix("Bearer ")
        odd = " | ".join(
            f(key)
            for f in (
                str.upper,
                str.lower,
                lambda k: k[::-1],
                lambda k: k.encode().hex(),
                lambda k: " ".join(k),
                lambda k: "\u200b".join(k),
                _html,
            )
        )
        content: object = (
            f"Der Arzt. {odd}"
            if type(self).usable
            else [{"type": "image", "data": "x" * 3960 + key + odd}]
        )
        body = json.dumps(
            {
                "choices": [
                    {"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
                ]
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("usable", [False, True])
def test_nothing_of_the_key_reaches_the_run_folder(
    server: ThreadingHTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, usable: bool
) -> None:
    import biasbench

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    _Echo.usable = usable
    out = tmp_path / "run"
    biasbench.run(
        "honorific-bn",
        model="openai:m",
        limit=4,
        out=str(out),
        base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
    )
    files = [p for p in out.rglob("*") if p.is_file()]
    assert files
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        if path.suffix in (".sqlite", ".db"):
            import sqlite3

            with sqlite3.connect(path) as db:
                text = "\n".join(
                    str(row)
                    for (table,) in db.execute("select name from sqlite_master where type='table'")
                    for row in db.execute(f"select * from {table}")
                )
        assert _leaks(text) == [], path
