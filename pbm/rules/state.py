"""Game settings and the game state.

The state is a plain mutable record (lists of ints indexed by seat, crossing and path) because
round resolution changes it thousands of times a second; the public functions never change the
state they are given: `resolve_round` and the setup functions work on a `copy()`.
Serialisation (JSON and a one-line text form) lives in `serial.py`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum
from operator import countOf, itemgetter

from . import parts as _parts
from .board import Board
from .kron import KronState
from .layouts import (
    BOARD_VERSION,
    CARD_TYPES,
    DECK_3_4,
    DECK_5_6,
    KRON_ISLANDS,
    SIZES,
    VICTORY_POINT,
    default_size,
    generate_board,
)
from .parts import PARTS, parts_of
from .resources import N_RESOURCES
from .sea import SeaState

#: Colours a table draws from, in seed 003's order, then the 5–6 player colours.
DEFAULT_COLOURS = ("rot", "blau", "gelb", "weiss", "gruen", "braun")

#: The rules a new game is played by. A stored state records its own (`GameState.rules`), so a
#: game resolves, and its recorded rounds replay, as the rules it was played by say:
#: 1: every round from one generator, dice drawn as they are rolled (pbm before sealed dice);
#: 2: sealed dice drawn first from their own stream (docs/fair-dice.md), the NMR robber's
#:    preference for opponents, bank trades as far as a classic bank can pay, failure details;
#: 3: each refusal its own reason (`reasons.SPLIT_RULES`): a settlement, a ship and a road
#:    without a connection, a setup ship, a ship in a game without ships, a ship the pirate
#:    holds are told apart (the events' `rule` values); and an opponent's building cuts a ship
#:    line for moving as it cuts the trade route: a line is closed only unbroken between two
#:    own buildings (Seafarers, `ships.free_end`);
#: 4: the NMR robber's rolls that are rolled again say why (`robber.REROLL_REASONS`: the
#:    robber stands there, no building, only the roller's own buildings …); nothing else.
RULES = 4

#: A card's type in a hand's (type, round bought); a list's copy (`GameState.copy`).
_CARD_TYPE = itemgetter(0)
_COPY = list.copy

MAX_SETTLEMENTS = 5
MAX_CITIES = 4
MAX_ROADS = 15


#: number -> ([(hex, resource, ((player, cards), ...), cards), ...], every hex with a
#: resource): what a number's hexes pay (`production.payees`).
PayeeTable = dict[int, tuple[list[tuple[int, int | None, tuple[tuple[int, int], ...], int]], bool]]


class Phase(StrEnum):
    SETUP = "setup"
    ROUNDS = "rounds"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Settings:
    players: int = 4
    size: str = "medium"
    vp_target: int = 10
    #: "classic" (limited, `bank_count` of each resource) or "unlimited".
    bank: str = "classic"
    bank_count: int = 19
    card_limit: int = 7
    newcomer_protection: bool = False
    lang: str = "de"
    #: A Seafarers scenario (`scenarios.SCENARIOS`), or None for the base game on `size`.
    scenario: str | None = None
    #: Seafarers: the pirate plays (spec: on unless the game is created with --no-pirate).
    pirate: bool = True
    #: Kronlande (issue 19): Stein, Fisch, goods, workshops, Burgen and Residenzen on the
    #: large or huge island (docs/kronlande-model.md).
    kronlande: bool = False

    @classmethod
    def for_players(cls, players: int, size: str | None = None, **overrides: object) -> Settings:
        """Defaults of seed 002 for the table size and island, then explicit overrides."""
        if not 3 <= players <= 6:
            raise ValueError("a game has 3 to 6 players")
        size = size or default_size(players)
        spec = SIZES[size]
        base = cls(players=players, size=size, vp_target=spec.vp_target, bank_count=spec.bank)
        return replace(base, **overrides)  # type: ignore[arg-type]

    @classmethod
    def for_scenario(cls, scenario: str, players: int, **overrides: object) -> Settings:
        """A Seafarers scenario for 3 or 4 players: its VP target and the base bank (19)."""
        from .scenarios import PLAYER_COUNTS
        from .scenarios import scenario as find

        sc = find(scenario)
        if players not in PLAYER_COUNTS:
            raise ValueError(f"{sc.name_en} is for 3 or 4 players")
        base = cls(players=players, size="medium", vp_target=sc.vp_target, scenario=sc.key)
        return replace(base, **overrides)  # type: ignore[arg-type]

    @classmethod
    def for_kronlande(cls, players: int, size: str = "large", **overrides: object) -> Settings:
        """Kronlande on the large or huge island for 3–6 players, with the island's VP target
        and classic bank (19/24/30 of every resource, Stein and Fisch too)."""
        if size not in KRON_ISLANDS:
            raise ValueError("Kronlande is played on the large or the huge island")
        return cls.for_players(players, size, kronlande=True, **overrides)

    @property
    def hand_width(self) -> int:
        """Entries of a hand: 5 resources, or a part's (Kronlande's 7 resources and 3 goods)."""
        for kind in PARTS:
            if kind.hand_width is not None and kind.on(self):
                return kind.hand_width
        return N_RESOURCES

    @property
    def bank_width(self) -> int:
        """Resources the bank deals in: 5, or a part's (Kronlande's 7; goods never)."""
        for kind in PARTS:
            if kind.bank_width is not None and kind.on(self):
                return kind.bank_width
        return N_RESOURCES

    @property
    def classic_bank(self) -> bool:
        return self.bank == "classic"


class GameState:
    """Everything that decides the future of a game. See module doc for the mutability rule."""

    __slots__ = (
        "bank",
        "board",
        "board_seed",
        "board_version",
        "cards",
        "cards_bought",
        "cities",
        "colours",
        "deck",
        "hands",
        "knights",
        "kron",
        "largest_army",
        "last_card_round",
        "level",
        "longest_road",
        "owner",
        "payees",
        "phase",
        "road",
        "road_lengths",
        "roads",
        "robber",
        "round",
        "rules",
        "sea",
        "seed",
        "settings",
        "settlements",
        "setup_step",
        "winner",
    )

    settings: Settings
    board: Board
    board_seed: int | None
    #: How a base island laid from `board_seed` was laid (`layouts.BOARD_VERSION`): kept from
    #: the game's start, so a stored game's board never changes; 1 for every other board.
    board_version: int
    seed: int
    colours: tuple[str, ...]
    phase: Phase
    round: int
    setup_step: int
    hands: list[list[int]]
    #: The classic bank's stock, or None for the unlimited bank.
    bank: list[int] | None
    #: Remaining development cards; the next card bought is the last element.
    deck: list[str]
    #: Cards in hand per player: (type, round bought).
    cards: list[list[tuple[str, int]]]
    cards_bought: list[int]
    knights: list[int]
    last_card_round: list[int]
    #: Per crossing: owning seat or -1, and 1 for a settlement, 2 for a city (in Kronlande
    #: also a Burg), 3 for a Residenz: what the building yields.
    owner: list[int]
    level: list[int]
    #: Per path: owning seat or -1.
    road: list[int]
    robber: int
    longest_road: int
    largest_army: int
    winner: int
    #: The rules version the game is played by (see `RULES`).
    rules: int
    #: Ships, pirate, home islands and special VP of a Seafarers game; None in the base game.
    sea: SeaState | None
    #: Workshops, Burgen, Residenzen and the title Baumeister of a Kronlande game; None else.
    kron: KronState | None
    # Indexes derived from owner/level/road, kept in step for speed (never serialised).
    settlements: list[list[int]]
    cities: list[list[int]]
    roads: list[list[int]]
    road_lengths: list[int]
    #: `production.payees`: (the board, {number: what its hexes pay}) for the buildings as they
    #: stand; None when a building changed since. Shared by copies (a change replaces it, never
    #: changes it); never serialised.
    payees: tuple[Board, PayeeTable] | None

    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        new.settings = self.settings
        new.board = self.board
        new.board_seed = self.board_seed
        new.board_version = self.board_version
        new.seed = self.seed
        new.colours = self.colours
        new.phase = self.phase
        new.round = self.round
        new.setup_step = self.setup_step
        # map(list.copy): no comprehension frame (3.11 runs each as a function call).
        new.hands = list(map(_COPY, self.hands))
        new.bank = None if self.bank is None else self.bank[:]
        new.deck = self.deck[:]
        new.cards = list(map(_COPY, self.cards))
        new.cards_bought = self.cards_bought[:]
        new.knights = self.knights[:]
        new.last_card_round = self.last_card_round[:]
        new.owner = self.owner[:]
        new.level = self.level[:]
        new.road = self.road[:]
        new.robber = self.robber
        new.longest_road = self.longest_road
        new.largest_army = self.largest_army
        new.winner = self.winner
        new.rules = self.rules
        for kind in PARTS:
            part = getattr(self, kind.field)
            setattr(new, kind.field, None if part is None else part.copy())
        new.settlements = list(map(_COPY, self.settlements))
        new.cities = list(map(_COPY, self.cities))
        new.roads = list(map(_COPY, self.roads))
        new.road_lengths = self.road_lengths[:]
        new.payees = self.payees
        return new

    def rebuild_indexes(self) -> None:
        n = self.settings.players
        self.payees = None
        self.settlements = [[] for _ in range(n)]
        self.cities = [[] for _ in range(n)]
        self.roads = [[] for _ in range(n)]
        for c, p in enumerate(self.owner):
            if p >= 0:
                (self.cities if self.level[c] >= 2 else self.settlements)[p].append(c)
        for e, p in enumerate(self.road):
            if p >= 0:
                self.roads[p].append(e)
        for kind in PARTS:
            part = getattr(self, kind.field)
            if part is not None:
                part.reindex(self.owner, n)
        from .building import longest_road_length

        self.road_lengths = [longest_road_length(self, p) for p in range(n)]

    # -- scoring -------------------------------------------------------------------------------

    def visible_vp(self, p: int) -> int:
        """The points everyone sees: all but the VP cards (`vp` counts them all once)."""
        return self.vp(p) - self.vp_cards(p)

    def vp_cards(self, p: int) -> int:
        return sum(1 for card, _ in self.cards[p] if card == VICTORY_POINT)

    def vp(self, p: int) -> int:
        """Victory points including hidden VP cards (they count by themselves): the one place
        points are counted (`visible_vp` is this less the cards). The round checks this
        before and after every roll and build step, some 14 times a round, so it counts the
        cards itself rather than by `vp_cards`."""
        vp = len(self.settlements[p]) + 2 * len(self.cities[p])
        if self.longest_road == p:
            vp += 2
        if self.largest_army == p:
            vp += 2
        for part in _parts.part_values(self):
            if part is not None:
                vp += part.extra_vp(p)
        held = self.cards[p]
        return vp + countOf(map(_CARD_TYPE, held), VICTORY_POINT) if held else vp

    def build_order(self, round_: int | None = None) -> list[int]:
        """Seat order rotated by r-1: seat (r-1) mod N starts (docs/rules-decisions.md, "The
        round by mail", step 1)."""
        r = self.round if round_ is None else round_
        n = self.settings.players
        start = (r - 1) % n
        return [*range(start, n), *range(start)]

    def __eq__(self, other: object) -> bool:
        from .serial import state_to_json

        return isinstance(other, GameState) and state_to_json(self) == state_to_json(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        from .serial import state_to_text

        return f"GameState.from_text({state_to_text(self)!r})"

    @staticmethod
    def from_text(text: str) -> GameState:
        from .serial import state_from_text

        return state_from_text(text)


def deck_for(settings: Settings, rules: int = RULES) -> dict[str, int]:
    """The development deck of a new game: by the number of players, whatever the island
    (25 cards for 3–4 players, 34 for 5–6; docs/rules-decisions.md). Rules 1 dealt it by the
    island: 34 cards on the large and the huge island. Kronlande adds its six project cards to
    the 34-card deck, whatever the number of players (a part's own deck: `PartKind.deck`)."""
    for kind in parts_of(settings):
        if kind.deck is not None:
            return kind.deck
    if rules < 2:
        return DECK_5_6 if settings.size in ("large", "huge") else DECK_3_4
    return DECK_5_6 if settings.players >= 5 else DECK_3_4


def deck_size(state: GameState) -> int:
    """The cards the game's deck began with (a game keeps the deck it was dealt)."""
    return len(state.deck) + sum(state.cards_bought)


def upgraded(state: GameState) -> GameState:
    """The state played by the newest rules from now on: a game of an older pbm at its next
    round. Nothing else changes (the deck it was dealt stays)."""
    new = state.copy()
    new.rules = RULES
    return new


def new_game(
    settings: Settings,
    seed: int,
    colours: tuple[str, ...] | None = None,
    board: Board | None = None,
    rules: int = RULES,
    board_version: int | None = None,
) -> GameState:
    """A game at the start of setup. The board is the seeded variable setup unless given.
    `rules`: the rules version (an older one only to replay a game stored by an older pbm)."""
    n = settings.players
    s = GameState.__new__(GameState)
    s.settings = settings
    s.board_seed = seed if board is None else None
    # A game of rules 1 is one of a pbm from before board versions: laid by the first.
    if board is not None or rules < 2:
        s.board_version = 1
    else:
        s.board_version = board_version_for(settings) if board_version is None else board_version
    s.board = board if board is not None else board_for(settings, seed, s.board_version)
    s.seed = seed
    s.colours = colours or DEFAULT_COLOURS[:n]
    if len(s.colours) != n:
        raise ValueError("one colour per player")
    s.phase = Phase.SETUP
    s.round = 0
    s.setup_step = 0
    s.hands = [[0] * settings.hand_width for _ in range(n)]
    s.bank = [settings.bank_count] * settings.bank_width if settings.classic_bank else None
    dealt = deck_for(settings, rules)
    types: tuple[str, ...] = CARD_TYPES
    for kind in parts_of(settings):
        types += kind.card_types
    deck = [card for card in types for _ in range(dealt[card])]
    random.Random(f"deck:{seed}").shuffle(deck)
    s.deck = deck
    s.cards = [[] for _ in range(n)]
    s.cards_bought = [0] * n
    s.knights = [0] * n
    s.last_card_round = [-1] * n
    nc = len(s.board.crossing_hexes)
    s.owner = [-1] * nc
    s.level = [0] * nc
    s.road = [-1] * len(s.board.path_hexes)
    start = s.board.robber_start
    s.robber = start if start is not None else -1
    s.longest_road = -1
    s.largest_army = -1
    s.winner = -1
    s.rules = rules
    for kind in PARTS:
        setattr(s, kind.field, kind.new(s) if kind.on(settings) else None)
    s.rebuild_indexes()
    return s


def board_version_for(settings: Settings) -> int:
    """The board version a new game's seeded board is laid by, the newest that changes it: for
    the base islands `layouts.BOARD_VERSION`, for a scenario board `scenarios.newest_version`
    (2 where board version 2 changed it: New Shores, Through the Desert for 3 players); 1 where
    none does (the medium island, the other scenarios and Kronlande, which are laid by their
    own rules), so that their stored form stays as it was. A stored board's version is at most
    this (`serial`)."""
    for kind in parts_of(settings):
        if kind.board_version is not None:
            return kind.board_version(settings)
    if settings.size == "medium":
        return 1
    return BOARD_VERSION


def board_for(settings: Settings, seed: int, version: int | None = None) -> Board:
    """The seeded board of a game: its scenario's, or the base island's variable setup, laid by
    board `version` (a stored game's own; None: a new game's, `board_version_for`)."""
    if version is None:
        version = board_version_for(settings)
    for kind in parts_of(settings):
        if kind.board is not None:
            return kind.board(settings, seed, version)
    return generate_board(settings.size, seed, version)


# The expansions' parts register themselves (`parts.py`); importing them here means every
# state has them, whatever was imported first.
from . import kron_part, sea_part  # noqa: E402, F401
