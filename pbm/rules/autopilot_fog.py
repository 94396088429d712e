"""The autopilot in the fog (Oceania): where no free site in reach is worth more, it heads for
the nearest crossing that touches fog, by road or by ship, so the game's land gets discovered;
and a site is worth more the nearer its coast lies to the fog (`coast_bonus`), so its
settlements go where the ships set out from.

The plan sees only the board as the players see it (fog is fog), never the stacks under it.
Deterministic, like the autopilot: ties go to the shorter line, then to the lowest crossing.
"""

from __future__ import annotations

import functools
from collections import deque

from .autopilot import SITE_BONUSES
from .board import Board
from .legal import LegalMoves
from .state import GameState

#: What one fog hex is worth to a plan, against a site's value (its pips and bonuses, about 8
#: to 14 for a good site): most fog is land, pays a card when found and may hold a site.
FOG_WORTH = 20.0
#: How far a plan looks for fog: as far as the Seafarers plans look for sites.
ROAD_DEPTH = 3
SHIP_DEPTH = 6
#: What a site on a coast facing the fog is worth more, at most (a ship line of one side).
NEAR_FOG = 3.0


def explore(state: GameState, legal: LegalMoves, beat: float) -> tuple[bool, list[int]] | None:
    """(ship, paths) of the line towards fog worth most, each fog hex at its end worth
    `FOG_WORTH` over (1 + length), when that is more than `beat` (the best site plan's worth);
    else None."""
    if not state.board.fog:
        return None
    best: tuple[float, bool, list[int]] | None = None
    for ship in (False, True):
        worth, route = _plan(state, legal, ship)
        if route and worth > beat and (best is None or worth > best[0]):
            best = (worth, ship, route)
    return None if best is None else (best[1], best[2])


def _plan(state: GameState, legal: LegalMoves, ship: bool) -> tuple[float, list[int]]:
    """The shortest line of roads (or ships) to the fog crossing worth most: its fog hexes at
    `FOG_WORTH` each over (1 + length); a line ends where it discovers."""
    from .autopilot_sea import shortest_line  # which imports this module's registry

    board = state.board
    fog = board.crossing_fog

    def worth(c: int, d: int, start: int) -> float | None:
        if not fog[c]:
            return None
        hidden = sum(1 for h in board.crossing_hexes[c] if h in board.fog)
        return FOG_WORTH * hidden / (1 + d)

    depth = SHIP_DEPTH if ship else ROAD_DEPTH
    return shortest_line(state, legal, ship, depth, worth, stops=fog.__getitem__)


def coast_bonus(board: Board, c: int) -> float:
    """What a site at crossing c is worth more for the fog its ships could reach: `NEAR_FOG`
    for a line of one ship, less for each further side, nothing beyond `SHIP_DEPTH`."""
    if not board.fog:
        return 0.0
    d = _fog_distance(board).get(c)
    return 0.0 if d is None else NEAR_FOG * (SHIP_DEPTH + 1 - d) / SHIP_DEPTH


@functools.lru_cache(maxsize=8)
def _fog_distance(board: Board) -> dict[int, int]:
    """Sides of sea from each crossing to the nearest crossing touching fog (up to
    `SHIP_DEPTH`), pieces aside: once per board (a discovery makes a new board)."""
    dist = {c: 0 for c, touches in enumerate(board.crossing_fog) if touches}
    queue = deque(sorted(dist))
    while queue:
        c = queue.popleft()
        if dist[c] >= SHIP_DEPTH:
            continue
        for e in board.crossing_paths[c]:
            if not board.path_sea[e]:
                continue
            a, b = board.path_crossings[e]
            nxt = b if a == c else a
            if nxt not in dist:
                dist[nxt] = dist[c] + 1
                queue.append(nxt)
    return dist


SITE_BONUSES.append(coast_bonus)
