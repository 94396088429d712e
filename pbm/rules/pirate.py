"""The pirate (Seafarers): moved instead of the robber on a 7 or by a knight.

Spec `seafarers.md`, "Pirate" (docs/rules-decisions.md, "Seafarers: the pirate"): the robber
order may name the pirate (`RobberOrder.pirate`); the pirate goes onto another sea hex of the
board (the frame too) and takes one random card from each opponent owning a ship on a side of
that hex, in seat order. Newcomer protection is the robber's only. While it stands on a hex, no
ship is built, placed or moved on its sides (`ships.next_to_pirate`) and the harbour on the hex
does not trade (`trade.harbour_rate`).
"""

from __future__ import annotations

import random

from .board import Terrain
from .events import Event, NothingToSteal
from .orders import RobberOrder
from .reasons import Reason
from .robber import move_robber, protection_rule, robber_hex_rule, robber_now_rule, steal
from .sea_events import PirateMoved
from .state import GameState


def pirate_target_rule(state: GameState, h: int) -> Reason | None:
    """Whether hex h can take the pirate at all: what the checks at receipt can see (the
    pirate may leave its hex before the player's turn)."""
    if state.sea is None or state.sea.pirate < 0:
        return Reason.NO_PIRATE
    if state.board.hexes[h].terrain != Terrain.SEA:
        return Reason.PIRATE_NOT_ON_SEA
    return None


def pirate_hex_rule(state: GameState, h: int) -> Reason | None:
    """Whether the pirate may go onto hex h now."""
    rule = pirate_target_rule(state, h)
    if rule is not None:
        return rule
    assert state.sea is not None
    if h == state.sea.pirate:
        return Reason.PIRATE_MUST_MOVE
    return None


def legal_pirate_hexes(state: GameState) -> list[int]:
    return [h.id for h in state.board.hexes if pirate_hex_rule(state, h.id) is None]


def thief_rule(state: GameState, p: int, order: RobberOrder) -> Reason | None:
    """The rule for a robber order, whichever of robber or pirate it names."""
    if order.pirate:
        return pirate_hex_rule(state, order.hex)
    return robber_hex_rule(state, p, order.hex)


def thief_now_rule(state: GameState, p: int, order: RobberOrder) -> Reason | None:
    """`robber.robber_now_rule` for p's robber order naming either the robber or the pirate:
    a sea hex, not the one the pirate stands on when the orders come in; the robber's hex
    also not one the newcomer protection keeps it off now."""
    if not order.pirate:
        return robber_now_rule(state, order.hex) or protection_rule(state, p, order.hex)
    return pirate_hex_rule(state, order.hex)


def hex_sides(state: GameState, h: int) -> list[int]:
    """The paths on the sides of hex h, in path order."""
    return [e for _, e in state.board.hex_sides[h]]


def ship_owners_at(state: GameState, p: int, h: int) -> list[int]:
    """Opponents of p with a ship on a side of hex h, in seat order."""
    sea = state.sea
    if sea is None:
        return []
    return sorted({q for e in hex_sides(state, h) if (q := sea.ship[e]) >= 0 and q != p})


def move_pirate(
    state: GameState, p: int, h: int, cause: str, rng: random.Random, events: list[Event]
) -> None:
    """Move the pirate (the move must be legal) and rob every ship owner next to it who holds a
    card, one card each, in seat order."""
    assert state.sea is not None
    state.sea.pirate = h
    events.append(PirateMoved(p, h, cause))
    victims = [q for q in ship_owners_at(state, p, h) if sum(state.hands[q]) > 0]
    if not victims:
        events.append(NothingToSteal(p, h))
    for q in victims:
        steal(state, p, q, rng, events)


def move_thief(
    state: GameState,
    p: int,
    order: RobberOrder,
    cause: str,
    rng: random.Random,
    events: list[Event],
) -> None:
    """Carry out a legal robber order: the robber's or the pirate's move."""
    if order.pirate:
        move_pirate(state, p, order.hex, cause, rng, events)
    else:
        move_robber(state, p, order, cause, rng, events)
