"""The longest trade route (Seafarers): roads and ships counted together.

Spec `seafarers.md`, "Longest trade route", after seed 001: a road and a ship join only through
the player's own building; an opponent's building ends a route as it ends a road. With no ships
this is exactly the base game's longest road (`building.longest_road_length`).
"""

from __future__ import annotations

from .sea import SeaState
from .state import GameState

ROAD, SHIP = 0, 1


def trade_route_length(state: GameState, sea: SeaState, p: int) -> int:
    """The longest trail of p's roads and ships (each piece once)."""
    pieces = [(e, ROAD) for e in state.roads[p]] + [(e, SHIP) for e in sea.ships[p]]
    if not pieces:
        return 0
    board = state.board
    owner = state.owner
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, (e, kind) in enumerate(pieces):
        u, v = board.path_crossings[e]
        adj.setdefault(u, []).append((1 << i, v, kind))
        adj.setdefault(v, []).append((1 << i, u, kind))
    blocked = {c for c in adj if owner[c] >= 0 and owner[c] != p}
    own = {c for c in adj if owner[c] == p}

    def walk(c: int, used: int, came: int) -> int:
        best = 0
        for bit, nxt, kind in adj[c]:
            if used & bit:
                continue
            if came >= 0 and kind != came and c not in own:
                continue  # road to ship (or back) only at an own building
            n = 1 if nxt in blocked else 1 + walk(nxt, used | bit, kind)
            if n > best:
                best = n
        return best

    return max(walk(c, 0, -1) for c in sorted(adj))
