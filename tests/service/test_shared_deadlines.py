"""Time zones in mails to everyone (issue 15): after the UTC deadline, the local time of every
player who set a zone, `2026-12-24 12:00 UTC (gelb: 13:00 Europe/Berlin)`; within 72 columns;
in an anonymous game without the colours."""

from __future__ import annotations

from datetime import datetime

import pytest
from databases import game_row, outbox, seated
from harness import Games, Mailer, send_orders

from pbm.notation import vocab
from pbm.service import admin
from pbm.service.context import Service
from pbm.service.table import shared_when, when_text

MOMENT = datetime(2026, 12, 24, 12, 0)


def test_one_zone_on_the_line() -> None:
    text = shared_when(MOMENT, [("gelb", "Europe/Berlin")], room=60)
    assert text == "2026-12-24 12:00 UTC (gelb: 13:00 Europe/Berlin)"


def test_no_zone_is_utc_alone() -> None:
    assert shared_when(MOMENT, []) == "2026-12-24 12:00 UTC"
    # A zone that does not exist (any more) is left out.
    assert shared_when(MOMENT, [("rot", "Mond/Krater")]) == "2026-12-24 12:00 UTC"


def test_zones_shared_and_other_dates() -> None:
    text = shared_when(
        MOMENT,
        [
            ("gelb", "Europe/Berlin"),
            ("rot", "Europe/Berlin"),
            ("weiß", "Pacific/Auckland"),
            ("blau", "America/New_York"),
        ],
    )
    first, *rest = text.split("\n")
    assert first == "2026-12-24 12:00 UTC"
    joined = " ".join(line.strip() for line in rest)
    assert joined == (
        "(gelb, rot: 13:00 Europe/Berlin; weiß: 2026-12-25 01:00 Pacific/Auckland;"
        " blau: 07:00 America/New_York)"
    )
    assert all(len(line) <= 72 and line.startswith("  ") for line in rest)


def test_anonymous_zones_without_colours() -> None:
    assert shared_when(MOMENT, [("", "Asia/Tokyo")], room=60) == (
        "2026-12-24 12:00 UTC (21:00 Asia/Tokyo)"
    )


@pytest.mark.parametrize("tz", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_the_machines_zone_changes_nothing(tz: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored deadlines are naive UTC: read as UTC whatever zone the machine is in."""
    import time

    monkeypatch.setenv("TZ", tz)
    time.tzset()
    try:
        assert "13:00 Europe/Berlin" in shared_when(MOMENT, [("gelb", "Europe/Berlin")])
        assert when_text(MOMENT, "Europe/Berlin").startswith("2026-12-24 13:00 Europe/Berlin")
    finally:
        monkeypatch.undo()
        time.tzset()


def _set_zone(svc: Service, mailer: Mailer, seat: int, zone: str, pw: dict[str, str]) -> str:
    player = seated(svc, "alpha")[seat]
    mailer.send(player.address, "x", f"Kennwort: {pw[player.address]}\nZeitzone: {zone}\n")
    return vocab.colour_name(player.colour or "", "de")


def test_reports_and_notices_show_the_players_zones(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    gelb = _set_zone(svc, mailer, 0, "Europe/Berlin", table.passwords)
    blau = _set_zone(svc, mailer, 1, "America/New_York", table.passwords)
    send_orders(mailer, "alpha", range(4))
    report = outbox(svc, "report")[-1]
    game = game_row(svc, "alpha")
    assert game.deadline is not None
    utc = game.deadline.strftime("%Y-%m-%d %H:%M UTC")
    assert utc in report.body
    assert f"{gelb}: " in report.body and "Europe/Berlin" in report.body
    assert f"{blau}: " in report.body and "America/New_York" in report.body
    assert "Europe/Berlin" in report.html
    assert all(len(line) <= 72 for line in report.body.splitlines())
    # One report for everyone (the archive and History keep one per round).
    assert len([o for o in outbox(svc, "report") if o.step == report.step]) == 1
    admin.extend_round(svc, "alpha", 24)
    (moved,) = [o for o in outbox(svc, "gm_notice") if "Neue Frist" in o.subject]
    assert "Europe/Berlin" in moved.body and "America/New_York" in moved.body
    admin.pause_game(svc, "alpha")
    from pbm.service.broken import resume

    resume(svc, "alpha")
    (resumed,) = [o for o in outbox(svc, "gm_notice") if "fortgesetzt" in o.subject]
    assert "Europe/Berlin" in resumed.body


def test_an_anonymous_game_shows_zones_without_colours(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha", anonymous=True)
    gelb = _set_zone(svc, mailer, 0, "Asia/Tokyo", table.passwords)
    admin.extend_round(svc, "alpha", 24)
    (moved,) = [o for o in outbox(svc, "gm_notice") if "Neue Frist" in o.subject]
    assert "Asia/Tokyo" in moved.body and f"{gelb}: " not in moved.body
