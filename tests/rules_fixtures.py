"""Small helpers for the rules tests, on top of helpers.py: hexes by label, cards in hand,
scripted quiet rolls and event filters."""

from __future__ import annotations

from typing import TypeVar

from pbm.rules.events import Event
from pbm.rules.orders import TurnOrders
from pbm.rules.state import GameState

E = TypeVar("E", bound=Event)

#: A roll of 12. On the default board (seed 1) only B3 (12E) has a 12; tests keep B3 empty,
#: so this roll pays nobody and changes nothing.
QUIET = (6, 6)


def hex_id(s: GameState, label: str) -> int:
    """A hex by its label, e.g. "D2"."""
    return s.board.hex_by_label(label).id


def give_card(s: GameState, p: int, card: str, bought_round: int = 0) -> None:
    """Put a development card into seat p's hand, bought in `bought_round` (0: long ago)."""
    s.cards[p].append((card, bought_round))


def of(events: list[Event], kind: type[E]) -> list[E]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, kind)]


def idle(players: int = 4, **seats: TurnOrders | None) -> dict[int, TurnOrders | None]:
    """Orders for every seat: empty orders unless given as `s0=…`, `s1=…`."""
    out: dict[int, TurnOrders | None] = {p: TurnOrders() for p in range(players)}
    for key, value in seats.items():
        out[int(key.removeprefix("s"))] = value
    return out


def pirate_on_own_harbour(s: GameState, seat: int = 0) -> int:
    """A Seafarers game: a settlement of `seat`'s on a free crossing at a 3:1 harbour, and the
    pirate on that harbour's hex (which then does not trade); returns the hex."""
    from pbm.rules import building

    assert s.sea is not None
    board = s.board
    h = next(x.id for x in board.hexes if x.harbor is not None and x.harbor.resource is None)
    c = next(
        c
        for c in board.hex_crossings[h]
        if board.crossing_harbor[c] is board.hexes[h].harbor and s.level[c] == 0
    )
    building.place_settlement(s, seat, c, [], free=True)
    s.sea.pirate = h
    return h
