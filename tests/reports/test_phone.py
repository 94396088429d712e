"""The mails and the web archive on a phone (issue 27): at 420 px wide, in headless Chromium
with the mobile viewport, no page scrolls sideways. Pictures scale down to the width, tables,
maps and long lines scroll or wrap inside their own box.

The mails are built as the service sends them (`build_message`: the HTML part with the board
picture as `cid:`), each page measured twice: as it is, and without its `<style>` (many mail
programs drop it: what must hold there is in inline styles). The pages: the round report of a
base game and of a Seafarers game (Oceania, whose picture is twice the phone's width), the
game-end report, the welcome mail and a newcomer's, and an archive's round page and index.
`.ci/chromium.sh` installs the browser; without it the tests are skipped, unless CI is set.

PBM_SCREENSHOT_COPY=DIR keeps a screenshot of each page there.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from harness import Mailer, make_service, start_game

from pbm.mail.outgoing import build_message
from pbm.reports import picture
from pbm.reports.render import BOARD_CID, Rendered
from pbm.rules import GameState
from pbm.service.archive import write_archive
from pbm.service.clock import FakeClock

from . import scenes
from .phone import Phone
from .test_browser import _chromium

WIDTH = 420


def _mail_page(
    folder: Path, name: str, subject: str, rendered: Rendered, state: GameState | None
) -> tuple[Path, int]:
    """The HTML part of the mail as sent, on disk, its picture beside it; and the picture's
    width (0 without one)."""
    png = picture.board_png(state) if state is not None else None
    msg = build_message(
        from_address="pbm@pbm.test",
        from_name="pbm",
        recipients=["p0@players.test"],
        subject=subject,
        body=rendered.text,
        html=rendered.html,
        message_id=f"<{name}@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 1, tzinfo=UTC),
        image=png,
        image_cid=BOARD_CID,
    )
    part = msg.get_body(preferencelist=("html",))
    assert part is not None
    html = str(part.get_content())
    width = 0
    if png is not None:
        (folder / f"{name}.png").write_bytes(png)
        html = html.replace(f"cid:{BOARD_CID}", f"{name}.png")
        from io import BytesIO

        from PIL import Image

        with Image.open(BytesIO(png)) as img:
            width = img.size[0]
    page = folder / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    return page, width


def _without_style(page: Path) -> Path:
    """The page as a mail program that drops `<style>` shows it."""
    bare = page.with_name(f"bare-{page.name}")
    bare.write_text(re.sub(r"<style>.*?</style>", "", page.read_text(), flags=re.S))
    assert "<style>" not in bare.read_text()
    return bare


def _check(measured: dict[str, Any], page: str) -> None:
    assert measured["clientWidth"] == WIDTH, (page, measured)
    assert measured["scrollWidth"] <= WIDTH, (page, measured["scrollWidth"], measured["wide"])
    for img in measured["images"]:
        assert img["complete"] and img["natural"] > 0, (page, img)
        assert img["right"] <= WIDTH, (page, img)


def _keep(phone: Phone, page: Path) -> None:
    if os.environ.get("PBM_SCREENSHOT_COPY"):
        folder = Path(os.environ["PBM_SCREENSHOT_COPY"])
        folder.mkdir(parents=True, exist_ok=True)
        phone.screenshot(folder / f"phone-{page.stem}.png")


def _mails(lang: str) -> dict[str, tuple[str, Rendered, GameState | None]]:
    sea, _ = scenes.sea_fog_round()
    _, mid, _ = scenes.midgame()
    end, _ = scenes.final()
    return {
        "report": (*scenes.round_report(lang), mid),
        "report_sea": (*scenes.report_sea_fog(lang), sea),
        "report_end": (*scenes.end_report(lang), end),
        "welcome": (*scenes.welcome(lang), None),
        "welcome_replacement": (*scenes.welcome_replacement(lang), None),
        # Prose from a plain text (a refusal, a chapter of the guide): paragraphs, not a
        # `<pre>` block of 72-column lines, which scrolls sideways where `<style>` is dropped.
        "error": (*scenes.SCENES["error"](lang), None),
        "help_chapter": (*scenes.SCENES["help_chapter"](lang), None),
        "placed_automatic_own": (*scenes.SCENES["placed_automatic_own"](lang), None),
    }


@pytest.mark.e2e
@pytest.mark.parametrize("lang", scenes.LANGS)
def test_the_mails_fit_a_phone(lang: str, tmp_path: Path) -> None:
    chromium = _chromium()
    pages = []
    wide_picture = ""
    for name, (subject, rendered, state) in _mails(lang).items():
        page, width = _mail_page(tmp_path, f"{name}-{lang}", subject, rendered, state)
        pages += [page, _without_style(page)]
        if width > WIDTH:
            wide_picture = page.name
    assert wide_picture, "a picture wider than the phone is part of the test"
    with Phone(chromium, tmp_path / "profile", WIDTH) as phone:
        for page in pages:
            measured = phone.measure(page.as_uri())
            _check(measured, page.name)
            _keep(phone, page)
            if page.name.endswith(wide_picture):
                # Scaled down, not cut off: the whole island is on the screen.
                (img,) = measured["images"]
                assert img["shown"] < img["natural"], img
            if page.stem.startswith(("report-", "report_sea-")):
                write = "Write orders" if lang == "en" else "Züge schreiben"
                assert [link["text"] for link in measured["links"]].count(write) == 2
                assert all(link["right"] <= WIDTH for link in measured["links"])


@pytest.mark.e2e
@pytest.mark.slow
def test_the_archive_fits_a_phone(tmp_path: Path) -> None:
    chromium = _chromium()
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    start_game(Mailer(svc), clock, "alpha", round_=3)
    folder = tmp_path / "archive"
    write_archive(svc, "alpha", folder)
    pages = [folder / "index.html", folder / "round-002.html"]
    with Phone(chromium, tmp_path / "profile", WIDTH) as phone:
        for page in pages:
            measured = phone.measure(page.as_uri())
            _check(measured, page.name)
            _keep(phone, page)
        # The index's VP chart (inline SVG, 640 px wide as drawn) scales down too.
        index = phone.measure(pages[0].as_uri())
        assert index["scrollWidth"] <= WIDTH


def test_a_plain_message_without_a_game_ends_without_a_dangling_dot() -> None:
    """QA: the HTML part of a plain answer (the resignation's "OK") ended 'pbm · ' with
    nothing after the dot."""
    from pbm.reports.render import render_message

    for lang in ("de", "en", "da"):
        html = render_message("[isle] OK", "text", lang, "").html
        assert "pbm · </p>" not in html and '<p class="muted">pbm</p>' in html
        assert '<p class="muted">pbm · isle</p>' in render_message("s", "t", lang, "isle").html
