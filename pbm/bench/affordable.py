"""The engine benchmark's random player: uniform among the affordable legal actions.

catanatron's `RandomPlayer` picks uniformly among the game's playable actions at each
decision: every road path, settlement crossing and city crossing it can pay for, buying a
card, each bank trade (give, get) its hand can pay, each way of playing a card, and ending
the turn; it decides again after every action, until it picks the end. This player does the
same with what a pbm player knows when writing orders: the hand and the board at the start of
the round. Each line picked is paid from a copy of that hand (a bank trade adds the card it
gets), its spot is taken off the lists, and the next line is picked among what the rest can
pay, with "no more lines" one choice among them. Spots that the pieces written would open
(a road's far end) are not added: the lists stay those of the round's start.

The card: as catanatron's player, before the roll a playable knight is one of two choices
(the other, rolling); after it, each playable card's ways of play are choices among the rest
(a knight, each monopoly resource, each pair of the year of plenty, a road building). The
robber and the victim order are random, as `pbm.rules.randombot`'s. Seafarers: a ship is a
build like a road, each ship move (free, one a round) is a choice, and the gold choice is
random. No trades with other players, as catanatron's random player offers none.

It lives beside the benchmark, not in the rules: `pbm sim --bot random` stays what it was.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from operator import countOf

from pbm.rules.board import Board
from pbm.rules.events import Rolled
from pbm.rules.layouts import KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from pbm.rules.legal import LegalMoves, build_spots
from pbm.rules.orders import (
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
    Ship,
    Timing,
    TurnOrders,
    YearOfPlenty,
)
from pbm.rules.randombot import random_setup
from pbm.rules.resources import COST_CARD, COST_CITY, COST_SETTLEMENT, COST_SHIP
from pbm.rules.rng import derive_seed
from pbm.rules.robber import legal_robber_hexes
from pbm.rules.round import resolve_round
from pbm.rules.setup import place_setup, place_setup_automatic
from pbm.rules.state import GameState, Phase, Settings, new_game

#: Said in the benchmark's output: how this player chooses.
POLICY = (
    "uniform among the affordable legal actions, as catanatron's RandomPlayer: each line "
    "picked among the builds, card purchase and bank trades the hand left can pay plus "
    "'no more lines', picked again after each (hand and board as at the round's start); "
    "a playable knight before the roll one of two choices, after it each way of playing a "
    "card one choice"
)
#: A round's lines at most; a player picking among a dozen choices rarely gets near it.
MAX_LINES = 30
#: A game still open after this many rounds is unfinished (catanatron: 1,000 turns).
MAX_ROUNDS = 250

#: The 15 year-of-plenty pairs (with repeats), as catanatron lists them.
_PLENTY = tuple((a, b) for a in range(5) for b in range(a, 5))


def _pick(rng: random.Random, n: int) -> int:
    return int(rng.random() * n)


def _pay(hand: list[int], cost: tuple[int, ...]) -> None:
    for r, c in enumerate(cost):
        hand[r] -= c


class _Memo:
    """What the player reads off the board, kept from round to round while the board stays as
    it was (in two rounds of three nothing is built): each seat's spot lists, cities and bank
    rates, the robber's hexes and each hex's victims; and the robber orders, and the orders
    holding nothing else (most rounds' orders), made once each. The orders are frozen: the same
    object serves every round that writes the same.

    `refresh` is called with each round's state before its orders are chosen. The board is
    compared list by list (owner, level, road: C-speed); where one changed, what the changed
    crossings or paths decide is read anew: a settlement the victims on its hexes, its
    owner's rates and cities, and every seat's spots (it takes sites and may cut a road); a
    city its owner's cities and sites; a road its owner's spots and those of the seats whose
    spots it takes. A Seafarers or Kronlande game reads everything anew each round."""

    __slots__ = (
        "cards",
        "hexes",
        "island",
        "laid",
        "level",
        "orders",
        "owner",
        "rates",
        "road",
        "robber",
        "robber_hexes",
        "robbers",
        "spots",
        "towns",
    )

    def __init__(self) -> None:
        #: The owner, level and road lists the lists below were read from.
        self.owner: list[int] | None = None
        self.level: list[int] = []
        self.road: list[int] = []
        #: How many roads each seat had then (a base game's roads are only ever added).
        self.laid: list[int] = []
        #: The robber's hex and the board its `hexes` were read from.
        self.robber = -2
        self.island: Board | None = None
        self.hexes: list[int] | None = None
        #: The robber hexes by the robber's hex, on that board.
        self.robber_hexes: dict[int, list[int]] = {}
        #: By seat: (roads, settlement sites), the cities, the bank rates; read when first needed.
        self.spots: dict[int, tuple[list[int], list[int]]] = {}
        self.towns: dict[int, list[int]] = {}
        self.rates: dict[int, list[int]] = {}
        #: By seat: the cards held and the card types playable from them.
        self.cards: dict[int, tuple[list[tuple[str, int]], list[str]]] = {}
        #: (hex, seat) -> the seat's victims there in seat order.
        self.robbers: dict[tuple[int, int], tuple[int, ...]] = {}
        #: (hex, victims in the order given) -> the robber order and the orders with it alone.
        self.orders: dict[tuple[int, tuple[int, ...]], tuple[RobberOrder, TurnOrders]] = {}

    def refresh(self, state: GameState) -> None:
        owner = state.owner
        if self.owner is None or state.sea is not None or state.kron is not None:
            self.owner = owner[:]
            self.level = state.level[:]
            self.road = state.road[:]
            self.laid = [len(r) for r in state.roads]
            self.spots, self.towns, self.rates, self.robbers = {}, {}, {}, {}
        else:
            seats = range(state.settings.players)
            if owner != self.owner:
                hexes = state.board.crossing_hexes
                # The crossings built on since (a base game's buildings are only ever added).
                built = [
                    c
                    for q in seats
                    for c in state.settlements[q] + state.cities[q]
                    if self.owner[c] != q
                ]
                for c in built:
                    for h in hexes[c]:
                        for q in seats:
                            self.robbers.pop((h, q), None)
                    for q in (self.owner[c], owner[c]):
                        self.rates.pop(q, None)
                        self.towns.pop(q, None)
                self.spots = {}
                self.owner = owner[:]
            if state.level != self.level:
                raised = [c for q in seats for c in state.cities[q] if self.level[c] != 2]
                for c in raised:
                    self.towns.pop(owner[c], None)
                    self.spots.pop(owner[c], None)
                self.level = state.level[:]
            road = state.road
            if road != self.road:
                # The roads laid since: each seat's list grows at its end.
                # Loops, not comprehensions and any(): each of those is a call in 3.11.
                paths: list[int] = []
                for q, n in enumerate(self.laid):
                    paths += state.roads[q][n:]
                for q, (roads, _) in list(self.spots.items()):
                    for e in paths:
                        if road[e] == q or e in roads:
                            del self.spots[q]
                            break
                self.road = road[:]
                self.laid = list(map(len, state.roads))
        # Without the newcomer protection every seat may send the robber to the same hexes.
        if state.settings.newcomer_protection or state.kron is not None:
            self.hexes = None
        elif state.robber != self.robber or state.board is not self.island:
            if state.board is not self.island:
                # Oceania: a discovered fog hex gives the game a new board, new robber hexes.
                self.island = state.board
                self.robber_hexes = {}
            self.robber = state.robber
            targets = self.robber_hexes.get(state.robber)
            if targets is None:
                targets = self.robber_hexes[state.robber] = legal_robber_hexes(state, 0)
            self.hexes = targets

    def robber_order(self, h: int, victims: tuple[int, ...]) -> tuple[RobberOrder, TurnOrders]:
        """The robber order to hex h robbing `victims`, and the orders holding it alone."""
        made = self.orders.get((h, victims))
        if made is None:
            robber = RobberOrder(h, victims)
            made = self.orders[h, victims] = (robber, TurnOrders(robber=robber))
        return made


#: Build lines made so far, by class and fields: they are frozen, one object serves every
#: round that writes the same line (making one is a frozen dataclass's slow `__init__`).
_LINES: dict[tuple[object, tuple[int, ...]], BuildLine] = {}
_BUY = BuyCard()


def _made(cls: Callable[..., BuildLine], *fields: int) -> BuildLine:
    """`cls(*fields)`, made once."""
    key = (cls, fields)  # not (cls, *fields): that builds a list first
    line = _LINES.get(key)
    if line is None:
        line = _LINES[key] = cls(*fields)
    return line


#: The orders of a seat with no robber hex and nothing else to write.
_NO_ORDERS = TurnOrders()

#: The fields `_turn_orders` is given, and every other field's setter with its default.
_GIVEN = ("robber", "knight", "monopoly", "builds")
_SET_ROBBER, _SET_KNIGHT, _SET_MONOPOLY, _SET_BUILDS = (
    getattr(TurnOrders, f).__set__ for f in _GIVEN
)
_DEFAULTS = tuple(
    (getattr(TurnOrders, f).__set__, getattr(_NO_ORDERS, f))
    for f in TurnOrders.__slots__
    if f not in _GIVEN
)


def _turn_orders(
    robber: RobberOrder | None,
    knight: Knight | None,
    monopoly: Monopoly | None,
    builds: tuple[BuildLine, ...],
) -> TurnOrders:
    """`TurnOrders(robber=…, knight=…, monopoly=…, builds=…)`, the same object made in half the
    time: each field set by its slot, where the frozen dataclass's `__init__` calls
    `object.__setattr__` for each of its nine (the player makes one for most seats' rounds).
    tests/test_bench_engine.py checks it against the constructor."""
    made: TurnOrders = object.__new__(TurnOrders)
    _SET_ROBBER(made, robber)
    _SET_KNIGHT(made, knight)
    _SET_MONOPOLY(made, monopoly)
    _SET_BUILDS(made, builds)
    for setter, value in _DEFAULTS:
        setter(made, value)
    return made


def _robber(
    state: GameState, p: int, rng: random.Random, memo: _Memo
) -> tuple[RobberOrder, TurnOrders] | None:
    hexes = memo.hexes if memo.hexes is not None else LegalMoves(state, p).robber_hexes()
    if not hexes:
        return None
    h = hexes[int(rng.random() * len(hexes))]  # _pick, inline
    key = (h, p)
    victims = memo.robbers.get(key)
    if victims is None:
        victims = memo.robbers[key] = tuple(LegalMoves(state, p).victims(h))
    if len(victims) > 1:  # shuffling one or none draws nothing: the same stream, cheaper
        shuffled = list(victims)
        rng.shuffle(shuffled)
        victims = tuple(shuffled)
    made = memo.orders.get((h, victims))  # `memo.robber_order`, inline
    return made if made is not None else memo.robber_order(h, victims)


def round_orders(
    state: GameState, rng: random.Random, memo: _Memo | None = None
) -> dict[int, TurnOrders | None]:
    """Every seat's orders for this round, in seat order. `memo`: the game's, kept from round
    to round (a new one when not given)."""
    if memo is None:
        memo = _Memo()
    memo.refresh(state)
    out: dict[int, TurnOrders | None] = {}
    for p in range(state.settings.players):  # a loop: a comprehension is a call in 3.11
        out[p] = _orders(state, p, rng, memo)
    return out


def affordable_orders(state: GameState, p: int, rng: random.Random) -> TurnOrders:
    """Seat p's orders for this round, chosen as the module says."""
    memo = _Memo()
    memo.refresh(state)
    return _orders(state, p, rng, memo)


def _orders(state: GameState, p: int, rng: random.Random, memo: _Memo) -> TurnOrders:
    """`affordable_orders` with the game's memo, refreshed for this round."""
    # LegalMoves made only where the memo lacks what it reads: most rounds need none.
    hand = list(state.hands[p])
    # The spot lists are read when the hand first pays for what goes there: most rounds of
    # most players pay for nothing, and the lists are most of a choice's cost.
    roads: list[int] | None = None
    sites: list[int] | None = None
    towns = memo.towns.get(p)
    if towns is None:
        towns = memo.towns[p] = LegalMoves(state, p).cities()
    # Read only: a line that changes the list makes a new one, so the memo's stays.
    sea = state.sea is not None
    ships: list[int] | None = None
    moves = LegalMoves(state, p).ship_moves() if sea else []
    rates = memo.rates.get(p)
    if rates is None:
        rates = memo.rates[p] = LegalMoves(state, p).bank_rates()
    rate_l, rate_b, rate_w, rate_g, rate_o = rates
    draw = rng.random
    deck = len(state.deck)
    held = state.cards[p]
    cards: list[str] = []
    if held:
        known = memo.cards.get(p)
        if known is not None and known[0] == held and state.last_card_round[p] != state.round:
            cards = known[1]
        else:
            cards = LegalMoves(state, p).playable_cards()
            # Kept while the hand stays: a card bought before this round stays playable.
            if state.last_card_round[p] != state.round and all(r < state.round for _, r in held):
                memo.cards[p] = (held[:], cards)
    knight: Knight | None = None
    monopoly: Monopoly | None = None
    if KNIGHT in cards and rng.random() < 0.5:
        made = _robber(state, p, rng, memo)
        if made is not None:
            knight = Knight(Timing.BEFORE_ROLL, made[0])
            cards = []
    lines: list[BuildLine] = []
    while len(lines) < MAX_LINES:
        # The sizes of the choice groups, in a fixed order; one draw over their sum.
        lumber, brick, wool, grain, ore = hand
        road_paid = lumber >= 1 and brick >= 1
        if roads is None and (road_paid or ROAD_BUILDING in cards):
            spots = memo.spots.get(p)
            if spots is None:
                spots = memo.spots[p] = build_spots(state, p)
            roads = spots[0][:]
            sites = spots[1][:]
        n_road = len(roads) if road_paid and roads is not None else 0
        n_site = len(sites) if road_paid and wool >= 1 and grain >= 1 and sites is not None else 0
        n_town = len(towns) if grain >= 2 and ore >= 3 else 0
        n_card = 1 if deck and wool >= 1 and grain >= 1 and ore >= 1 else 0
        # The resources the hand can give at their rate (most hands: none), in order; five
        # comparisons cost less than a max() call to rule them all out.
        gives = []
        if lumber >= rate_l:
            gives.append(0)
        if brick >= rate_b:
            gives.append(1)
        if wool >= rate_w:
            gives.append(2)
        if grain >= rate_g:
            gives.append(3)
        if ore >= rate_o:
            gives.append(4)
        n_trade = 4 * len(gives)
        n_ship = 0
        if sea and ((lumber >= 1 and wool >= 1) or ROAD_BUILDING in cards):
            if ships is None:
                ships = LegalMoves(state, p).ships()
            n_ship = len(ships) if lumber >= 1 and wool >= 1 else 0
        n_move = len(moves)
        play: list[str] = []
        n_play = 0
        if cards:
            if KNIGHT in cards:
                play.append(KNIGHT)
            if ROAD_BUILDING in cards and (roads or ships):
                play.append(ROAD_BUILDING)
            n_play = len(play) + 5 * (MONOPOLY in cards)
            n_play += len(_PLENTY) * (YEAR_OF_PLENTY in cards)
        total = 1 + n_road + n_site + n_town + n_card + n_trade + n_ship + n_move + n_play
        i = int(draw() * total)  # _pick, inline
        if i == 0:
            break
        i -= 1
        if i < n_road:
            assert roads is not None
            lines.append(_made(Road, roads.pop(i)))
            hand[0] -= 1
            hand[1] -= 1
            continue
        i -= n_road
        if i < n_site:
            assert sites is not None
            c = sites.pop(i)
            lines.append(_made(Settlement, c))
            _pay(hand, COST_SETTLEMENT)
            towns = [*towns, c]
            continue
        i -= n_site
        if i < n_town:
            lines.append(_made(City, towns[i]))
            towns = towns[:i] + towns[i + 1 :]
            _pay(hand, COST_CITY)
            continue
        i -= n_town
        if i < n_card:
            lines.append(_BUY)
            _pay(hand, COST_CARD)
            deck -= 1
            continue
        i -= n_card
        if i < n_trade:
            give = gives[i // 4]
            get = i % 4
            get += get >= give
            lines.append(_made(MaritimeTrade, give, rates[give], get))
            hand[give] -= rates[give]
            hand[get] += 1
            continue
        i -= n_trade
        if i < n_ship:
            assert ships is not None
            lines.append(Ship(ships.pop(i)))
            _pay(hand, COST_SHIP)
            continue
        i -= n_ship
        if i < n_move:
            lines.append(moves[i])
            moves = []  # one move a round
            continue
        i -= n_move
        # A card, played after the roll; one card a round.
        if i < len(play):
            if play[i] == KNIGHT:
                made = _robber(state, p, rng, memo)
                if made is not None:
                    knight = Knight(Timing.AFTER_ROLL, made[0])
            else:
                pieces = [(e, False) for e in roads or ()] + [(e, True) for e in ships or ()]
                e, ship = pieces[_pick(rng, len(pieces))]
                lines.append(RoadBuilding(e, None, ship))
        else:
            i -= len(play)
            if MONOPOLY in cards and i < 5:
                monopoly = Monopoly(i)
            else:
                i -= 5 * (MONOPOLY in cards)
                a, b = _PLENTY[i]
                lines.append(YearOfPlenty(a, b))
                hand[a] += 1
                hand[b] += 1
        cards = []
    made = _robber(state, p, rng, memo)
    robber = made[0] if made is not None else None
    if sea:
        gold = tuple(_pick(rng, 5) for _ in range(_pick(rng, 3)))
        return TurnOrders(
            robber=robber, knight=knight, monopoly=monopoly, builds=tuple(lines), gold=gold
        )
    if not lines and knight is None and monopoly is None:
        return made[1] if made is not None else _NO_ORDERS
    return _turn_orders(robber, knight, monopoly, tuple(lines))


@dataclass
class Played:
    """One game played by this player on every seat."""

    seed: int
    winner: int
    rounds: int
    rolls: int
    seconds: float

    @property
    def finished(self) -> bool:
        return self.winner >= 0

    def line(self) -> str:
        return f"{self.seed}:{self.winner}:{self.rounds}:{self.rolls}"


def play(settings: Settings, seed: int) -> Played:
    """A whole game, timed in CPU seconds from the new state to the last round (the orders
    included)."""
    t0 = time.process_time()
    state = new_game(settings, seed)
    rng = random.Random(derive_seed(seed, "bot"))
    rolls = 0
    while state.phase == Phase.SETUP:
        state, _, placed = place_setup(state, random_setup(state, rng))
        if not placed:
            state, _ = place_setup_automatic(state)
    memo = _Memo()
    while state.phase == Phase.ROUNDS and state.round <= MAX_ROUNDS:
        state, events = resolve_round(state, round_orders(state, rng, memo))
        rolls += countOf(map(type, events), Rolled)  # in C: the timed loop's own cost
    return Played(seed, state.winner, state.round, rolls, time.process_time() - t0)


def digest(games: list[Played]) -> str:
    """What the games came to (seed, winner, rounds, rolls each): the same on every run."""
    return hashlib.sha256("\n".join(g.line() for g in games).encode()).hexdigest()


def measure(
    games: int, seed: int, scenario: str | None = None, players: int = 4
) -> dict[str, object]:
    """Plays `games` games (the seeds of `pbm sim --seed`); the figures count finished games
    only: their rolls over their seconds."""
    settings = (
        Settings.for_scenario(scenario, players)
        if scenario is not None
        else Settings.for_players(players)
    )
    played = [play(settings, derive_seed(seed, "sim", i)) for i in range(games)]
    done = [g for g in played if g.finished]
    seconds = sum(g.seconds for g in done)
    rolls = sum(g.rolls for g in done)
    return {
        "games": games,
        "finished": len(done),
        "rolls": rolls,
        "seconds": seconds,
        "rolls_per_s": rolls / seconds if seconds else None,
        "games_per_s": len(done) / seconds if seconds else None,
        "digest": digest(played),
    }
