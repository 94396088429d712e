"""A setup placement that can never be made is refused when the mail comes, with its reason,
not found out at the player's turn: taken crossings and built paths for a list sent ahead of
the turn, every rule on the turn. The other lines of the mail stand."""

from __future__ import annotations

from databases import game_state, order_sets, passwords, replies_to, seated
from harness import Mailer, new_game, signup

from pbm.notation import Context
from pbm.notation.format import format_item
from pbm.rules.orders import SetupOrders, SetupPlacement
from pbm.rules.setup import automatic_placement, placement_rule
from pbm.service.context import Service
from pbm.store import codec


def _free(state: object, skip: set[int]) -> SetupPlacement:
    """A legal placement on a crossing other than `skip`'s and not next to them."""
    from pbm.rules.state import GameState

    assert isinstance(state, GameState)
    board = state.board
    for c in range(len(board.crossing_hexes)):
        near = {c, *(x for e in board.crossing_paths[c] for x in board.path_crossings[e])}
        if near & skip:
            continue
        for e in board.crossing_paths[c]:
            pl = SetupPlacement(c, e)
            if placement_rule(state, pl) is None:
                return pl
    raise AssertionError("no free placement")


def test_a_taken_crossing_is_refused_at_receipt(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st = game_state(svc, "alpha")
    ctx = Context(st.board, "de", st.colours, "setup")
    # Seat 0 places first.
    first = automatic_placement(st)
    r = mailer.send(
        at[0].address, "Aufstellung", f"Kennwort: {pw[at[0].address]}\n{format_item(first, ctx)}\n"
    )
    assert r.status == "done"
    _, st = game_state(svc, "alpha")
    assert st.owner[first.crossing] == 0

    # Seat 2, ahead of its turn: the taken crossing first, then a free one.
    free = _free(st, {first.crossing})
    taken = SetupPlacement(first.crossing, st.board.crossing_paths[first.crossing][-1])
    body = f"Kennwort: {pw[at[2].address]}\n{format_item(taken, ctx)}\n{format_item(free, ctx)}\n"
    r = mailer.send(at[2].address, "Aufstellung", body)
    assert r.status == "done"
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    accepted, refused = ack.body.split("Abgelehnt:")
    assert "\n    3  Siedlung" in accepted and "\n    2  Siedlung" in refused
    assert "dieser Platz ist besetzt" in refused, ack.body
    (waiting,) = [o for o in order_sets(svc, "alpha") if not o.superseded and o.setup_step >= 0]
    assert codec.loads(waiting.parsed) == SetupOrders((free,))

    # Nothing usable at all: refused, and the list stored before stands.
    r = mailer.send(
        at[2].address, "Aufstellung", f"Kennwort: {pw[at[2].address]}\n{format_item(taken, ctx)}\n"
    )
    assert r.status == "done"
    assert replies_to(svc, mailer.last_id, "error")
    (waiting,) = [o for o in order_sets(svc, "alpha") if not o.superseded and o.setup_step >= 0]
    assert codec.loads(waiting.parsed) == SetupOrders((free,))


def test_a_refused_placement_with_a_discard_line_keeps_the_stored_list(
    svc: Service, mailer: Mailer
) -> None:
    """In the setup only a placement is of use: a mail whose placements are all refused is
    nothing usable even with a discard line beside them, and the list stored before stands."""
    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st = game_state(svc, "alpha")
    ctx = Context(st.board, "de", st.colours, "setup")
    first = automatic_placement(st)
    mailer.send(at[0].address, "A", f"Kennwort: {pw[at[0].address]}\n{format_item(first, ctx)}\n")
    _, st = game_state(svc, "alpha")
    free = _free(st, {first.crossing})
    taken = SetupPlacement(first.crossing, st.board.crossing_paths[first.crossing][-1])
    mailer.send(at[2].address, "A", f"Kennwort: {pw[at[2].address]}\n{format_item(free, ctx)}\n")
    body = f"Kennwort: {pw[at[2].address]}\n{format_item(taken, ctx)}\nAbwurf: H\n"
    assert mailer.send(at[2].address, "A", body).status == "done"
    (answer,) = replies_to(svc, mailer.last_id, "error")
    assert "nichts wurde gespeichert" in answer.body, answer.body
    assert "sobald du in der Aufstellung dran bist" not in answer.body
    (waiting,) = [o for o in order_sets(svc, "alpha") if not o.superseded and o.setup_step >= 0]
    assert codec.loads(waiting.parsed) == SetupOrders((free,))


def test_on_the_players_turn_a_refused_placement_asks_again(svc: Service, mailer: Mailer) -> None:
    """Every placement refused on the player's own turn: nothing stored, and the answer says it
    is their turn and by when (not that the placement comes at their turn)."""
    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st = game_state(svc, "alpha")
    ctx = Context(st.board, "de", st.colours, "setup")
    first = automatic_placement(st)
    mailer.send(at[0].address, "A", f"Kennwort: {pw[at[0].address]}\n{format_item(first, ctx)}\n")
    _, st = game_state(svc, "alpha")
    near = next(
        SetupPlacement(c, e)
        for e0 in st.board.crossing_paths[first.crossing]
        for c in st.board.path_crossings[e0]
        if c != first.crossing
        for e in st.board.crossing_paths[c]
        if st.road[e] < 0
    )
    body = f"Kennwort: {pw[at[1].address]}\n{format_item(near, ctx)}\n"
    assert mailer.send(at[1].address, "A", body).status == "done"
    (answer,) = replies_to(svc, mailer.last_id, "error")
    assert "Abstandsregel" in answer.body, answer.body
    assert "Du bist in der Aufstellung dran: schick eine Platzierung bis" in answer.body
    assert "sobald du in der Aufstellung dran bist" not in answer.body
    assert game_state(svc, "alpha")[1].setup_step == 1
