"""Helpers for the Kronlande rules tests: an empty Kronlande game in the rounds phase, hands by
name, buildings on a quarry or a fishing ground, and rolls that pay only what a test says."""

from __future__ import annotations

import random

from pbm.rules import building
from pbm.rules.castles import place_castle, place_residence
from pbm.rules.events import Event
from pbm.rules.orders import TurnOrders
from pbm.rules.resources import KRON_NAMES_DE
from pbm.rules.round import resolve_round
from pbm.rules.state import GameState, Phase, Settings, new_game


def kron_game(players: int = 4, size: str = "large", seed: int = 1) -> GameState:
    """An empty Kronlande board in round 1 (no setup pieces)."""
    s = new_game(Settings.for_kronlande(players, size), seed)
    s.phase = Phase.ROUNDS
    s.round = 1
    s.setup_step = 2 * players
    return s


def set_hand(s: GameState, p: int, **cards: int) -> None:
    """Seat p's hand by German names (`Stein=3, Brot=1`); the bank gives or takes the change
    of the resources (goods come from the supply)."""
    new = [0] * len(s.hands[p])
    for name, n in cards.items():
        new[KRON_NAMES_DE.index(name)] = n
    if s.bank is not None:
        for r in range(len(s.bank)):
            s.bank[r] -= new[r] - s.hands[p][r]
    s.hands[p] = new


def cards(s: GameState, p: int) -> dict[str, int]:
    """Seat p's hand by German names, without the zeros."""
    return {KRON_NAMES_DE[r]: n for r, n in enumerate(s.hands[p]) if n}


def settle_at(s: GameState, p: int, c: int, level: int = 1) -> int:
    """A building of seat p on crossing c, free: 1 settlement, 2 city, 3 Burg, 4 Residenz."""
    building.place_settlement(s, p, c, [], free=True)
    if level >= 2:
        building.place_city(s, p, c, [], free=True)
    if level >= 3:
        place_castle(s, p, c, [], free=True)
    if level >= 4:
        place_residence(s, p, c, [], free=True)
    return c


def free_crossing(s: GameState, h: int, avoid: tuple[int, ...] = ()) -> int:
    """A crossing of hex h where a settlement may stand (distance rule), not touching `avoid`
    hexes, lowest id first."""
    for c in s.board.hex_crossings[h]:
        if building.settlement_site_rule(s, c) is None and not set(avoid) & set(
            s.board.crossing_hexes[c]
        ):
            return c
    raise AssertionError(f"no free crossing at hex {h}")


def dice_for(total: int) -> tuple[int, int]:
    return (min(6, total - 1), total - min(6, total - 1))


class Rolls(random.Random):
    """The round's rolls (drawn first, one per player) all the same dice; everything else,
    the NMR robber's dice too, seeded."""

    def __init__(self, dice: tuple[int, int], players: int, seed: int = 1) -> None:
        super().__init__(seed)
        self._dice = list(dice) * players

    def randint(self, a: int, b: int) -> int:
        if (a, b) == (1, 6) and self._dice:
            return self._dice.pop(0)
        return super().randint(a, b)


def quiet_total(s: GameState) -> int:
    """A total (never 7) that pays nobody now."""
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        hexes = s.board.number_hexes.get(total, ())
        if all(
            h == s.robber or all(s.owner[c] < 0 for c in s.board.hex_crossings[h]) for h in hexes
        ):
            return total
    raise AssertionError("every number pays someone")


def play(
    s: GameState, total: int | None = None, **seats: TurnOrders
) -> tuple[GameState, list[Event]]:
    """One round with every roll `total` (a quiet one unless given), `s0=TurnOrders(…)` for
    the seats that send orders, empty orders for the rest."""
    orders: dict[int, TurnOrders | None] = {q: TurnOrders() for q in range(s.settings.players)}
    for key, value in seats.items():
        orders[int(key.removeprefix("s"))] = value
    dice = dice_for(total if total is not None else quiet_total(s))
    return resolve_round(s, orders, Rolls(dice, s.settings.players))
