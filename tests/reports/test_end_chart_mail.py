"""The VP chart in the game-end mail (issue 15): a PNG (Gmail strips inline SVG) drawn like the
archive's SVG, colour-blind safe, as a second inline related picture (cid:) of the HTML part
beside the board."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from PIL import Image

from pbm.mail.outgoing import build_message
from pbm.reports import picture
from pbm.reports.chart import HEIGHT, PALETTE, WIDTH
from pbm.reports.chart_png import _dash_pattern, vp_chart_png
from pbm.reports.render import BOARD_CID, CHART_CID, render
from pbm.reports.report_data import report_data

from . import scenes

PLAYERS = [
    ("rot (Anna)", "rot"),
    ("blau (Bernd)", "blau"),
    ("gelb (Carol)", "gelb"),
    ("weiß", "weiss"),
]
ROUNDS = list(range(1, 13))
SERIES = [[min(10, (r * (p + 2)) // 4) for r in ROUNDS] for p in range(4)]


def _chart() -> bytes:
    return vp_chart_png("VP", ROUNDS, PLAYERS, SERIES, "Runde", "Siegpunkte")


def _rgb(hex_: str) -> tuple[int, int, int]:
    return int(hex_[1:3], 16), int(hex_[3:5], 16), int(hex_[5:7], 16)


def test_the_png_is_the_charts_size_and_deterministic() -> None:
    png = _chart()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png == _chart()
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_the_players_colours_and_the_dark_casing_are_drawn() -> None:
    img = Image.open(io.BytesIO(_chart())).convert("RGB")
    colours = img.getcolors(WIDTH * HEIGHT) or []

    def count(want: tuple[int, int, int], slack: int = 12) -> int:
        return sum(
            n for n, c in colours if all(abs(a - b) <= slack for a, b in zip(c, want, strict=True))
        )

    for _, colour in PLAYERS:
        assert count(_rgb(PALETTE[colour])) > 40, colour
    # The casing (and the markers' outlines) keeps white and yellow visible on white.
    assert count((0x22, 0x22, 0x22)) > 200


def test_dash_patterns_as_svg_reads_them() -> None:
    assert _dash_pattern("") == []
    assert _dash_pattern("8 4") == [8.0, 4.0]
    assert _dash_pattern("3") == [3.0, 3.0]  # an odd list is repeated
    assert _dash_pattern("10 3 3") == [10.0, 3.0, 3.0, 10.0, 3.0, 3.0]


def _end_mail(lang: str) -> EmailMessage:
    st, events = scenes.final()
    subject, _ = scenes.end_report(lang)
    data = report_data(st, events, lang, scenes.GAME, scenes.SECRETS, "", BOARD_CID)
    data["vp_chart_cid"], data["vp_chart_title"] = CHART_CID, "VP"
    rendered = render("report", subject, data)
    return build_message(
        from_address="gm@pbm.test",
        from_name="pbm",
        recipients=["p0@players.test"],
        subject=subject,
        body=rendered.text,
        html=rendered.html,
        message_id="<end@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 1, tzinfo=UTC),
        image=picture.board_png(st),
        chart=_chart(),
    )


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_the_end_mail_carries_board_and_chart_inline(lang: str) -> None:
    msg = _end_mail(lang)
    assert [p.get_content_type() for p in msg.walk()] == [
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
        "image/png",
    ]
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    assert related.get_param("type") == "text/html"
    html_part = msg.get_body(preferencelist=("html",))
    assert html_part is not None
    html = html_part.get_content()
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    cids = [str(p["Content-ID"]).strip("<>") for p in images]
    assert cids == [BOARD_CID, CHART_CID]
    for part, cid in zip(images, cids, strict=True):
        assert f'src="cid:{cid}"' in html, cid
        assert part.get_content_disposition() == "inline"
        png = part.get_payload(decode=True)
        assert isinstance(png, bytes) and png[:8] == b"\x89PNG\r\n\x1a\n"
    chart = Image.open(io.BytesIO(images[1].get_payload(decode=True)))  # type: ignore[arg-type]
    assert chart.size == (WIDTH, HEIGHT)
    # No inline SVG in the mail: Gmail strips it (the archive keeps it).
    assert "<svg" not in html
    # The text part does not mention the chart: it is complete without pictures.
    assert "cid:" not in msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]


def test_a_mail_without_chart_is_as_before() -> None:
    st, _ = scenes.final()
    msg = build_message(
        from_address="gm@pbm.test",
        from_name="pbm",
        recipients=["p0@players.test"],
        subject="s",
        body="b",
        html="<p>b</p>",
        message_id="<x@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 1, tzinfo=UTC),
        image=picture.board_png(st),
    )
    assert [p.get_content_type() for p in msg.walk()].count("image/png") == 1
