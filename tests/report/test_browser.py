"""The report in a real browser: headless Chromium, driven over the DevTools protocol (loopback).

Checks that the page runs with no console message at all (no script error, no blocked resource,
no Content-Security-Policy violation), that the main tables and figures are there, that the
drill-down filters work and render model output as text, and keeps a screenshot as a test
artifact (test-artifacts/report-screenshot.png). Skipped when Debian's chromium is absent:
``bash scripts/install_chromium.sh`` installs it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pandas as pd
import pytest

from biasbench.report.html import build_report
from tests.conftest import PROJECT_ROOT
from tests.report.test_report import HONORIFIC_LIMIT, PAYLOAD, make_runs

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOT = PROJECT_ROOT / "test-artifacts" / "report-screenshot.png"
TIMEOUT_S = 30.0

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"{CHROMIUM} not found; install it with `bash scripts/install_chromium.sh`",
)


class DevTools:
    """A minimal DevTools-protocol client: commands on one page session, events collected."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.next_id = 0
        self.session: str | None = None
        self.events: list[dict[str, Any]] = []

    async def send(
        self, method: str, params: dict[str, Any] | None = None, *, browser: bool = False
    ) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not browser:
            message["sessionId"] = self.session
        await self.socket.send_json(message)
        while True:
            reply = await self._receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    async def _receive(self) -> dict[str, Any]:
        message = await self.socket.receive(timeout=TIMEOUT_S)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise RuntimeError(f"DevTools connection closed: {message.type}")
        data = json.loads(message.data)
        if "method" in data:
            self.events.append(data)
        return data

    async def wait_for(self, event: str) -> None:
        while not any(e["method"] == event for e in self.events):
            await self._receive()

    async def evaluate(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


def chromium_command(profile: Path) -> list[str]:
    return [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--remote-debugging-port=0",
        "about:blank",
    ]


def devtools_url(process: subprocess.Popen[str]) -> str:
    """The browser's DevTools address, which Chromium prints on stderr once it listens."""
    assert process.stderr is not None
    for line in process.stderr:
        found = re.search(r"DevTools listening on (ws://\S+)", line)
        if found:
            return found.group(1)
    raise RuntimeError("chromium exited without opening DevTools")


# Drill-down state, read in the page (textContent only).
STATUS = "document.querySelector('#{view} .pager span').textContent"
ROWS = "document.querySelectorAll('#{view} tbody tr').length"
SET_SELECT = """(() => {{
  const select = [...document.querySelectorAll('#{view} .controls label')]
    .find(l => l.firstChild.textContent === {label!r}).querySelector('select');
  select.value = {value!r};
  select.dispatchEvent(new Event('change'));
  return select.selectedIndex;
}})()"""


async def inspect(url: str, report: Path, b_plus_c: int) -> dict[str, Any]:
    """Open the report, exercise it, and return what the test asserts on."""
    found: dict[str, Any] = {}
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(url, max_msg_size=0, timeout=aiohttp.ClientWSTimeout(ws_close=5)) as socket,
    ):
        tools = DevTools(socket)
        target = await tools.send("Target.createTarget", {"url": "about:blank"}, browser=True)
        attached = await tools.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, browser=True
        )
        tools.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            await tools.send(f"{domain}.enable")
        await tools.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 2000, "deviceScaleFactor": 1, "mobile": False},
        )
        await tools.send("Page.navigate", {"url": report.as_uri()})
        await tools.wait_for("Page.loadEventFired")

        found["ready"] = await tools.evaluate(
            "document.documentElement.getAttribute('data-report-ready')"
        )
        found["headings"] = await tools.evaluate(
            "[...document.querySelectorAll('h2, h3')].map(h => h.textContent)"
        )
        found["images"] = await tools.evaluate(
            "[...document.querySelectorAll('figure img')].map(i => [i.complete, i.naturalWidth])"
        )
        found["screenshot"] = base64.b64decode(
            (await tools.send("Page.captureScreenshot", {"format": "png"}))["data"]
        )

        responses, pairs = "responses-honorific-bn-responses", "pairs-honorific-bn-responses"
        found["initial"] = (
            await tools.evaluate(STATUS.format(view=responses)),
            await tools.evaluate(ROWS.format(view=responses)),
        )
        await tools.evaluate(SET_SELECT.format(view=responses, label="Model", value="mock-evil"))
        found["filtered"] = await tools.evaluate(STATUS.format(view=responses))
        found["evil_outputs"] = await tools.evaluate(
            f"[...document.querySelectorAll('#{responses} tbody td.text')].map(t => t.textContent)"
        )
        found["injected"] = await tools.evaluate(
            'document.querySelectorAll(\'img[src="x"], img:not([src^="data:"])\').length'
        )
        await tools.evaluate(SET_SELECT.format(view=responses, label="Condition", value="they"))
        found["evil_they"] = await tools.evaluate(STATUS.format(view=responses))

        await tools.evaluate(f"document.querySelector('#{pairs} input[type=checkbox]').click()")
        all_discordant = await tools.evaluate(
            f"[...document.querySelectorAll('#{pairs} tbody tr')]"
            ".every(r => r.classList.contains('discordant'))"
        )
        found["discordant"] = (await tools.evaluate(STATUS.format(view=pairs)), all_discordant)
        found["b_plus_c"] = b_plus_c

        # Anything the page logged, threw or opened (an alert would be a dialog).
        found["messages"] = [
            e
            for e in tools.events
            if e["method"]
            in (
                "Runtime.consoleAPICalled",
                "Runtime.exceptionThrown",
                "Log.entryAdded",
                "Page.javascriptDialogOpening",
            )
        ]
    return found


