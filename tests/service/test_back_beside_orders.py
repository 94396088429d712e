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
    # One answer says both: no second mail asking for the orders this one carried.
    assert outbox(svc, "autopilot_off", to=me) == []


def test_a_refusal_of_orders_alone_still_says_nothing_changed(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha")
    me = table.seats[1]
    mailer.send(me, "Züge", _past_round_orders(svc, 1, table.passwords[me]))
    (refusal,) = outbox(svc, "error", to=me)
    assert "Nichts wurde geändert" in refusal.body


def test_a_return_with_orders_gets_one_answer_and_the_table_hears_it(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """ "Willkommen zurück … schicke deine Züge bis …" came beside the ack of those orders; the
    other players, told when the autopilot took the seat, never heard it let go."""
    from databases import game_state
    from harness import orders_text

    table = games.start("alpha")
    me = table.seats[1]
    colour = seated(svc, "alpha")[1].colour or ""
    admin.set_autopilot(svc, "alpha", colour, True)
    _, st = game_state(svc, "alpha")
    mailer.send(me, "Züge", orders_text(st, 1, table.passwords[me]) + "Ich bin zurück\n")
    assert [o.kind for o in outbox(svc, to=me) if o.kind in ("ack", "autopilot_off")] == ["ack"]
    others = [a for a in table.seats.values() if a != me]
    for address in others:
        told = [o for o in outbox(svc, to=address) if "utopilot" in o.body or "zurück" in o.body]
        assert len(told) == 2, [(o.kind, o.body) for o in outbox(svc, to=address)][-3:]


def test_back_with_nothing_to_come_back_from_is_answered(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """An absence that ran out by itself, then "Ich bin zurück": no answer at all."""
    table = games.start("alpha")
    me = table.seats[1]
    mailer.send(me, "Zurück", f"Kennwort: {table.passwords[me]}\nIch bin zurück\n")
    (answer,) = outbox(svc, "ack", to=me)
    said = " ".join(answer.body.split())
    assert "schon selbst" in said and "nichts wurde geändert" in said
