"""The mail words of issue 15: messages, absence, time zone, Mitspieler and Verlauf, in both
languages; the rest of the mail after a message line is the message, never orders."""

from __future__ import annotations

from datetime import date

import pytest

from pbm.notation import Context, parse_mail
from pbm.notation.errors import OrderError
from pbm.notation.format import format_item
from pbm.notation.items import YEARLESS
from pbm.notation.lines import Away, Command, Press, TimeZone, parse_line
from pbm.rules.layouts import generate_board

BOARD = generate_board("medium", 1)


@pytest.mark.parametrize(
    ("line", "item"),
    [
        ("Nachricht an gelb: Hallo", Press("gelb", "Hallo")),
        ("Message to yellow: hi there", Press("gelb", "hi there")),
        ("Nachricht an alle", Press("all")),
        ("Message to all: (news)", Press("all", "(news)")),
        ("Anonyme Nachricht an rot: psst", Press("rot", "psst", anonymous=True)),
        ("An Spielleitung: Ich bin krank", Press("gm", "Ich bin krank")),
        ("An die Spielleitung", Press("gm")),
        ("To GM: ill", Press("gm", "ill")),
        ("Urlaub bis 2026-12-24", Away(date(2026, 12, 24))),
        ("Urlaub bis 24.12.2026", Away(date(2026, 12, 24))),
        ("Away until 2026-12-24", Away(date(2026, 12, 24))),
        ("Away until May 5th, 2027", Away(date(2027, 5, 5))),
        ("Urlaub bis 20. März 2027", Away(date(2027, 3, 20))),
        # Without the year: the service finds it (`Away.meant`).
        ("Urlaub bis 20.3.", Away(date(YEARLESS, 3, 20), False)),
        ("Urlaub bis 20/3", Away(date(YEARLESS, 3, 20), False)),
        ("Urlaub bis 20. März", Away(date(YEARLESS, 3, 20), False)),
        ("Away until 5th May", Away(date(YEARLESS, 5, 5), False)),
        ("Away until May 5", Away(date(YEARLESS, 5, 5), False)),
        ("Urlaub bis 29.2.", Away(date(YEARLESS, 2, 29), False)),
        # Said as a sentence (QA, 2026-12: "I'm away until 16.12." was no order).
        ("I'm away until 16.12.", Away(date(YEARLESS, 12, 16), False)),
        ("I am on holiday until 16.12.", Away(date(YEARLESS, 12, 16), False)),
        ("Ich bin im Urlaub bis 16.12.", Away(date(YEARLESS, 12, 16), False)),
        ("Ich bin abwesend bis 16.12.", Away(date(YEARLESS, 12, 16), False)),
        ("Jeg er på ferie til 16.12.", Away(date(YEARLESS, 12, 16), False)),
        ("Jeg er væk indtil 16.12.", Away(date(YEARLESS, 12, 16), False)),
        ("Zeitzone: Europe/Berlin", TimeZone("Europe/Berlin")),
        ("Time zone: America/New_York", TimeZone("America/New_York")),
        ("Mitspieler", Command("players")),
        # A remark after the return (QA, 2026-12: refused as no order while the same mail
        # was answered "Welcome back").
        ("I'm back early, holiday cancelled :(", Command("back")),
        ("Ich bin zurück, Urlaub abgesagt", Command("back")),
        ("Jeg er tilbage - ferien blev aflyst", Command("back")),
        ("Players", Command("players")),
        ("Verlauf", Command("history")),
        ("History", Command("history")),
    ],
)
def test_the_new_lines(line: str, item: object) -> None:
    for lang in ("de", "en"):
        ctx = Context(BOARD, lang)
        assert parse_line(line, ctx) == item
        if isinstance(item, (Away, TimeZone, Command)):
            assert parse_line(format_item(item, ctx), ctx) == item


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("Nachricht an lila: x", "colour_expected"),
        ("Urlaub bis morgen", "date_expected"),
        ("Urlaub bis 31.02.2026", "date_expected"),
        ("Urlaub bis 31.2.", "date_expected"),
        ("Urlaub bis 20.13.", "date_expected"),
        # Day or month first? Both are 12 or less: asked for a date that says.
        ("Urlaub bis 5/6", "date_expected"),
        ("Zeitzone: Mond/Krater", "timezone_expected"),
        ("Zeitzone: ../../etc/passwd", "timezone_expected"),
    ],
)
def test_bad_values_are_refused_with_why(line: str, key: str) -> None:
    with pytest.raises(OrderError) as e:
        parse_line(line, Context(BOARD, "de"))
    assert e.value.key == key


def test_the_rest_of_the_mail_is_the_message() -> None:
    body = (
        "Kennwort: x\nStraße C3 D4\nNachricht an gelb: Hallo,\n\nSiedlung E3 E4 F3?\n"
        "> quoted\n-- \nAnna\n"
    )
    parsed = parse_mail(body, Context(BOARD, "de"))
    assert parsed.press == Press("gelb", "Hallo,")
    assert parsed.press_text == "Hallo,\n\nSiedlung E3 E4 F3?"
    # The order above the message line stands; the one in the message is not read.
    assert [r.line for r in parsed.lines] == [1, 2, 3]
    assert parsed.has_orders()


def test_a_message_alone_is_no_order() -> None:
    parsed = parse_mail("Kennwort: x\nNachricht an alle: Hallo\n", Context(BOARD, "de"))
    assert not parsed.has_orders() and parsed.press_text == "Hallo"


def test_control_characters_never_reach_a_message() -> None:
    parsed = parse_mail("Nachricht an alle: a\u202eb\x07c\n", Context(BOARD, "de"))
    assert parsed.press_text == "abc"


@pytest.mark.parametrize(
    ("today", "written", "meant"),
    [
        (date(2026, 12, 6), date(YEARLESS, 3, 20), date(2027, 3, 20)),  # next spring
        (date(2026, 12, 6), date(YEARLESS, 12, 24), date(2026, 12, 24)),
        (date(2026, 12, 6), date(YEARLESS, 12, 6), date(2026, 12, 6)),  # today
        (date(2026, 12, 6), date(YEARLESS, 12, 1), date(2026, 12, 1)),  # passed: refused
        (date(2026, 1, 2), date(YEARLESS, 12, 30), date(2025, 12, 30)),  # passed, last year
        (date(2027, 2, 1), date(YEARLESS, 2, 29), date(2028, 2, 29)),  # the next leap year
    ],
)
def test_a_day_without_its_year_is_the_nearest_such_day(
    today: date, written: date, meant: date
) -> None:
    assert Away(written, False).meant(today) == meant
    assert Away(meant).meant(today) == meant
