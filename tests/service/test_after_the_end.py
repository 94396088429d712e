"""Mail to a game that has ended forwards no message and announces no absence."""

from __future__ import annotations

from datetime import timedelta

from databases import outbox, seated
from harness import Games, Mailer

from pbm.service import admin
from pbm.service.context import Service


def test_no_message_and_no_absence_after_the_end(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    admin.end_game(svc, "alpha")
    p = seated(svc, "alpha")[0]
    notices = len(outbox(svc, "gm_notice"))
    until = (svc.clock.now() + timedelta(days=3)).date().isoformat()
    pw = table.passwords[p.address]
    body = f"Spiel: alpha\nKennwort: {pw}\nUrlaub bis {until}\nNachricht an alle: hallo\n"
    mailer.send(p.address, "x", body)
    assert outbox(svc, "press") == []
    assert len(outbox(svc, "gm_notice")) == notices
