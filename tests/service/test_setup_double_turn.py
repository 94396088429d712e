"""Two setup turns in a row (the end of the snake): one mail with ranked placements serves
both, "my first settlement … / my second settlement …", rather than the player being asked
again for the second."""

from __future__ import annotations

from databases import game_state, outbox, passwords, replies_to, seated
from harness import Mailer, new_game, setup_text, signup

from pbm.rules.setup import setup_player
from pbm.service.context import Service


def test_one_mail_of_ranked_placements_serves_both_turns_in_a_row(
    svc: Service, mailer: Mailer
) -> None:
    new_game(svc, "alpha", players=3)
    signup(mailer, "alpha", 3)
    pw = passwords(svc)
    seats = seated(svc, "alpha")
    # The first two turns, one placement each.
    for _ in range(2):
        _, state = game_state(svc, "alpha")
        seat = setup_player(state)
        me = seats[seat].address
        mailer.send(me, "Aufstellung", setup_text(state, seat, pw[me], alternatives=1))
    _, state = game_state(svc, "alpha")
    last = setup_player(state)
    assert state.setup_step == 2 and last == 2
    me = seats[last].address
    asked_before = len(outbox(svc, "setup", to=me))
    mailer.send(me, "Aufstellung", setup_text(state, last, pw[me], alternatives=3))
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 4, "both placements made from the one mail"
    assert len(state.settlements[last]) == 2
    assert len(outbox(svc, "setup", to=me)) == asked_before  # not asked again


def test_a_single_placement_still_leaves_the_second_turn_to_a_new_mail(
    svc: Service, mailer: Mailer
) -> None:
    new_game(svc, "alpha", players=3)
    signup(mailer, "alpha", 3)
    pw = passwords(svc)
    seats = seated(svc, "alpha")
    for alternatives in (1, 1, 1):
        _, state = game_state(svc, "alpha")
        seat = setup_player(state)
        me = seats[seat].address
        mailer.send(me, "Aufstellung", setup_text(state, seat, pw[me], alternatives=alternatives))
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 3 and setup_player(state) == 2


def test_the_answer_names_both_placements_made(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=3)
    signup(mailer, "alpha", 3)
    pw = passwords(svc)
    seats = seated(svc, "alpha")
    for _ in range(2):
        _, state = game_state(svc, "alpha")
        seat = setup_player(state)
        me = seats[seat].address
        mailer.send(me, "Aufstellung", setup_text(state, seat, pw[me], alternatives=1))
    _, state = game_state(svc, "alpha")
    me = seats[2].address
    mailer.send(me, "Aufstellung", setup_text(state, 2, pw[me], alternatives=3))
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    text = " ".join(ack.body.split())
    placed = text.split("daher ist jetzt gesetzt:")[1] if "daher ist jetzt gesetzt:" in text else ""
    assert placed.count("Siedlung") >= 2 and "; " in placed, ack.body
