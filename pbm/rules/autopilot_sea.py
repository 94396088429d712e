"""The autopilot's Seafarers play (`autopilot.py` asks this module when the state carries a
`SeaState`): start sites on the start islands with a ship where the coast needs one, a plan of
roads or of ships towards the best free site (whichever reaches more for its length), special VP
weighed into a site's worth, a `Gold:` preference for what the plan lacks, and moving the front
ship of a line that leads nowhere to the head of the plan. Deterministic, like the autopilot.
"""

from __future__ import annotations

from collections import deque

from .board import Terrain
from .legal import LegalMoves
from .orders import MoveShip, RobberOrder, SetupOrders, SetupPlacement
from .pirate import hex_sides
from .scenarios import scenario
from .sea import MAX_SHIPS, SeaState
from .ships import free_end, next_to_pirate
from .special import areas, earned
from .state import MAX_ROADS, GameState

#: How far a plan looks: roads over land, ships over the sea (islands lie further off).
ROAD_DEPTH = 3
SHIP_DEPTH = 6


def pirate_target(
    state: GameState, legal: LegalMoves, robber: RobberOrder | None
) -> RobberOrder | None:
    """The sea hex where the pirate robs most (each opponent with a ship next to it and a card
    in hand gives one, weighed by their VP), never next to p's own ships (it would block
    them); None when it robs fewer than two, or than one where the robber's hex robs nobody:
    else the robber, which also stops production, does more."""
    p, sea = legal.seat, state.sea
    if sea is None:
        return None
    robs = robber is not None and any(sum(state.hands[q]) for q in robber.victims)
    need = 2 if robs else 1
    best: tuple[float, int] | None = None
    for h in legal.pirate_hexes():
        if any(sea.ship[e] == p for e in hex_sides(state, h)):
            continue
        victims = [q for q in legal.ship_owners(h) if sum(state.hands[q]) > 0]
        if len(victims) < need:
            continue
        key = (sum(1.0 + state.visible_vp(q) for q in victims), -h)
        if best is None or key > best:
            best = key
    return None if best is None else RobberOrder(-best[1], (), True)


def site_bonus(state: GameState, sea: SeaState, p: int, c: int) -> float:
    """What Seafarers adds to a site's worth: special VP it would earn, and gold rivers."""
    board = state.board
    bonus = 0.0
    for h in board.crossing_hexes[c]:
        x = board.hexes[h]
        if x.terrain == Terrain.GOLD and x.number:
            bonus += 1.5
    if state.round > 0:
        sc = scenario(sea.scenario)
        gained = earned(sc, areas(state, sea), sea, p, board.crossing_areas[c])
        bonus += 4.0 * sum(vp for _, vp in gained)
    return bonus


def setup_orders(state: GameState, p: int, score: dict[int, float]) -> SetupOrders:
    """Ranked placements on the start islands; `score` values the sites (the autopilot's)."""
    legal = LegalMoves(state, p)
    board = state.board
    placements: list[SetupPlacement] = []
    for c in sorted(score, key=lambda x: (-score[x], x)):
        pieces = legal.setup_pieces(c)
        if not pieces:
            continue
        best: tuple[int, int, bool] | None = None
        for e, ship in pieces:
            a, b = board.path_crossings[e]
            far = a if b == c else b
            value = max(
                (board.crossing_pips[n] for n in board.crossing_neighbors[far] if n != c),
                default=0,
            )
            if best is None or value > best[0]:
                best = (value, e, ship)
        assert best is not None
        placements.append(SetupPlacement(c, best[1], best[2]))
        if len(placements) == 3:
            break
    return SetupOrders(tuple(placements))


def plan(
    state: GameState, legal: LegalMoves, value: dict[int, float], ship: bool
) -> tuple[float, list[int]]:
    """(worth, paths) of the shortest line of roads (or ships) to the best free site in reach;
    worth is the site's value over (1 + length). (0, []) when there is none."""
    sea = state.sea
    assert sea is not None
    p = legal.seat
    board = state.board
    owner, road = state.owner, state.road
    if ship:
        if len(sea.ships[p]) >= MAX_SHIPS:
            return 0.0, []
        start_set = set(state.settlements[p]) | set(state.cities[p])
        for e in sea.ships[p]:
            start_set.update(board.path_crossings[e])
        usable = board.path_sea
        depth = SHIP_DEPTH
    else:
        if len(state.roads[p]) >= MAX_ROADS:
            return 0.0, []
        start_set = set(legal.network())
        usable = board.path_land
        depth = ROAD_DEPTH
    start = sorted(c for c in start_set if owner[c] in (-1, p))
    prev: dict[int, tuple[int, int]] = {}
    dist = {c: 0 for c in start}
    queue = deque(start)
    best: tuple[float, int] | None = None
    while queue:
        c = queue.popleft()
        if dist[c] > 0 and legal.is_site(c):
            worth = value.get(c, 0.0) / (1 + dist[c])
            if best is None or (worth, -c) > (best[0], -best[1]):
                best = (worth, c)
        if dist[c] >= depth or (owner[c] >= 0 and owner[c] != p):
            continue
        for e in board.crossing_paths[c]:
            if not usable[e] or road[e] >= 0 or sea.ship[e] >= 0:
                continue
            if ship and next_to_pirate(state, sea, e):
                continue
            a, b = board.path_crossings[e]
            nxt = b if a == c else a
            if nxt not in dist:
                dist[nxt] = dist[c] + 1
                prev[nxt] = (c, e)
                queue.append(nxt)
    if best is None:
        return 0.0, []
    out: list[int] = []
    c = best[1]
    while c in prev:
        c, e = prev[c]
        out.append(e)
    return best[0], out[::-1]


def idle_move(state: GameState, legal: LegalMoves, route: list[int]) -> MoveShip | None:
    """A front ship touching no own building and no crossing of the planned route, moved to the
    route's first side: a ship that leads nowhere sails on instead of a new one being built."""
    sea = state.sea
    assert sea is not None
    if not route:
        return None
    p = legal.seat
    board = state.board
    on_route = {c for e in route for c in board.path_crossings[e]}
    own = set(state.settlements[p]) | set(state.cities[p])
    for m in legal.ship_moves():
        if m.target != route[0]:
            continue
        ends = set(board.path_crossings[m.source])
        if ends & on_route or ends & own or not free_end(state, sea, p, m.source):
            continue
        return m
    return None
