"""Legal-move views: where a player could build now (cost aside), for bots and acknowledgements.

Like python-chess's legal move generator, these are views computed from the state and never
change it. Orders are written before the round's rolls, so cost is not part of them.
"""

from __future__ import annotations

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
    owner, road, land = state.owner, state.road, board.path_land
    found: set[int] = set()
    # Every crossing of the network touches p's road or building; one an opponent holds cuts.
    for c in network(state, p):
        if owner[c] == p or owner[c] < 0:
            found.update(e for e in board.crossing_paths[c] if road[e] < 0 and land[e])
    return sorted(found)


def settlement_spots(state: GameState, p: int) -> list[int]:
    if len(state.settlements[p]) >= MAX_SETTLEMENTS:
        return []
    board = state.board
    ends: set[int] = set()
    for e in state.roads[p]:
        ends.update(board.path_crossings[e])
    # Ends of p's roads are connected by definition: only the site rules are left to check.
    owner, neighbors, land = state.owner, board.crossing_neighbors, board.crossing_land
    return [
        c for c in sorted(ends)
        if owner[c] < 0 and land[c] and all(owner[n] < 0 for n in neighbors[c])
    ]


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
