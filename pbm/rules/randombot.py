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
from collections.abc import Callable

from .layouts import (
    KNIGHT,
    MONOPOLY,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from .legal import LegalMoves
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
from .setup import setup_player
from .state import GameState

MAX_LINES = 4

#: A build candidate: how it becomes a line, and its argument (a crossing, a path, an index).
Candidate = tuple[Callable[[int], BuildLine] | type, int]


class RandomHooks:
    """What an expansion's random play adds (`randombot_sea.py`, `randombot_kron.py`). Each
    draw it makes comes from the one generator, in a fixed place, so a game replays alike.
    The defaults add nothing and draw nothing."""

    def knight_robber(
        self, state: GameState, legal: LegalMoves, rng: random.Random, robber: RobberOrder | None
    ) -> RobberOrder | None:
        """Where a knight sends the thief (the robber drawn first, `robber`)."""
        return robber

    def candidates(
        self, state: GameState, legal: LegalMoves, rng: random.Random, lines: list[BuildLine]
    ) -> list[Candidate]:
        """Its build candidates; lines it builds first go onto `lines`."""
        return []

    def finish(
        self,
        state: GameState,
        legal: LegalMoves,
        rng: random.Random,
        orders: TurnOrders,
        knight: Knight | None,
    ) -> TurnOrders:
        """The round's orders with what the expansion adds (its thief, its preferences)."""
        return orders


#: The expansions' random play, registered on import (this module imports them last).
RANDOM_HOOKS: list[RandomHooks] = []
#: Card types of an expansion played as a build line: (state, seat, rng) → the line.
CARD_LINES: dict[str, Callable[[GameState, int, random.Random], BuildLine]] = {}


def _pick(rng: random.Random, n: int) -> int:
    """Uniform in range(n); cheaper than randrange, and as reproducible."""
    return int(rng.random() * n)


def random_setup(state: GameState, rng: random.Random) -> SetupOrders:
    legal = LegalMoves(state, setup_player(state))
    # Triples, not the view's `setup_placements()`: making hundreds of frozen placements to
    # keep one is most of the cost of a random setup.
    options = legal.setup_options()
    c, e, ship = options[_pick(rng, len(options))]
    return SetupOrders((SetupPlacement(c, e, ship),))


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


def random_orders(state: GameState, p: int, rng: random.Random) -> TurnOrders:
    legal = LegalMoves(state, p)
    knight = monopoly = None
    lines: list[BuildLine] = []
    cards = legal.playable_cards()
    # Resources the bank deals in (Kronlande: 7); a Kronlande hand also holds the goods.
    width = state.settings.bank_width
    if cards:
        card = cards[rng.randrange(len(cards))]
        robber = _robber(legal, rng)
        if card == KNIGHT:
            for hook in RANDOM_HOOKS:
                robber = hook.knight_robber(state, legal, rng, robber)
        if card == KNIGHT and robber is not None:
            knight = Knight(rng.choice((Timing.BEFORE_ROLL, Timing.AFTER_ROLL)), robber)
        elif card == MONOPOLY:
            monopoly = Monopoly(rng.randrange(width))
        elif card == YEAR_OF_PLENTY:
            lines.append(YearOfPlenty(rng.randrange(width), rng.randrange(width)))
        elif card == ROAD_BUILDING:
            # Its first piece: a road, or a ship where the game has them.
            pieces = [(e, False) for e in legal.roads()] + [(e, True) for e in legal.ships()]
            if pieces:
                e, ship = pieces[rng.randrange(len(pieces))]
                lines.append(RoadBuilding(e, None, ship))
        elif card in CARD_LINES:
            lines.append(CARD_LINES[card](state, p, rng))
    # Candidates as (kind, argument); only the few chosen become order objects.
    candidates: list[Candidate] = [(Road, e) for e in legal.roads()]
    candidates += [(Settlement, c) for c in legal.settlements()]
    candidates += [(City, c) for c in legal.cities()]
    if legal.can_buy_card():
        candidates.append((BuyCard, 0))
    # Bank trades at the player's rate that the hand can pay now, the card wanted drawn later.
    hand = state.hands[p]
    rates = legal.bank_rates()
    candidates += [(MaritimeTrade, r) for r in range(width) if hand[r] >= rates[r]]
    for hook in RANDOM_HOOKS:
        candidates += hook.candidates(state, legal, rng, lines)
    while candidates and len(lines) < MAX_LINES:
        kind, arg = candidates.pop(_pick(rng, len(candidates)))
        if kind is BuyCard:
            lines.append(BuyCard())
        elif kind is MaritimeTrade:
            get = _pick(rng, width - 1)
            lines.append(MaritimeTrade(arg, rates[arg], get if get < arg else get + 1))
        else:
            lines.append(kind(arg))
    # Its 7 never sends the robber where its own knight sends it this round: whichever comes
    # first, the other would find it standing there (an expansion's thief: `finish`).
    on_land = -1 if knight is None or knight.robber.pirate else knight.robber.hex
    robber = _robber(legal, rng, on_land)
    orders = TurnOrders(robber=robber, knight=knight, monopoly=monopoly, builds=tuple(lines))
    for hook in RANDOM_HOOKS:
        orders = hook.finish(state, legal, rng, orders, knight)
    return orders


# The expansions' random play registers itself; importing it here means whoever imports this
# module plays every game kind.
from . import randombot_kron, randombot_sea  # noqa: E402, F401
