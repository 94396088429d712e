"""A setup placement that can never be made is refused when the mail comes, with its reason,
not found out at the player's turn: taken crossings and built paths for a list sent ahead of
the turn, every rule on the turn. The other lines of the mail stand."""

from __future__ import annotations

from dataclasses import dataclass

from databases import game_state, order_sets, passwords, replies_to, seated
from harness import Mailer, new_game, signup

from pbm.notation import Context
from pbm.notation.format import format_item
from pbm.rules.orders import SetupOrders, SetupPlacement
from pbm.rules.setup import automatic_placement, placement_rule
from pbm.rules.state import GameState
from pbm.service.context import Service
from pbm.store import codec


@dataclass
class _Setup:
    """A game in its setup after seat 0 placed `first`."""

    svc: Service
    mailer: Mailer
    state: GameState
    first: SetupPlacement

    def send(self, seat: int, *placements: SetupPlacement, extra: str = "") -> None:
        ctx = Context(self.state.board, "de", self.state.colours, "setup")
        address = seated(self.svc, "alpha")[seat].address
        lines = "".join(f"{format_item(p, ctx)}\n" for p in placements)
        body = f"Kennwort: {passwords(self.svc)[address]}\n{lines}{extra}"
        assert self.mailer.send(address, "Aufstellung", body).status == "done"

    def stored(self) -> SetupOrders:
        (waiting,) = [
            o for o in order_sets(self.svc, "alpha") if not o.superseded and o.setup_step >= 0
        ]
        loaded = codec.loads(waiting.parsed)
        assert isinstance(loaded, SetupOrders)
        return loaded

    def free(self) -> SetupPlacement:
        """A legal placement away from the first settlement."""
        board, skip = self.state.board, self.first.crossing
        for c in range(len(board.crossing_hexes)):
            near = {c, *(x for e in board.crossing_paths[c] for x in board.path_crossings[e])}
            if skip in near:
                continue
            for e in board.crossing_paths[c]:
                if placement_rule(self.state, pl := SetupPlacement(c, e)) is None:
                    return pl
        raise AssertionError("no free placement")

    def taken(self) -> SetupPlacement:
        """The first settlement's crossing, with another of its paths."""
        c = self.first.crossing
        return SetupPlacement(c, self.state.board.crossing_paths[c][-1])


def _after_first_placement(svc: Service, mailer: Mailer) -> _Setup:
    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    _, st = game_state(svc, "alpha")
    setup = _Setup(svc, mailer, st, automatic_placement(st))
    setup.send(0, setup.first)
    setup.state = game_state(svc, "alpha")[1]
    assert setup.state.owner[setup.first.crossing] == 0
    return setup


def test_a_taken_crossing_is_refused_at_receipt(svc: Service, mailer: Mailer) -> None:
    s = _after_first_placement(svc, mailer)
    # Seat 2, ahead of its turn: the taken crossing first, then a free one.
    free = s.free()
    s.send(2, s.taken(), free)
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    accepted, refused = ack.body.split("Abgelehnt:")
    assert "\n    3  Siedlung" in accepted and "\n    2  Siedlung" in refused
    assert "dieser Platz ist besetzt" in refused, ack.body
    assert s.stored() == SetupOrders((free,))

    # Nothing usable at all: refused, and the list stored before stands.
    s.send(2, s.taken())
    assert replies_to(svc, mailer.last_id, "error")
    assert s.stored() == SetupOrders((free,))


def test_a_refused_placement_with_a_discard_line_keeps_the_stored_list(
    svc: Service, mailer: Mailer
) -> None:
    """In the setup only a placement is of use: a mail whose placements are all refused is
    nothing usable even with a discard line beside them, and the list stored before stands."""
    s = _after_first_placement(svc, mailer)
    free = s.free()
    s.send(2, free)
    s.send(2, s.taken(), extra="Abwurf: H\n")
    (answer,) = replies_to(svc, mailer.last_id, "error")
    assert "nichts wurde gespeichert" in answer.body, answer.body
    assert "sobald du in der Aufstellung dran bist" not in answer.body
    assert s.stored() == SetupOrders((free,))


