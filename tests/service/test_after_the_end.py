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


def test_status_of_a_game_the_gm_ended_names_the_last_round_played(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """Ended by the game master in round 3, the game played two rounds: the end mail says
    so, and `Status` said "round 3", the round that was open and never played."""
    from databases import replies_to
    from harness import send_orders

    table = games.start("alpha")
    for _ in range(2):
        send_orders(mailer, "alpha", [0, 1, 2, 3])
    admin.end_game(svc, "alpha")
    (end,) = [o for o in outbox(svc, "gm_notice") if "Runden;" in o.body]
    assert "2 Runden;" in " ".join(end.body.split())
    p = seated(svc, "alpha")[0]
    mailer.send(
        p.address, "Status", f"Spiel: alpha\nKennwort: {table.passwords[p.address]}\nStatus\n"
    )
    (status,) = replies_to(svc, mailer.last_id)
    first = status.body.splitlines()[0]
    assert first.endswith("Runde 2"), first
