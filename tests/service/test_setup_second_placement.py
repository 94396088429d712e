"""A setup mail that names both of the writer's placements (`Siedlung … / Zweite Siedlung: …`):
the first is placed on their turn now, the second waits for their second turn and is placed
then without a new mail; before, the second was read as a choice for the first turn."""

from __future__ import annotations

from databases import game_state, passwords, replies_to, seated
from harness import Mailer, new_game, setup_text, signup

from pbm.notation import Context
from pbm.notation.format import format_item
from pbm.rules import GameState, Phase, autopilot
from pbm.rules.orders import SetupPlacement
from pbm.rules.setup import setup_player
from pbm.service.context import Service
from pbm.store.models import Player


def _far_from(state: GameState, first: SetupPlacement) -> SetupPlacement:
    """The least wanted legal placement not next to `first`: nobody else takes it."""
    near = {*state.board.crossing_neighbors[first.crossing], first.crossing}
    ranked = autopilot.setup_orders(state, 0, 200).placements
    return next(p for p in reversed(ranked) if p.crossing not in near)


def _three_players(svc: Service, mailer: Mailer) -> tuple[dict[str, str], dict[int, Player]]:
    """A three-player game in its setup: the passwords by address and the seats."""
    new_game(svc, "alpha", players=3)
    signup(mailer, "alpha", 3)
    return passwords(svc), seated(svc, "alpha")


def test_the_second_placement_named_in_the_first_mail_is_made_on_the_second_turn(
    svc: Service, mailer: Mailer
) -> None:
    pw, seats = _three_players(svc, mailer)
    _, state = game_state(svc, "alpha")
    assert setup_player(state) == 0
    me = seats[0].address
    first = autopilot.setup_orders(state, 0, 1).placements[0]
    second = _far_from(state, first)
    ctx = Context(state.board, "de", state.colours, "setup")
    mailer.send(
        me,
        "Aufstellung",
        f"Kennwort: {pw[me]}\n{format_item(first, ctx)}\nZweite {format_item(second, ctx)}\n",
    )
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert "Zweite Siedlung" in ack.body, ack.body
    _, state = game_state(svc, "alpha")
    assert state.settlements[0] == [first.crossing]
    # The others place (3 players: 0 1 2 2 1 0; seat 2's one mail serves both its turns);
    # seat 0's second turn needs no mail.
    for _ in range(4):
        seat = setup_player(state)
        if seat < 0:
            break
        assert seat != 0, "seat 0 asked again"
        address = seats[seat].address
        mailer.send(address, "Aufstellung", setup_text(state, seat, pw[address], alternatives=3))
        _, state = game_state(svc, "alpha")
    assert state.settlements[0] == [first.crossing, second.crossing], "placed from the first mail"
    assert state.phase != Phase.SETUP


def test_at_the_end_of_the_snake_each_labelled_placement_takes_its_turn(
    svc: Service, mailer: Mailer
) -> None:
    pw, seats = _three_players(svc, mailer)
    for _ in range(2):
        _, state = game_state(svc, "alpha")
        seat = setup_player(state)
        address = seats[seat].address
        mailer.send(address, "Aufstellung", setup_text(state, seat, pw[address], alternatives=1))
    _, state = game_state(svc, "alpha")
    assert setup_player(state) == 2 and state.setup_step == 2
    me = seats[2].address
    ctx = Context(state.board, "en", state.colours, "setup")
    first = autopilot.setup_orders(state, 2, 1).placements[0]
    second = _far_from(state, first)
    # Written second first: the labels, not the order of the lines, say which is which.
    mailer.send(
        me,
        "Setup",
        f"Kennwort: {pw[me]}\nSecond settlement:\n{format_item(second, ctx)}\n"
        f"First settlement:\n{format_item(first, ctx)}\n",
    )
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 4
    assert state.settlements[2] == [first.crossing, second.crossing]


def test_a_mail_of_only_the_second_placement_keeps_it_and_asks_for_the_first(
    svc: Service, mailer: Mailer
) -> None:
    pw, seats = _three_players(svc, mailer)
    me = seats[0].address
    _, state = game_state(svc, "alpha")
    ctx = Context(state.board, "de", state.colours, "setup")
    first = autopilot.setup_orders(state, 0, 1).placements[0]
    second = _far_from(state, first)
    mailer.send(me, "Aufstellung", f"Kennwort: {pw[me]}\nZweite {format_item(second, ctx)}\n")
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    text = " ".join(ack.body.split())
    assert "keine dieser Aufstellungen" not in text, text
    assert "Du bist in der Aufstellung dran: schick eine Platzierung" in text, text
    assert "Zweite Siedlung" in text, text
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 0 and state.settlements[0] == []
    mailer.send(me, "Aufstellung", f"Kennwort: {pw[me]}\n{format_item(first, ctx)}\n")
    _, state = game_state(svc, "alpha")
    assert state.settlements[0] == [first.crossing] and state.setup_step == 1
