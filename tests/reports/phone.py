"""Headless Chromium as a phone: pages laid out at a given width with the mobile viewport
(`<meta name="viewport">` honoured), measured with JavaScript, over the DevTools protocol on a
pipe (`--remote-debugging-pipe`: file descriptors 3 and 4, JSON messages ended by a NUL byte).

Only the standard library: no driver, no websocket. Debian's `chromium` (`.ci/chromium.sh`)
is found with `test_browser._chromium`, which skips the test without it unless CI is set.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shlex
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import Any

#: The measures of a page: how wide its document is, and what sticks out past the viewport.
MEASURE = """JSON.stringify({
  width: window.innerWidth,
  clientWidth: document.documentElement.clientWidth,
  scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  wide: [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map(e => e.tagName + ':' + Math.round(e.getBoundingClientRect().right))
    .slice(0, 10),
  images: [...document.images].map(i => ({
    src: i.getAttribute('src'), complete: i.complete, natural: i.naturalWidth,
    shown: Math.round(i.getBoundingClientRect().width),
    right: Math.round(i.getBoundingClientRect().right)})),
  links: [...document.querySelectorAll('a[href^="mailto:"]')].map(a => ({
    text: a.textContent, right: Math.round(a.getBoundingClientRect().right)})),
})"""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]


def _above_9(fd: int) -> int:
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class Phone:
    """One browser for several pages: `with Phone(chromium, profile) as phone:
    phone.measure(url)`."""

    def __init__(self, chromium: str, profile: Path, width: int = 420, height: int = 900) -> None:
        self.width, self.height = width, height
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()
        # Moved above 9: the redirections below must not overwrite one with the other (bash
        # reads numbers of several digits there, dash does not).
        to_browser, from_browser = (_above_9(fd) for fd in (to_browser, from_browser))
        args = [chromium, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        # The browser reads commands on fd 3 and writes answers on fd 4.
        command = f"exec {shlex.join(args)} 3<&{to_browser} 4>&{from_browser}"
        self._proc = subprocess.Popen(
            ["bash", "-c", command],
            pass_fds=(to_browser, from_browser),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._pending: list[dict[str, Any]] = []
        self._next = 0
        self._session = ""

    def __enter__(self) -> Phone:
        try:
            target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
            attached = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})
            self._session = attached["sessionId"]
            self._call("Page.enable")
            self._call(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": self.width,
                    "height": self.height,
                    "deviceScaleFactor": 1,
                    "mobile": True,
                },
            )
        except BaseException:
            self._stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if kind is None:
                self._session = ""
                self._call("Browser.close")
        finally:
            self._stop()

    def _stop(self) -> None:
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=10)
        finally:
            os.close(self._write)
            os.close(self._read)

    def _send(self, method: str, params: dict[str, Any] | None = None) -> int:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if self._session:
            message["sessionId"] = self._session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        return self._next

    def _receive(self, wanted: Any, timeout: float = 60.0) -> dict[str, Any]:
        """The first message `wanted` accepts; the others wait for their turn (an event may
        come before the answer to the command that caused it)."""
        end = time.monotonic() + timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                self._pending.append(json.loads(raw))
            for i, message in enumerate(self._pending):
                if wanted(message):
                    return self._pending.pop(i)
            left = end - time.monotonic()
            ready, _, _ = select.select([self._read], [], [], max(0.0, left))
            if not ready:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self._buffer += chunk

    def _call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        number = self._send(method, params)
        answer = self._receive(lambda m: m.get("id") == number)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer["result"]
        return result

    def measure(self, url: str) -> dict[str, Any]:
        """Load `url` (until its load event: pictures included) and measure it (`MEASURE`)."""
        self._pending.clear()
        self._call("Page.navigate", {"url": url})
        self._receive(lambda m: m.get("method") == "Page.loadEventFired")
        result = self._call("Runtime.evaluate", {"expression": MEASURE, "returnByValue": True})
        measured: dict[str, Any] = json.loads(result["result"]["value"])
        return measured

    def screenshot(self, path: Path) -> None:
        """The whole page as PNG."""
        import base64

        shot = self._call(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
        )
        path.write_bytes(base64.b64decode(shot["data"]))
