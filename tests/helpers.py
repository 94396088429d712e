"""Helpers to set up positions by board labels, and dice that roll what a test says."""

from __future__ import annotations

import random
from collections.abc import Iterable

from pbm.rules import building
from pbm.rules.events import Event
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
