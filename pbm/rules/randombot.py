"""A random player, to compare the engine with other engines' random players.

It chooses uniformly among the legal options the state offers when orders are written: a
robber hex and victim order, whether and how to play a playable card, and a random selection of
build lines (each line picked uniformly from the legal builds, cost aside, or the bank trades
its hand allows). It writes no trades with other players. In Kronlande its builds include the
workshops, goods (one at a time, as far as the hand pays, like the bank trades), Burgen and
Residenzen, and its cards the project cards.
"""

from __future__ import annotations

import random

from .autopilot_fog import explore
from .autopilot_sea import line_view
from .fog import fog_reached
from .layouts import (
    BUILDERS_HUT,
    FEAST,
    HARBOUR_PRIVILEGE,
    KNIGHT,
    MONOPOLY,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from .legal import LegalMoves
from .orders import (
    BuildersHut,
    BuildLine,
    BuyCard,
    Castle,
    City,
    Feast,
    HarbourPrivilege,
    Knight,
    Make,
    MaritimeTrade,
    Monopoly,
    MoveShip,
    Residence,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupOrders,
    SetupPlacement,
    Ship,
    Timing,
    TurnOrders,
    Workshop,
    YearOfPlenty,
)
from .resources import N_KRON_RESOURCES, RECIPES, can_pay
from .setup import setup_player
from .state import GameState

MAX_LINES = 4


def _pick(rng: random.Random, n: int) -> int:
    """Uniform in range(n); cheaper than randrange, and as reproducible."""
    return int(rng.random() * n)


def random_setup(state: GameState, rng: random.Random) -> SetupOrders:
    legal = LegalMoves(state, setup_player(state))
    # Pairs, not the view's `setup_placements()`: making hundreds of frozen placements to keep
    # one is most of the cost of a random setup.
    if state.sea is not None:
        pieces = [(c, e, ship) for c in legal.sites() for e, ship in legal.setup_pieces(c)]
        c, e, ship = pieces[_pick(rng, len(pieces))]
        return SetupOrders((SetupPlacement(c, e, ship),))
    options = legal.setup_pairs()
    c, e = options[_pick(rng, len(options))]
    return SetupOrders((SetupPlacement(c, e),))


def _robber(legal: LegalMoves, rng: random.Random, avoid: int = -1) -> RobberOrder | None:
    """A random robber hex (never the one the robber stands on, nor `avoid`: where the bot's
    own knight sends it this round) and a random order of its victims."""
    hexes = [h for h in legal.robber_hexes() if h != avoid]
    if not hexes:
        return None
    h = hexes[_pick(rng, len(hexes))]
    victims = legal.victims(h)
    rng.shuffle(victims)
    return RobberOrder(h, tuple(victims))


def _pirate(legal: LegalMoves, rng: random.Random, avoid: int = -1) -> RobberOrder | None:
    """Seafarers: a random sea hex for the pirate, not `avoid` (None without the pirate)."""
    hexes = [h for h in legal.pirate_hexes() if h != avoid]
    return RobberOrder(hexes[_pick(rng, len(hexes))], (), True) if hexes else None


def random_orders(state: GameState, p: int, rng: random.Random) -> TurnOrders:
    legal = LegalMoves(state, p)
    knight = monopoly = None
    lines: list[BuildLine] = []
    cards = legal.playable_cards()
    # Resources the bank deals in (Kronlande: 7); a Kronlande hand also holds the goods.
    width = 5 if state.kron is None else N_KRON_RESOURCES
    if cards:
        card = cards[rng.randrange(len(cards))]
        robber = _robber(legal, rng)
        if card == KNIGHT and state.sea is not None and rng.random() < 0.5:
            robber = _pirate(legal, rng) or robber
        if card == KNIGHT and robber is not None:
            knight = Knight(rng.choice((Timing.BEFORE_ROLL, Timing.AFTER_ROLL)), robber)
        elif card == MONOPOLY:
            monopoly = Monopoly(rng.randrange(width))
        elif card == YEAR_OF_PLENTY:
            lines.append(YearOfPlenty(rng.randrange(width), rng.randrange(width)))
        elif card == BUILDERS_HUT:
            lines.append(BuildersHut())
        elif card == HARBOUR_PRIVILEGE:
            lines.append(HarbourPrivilege())
        elif card == FEAST:
            lines.append(Feast(rng.randrange(len(state.hands[p]))))
        elif card == ROAD_BUILDING:
            roads = legal.roads()
            if state.sea is not None:
                pieces = [(e, False) for e in roads] + [(e, True) for e in legal.ships()]
                if pieces:
                    e, ship = pieces[rng.randrange(len(pieces))]
                    lines.append(RoadBuilding(e, None, ship))
            elif roads:
                lines.append(RoadBuilding(roads[rng.randrange(len(roads))]))
    # Candidates as (kind, argument); only the few chosen become order objects.
    candidates: list[tuple[type, int]] = [(Road, e) for e in legal.roads()]
    candidates += [(Settlement, c) for c in legal.settlements()]
    candidates += [(City, c) for c in legal.cities()]
    if legal.can_buy_card():
        candidates.append((BuyCard, 0))
    # Bank trades at the player's rate that the hand can pay now, the card wanted drawn later.
    hand = state.hands[p]
    rates = legal.bank_rates()
    candidates += [(MaritimeTrade, r) for r in range(width) if hand[r] >= rates[r]]
    moves: list[MoveShip] = []
    if state.sea is not None:
        sites = legal.ships()
        candidates += [(Ship, e) for e in sites]
        moves = legal.ship_moves()
        candidates += [(MoveShip, i) for i in range(len(moves))]
        if state.board.fog:
            # Oceania: a ship or a road that reaches the fog is built first.
            board = state.board
            found: list[BuildLine] = [Ship(e) for e in legal.ships() if fog_reached(board, e)]
            found += [Road(e) for e in legal.roads() if fog_reached(board, e)]
            if found:
                lines.append(found[_pick(rng, len(found))])
            else:
                # Else the first piece of the autopilot's line towards it.
                towards = explore(state, legal, -1.0)
                if towards is not None:
                    ship, route = towards
                    lines.append(Ship(route[0]) if ship else Road(route[0]))
        # The Great Crossing: a ship that would close a trade line is built first.
        view = line_view(state, p)
        closing = [] if view is None else [e for e in sites if view.closes(state, e)]
        if closing:
            lines.append(Ship(closing[_pick(rng, len(closing))]))
    workshops: list[Workshop] = []
    if state.kron is not None:
        workshops = legal.workshops()
        candidates += [(Workshop, i) for i in range(len(workshops))]
        # Goods, like bank trades, only as far as the hand can pay for them now.
        candidates += [(Make, g) for g in legal.goods() if can_pay(hand, RECIPES[g])]
        candidates += [(Castle, c) for c in legal.castles()]
        candidates += [(Residence, c) for c in legal.residences()]
    while candidates and len(lines) < MAX_LINES:
        kind, arg = candidates.pop(_pick(rng, len(candidates)))
        if kind is BuyCard:
            lines.append(BuyCard())
        elif kind is MaritimeTrade:
            get = _pick(rng, width - 1)
            lines.append(MaritimeTrade(arg, rates[arg], get if get < arg else get + 1))
        elif kind is MoveShip:
            lines.append(moves[arg])
        elif kind is Workshop:
            lines.append(workshops[arg])
        elif kind is Make:
            lines.append(Make(arg, 1))
        else:
            lines.append(kind(arg))
    # Its 7 never sends the robber (or the pirate) where its own knight sends it this round:
    # whichever comes first, the other would find it standing there.
    on_land = -1 if knight is None or knight.robber.pirate else knight.robber.hex
    at_sea = knight.robber.hex if knight is not None and knight.robber.pirate else -1
    robber = _robber(legal, rng, on_land)
    if state.sea is not None:
        gold = tuple(_pick(rng, 5) for _ in range(_pick(rng, 3)))
        # The robber and the pirate in a random priority order (either may be left out).
        pair = [robber, _pirate(legal, rng, at_sea)]
        rng.shuffle(pair)
        named = [x for x in pair if x is not None] + [None, None]
        robber, second = named[0], named[1]
        return TurnOrders(
            robber=robber,
            knight=knight,
            monopoly=monopoly,
            builds=tuple(lines),
            gold=gold,
            robber_else=second,
        )
    return TurnOrders(robber=robber, knight=knight, monopoly=monopoly, builds=tuple(lines))
