"""`Ich bin zurück` with orders the round does not take (a past round's): the orders are
refused, but the return stands, and the refusal says so instead of "nothing was changed"."""

from __future__ import annotations

from databases import game_row, outbox, seated
from harness import Games, Mailer, orders_text
from sqlmodel import Session

from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game, load_state


def _past_round_orders(svc: Service, seat: int, password: str) -> str:
    with Session(svc.engine) as session:
        state = load_state(get_game(session, "alpha"))
    open_round = game_row(svc, "alpha").round
    return orders_text(state, seat, password, round_=open_round - 1)


def test_a_return_with_orders_for_a_past_round_is_not_told_nothing_changed(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha")
    me = table.seats[1]
    colour = seated(svc, "alpha")[1].colour or ""
    admin.set_autopilot(svc, "alpha", colour, True)
    body = _past_round_orders(svc, 1, table.passwords[me]) + "Ich bin zurück\n"
    mailer.send(me, "Züge", body)
    assert not seated(svc, "alpha")[1].autopilot, "the return stands"
    (refusal,) = outbox(svc, "error", to=me)
    assert "Nichts wurde geändert" not in refusal.body
    assert "wieder selbst: der Autopilot ist aus" in refusal.body
    assert len(outbox(svc, "autopilot_off", to=me)) == 1


def test_a_refusal_of_orders_alone_still_says_nothing_changed(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    me = table.seats[1]
    mailer.send(me, "Züge", _past_round_orders(svc, 1, table.passwords[me]))
    (refusal,) = outbox(svc, "error", to=me)
    assert "Nichts wurde geändert" in refusal.body
