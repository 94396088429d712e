"""Legal-move views: where a player could build now (cost aside), for bots and acknowledgements.

Like python-chess's legal move generator, these are views computed from the state and never
change it. Orders are written before the round's rolls, so cost is not part of them.
"""

from __future__ import annotations

from .building import road_rule, settlement_rule
from .layouts import KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from .state import MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, GameState


def network(state: GameState, p: int) -> list[int]:
    """Crossings the player's roads and buildings reach, in id order."""
    board = state.board
    seen = set(state.settlements[p])
    seen.update(state.cities[p])
    for e in state.roads[p]:
        seen.update(board.path_crossings[e])
    return sorted(seen)


def road_spots(state: GameState, p: int) -> list[int]:
    if len(state.roads[p]) >= MAX_ROADS:
        return []
    board = state.board
    found: set[int] = set()
    for c in network(state, p):
        for e in board.crossing_paths[c]:
            if e not in found and road_rule(state, p, e, check_cost=False) is None:
                found.add(e)
    return sorted(found)


def settlement_spots(state: GameState, p: int) -> list[int]:
    if len(state.settlements[p]) >= MAX_SETTLEMENTS:
        return []
    board = state.board
    ends: set[int] = set()
    for e in state.roads[p]:
        ends.update(board.path_crossings[e])
    return [c for c in sorted(ends) if settlement_rule(state, p, c, check_cost=False) is None]


def city_spots(state: GameState, p: int) -> list[int]:
    if len(state.cities[p]) >= MAX_CITIES:
        return []
    return sorted(state.settlements[p])


def playable_cards(state: GameState, p: int) -> list[str]:
    """Card types p could play this round (bought in an earlier round; none played yet)."""
    if state.last_card_round[p] == state.round:
        return []
    return sorted({c for c, r in state.cards[p] if r < state.round and c in (
        KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY)})
