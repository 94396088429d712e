"""The HTML part of a round report, with the board picture inline, in a real headless browser.

The message is built as the service sends it (`build_message`: multipart/alternative with the
HTML part in a multipart/related together with the PNG, referenced as `cid:`); the HTML part
is written to a file with the `cid:` reference pointing at the extracted picture, and Debian's
`chromium` takes a screenshot. `.ci/chromium.sh` installs the browser. Without it the test is
skipped, unless the environment variable CI is set: then it fails.

PBM_SCREENSHOT_COPY=DIR keeps a copy of each screenshot there (for looking at it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from PIL import Image

from pbm.mail.outgoing import build_message
from pbm.reports import picture
from pbm.reports.render import BOARD_CID

from . import scenes

WIDTH, HEIGHT = 1000, 1600


def _chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        reason = "Debian's chromium is not installed (bash .ci/chromium.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI is set, so this is a failure, not a skip")
        pytest.skip(reason)
    return path


def _message(lang: str) -> EmailMessage:
    _, after, _ = scenes.midgame()
    subject, rendered = scenes.round_report(lang)
    return build_message(
        from_address="gm@pbm.test",
        from_name="pbm",
        recipients=["p0@players.test"],
        subject=subject,
        body=rendered.text,
        html=rendered.html,
        message_id="<r@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 1, tzinfo=UTC),
        image=picture.board_png(after),
        image_cid=BOARD_CID,
    )


def _html_with_picture(msg: EmailMessage, folder: Path) -> Path:
    """The HTML part on disk, its cid: reference replaced by the extracted picture's file."""
    assert msg.get_content_type() == "multipart/alternative"
    text = msg.get_body(preferencelist=("plain",))
    assert text is not None and text.get_content_type() == "text/plain"
    related = next(p for p in msg.iter_parts() if p.get_content_type() == "multipart/related")
    html_part = next(p for p in related.iter_parts() if p.get_content_type() == "text/html")
    image = next(p for p in related.iter_parts() if p.get_content_type() == "image/png")
    cid = str(image["Content-ID"]).strip("<>")
    assert cid == BOARD_CID
    html = html_part.get_content()
    assert f'src="cid:{cid}"' in html
    png = image.get_payload(decode=True)
    assert isinstance(png, bytes)
    (folder / "board.png").write_bytes(png)
    page = folder / "report.html"
    page.write_text(html.replace(f"cid:{cid}", "board.png"), encoding="utf-8")
    return page


@pytest.mark.e2e
@pytest.mark.parametrize("lang", scenes.LANGS)
def test_report_html_renders_in_chromium(lang: str, tmp_path: Path) -> None:
    chromium = _chromium()
    page = _html_with_picture(_message(lang), tmp_path)
    shot = tmp_path / "shot.png"
    result = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--enable-logging=stderr",
            "--log-level=0",
            "--hide-scrollbars",
            f"--screenshot={shot}",
            f"--window-size={WIDTH},{HEIGHT}",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-3000:]
    console = [line for line in log.splitlines() if ":CONSOLE" in line]
    assert not console, console  # no script errors, no blocked or failed loads reported
    assert "net::ERR" not in log
    assert shot.exists(), log[-3000:]
    if os.environ.get("PBM_SCREENSHOT_COPY"):
        folder = Path(os.environ["PBM_SCREENSHOT_COPY"])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, folder / f"report_screenshot_{lang}.png")
    with Image.open(shot) as img:
        assert img.format == "PNG"
        assert img.size == (WIDTH, HEIGHT)
        rgb = img.convert("RGB")
    colours = rgb.getcolors(maxcolors=1 << 24) or []
    white = sum(n for n, c in colours if c == (255, 255, 255))
    assert white < WIDTH * HEIGHT * 0.97, "the screenshot is (almost) blank"
    dark = sum(n for n, c in colours if sum(c) < 200)
    assert dark > 2000, "no text on the page"

    def near(c: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 6 for a, b in zip(c, want, strict=True))

    # The inline picture was loaded and drawn: its sea and its pieces are on the page.
    sea = sum(n for n, c in colours if near(c, picture.SEA))
    assert sea > 5000, "the board picture is not on the page"
    _, after, _ = scenes.midgame()
    for colour in after.colours:
        want = picture.PIECE[colour]
        assert sum(n for n, c in colours if near(c, want)) > 20, colour


def test_the_message_structure_is_alternative_with_related_picture() -> None:
    msg = _message("de")
    parts = [p.get_content_type() for p in msg.walk()]
    assert parts == [
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
    ]
    image = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    png = image.get_payload(decode=True)
    assert isinstance(png, bytes) and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert image["Content-ID"] == f"<{BOARD_CID}>"


def test_the_inline_picture_is_not_an_attachment() -> None:
    """The picture is shown in the HTML (cid:); as `Content-Disposition: attachment` many
    clients list it once more as an attachment below the report."""
    image = next(p for p in _message("de").walk() if p.get_content_type() == "image/png")
    assert image.get_content_disposition() == "inline", image["Content-Disposition"]


def test_the_related_part_names_its_root_type() -> None:
    """RFC 2387: multipart/related requires the `type` parameter (here text/html)."""
    related = next(p for p in _message("de").walk() if p.get_content_type() == "multipart/related")
    assert related.get_param("type") == "text/html", related["Content-Type"]