def test_on_the_players_turn_a_refused_placement_asks_again(svc: Service, mailer: Mailer) -> None:
    """Every placement refused on the player's own turn: nothing stored, and the answer says it
    is their turn and by when (not that the placement comes at their turn)."""
    s = _after_first_placement(svc, mailer)
    board = s.state.board
    near = next(
        SetupPlacement(c, e)
        for e0 in board.crossing_paths[s.first.crossing]
        for c in board.path_crossings[e0]
        if c != s.first.crossing
        for e in board.crossing_paths[c]
        if s.state.road[e] < 0
    )
    s.send(1, near)
    (answer,) = replies_to(svc, mailer.last_id, "error")
    assert "Abstandsregel" in answer.body, answer.body
    assert "Du bist in der Aufstellung dran: schick eine Platzierung bis" in answer.body
    assert "sobald du in der Aufstellung dran bist" not in answer.body
    assert game_state(svc, "alpha")[1].setup_step == 1


def test_the_answer_says_what_became_of_the_placement(svc: Service, mailer: Mailer) -> None:
    """A placement sent on the player's turn is placed at once, and the answer says so with
    the placement (not that it waits for the turn); one sent ahead of the turn waits."""
    s = _after_first_placement(svc, mailer)
    ctx = Context(s.state.board, "de", s.state.colours, "setup")
    now = s.free()
    s.send(1, now)  # seat 1's turn
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert "Du warst in der Aufstellung dran, daher ist jetzt gesetzt:" in ack.body, ack.body
    assert f"\n  {format_item(now, ctx)}\n" in ack.body
    assert "sobald du in der Aufstellung dran bist" not in ack.body
    s.state = game_state(svc, "alpha")[1]
    assert s.state.owner[now.crossing] == 1
    # Seat 3 sends ahead of its turn (seat 2's comes first): the placement waits.
    s.send(3, s.free())
    (waiting,) = replies_to(svc, mailer.last_id, "ack")
    assert "sobald du in der Aufstellung dran bist" in waiting.body
    assert "jetzt gesetzt" not in waiting.body


def test_an_unreadable_ranked_option_is_named_beside_the_line_accepted(
    svc: Service, mailer: Mailer
) -> None:
    """`Siedlung 9E 11G 6G … oder Siedlung …` (the first on no place of this board): the ack
    showed only the second option, and the player never learned the first was passed over."""
    s = _after_first_placement(svc, mailer)
    free = s.free()
    ctx = Context(s.state.board, "de", s.state.colours, "setup")
    s.send(2, extra=f"Siedlung Z9 Z8 Z7 Straße Z9 Z8 oder {format_item(free, ctx)}\n")
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    said = " ".join(ack.body.split())
    assert "eine Möglichkeit ausgelassen: " in said, ack.body
    assert "Z9" in said
    assert s.stored() == SetupOrders((free,))


def test_a_placement_sent_ahead_that_fails_at_the_turn_says_what_to_send(
    svc: Service, mailer: Mailer
) -> None:
    """Seat 2's placement, sent ahead, taken by seat 1 before seat 2's turn: the mail saying it
    could not be used gave no deadline, no line to copy and no word that it is their turn."""
    from databases import outbox

    s = _after_first_placement(svc, mailer)
    free = s.free()
    s.send(2, free)  # ahead of its turn: stored
    s.send(1, free)  # on turn: placed, the spot is gone
    address = seated(svc, "alpha")[2].address
    (failed,) = [o for o in outbox(svc, "error", to=address) if "nicht möglich" in o.subject]
    assert "Deine Aufstellung ging nicht" in failed.body
    assert "Du bist in der Aufstellung dran: setze deine 1. Siedlung" in failed.body
    assert "Frist:" in failed.body and "Kennwort: …" in failed.body
    assert "Du bist in der Aufstellung dran" in failed.html
    assert game_state(svc, "alpha")[1].setup_step == 2
