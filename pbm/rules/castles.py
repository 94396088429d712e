"""Kronlande's Burg and Residenz, and the title Baumeister (spec kronlande.md, "Buildings").

- Burg: the player's city upgraded for 3 Stein, 1 Werkzeug, 1 Brot; 3 VP; yields 2 (it stays a
  city of level 2 in the state's indexes).
- Residenz: the player's Burg upgraded for 2 Stein, 1 Werkzeug, 1 Stoff, 2 Brot; 5 VP; yields 3
  (level 3); its market is in `trade.harbour_rate`.
- The robber never stands next to either (`robber.robber_target_rule`); a Burg built next to
  the robber's hex sends the robber to the first desert without one next to it, or off the
  island when there is none (`castle_free_desert`; docs/rules-decisions.md, "Kronlande").
- Baumeister: most Burgen and Residenzen together, at least 2, 2 VP; it changes only when
  someone has more than the holder, like the largest army.
"""

from __future__ import annotations

from .board import Terrain
from .building import pay
from .events import Built, Event, RobberMoved, TitleChanged
from .kron import BUILDER_MIN, BURG, NO_CASTLE, RESIDENZ
from .reasons import Reason
from .resources import COST_CASTLE, COST_RESIDENCE, can_pay
from .state import GameState


def castle_rule(state: GameState, p: int, c: int, check_cost: bool = True) -> Reason | None:
    kron = state.kron
    if kron is None:
        return Reason.NOT_KRONLANDE
    if (
        not 0 <= c < len(state.owner)
        or state.owner[c] != p
        or state.level[c] != 2
        or kron.castle[c] != NO_CASTLE
    ):
        return Reason.NOT_OWN_CITY
    if check_cost and not can_pay(state.hands[p], COST_CASTLE):
        return Reason.CANNOT_AFFORD
    return None


def residence_rule(state: GameState, p: int, c: int, check_cost: bool = True) -> Reason | None:
    kron = state.kron
    if kron is None:
        return Reason.NOT_KRONLANDE
    if not 0 <= c < len(state.owner) or state.owner[c] != p or kron.castle[c] != BURG:
        return Reason.NOT_OWN_CASTLE
    if check_cost and not can_pay(state.hands[p], COST_RESIDENCE):
        return Reason.CANNOT_AFFORD
    return None


def place_castle(state: GameState, p: int, c: int, events: list[Event], free: bool = False) -> None:
    kron = state.kron
    assert kron is not None
    if not free:
        pay(state, p, COST_CASTLE, events)
    kron.castle[c] = BURG
    kron.burgen[p] += 1
    events.append(Built(p, "castle", c, free))
    if state.robber >= 0 and state.robber in state.board.crossing_hexes[c]:
        # The robber never stands next to a Burg (docs/rules-decisions.md, "Kronlande").
        state.robber = castle_free_desert(state)
        events.append(RobberMoved(p, state.robber, "castle"))
    update_builder(state, p, events)


def castle_free_desert(state: GameState) -> int:
    """Where a Burg sends the robber from its hex: the first desert in label order with no Burg
    or Residenz next to it (blocking nobody's roll), or off the island (-1) when every desert
    has one; the next robber move brings it back onto a legal hex."""
    board = state.board
    kron = state.kron
    assert kron is not None
    for x in board.hexes:
        h = x.id
        if x.terrain == Terrain.DESERT and not any(kron.castle[c] for c in board.hex_crossings[h]):
            return h
    return -1


def place_residence(
    state: GameState, p: int, c: int, events: list[Event], free: bool = False
) -> None:
    kron = state.kron
    assert kron is not None
    if not free:
        pay(state, p, COST_RESIDENCE, events)
    kron.castle[c] = RESIDENZ
    kron.burgen[p] -= 1
    kron.residenzen[p] += 1
    state.level[c] = 3
    state.payees = None
    events.append(Built(p, "residence", c, free))
    # A Residenz was a Burg: the count of the title Baumeister stays as it was.


def update_builder(state: GameState, p: int, events: list[Event]) -> None:
    """Baumeister: at least 2 Burgen and Residenzen, and strictly more than the holder."""
    kron = state.kron
    assert kron is not None
    n = kron.castles(p)
    holder = kron.builder
    if n < BUILDER_MIN or holder == p:
        return
    if holder < 0 or n > kron.castles(holder):
        kron.builder = p
        events.append(TitleChanged("builder", holder, p, n))
