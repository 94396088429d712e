"""The web archive of a game (issue 15) in a real headless browser: every page renders from the
file system, its links lead to pages of the archive, the VP chart is drawn, and nothing secret is
in any file (`.ci/chromium.sh` installs Debian's chromium; without it the test is skipped,
unless CI is set)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from databases import passwords
from harness import Mailer, make_service, start_game
from PIL import Image
from sqlmodel import Session, select

from pbm.reports.chart import PALETTE
from pbm.service.archive import write_archive
from pbm.service.clock import FakeClock
from pbm.store.models import Player

from .test_browser import _chromium

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--log-level=0",
    "--hide-scrollbars",
]


def _run(chromium: str, profile: Path, *args: str) -> str:
    result = subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    log = result.stderr
    assert result.returncode == 0, log[-3000:]
    assert not [line for line in log.splitlines() if ":CONSOLE" in line]
    assert "net::ERR" not in log, log[-3000:]
    return result.stdout


@pytest.mark.e2e
@pytest.mark.slow
def test_the_archive_in_chromium(tmp_path: Path) -> None:
    chromium = _chromium()
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    start_game(Mailer(svc), clock, "alpha", round_=4)
    folder = tmp_path / "archive"
    write_archive(svc, "alpha", folder)
    pages = sorted(folder.glob("*.html"))
    assert [p.name for p in pages] == [
        "index.html",
        "round-001.html",
        "round-002.html",
        "round-003.html",
    ]
    profile = tmp_path / "profile"
    for page in pages:
        dom = _run(chromium, profile, "--dump-dom", page.as_uri())
        assert "<h1>" in dom and "alpha" in dom
        # Links as the browser resolved them: every one is a page or picture of the archive.
        for target in re.findall(r'(?:href|src)="([^"#]+)"', dom):
            assert (folder / target).is_file(), (page.name, target)
        if page.name.startswith("round-"):
            assert 'id="log"' in dom and 'href="index.html"' in dom
            assert re.search(r'<img src="board-\d{3}\.png"', dom)
    index_dom = _run(chromium, profile, "--dump-dom", (folder / "index.html").as_uri())
    assert index_dom.count("<li") >= 4 + 3  # the roster and the rounds
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in index_dom
    # The chart is drawn: its players' colours are on the screenshot of the index page.
    shot = tmp_path / "index.png"
    _run(
        chromium,
        profile,
        f"--screenshot={shot}",
        "--window-size=1000,1600",
        (folder / "index.html").as_uri(),
    )
    with Image.open(shot) as img:
        rgb = img.convert("RGB")
    colours = rgb.getcolors(maxcolors=1 << 24) or []

    def near(c: tuple[int, int, int], hex_: str) -> bool:
        want = tuple(int(hex_[i : i + 2], 16) for i in (1, 3, 5))
        return all(abs(a - b) <= 8 for a, b in zip(c, want, strict=True))

    with Session(svc.engine) as s:
        seated = [p for p in s.exec(select(Player)) if p.colour]
    for p in seated:
        if p.colour in ("weiss",):
            continue  # a light grey, also the grid's
        assert sum(n for n, c in colours if near(c, PALETTE[p.colour or ""])) > 30, p.colour
    # Nothing secret in any file of the archive.
    secrets = list(passwords(svc).values())
    for p in seated:
        secrets += [p.address, p.password_hash, p.codebook_secret]
    for f in folder.iterdir():
        data = f.read_bytes()
        for secret in secrets:
            assert secret.encode() not in data, (f.name, secret)
