"""The GM hears what matters (issue 28): a mail to the GM when the table is full, when a player
goes away or comes back, when the autopilot takes a seat by itself, and when a mail is
quarantined; the round digest shows a seat the autopilot played as autopilot."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from databases import game_row, outbox, seated
from harness import Games, Mailer, new_game, play_round, send_orders, set_service, signup
from sqlmodel import Session

import pbm.service.ingest as ingest_module
from pbm.notation import vocab
from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.store.models import InboundMail

DESK = "spielleitung@pbm.test"


def _alerts(svc: Service, part: str = "") -> list[str]:
    return [o.body for o in outbox(svc, "gm_alert", to=DESK) if part in o.subject or part in o.body]


def test_the_gm_hears_that_the_table_is_full(svc: Service, mailer: Mailer) -> None:
    set_service(svc, gm_address=DESK)
    new_game(svc, "alpha")
    signup(mailer, "alpha", 3)
    assert _alerts(svc) == []  # three of four: nothing yet
    signup(mailer, "alpha", 1, addresses=["p3@players.test"])
    (body,) = _alerts(svc)
    assert "Der Tisch von alpha ist voll" in body and "Aufstellung beginnt" in body
    for p in seated(svc, "alpha").values():
        colour = vocab.colour_name(p.colour or "", "de")
        assert f"{colour} ({p.name}) <{p.address}>" in body
    deadline = game_row(svc, "alpha").deadline
    assert deadline is not None and f"Frist: {deadline:%Y-%m-%d %H:%M} UTC" in body
    (row,) = outbox(svc, "gm_alert")
    assert row.recipients == DESK and not row.limited


def test_without_gm_address_the_gm_addresses_are_told(svc: Service, mailer: Mailer) -> None:
    set_service(svc, gm=["b@gm.test", "a@gm.test"])
    new_game(svc, "alpha")
    signup(mailer, "alpha", 4)
    (row,) = outbox(svc, "gm_alert")
    assert row.recipients == "a@gm.test,b@gm.test"


def test_the_gm_hears_of_an_absence_and_a_return(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha")
    set_service(svc, gm_address=DESK)
    me = table.seats[1]
    until = (clock.now() + timedelta(days=5)).date()
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nUrlaub bis {until.isoformat()}\n")
    # The others and the GM are told; the absent player gets a confirmation of their own.
    told = {o.id for o in outbox(svc, "gm_notice")}
    (away,) = [o for o in outbox(svc, "gm_notice") if me not in o.recipients]
    assert "abwesend" in away.body
    assert set(away.recipients.split(",")) == ({*table.addresses, DESK} - {me})
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nIch bin zurück\n")
    (back,) = [o for o in outbox(svc, "gm_notice") if o.id not in told and me not in o.recipients]
    assert "zurück" in back.body
    assert set(back.recipients.split(",")) == ({*table.addresses, DESK} - {me})


def test_the_gm_hears_when_the_autopilot_takes_a_seat(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha", nmr_autopilot_after=2)
    set_service(svc, gm_address=DESK)
    play_round(mailer, clock, "alpha", skip=[2], pw=table.passwords)
    assert _alerts(svc) == []
    play_round(mailer, clock, "alpha", skip=[2], pw=table.passwords)
    (body,) = _alerts(svc, "Autopilot")
    player = seated(svc, "alpha")[2]
    colour = vocab.colour_name(player.colour or "", "de")
    assert f"Ab jetzt spielt der Autopilot {colour} ({player.name})" in body
    assert "2 Runden in Folge" in body and f"autopilot alpha {player.colour} off" in body
    # The GM switching it (off, and on) hears nothing of it: the GM did it.
    admin.set_autopilot(svc, "alpha", player.colour or "", False)
    admin.set_autopilot(svc, "alpha", player.colour or "", True)
    assert len(_alerts(svc, "Autopilot")) == 1
    # A player who resigns.
    me = table.seats[3]
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nAufgeben\n")
    resigned = [b for b in _alerts(svc, "Autopilot") if "aufgegeben" in b]
    assert len(resigned) == 1 and seated(svc, "alpha")[3].name in resigned[0]


def test_the_digest_shows_a_seat_the_autopilot_played(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    """An absent player's seat is played by the autopilot without its switch: the digest says
    autopilot, not orders."""
    table = games.start("alpha")
    set_service(svc, gm_address=DESK)
    me = table.seats[3]
    until = (clock.now() + timedelta(days=5)).date()
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nUrlaub bis {until.isoformat()}\n")
    send_orders(mailer, "alpha", [0, 1, 2], pw=table.passwords)
    assert game_row(svc, "alpha").round == 2
    (digest,) = outbox(svc, "digest")
    rows = {
        line.split()[0]: line
        for line in digest.body.splitlines()
        if line.startswith("  ") and line.endswith(" SP")
    }
    colours = [vocab.colour_name(seated(svc, "alpha")[s].colour or "", "de") for s in range(4)]
    assert "Autopilot" in rows[colours[3]]
    assert all("Züge" in rows[colours[s]] for s in (0, 1, 2))


def test_the_gm_hears_of_a_quarantined_mail(
    svc: Service, mailer: Mailer, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = games.start("alpha")
    set_service(svc, gm_address=DESK)

    def broken(*args: Any) -> Any:
        raise RuntimeError("handler exploded")

    monkeypatch.setattr(ingest_module, "handle", broken)
    me = table.seats[0]
    result = mailer.send(me, "Züge Kennwort: geheim-123", f"Kennwort: {table.passwords[me]}\n")
    assert result.status == "quarantined"
    (body,) = _alerts(svc, "Quarantäne")
    assert f"  {result.mail_id}  {me}" in body and "RuntimeError: handler exploded" in body
    assert f"pbm mail requeue {result.mail_id}" in body
    assert "The quarantined mails" in body  # in every language: the game is not known
    assert "geheim-123" not in body and table.passwords[me] not in body
    # A fault in telling the GM keeps no mail from quarantine.
    monkeypatch.setattr("pbm.service.gm_alerts._quarantined", broken)
    again = mailer.send(me, "x", "Hallo\n")
    assert again.status == "quarantined"
    with Session(svc.engine) as s:
        row = s.get(InboundMail, again.mail_id)
        assert row is not None and row.status == "quarantined"
    assert len(_alerts(svc, "Quarantäne")) == 1
