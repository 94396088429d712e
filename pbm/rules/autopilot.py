"""The autopilot: legal, sensible orders for any seat, in setup and in rounds.

It plays for NMR seats after the configured number of missed rounds, for resigned seats, and is
the demo's and the simulator's bot. Orders are written before the rolls, so it writes a plan
whose lines fail harmlessly when unaffordable: bank trades towards what the plan lacks, cities
before settlements, then the roads towards the best free site, then a development card.
Deterministic: it uses no randomness at all (ties go to the lowest id).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from .board import Board
from .layouts import KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from .legal import LegalMoves
from .orders import (
    Alternatives,
    BuildLine,
    BuyCard,
    City,
    DiscardPreference,
    Knight,
    MaritimeTrade,
    Monopoly,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupOrders,
    SetupPlacement,
    Timing,
    TurnOrders,
    YearOfPlenty,
)
from .resources import COST_CITY, COST_ROAD, COST_SETTLEMENT, Counts
from .state import MAX_ROADS, GameState

ROAD_SEARCH_DEPTH = 3

#: An expansion's autopilot registers here (on import; this module imports them last):
#: its setup, given the view and the base game's site score ((state, seat, view, score) →
#: ranked placements, or None when the game is not of it) ...
SetupPlan = Callable[[GameState, int, LegalMoves, Callable[[int], float]], SetupOrders | None]
SETUP_PLANS: list[SetupPlan] = []
#: ... its round ((state, seat, view) → orders, or None when the game is not of it) ...
TurnPlan = Callable[[GameState, int, LegalMoves], TurnOrders | None]
TURN_PLANS: list[TurnPlan] = []
#: ... and what it adds to a site's worth ((board, crossing) → points).
SITE_BONUSES: list[Callable[[Board, int], float]] = []


def _site_score(state: GameState, c: int, p: int) -> float:
    """Pips, with a bonus for resources the player does not yet produce and for harbours."""
    board = state.board
    have = _produced_resources(state, p)
    score = float(board.crossing_pips[c])
    for h in board.crossing_hexes[c]:
        res = board.hexes[h].resource
        if res is not None and res not in have and board.hexes[h].number:
            score += 1.5
    if board.crossing_harbor[c] is not None:
        score += 1.0
    for bonus in SITE_BONUSES:
        score += bonus(board, c)  # an expansion's (Oceania: ships set out for the fog from here)
    return score


def _produced_resources(state: GameState, p: int) -> set[int]:
    board = state.board
    out = set()
    for c in state.settlements[p] + state.cities[p]:
        for h in board.crossing_hexes[c]:
            res = board.hexes[h].resource
            if res is not None:
                out.add(res)
    return out


def setup_orders(state: GameState, p: int, alternatives: int = 3) -> SetupOrders:
    """Ranked placements: the best-scoring legal sites, each with its best road."""
    legal = LegalMoves(state, p)
    for plan in SETUP_PLANS:
        own = plan(state, p, legal, lambda c: _site_score(state, c, p))
        if own is not None:
            return own
    sites = legal.sites()
    sites.sort(key=lambda c: (-_site_score(state, c, p), c))
    placements = []
    for c in sites[:alternatives]:
        road = _best_road_from(state, legal, c)
        if road >= 0 and SetupPlacement(c, road) in legal:
            placements.append(SetupPlacement(c, road))
    return SetupOrders(tuple(placements))


def _best_road_from(state: GameState, legal: LegalMoves, c: int) -> int:
    board = state.board
    best, best_score = -1, -1
    for e in legal.setup_roads(c):
        u, v = board.path_crossings[e]
        far = v if u == c else u
        score = max(
            (board.crossing_pips[n] for n in board.crossing_neighbors[far] if n != c), default=0
        )
        if score > best_score:
            best, best_score = e, score
    return best


def _robber_target(state: GameState, legal: LegalMoves, avoid: int = -1) -> RobberOrder | None:
    """The hex that costs the leaders most and p nothing; victims by VP, then cards. Never the
    hex the robber stands on (`legal.robber_hexes`), nor `avoid` (the hex p's own knight
    sends it to this round)."""
    board = state.board
    owner, level = state.owner, state.level
    p = legal.seat
    n = state.settings.players
    vps = [state.visible_vp(q) for q in range(n)]
    best: tuple[float, int] | None = None
    for h in legal.robber_hexes():
        if h == avoid:
            continue
        pips = board.hexes[h].pips
        score = 0.0
        for c in board.hex_crossings[h]:
            q = owner[c]
            if q == p:
                score -= 100.0
            elif q >= 0:
                score += pips * level[c] * (1 + vps[q])
        key = (score, -h)
        if best is None or key > best:
            best = key
    if best is None:
        return None
    h = -best[1]
    victims = legal.victims(h)
    victims.sort(key=lambda q: (-vps[q], -sum(state.hands[q]), q))
    return RobberOrder(h, tuple(victims))


def _road_plan(state: GameState, legal: LegalMoves) -> list[int]:
    """Paths of the shortest road line to the best free site within reach, nearest first."""
    p = legal.seat
    if len(state.roads[p]) >= MAX_ROADS:
        return []
    board: Board = state.board
    owner, road = state.owner, state.road
    start = [c for c in legal.network() if owner[c] in (-1, p)]
    prev: dict[int, tuple[int, int]] = {}
    dist = {c: 0 for c in start}
    queue = deque(start)
    best: tuple[float, int] | None = None
    while queue:
        c = queue.popleft()
        if dist[c] > 0 and legal.is_site(c):
            score = _site_score(state, c, p) / (1 + dist[c])
            if best is None or (score, -c) > (best[0], -best[1]):
                best = (score, c)
        if dist[c] >= ROAD_SEARCH_DEPTH or (owner[c] >= 0 and owner[c] != p):
            continue
        for e in board.crossing_paths[c]:
            if not board.path_land[e] or road[e] >= 0:
                continue
            u, v = board.path_crossings[e]
            nxt = v if u == c else u
            if nxt not in dist:
                dist[nxt] = dist[c] + 1
                prev[nxt] = (c, e)
                queue.append(nxt)
    if best is None:
        return []
    path = []
    c = best[1]
    while c in prev:
        c, e = prev[c]
        path.append(e)
    return path[::-1]


def _needs(hand: list[int], cost: Counts) -> list[int]:
    return [max(0, cost[r] - hand[r]) for r in range(5)]


def _trades(state: GameState, legal: LegalMoves, target: Counts) -> list[MaritimeTrade]:
    """Bank trades of surplus (beyond the target's cost) into what the target lacks."""
    hand = state.hands[legal.seat][:]
    rates = legal.bank_rates()
    missing = _needs(hand, target)
    out: list[MaritimeTrade] = []
    for want in range(5):
        while missing[want]:
            giver = None
            for r in sorted(range(5), key=lambda r: -(hand[r] - target[r])):
                rate = rates[r]
                if r != want and hand[r] - target[r] >= rate:
                    giver = (r, rate)
                    break
            if giver is None:
                return out
            r, rate = giver
            hand[r] -= rate
            hand[want] += 1
            missing[want] -= 1
            out.append(MaritimeTrade(r, rate, want, 1))
    return out


def _discard_preference(state: GameState, p: int, target: Counts) -> DiscardPreference | None:
    hand = state.hands[p][:]
    prefs = []
    for _ in range(sum(hand)):
        r = max(range(5), key=lambda r: (hand[r] - target[r], -r))
        if hand[r] == 0:
            break
        hand[r] -= 1
        prefs.append(r)
    return DiscardPreference(tuple(prefs)) if prefs else None


def _robber_for_seven(
    state: GameState, legal: LegalMoves, robber: RobberOrder | None, knight: Knight | None
) -> RobberOrder | None:
    """The robber order for p's own 7: the best hex, or, when p plays a knight on it this
    round, the next best. Either way round the robber would stand where the order sends it: a
    knight before the roll puts it there before a 7 is rolled, a 7 before a knight after the
    roll (the 7 takes the second hex, so the knight still lands on the best)."""
    if knight is None or knight.robber.pirate:
        return robber
    return _robber_target(state, legal, avoid=knight.robber.hex)


def _knight_or_monopoly(
    state: GameState, p: int, robber: RobberOrder | None, playable: list[str]
) -> tuple[Knight | None, Monopoly | None]:
    """The card the autopilot plays, if any: a knight when the robber blocks one of its own
    hexes (before the roll) or the largest army is in reach (after it), else a monopoly on
    the resource the others hold most of, when they hold at least three."""
    if KNIGHT in playable and robber is not None:
        blocked = state.robber >= 0 and any(
            state.owner[c] == p for c in state.board.hex_crossings[state.robber]
        )
        army = state.knights[p] + 1 >= 3 and (
            state.largest_army < 0 or state.knights[p] + 1 > state.knights[state.largest_army]
        )
        if blocked or army:
            return Knight(Timing.BEFORE_ROLL if blocked else Timing.AFTER_ROLL, robber), None
    if MONOPOLY in playable:
        totals = [
            sum(state.hands[q][r] for q in range(state.settings.players) if q != p)
            for r in range(5)
        ]
        r = max(range(5), key=lambda r: (totals[r], -r))
        if totals[r] >= 3:
            return None, Monopoly(r)
    return None, None


def turn_orders(state: GameState, p: int) -> TurnOrders:
    legal = LegalMoves(state, p)
    for plan in TURN_PLANS:
        own = plan(state, p, legal)
        if own is not None:
            return own
    cities = sorted(legal.cities(), key=lambda c: (-state.board.crossing_pips[c], c))
    sites = sorted(legal.settlements(), key=lambda c: (-_site_score(state, c, p), c))
    roads = _road_plan(state, legal) if not sites else []
    target = COST_CITY if cities else COST_SETTLEMENT if sites else COST_ROAD
    lines: list[BuildLine] = []
    robber = _robber_target(state, legal)
    playable = legal.playable_cards()
    knight, monopoly = _knight_or_monopoly(state, p, robber, playable)
    if knight is None and monopoly is None:
        if YEAR_OF_PLENTY in playable:
            need = [r for r in range(5) for _ in range(_needs(state.hands[p], target)[r])]
            need += [3, 4]
            lines.append(YearOfPlenty(need[0], need[1]))
        elif ROAD_BUILDING in playable and roads:
            lines.append(RoadBuilding(roads[0], roads[1] if len(roads) > 1 else None))
            roads = roads[2:]
    lines.extend(_trades(state, legal, target))
    lines.extend(City(c) for c in cities)
    _settle_roads_card(lines, sites, roads, legal)
    return TurnOrders(
        robber=_robber_for_seven(state, legal, robber, knight),
        discard=_discard_preference(state, p, target),
        knight=knight,
        monopoly=monopoly,
        builds=tuple(lines),
    )


def _settle_roads_card(
    lines: list[BuildLine], sites: list[int], roads: list[int], legal: LegalMoves
) -> None:
    """The tail of every autopilot turn: the best sites in order of preference (the first one
    still free is built), two roads of the plan, a card if the hand can pay for it."""
    if sites:
        lines.append(
            Alternatives(tuple(Settlement(c) for c in sites[:3]))
            if len(sites) > 1
            else Settlement(sites[0])
        )
    lines.extend(Road(e) for e in roads[:2])
    if legal.can_buy_card():
        lines.append(BuyCard())


# The expansions' autopilots register themselves; importing them here, last, means whoever
# imports this module plays every game kind.
from . import autopilot_fog, autopilot_kron, autopilot_sea  # noqa: E402, F401