@pytest.fixture(scope="module")
def browser_view(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("browser")
    runs = make_runs(root / "runs")
    report = build_report(list(runs.values()), root / "report")
    intervals = pd.read_csv(root / "report" / "tables" / "honorific-bn_hai_gsr.csv")
    process = subprocess.Popen(
        chromium_command(root / "profile"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = devtools_url(process)
        yield asyncio.run(
            asyncio.wait_for(
                inspect(url, report, int((intervals["b"] + intervals["c"]).sum())), TIMEOUT_S
            )
        )
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_page_runs_without_any_console_message(browser_view: dict[str, Any]) -> None:
    assert browser_view["ready"] == "1"
    assert browser_view["messages"] == []


def test_main_tables_and_figures_are_present(browser_view: dict[str, Any]) -> None:
    headings = browser_view["headings"]
    for heading in (
        "Table 4: gender asymmetry and occupation spread",
        "Occupation honorific rates (no-pronoun sentences)",
        "HAI and GSR with 95% intervals",
        "The singular-they analysis",
        "Primed versus unprimed frames",
        "Bias scores and accuracy per category",
        "Bias profiles: each model's strongest biases",
        "Responses",
        "Matched he/she pairs",
    ):
        assert heading in headings
    images = browser_view["images"]
    assert len(images) >= 10
    assert all(complete and width > 0 for complete, width in images)  # every PNG decoded


def test_drilldown_filters_and_renders_output_as_text(browser_view: dict[str, Any]) -> None:
    n = 3 * HONORIFIC_LIMIT
    assert browser_view["initial"] == (f"rows 1–50 of {n} (of {n})", 50)
    assert browser_view["filtered"] == f"rows 1–50 of {HONORIFIC_LIMIT} (of {n})"
    assert browser_view["evil_outputs"] == [PAYLOAD] * 50
    assert browser_view["injected"] == 0
    assert browser_view["evil_they"] == f"rows 1–14 of 14 (of {n})"


def test_discordant_pairs_filter(browser_view: dict[str, Any]) -> None:
    status, all_discordant = browser_view["discordant"]
    expected = browser_view["b_plus_c"]
    assert status == f"rows 1–{min(50, expected)} of {expected} (of 42)"
    assert all_discordant


def test_screenshot_is_kept_as_artifact(browser_view: dict[str, Any]) -> None:
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    SCREENSHOT.write_bytes(browser_view["screenshot"])
    assert browser_view["screenshot"].startswith(b"\x89PNG\r\n\x1a\n")
    assert len(browser_view["screenshot"]) > 20_000
