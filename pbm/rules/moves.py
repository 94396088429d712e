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


def build_spots(state: GameState, p: int) -> tuple[list[int], list[int]]:
    """(paths for a road, crossings for a settlement) open to p now, both in id order.

    One pass over the ends of p's roads serves both: bots ask for both every round.
    """
    board = state.board
    owner, road = state.owner, state.road
    ends: set[int] = set()
    for e in state.roads[p]:
        ends.update(board.path_crossings[e])
    sites: list[int] = []
    if len(state.settlements[p]) < MAX_SETTLEMENTS:
        # Ends of p's roads are connected by definition: only the site rules are left.
        neighbors, land = board.crossing_neighbors, board.crossing_land
        for c in sorted(ends):
            if owner[c] < 0 and land[c]:
                for n in neighbors[c]:
                    if owner[n] >= 0:
                        break
                else:
                    sites.append(c)
    if len(state.roads[p]) >= MAX_ROADS:
        return [], sites
    ends.update(state.settlements[p])
    ends.update(state.cities[p])
    found: set[int] = set()
    paths, path_land = board.crossing_paths, board.path_land
    # Every crossing of the network touches p's road or building; one an opponent holds cuts.
    for c in ends:
        o = owner[c]
        if o == p or o < 0:
            for e in paths[c]:
                if road[e] < 0 and path_land[e]:
                    found.add(e)
    return sorted(found), sites


def road_spots(state: GameState, p: int) -> list[int]:
    return build_spots(state, p)[0]


def settlement_spots(state: GameState, p: int) -> list[int]:
    return build_spots(state, p)[1]


def city_spots(state: GameState, p: int) -> list[int]:
    if len(state.cities[p]) >= MAX_CITIES:
        return []
    return sorted(state.settlements[p])


def playable_cards(state: GameState, p: int) -> list[str]:
    """Card types p could play this round (bought in an earlier round; none played yet)."""
    if state.last_card_round[p] == state.round:
        return []
    return sorted(
        {
            c
            for c, r in state.cards[p]
            if r < state.round and c in (KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY)
        }
    )
