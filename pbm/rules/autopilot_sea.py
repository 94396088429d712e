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
from collections.abc import Callable
from dataclasses import dataclass

from .autopilot import (
    SETUP_PLANS,
    TURN_PLANS,
    _discard_preference,
    _knight_or_monopoly,
    _needs,
    _robber_for_seven,
    _robber_target,
    _site_score,
    _trades,
)
from .board import Terrain
from .layouts import ROAD_BUILDING, YEAR_OF_PLENTY
from .legal import LegalMoves
from .orders import (
    Alternatives,
    BuildLine,
    BuyCard,
    City,
    MoveShip,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupOrders,
    SetupPlacement,
    Ship,
    TurnOrders,
    YearOfPlenty,
)
from .pirate import hex_sides
from .resources import COST_CITY, COST_ROAD, COST_SETTLEMENT, COST_SHIP, N_RESOURCES, Counts
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


#: (crossing, its distance, the start crossing its line leaves from) → what a line ending there
#: is worth, or None when it is no goal (`shortest_line`).
Worth = Callable[[int, int, int], float | None]


def shortest_line(
    state: GameState,
    legal: LegalMoves,
    ship: bool,
    depth: int,
    worth: Worth,
    stops: Callable[[int], bool] | None = None,
) -> tuple[float, list[int]]:
    """(worth, paths) of the line of new roads (or ships) from the seat's network to the
    crossing whose `worth` is highest, searched breadth first up to `depth` sides; (0, []) when
    no crossing in reach is worth anything. Ships leave from the seat's buildings and ship
    lines, roads from its road network; a line never passes an opponent's building, a taken
    side or (ships) a side next to the pirate, and ends at a crossing `stops` says. Ties go to
    the shorter line, then to the lowest crossing. The one search of the Seafarers plans
    (`plan`) and of the fog's (`autopilot_fog`)."""
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
    else:
        if len(state.roads[p]) >= MAX_ROADS:
            return 0.0, []
        start_set = set(legal.network())
        usable = board.path_land
    start = sorted(c for c in start_set if owner[c] in (-1, p))
    prev: dict[int, tuple[int, int]] = {}
    dist = dict.fromkeys(start, 0)
    origin = {c: c for c in start}
    queue = deque(start)
    best: tuple[float, int] | None = None
    while queue:
        c = queue.popleft()
        if dist[c] > 0:
            w = worth(c, dist[c], origin[c])
            if w is not None and (best is None or (w, -c) > (best[0], -best[1])):
                best = (w, c)
        if stops is not None and stops(c):
            continue
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
    owner = state.owner
    line_view = lines if ship else None

    def worth(c: int, d: int, start: int) -> float | None:
        if legal.is_site(c):
            extra = 0.0 if line_view is None else LINE_WORTH * line_view.gain(state, start, c, True)
            return (value.get(c, 0.0) + extra) / (1 + d)
        if line_view is not None and owner[c] >= 0:
            closes = line_view.gain(state, start, c, False)
            return LINE_WORTH * closes / (1 + d) if closes else None
        return None

    return shortest_line(state, legal, ship, SHIP_DEPTH if ship else ROAD_DEPTH, worth)


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


def turn_orders(state: GameState, p: int, legal: LegalMoves) -> TurnOrders | None:
    """A Seafarers round: as `turn_orders`, with a plan of roads or of ships (the one worth
    more), a ship that leads nowhere moved to the plan's head, and a `Gold:` preference; None
    in a game without ships."""
    from . import autopilot_fog

    sea = state.sea
    if sea is None:
        return None

    view = line_view(state, p)

    def worth(c: int) -> float:
        return _site_score(state, c, p) + site_bonus(state, sea, p, c, view)

    cities = sorted(legal.cities(), key=lambda c: (-state.board.crossing_pips[c], c))
    sites = sorted(legal.settlements(), key=lambda c: (-worth(c), c))
    pieces: list[tuple[int, bool]] = []
    move: MoveShip | None = None
    if not sites:
        value = {c: worth(c) for c in legal.sites()}
        by_road = plan(state, legal, value, ship=False)
        by_ship = plan(state, legal, value, ship=True, lines=view)
        ship = by_ship[0] > by_road[0]
        route = by_ship[1] if ship else by_road[1]
        # Oceania: towards the fog, where discovering it is worth more than the sites in reach.
        found = autopilot_fog.explore(state, legal, max(by_ship[0], by_road[0]))
        if found is not None:
            ship, route = found
        pieces = [(e, ship) for e in route]
        if ship:
            move = idle_move(state, legal, route, view)
            if move is not None:
                pieces = pieces[1:]
    elif view is not None:
        # The Great Crossing: ships towards a trade line after the settlement, as cards allow.
        pieces = [(e, True) for e in line_plan(state, legal, view)]
    if sites and not pieces and state.board.fog:
        # Oceania: ships towards the fog after the settlement, as the cards allow.
        found = autopilot_fog.explore(state, legal, 0.0)
        if found is not None and found[0]:
            pieces = [(e, True) for e in found[1]]
    ship_next = bool(pieces) and pieces[0][1]
    target = (
        COST_CITY if cities else COST_SETTLEMENT if sites else COST_SHIP if ship_next else COST_ROAD
    )
    lines: list[BuildLine] = []
    robber = _robber_target(state, legal)
    playable = legal.playable_cards()
    knight, monopoly = _knight_or_monopoly(state, p, robber, playable)
    need = [r for r in range(5) for _ in range(_needs(state.hands[p], target)[r])]
    if knight is None and monopoly is None:
        if YEAR_OF_PLENTY in playable:
            pair = [*need, 3, 4]
            lines.append(YearOfPlenty(pair[0], pair[1]))
        elif ROAD_BUILDING in playable and pieces:
            (e1, s1), rest = pieces[0], pieces[1:]
            second = rest[0] if rest else None
            lines.append(
                RoadBuilding(
                    e1,
                    None if second is None else second[0],
                    s1,
                    False if second is None else second[1],
                )
            )
            pieces = pieces[2:]
    if move is not None:
        lines.append(move)
    lines.extend(_trades(state, legal, target))
    lines.extend(City(c) for c in cities)
    if sites:
        lines.append(
            Alternatives(tuple(Settlement(c) for c in sites[:3]))
            if len(sites) > 1
            else Settlement(sites[0])
        )
    lines.extend(Ship(e) if ship else Road(e) for e, ship in pieces[:2])
    if legal.can_buy_card():
        lines.append(BuyCard())
    # The pirate first where it robs more than the robber; the robber stays the second choice.
    seven = _robber_for_seven(state, legal, robber, knight)
    pirate = pirate_target(state, legal, seven)
    return TurnOrders(
        robber=pirate or seven,
        discard=_discard_preference(state, p, target),
        knight=knight,
        monopoly=monopoly,
        builds=tuple(lines),
        gold=gold_preference(state, p, target),
        robber_else=seven if pirate is not None else None,
    )


def _setup_plan(
    state: GameState, p: int, legal: LegalMoves, score: Callable[[int], float]
) -> SetupOrders | None:
    if state.sea is None:
        return None
    return setup_orders(state, p, {c: score(c) for c in legal.sites()})


SETUP_PLANS.append(_setup_plan)
TURN_PLANS.append(turn_orders)
