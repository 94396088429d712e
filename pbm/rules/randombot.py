"""A random player, to compare the engine with other engines' random players.

It chooses uniformly among the legal options the state offers when orders are written: a
robber hex and victim order, whether and how to play a playable card, and a random selection of
build lines (each line picked uniformly from the legal builds, cost aside, or the bank trades
its hand allows). It writes no trades with other players.
"""

from __future__ import annotations

import random

from .building import settlement_site_rule
from .layouts import KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from .moves import build_spots, city_spots, playable_cards, road_spots
from .orders import (
    BuildLine,
    BuyCard,
    City,
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
from .robber import legal_robber_hexes, victims_at
from .state import GameState
from .trade import harbour_rates

MAX_LINES = 4


def _pick(rng: random.Random, n: int) -> int:
    """Uniform in range(n); cheaper than randrange, and as reproducible."""
    return int(rng.random() * n)


def random_setup(state: GameState, rng: random.Random) -> SetupOrders:
    board = state.board
    road, land = state.road, board.path_land
    options = [
        (c, e)
        for c in range(len(board.crossing_hexes))
        if settlement_site_rule(state, c) is None
        for e in board.crossing_paths[c]
        if land[e] and road[e] < 0
    ]
    c, e = options[_pick(rng, len(options))]
    return SetupOrders((SetupPlacement(c, e),))


def _robber(state: GameState, p: int, rng: random.Random) -> RobberOrder | None:
    hexes = legal_robber_hexes(state, p)
    if not hexes:
        return None
    h = hexes[_pick(rng, len(hexes))]
    victims = victims_at(state, p, h)
    rng.shuffle(victims)
    return RobberOrder(h, tuple(victims))


def random_orders(state: GameState, p: int, rng: random.Random) -> TurnOrders:
    knight = monopoly = None
    lines: list[BuildLine] = []
    cards = playable_cards(state, p)
    if cards:
        card = cards[rng.randrange(len(cards))]
        robber = _robber(state, p, rng)
        if card == KNIGHT and robber is not None:
            knight = Knight(rng.choice((Timing.BEFORE_ROLL, Timing.AFTER_ROLL)), robber)
        elif card == MONOPOLY:
            monopoly = Monopoly(rng.randrange(5))
        elif card == YEAR_OF_PLENTY:
            lines.append(YearOfPlenty(rng.randrange(5), rng.randrange(5)))
        elif card == ROAD_BUILDING:
            roads = road_spots(state, p)
            if roads:
                lines.append(RoadBuilding(roads[rng.randrange(len(roads))]))
    # Candidates as (kind, argument); only the few chosen become order objects.
    roads, sites = build_spots(state, p)
    candidates: list[tuple[type, int]] = [(Road, e) for e in roads]
    candidates += [(Settlement, c) for c in sites]
    candidates += [(City, c) for c in city_spots(state, p)]
    if state.deck:
        candidates.append((BuyCard, 0))
    hand = state.hands[p]
    rates = harbour_rates(state, p)
    candidates += [(MaritimeTrade, r) for r in range(5) if hand[r] >= rates[r]]
    while candidates and len(lines) < MAX_LINES:
        kind, arg = candidates.pop(_pick(rng, len(candidates)))
        if kind is BuyCard:
            lines.append(BuyCard())
        elif kind is MaritimeTrade:
            get = _pick(rng, 4)
            lines.append(MaritimeTrade(arg, rates[arg], get if get < arg else get + 1))
        else:
            lines.append(kind(arg))
    return TurnOrders(
        robber=_robber(state, p, rng), knight=knight, monopoly=monopoly, builds=tuple(lines)
    )


def random_player_orders(state: GameState, rng: random.Random) -> dict[int, TurnOrders | None]:
    return {p: random_orders(state, p, rng) for p in range(state.settings.players)}
