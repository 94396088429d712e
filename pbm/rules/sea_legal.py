"""Seafarers in the legal-move view: ships built and moved, settlements a ship line reaches,
the pieces of the setup, and fog hexes that leave a failure open at receipt. Registered with
`legal_hooks` on import (`legal.py` imports this module)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import fog, ships
from .board import Terrain
from .events import Event
from .gold import GoldChoices
from .legal_hooks import (
    ACTION_RULES,
    CERTAIN_RULES,
    EXECUTORS,
    HOOKS,
    PLACERS,
    LegalHooks,
    action_rule,
)
from .legal_hooks import uncertain as _uncertain
from .orders import MoveShip, Ship
from .reasons import SPLIT_RULES, Reason
from .sea import MAX_SHIPS
from .state import GameState

if TYPE_CHECKING:
    from .legal import LegalMoves


def ship_rule(s: GameState, p: int, a: Ship, check_cost: bool) -> Reason | None:
    if s.sea is None:
        return Reason.NOT_SEA if s.rules < SPLIT_RULES else Reason.NO_SHIPS
    return ships.ship_rule(s, s.sea, p, a.path, check_cost)


def move_rule(s: GameState, p: int, a: MoveShip, check_cost: bool) -> Reason | None:
    if s.sea is None:
        return Reason.NOT_OWN_SHIP if s.rules < SPLIT_RULES else Reason.NO_SHIPS
    return ships.move_rule(s, s.sea, p, a.source, a.target)


def ship_sites(state: GameState, p: int) -> list[int]:
    """Paths where p may build a ship (`ships.ship_rule` without the cost)."""
    sea = state.sea
    if sea is None or len(sea.ships[p]) >= MAX_SHIPS:
        return []
    return ships.ship_sites(state, sea, p)


def ship_moves(state: GameState, p: int) -> list[MoveShip]:
    """Every ship move open to p now (`ships.move_rule`), by source, then target."""
    sea = state.sea
    if sea is None:
        return []
    return [
        MoveShip(e, t)
        for e in sorted(ships.movable_ships(state, sea, p))
        for t in ships.ship_sites(state, sea, p, without=e)
        if t != e
    ]


def _place_ship(s: GameState, p: int, item: Ship, events: list[Event]) -> None:
    assert s.sea is not None
    ships.place_ship(s, s.sea, p, item.path, events, free=True)


def _move_ship(s: GameState, p: int, item: MoveShip, events: list[Event]) -> None:
    assert s.sea is not None
    ships.move_ship(s, s.sea, p, item.source, item.target, events)


#: Rules a fog hex decides (Oceania): what it turns out to be when discovered.
FOG_RULES = frozenset({Reason.NOT_LAND, Reason.NOT_SEA, Reason.UNEXPLORED})


class SeaLegal(LegalHooks):
    def reach_paths(self, state: GameState, p: int) -> Iterable[int]:
        # A settlement may stand where a ship line reaches land.
        return () if state.sea is None else state.sea.ships[p]

    def path_taken(self, state: GameState) -> Sequence[int] | None:
        # Roads go on from roads and buildings only, never onto a ship's side.
        return None if state.sea is None else state.sea.ship

    def moves(self, legal: LegalMoves) -> Iterable[Any]:
        yield from (Ship(e) for e in legal.ships())
        yield from legal.ship_moves()

    def setup_pieces(self, legal: LegalMoves, c: int) -> list[tuple[int, bool]] | None:
        # Ships too, and only those on a "must" coast; nothing outside the start areas.
        sea = legal.state.sea
        if sea is None:
            return None
        from .sea_setup import setup_pieces

        return setup_pieces(legal.state, sea, c)

    def setup_options(self, legal: LegalMoves) -> list[tuple[int, int, bool]] | None:
        if legal.state.sea is None:
            return None
        return [(c, e, ship) for c in legal.sites() for e, ship in legal.setup_pieces(c)]

    def uncertain(self, state: GameState, rule: Reason | None, hexes: Sequence[int]) -> bool:
        # A piece built earlier in the round may discover a fog hex; the checks at receipt
        # never look under the fog.
        return rule in FOG_RULES and any(state.board.hexes[h].terrain == Terrain.FOG for h in hexes)


def _certain_ship(legal: LegalMoves, item: Ship) -> Reason | None:
    s = legal.state
    rule = action_rule(s, legal.seat, item, check_cost=False)
    return _uncertain(s, rule, s.board.path_hexes[item.path])


def _certain_move(legal: LegalMoves, item: MoveShip) -> Reason | None:
    s = legal.state
    rule = action_rule(s, legal.seat, item, check_cost=False)
    return _uncertain(s, rule, s.board.path_hexes[item.target])


def _build_ship(
    s: GameState, p: int, a: Ship, events: list[Event], gold: GoldChoices | None
) -> None:
    assert s.sea is not None
    ships.place_ship(s, s.sea, p, a.path, events, free=False)
    fog.discover(s, p, a.path, events, gold)


def _sail_ship(
    s: GameState, p: int, a: MoveShip, events: list[Event], gold: GoldChoices | None
) -> None:
    assert s.sea is not None
    ships.move_ship(s, s.sea, p, a.source, a.target, events)
    fog.discover(s, p, a.target, events, gold)


ACTION_RULES.update({Ship: ship_rule, MoveShip: move_rule})
EXECUTORS.update({Ship: _build_ship, MoveShip: _sail_ship})
CERTAIN_RULES.update({Ship: _certain_ship, MoveShip: _certain_move})
PLACERS.update({Ship: _place_ship, MoveShip: _move_ship})
HOOKS.append(SeaLegal())
