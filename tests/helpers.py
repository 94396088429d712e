"""Helpers to set up positions by board labels, and dice that roll what a test says."""

from __future__ import annotations

import random
from collections.abc import Iterable

from pbm.rules import building
from pbm.rules.board import Board
from pbm.rules.events import Event
from pbm.rules.layouts import default_size, generate_board
from pbm.rules.resources import parse_counts
from pbm.rules.state import GameState, Phase, Settings, new_game


def game(players: int = 4, seed: int = 1, round_: int = 1, **overrides: object) -> GameState:
    """An empty board in the rounds phase (no setup pieces), round `round_`."""
    s = new_game(Settings.for_players(players, **overrides), seed)  # type: ignore[arg-type]
    s.phase = Phase.ROUNDS
    s.round = round_
    s.setup_step = 2 * players
    return s


def crossing(s: GameState, labels: str) -> int:
    """A crossing by its three hex labels, e.g. "C3 C4 D4"."""
    return s.board.crossing_by_labels(labels.split())


def path(s: GameState, labels: str) -> int:
    """A path by its two hex labels, e.g. "C3 C4"."""
    return s.board.path_by_labels(labels.split())


def settle(s: GameState, p: int, labels: str, city: bool = False) -> int:
    """Put a settlement (or city) for seat p, free, ignoring the connection rule."""
    c = crossing(s, labels)
    events: list[Event] = []
    building.place_settlement(s, p, c, events, free=True)
    if city:
        s.level[c] = 2
        s.settlements[p].remove(c)
        s.cities[p].append(c)
        s.payees = None  # what the numbers pay changed (production's cache)
    return c


def road(s: GameState, p: int, labels: str) -> int:
    e = path(s, labels)
    building.place_road(s, p, e, [], free=True)
    return e


def hand(s: GameState, p: int, cards: str) -> None:
    """Set seat p's hand, e.g. "2H 1L 3E" (German letters); the bank gives or takes the change."""
    new = list(parse_counts(cards))
    if s.bank is not None:
        for r in range(5):
            s.bank[r] -= new[r] - s.hands[p][r]
    s.hands[p] = new


class Dice(random.Random):
    """A generator whose `randint(1, 6)` calls return scripted dice; everything else is seeded.

    `Dice([(3, 4), (2, 6)])` makes the first roll a 7 and the second an 8.
    """

    def __init__(self, rolls: Iterable[tuple[int, int]], seed: int = 0) -> None:
        super().__init__(seed)
        self._dice = [d for pair in rolls for d in pair]

    def randint(self, a: int, b: int) -> int:
        if (a, b) == (1, 6) and self._dice:
            return self._dice.pop(0)
        return super().randint(a, b)


#: The board a Seafarers corpus mail is read on: the scenario's board as new games lay it.
SCENARIO_BOARD_VERSION = 2


def corpus_board(spec: dict[str, object], version: int = 1) -> Board:
    """The board a corpus mail (`tests/corpus/expected.json`) is read on: a Seafarers
    scenario's (`scenario`), the Kronlande large island (`kronlande`), else the base island of
    its players and seed, laid as board `version`."""
    seed, players = int(str(spec["seed"])), int(str(spec["players"]))
    if spec.get("kronlande"):
        from pbm.rules.kron_board import generate_kron_board

        return generate_kron_board("large", seed)
    if spec.get("scenario"):
        from pbm.rules.scenarios import scenario_board

        return scenario_board(str(spec["scenario"]), players, seed, SCENARIO_BOARD_VERSION)
    return generate_board(default_size(players), seed, version)


def corpus_board_args(spec: dict[str, object]) -> list[str]:
    """`pbm orders check` options for the board of a corpus mail beyond seed and players."""
    if spec.get("kronlande"):
        return ["--kronlande", "--size", "large"]
    if spec.get("scenario"):
        return ["--scenario", str(spec["scenario"]), "--board-version", "2"]
    return []
