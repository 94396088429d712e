"""The autopilot's Seafarers play (`autopilot.py` asks this module when the state carries a
`SeaState`): start sites on the start islands with a ship where the coast needs one, a plan of
roads or of ships towards the best free site (whichever reaches more for its length), special VP
weighed into a site's worth, a `Gold:` preference for what the plan lacks, and moving the front
ship of a line that leads nowhere to the head of the plan. Deterministic, like the autopilot.

The Great Crossing: a start site on a coast facing the other island is worth `COAST` more; a
trade line is worth `LINE_WORTH` to a plan. A site on the other island where p's ships would
close lines is worth that much more, a ship plan may head for a building on the other island
(its own, or an opponent's) that closes a line, and with a settlement to build the ships
towards the best line follow it (`line_plan`); a ship of a line p holds is never moved away
(`LineView`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .board import Terrain
from .legal import LegalMoves
from .orders import MoveShip, RobberOrder, SetupOrders, SetupPlacement
from .pirate import hex_sides
from .resources import N_RESOURCES, Counts
from .scenarios import scenario
from .sea import MAX_SHIPS, SeaState
from .ships import free_end, next_to_pirate
from .special import areas, earned, must_ship
from .state import MAX_ROADS, GameState
from .trade_lines import building_reach, held_chains, in_play, islands, piece_owners

#: How far a plan looks: roads over land, ships over the sea (islands lie further off).
ROAD_DEPTH = 3
SHIP_DEPTH = 6
#: What a trade line is worth to a plan, against a site's pips and bonuses (special VP 4 each):
#: more, as a line gives its VP for ships alone.
LINE_WORTH = 12.0
#: The Great Crossing's start sites: more on a coast facing the other island (`crossing_start`).
COAST = 1.5


@dataclass(frozen=True)
class LineView:
    """The Great Crossing as one seat's plan sees it: the two islands' areas, the buildings each
    crossing's chain reaches (`trade_lines.building_reach`), the lines that are, and the ships
    of the lines the seat holds."""

    seat: int
    pair: tuple[int, int]
    reach: dict[int, set[int]]
    lines: frozenset[tuple[int, int]]
    keep: frozenset[int]

    def side(self, state: GameState, c: int) -> int:
        """0 on the first island, 1 on the second, -1 elsewhere."""
        areas = state.board.crossing_areas[c]
        return 0 if self.pair[0] in areas else 1 if self.pair[1] in areas else -1

    def gain(self, state: GameState, start: int, target: int, site: bool) -> int:
        """Lines p would hold once a chain from `start` reaches `target` (a new settlement of
        p's when `site`): one for each building on the other island that `start` reaches
        (`start` itself when it is a building) and p claims, and that no line joins yet."""
        t_side = self.side(state, target)
        if t_side < 0:
            return 0
        owner, p = state.owner, self.seat
        ends = {start} if owner[start] >= 0 else self.reach.get(start, set())
        n = 0
        for a in ends:
            if self.side(state, a) != 1 - t_side:
                continue
            key = (a, target) if t_side == 1 else (target, a)
            if key not in self.lines and (site or owner[a] == p or owner[target] == p):
                n += 1
        return n

    def closes(self, state: GameState, e: int) -> int:
        """Lines a new ship of p's on path `e` would close: pairs of buildings on the two
        islands, one reached from each end of `e`, that p claims and no line joins yet."""
        owner, p = state.owner, self.seat
        u, v = state.board.path_crossings[e]
        ends_u = {u} if owner[u] >= 0 else self.reach.get(u, set())
        ends_v = {v} if owner[v] >= 0 else self.reach.get(v, set())
        n = 0
        for a in ends_u:
            sa = self.side(state, a)
            for b in ends_v:
                sb = self.side(state, b)
                if sa < 0 or sb < 0 or sa == sb or p not in (owner[a], owner[b]):
                    continue
                if ((a, b) if sa == 0 else (b, a)) not in self.lines:
                    n += 1
        return n


def line_view(state: GameState, p: int) -> LineView | None:
    """The seat's `LineView` in The Great Crossing, else None."""
    sea = state.sea
    if sea is None or not in_play(state):
        return None
    piece = piece_owners(state, sea)
    return LineView(
        p,
        islands(state, sea),
        building_reach(state.board, state.owner, piece),
        frozenset((a, b) for a, b, _ in sea.lines),
        frozenset(held_chains(state, sea, p)),
    )


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


def gold_preference(state: GameState, p: int, target: Counts) -> tuple[int, ...]:
    """p's `Gold:` preference: what its next build (`target`) still lacks, the resource it
    lacks most first (ties: the one its buildings produce least, then H L W G E), one entry
    for each card lacking; when the hand pays for it already, what a second such build would
    lack. Empty when the hand pays for two (the rules then give the resource p holds fewest
    of, `gold.GoldChoices`)."""
    board = state.board
    hand = state.hands[p]
    produced = [0] * N_RESOURCES
    for c in state.settlements[p] + state.cities[p]:
        for h in board.crossing_hexes[c]:
            x = board.hexes[h]
            if x.resource is not None and x.resource < N_RESOURCES and x.number:
                produced[x.resource] += x.pips * state.level[c]
    for times in (1, 2):
        lack = [max(0, times * target[r] - hand[r]) for r in range(N_RESOURCES)]
        if any(lack):
            break
    else:
        return ()
    out: list[int] = []
    while any(lack):
        r = max(range(N_RESOURCES), key=lambda r: (lack[r], -produced[r], -r))
        out.append(r)
        lack[r] -= 1
    return tuple(out)


def site_bonus(
    state: GameState, sea: SeaState, p: int, c: int, lines: LineView | None = None
) -> float:
    """What Seafarers adds to a site's worth: special VP it would earn, gold rivers, and (The
    Great Crossing) the trade lines a settlement there would close."""
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
    if lines is not None:
        bonus += LINE_WORTH * lines.gain(state, c, c, True)
    return bonus


def crossing_start(state: GameState, sea: SeaState, c: int) -> float:
    """The Great Crossing, for a start site: more on a coast facing the other island or an
    islet, where the start settlement's ship heads out. (Where the others start plays no part:
    weighing it made the seats' win shares less even, docs/rules-decisions.md.)"""
    if scenario(sea.scenario).special != "trade_lines":
        return 0.0
    return COAST if must_ship(state, sea, c) else 0.0


def setup_orders(state: GameState, p: int, score: dict[int, float]) -> SetupOrders:
    """Ranked placements on the start islands; `score` values the sites (the autopilot's)."""
    legal = LegalMoves(state, p)
    board = state.board
    sea = state.sea
    if sea is not None:
        score = {c: v + crossing_start(state, sea, c) for c, v in score.items()}
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
    state: GameState,
    legal: LegalMoves,
    value: dict[int, float],
    ship: bool,
    lines: LineView | None = None,
) -> tuple[float, list[int]]:
    """(worth, paths) of the shortest line of roads (or ships) to the best free site in reach;
    worth is the site's value over (1 + length). (0, []) when there is none. With `lines` (The
    Great Crossing) a ship plan adds the trade lines its ships would close to a site's value,
    and may head for a building that closes one."""
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
    origin = {c: c for c in start}
    queue = deque(start)
    best: tuple[float, int] | None = None
    lines = lines if ship else None
    while queue:
        c = queue.popleft()
        worth: float | None = None
        if dist[c] > 0 and legal.is_site(c):
            extra = 0.0 if lines is None else LINE_WORTH * lines.gain(state, origin[c], c, True)
            worth = (value.get(c, 0.0) + extra) / (1 + dist[c])
        elif dist[c] > 0 and lines is not None and owner[c] >= 0:
            closes = lines.gain(state, origin[c], c, False)
            worth = LINE_WORTH * closes / (1 + dist[c]) if closes else None
        if worth is not None and (best is None or (worth, -c) > (best[0], -best[1])):
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
                origin[nxt] = origin[c]
                queue.append(nxt)
    if best is None:
        return 0.0, []
    out: list[int] = []
    c = best[1]
    while c in prev:
        c, e = prev[c]
        out.append(e)
    return best[0], out[::-1]


def line_plan(state: GameState, legal: LegalMoves, lines: LineView) -> list[int]:
    """The Great Crossing: the ships of the best plan that closes a trade line (its sites worth
    only the lines they close), or [] when none is in reach."""
    worth, route = plan(state, legal, {}, ship=True, lines=lines)
    return route if worth > 0 else []


def idle_move(
    state: GameState, legal: LegalMoves, route: list[int], lines: LineView | None = None
) -> MoveShip | None:
    """A front ship touching no own building and no crossing of the planned route, moved to the
    route's first side: a ship that leads nowhere sails on instead of a new one being built.
    (The Great Crossing: never a ship of a line p holds.)"""
    sea = state.sea
    assert sea is not None
    if not route:
        return None
    p = legal.seat
    board = state.board
    on_route = {c for e in route for c in board.path_crossings[e]}
    own = set(state.settlements[p]) | set(state.cities[p])
    for m in legal.ship_moves():
        if m.target != route[0] or (lines is not None and m.source in lines.keep):
            continue
        ends = set(board.path_crossings[m.source])
        if ends & on_route or ends & own or not free_end(state, sea, p, m.source):
            continue
        return m
    return None
