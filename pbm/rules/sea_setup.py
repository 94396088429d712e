"""The setup of a Seafarers game: start areas, a ship instead of a road, "must" coasts, gold in
the second income and the home islands (spec `seafarers.md`, "The mail round", "Setup").

`setup.py` asks this module whenever the state carries a `SeaState`; a base game never does.
"""

from __future__ import annotations

from .board import Terrain
from .building import place_road, settlement_site_rule
from .events import Event, Produced
from .fog import discover
from .gold import GoldChoices
from .orders import SetupPlacement
from .reasons import SPLIT_RULES, Reason
from .sea import SeaState
from .setup import setup_player
from .ships import next_to_pirate, place_ship
from .special import must_ship, set_home, setup_area_ok, start_island_ok
from .state import GameState


def _ship_side_rule(state: GameState, sea: SeaState, e: int) -> Reason | None:
    if not state.board.path_sea[e]:
        return Reason.NOT_SEA
    if state.road[e] >= 0 or sea.ship[e] >= 0:
        return Reason.ROAD_OCCUPIED if state.rules < SPLIT_RULES else Reason.SHIP_SIDE_OCCUPIED
    if next_to_pirate(state, sea, e):
        return Reason.NEXT_TO_PIRATE
    return None


def ship_needed(state: GameState, sea: SeaState, c: int) -> bool:
    """A "must" coast where a ship can still go: the settlement takes a ship. (Where every sea
    side is taken or blocked by the pirate, a road is allowed.)"""
    return must_ship(state, sea, c) and any(
        _ship_side_rule(state, sea, e) is None for e in state.board.crossing_paths[c]
    )


def sea_placement_rule(state: GameState, sea: SeaState, pl: SetupPlacement) -> Reason | None:
    rule = settlement_site_rule(state, pl.crossing)
    if rule:
        return rule
    if not setup_area_ok(state, sea, pl.crossing):
        return Reason.NOT_START_AREA
    if not start_island_ok(state, sea, setup_player(state), pl.crossing):
        return Reason.OTHER_START_ISLAND
    board = state.board
    e = pl.path
    if e not in board.crossing_paths[pl.crossing]:
        if pl.ship and state.rules >= SPLIT_RULES:
            return Reason.SHIP_NOT_AT_SETTLEMENT
        return Reason.ROAD_NOT_AT_SETTLEMENT
    if pl.ship:
        return _ship_side_rule(state, sea, e)
    if ship_needed(state, sea, pl.crossing):
        return Reason.SHIP_REQUIRED
    if not board.path_land[e]:
        return Reason.ROAD_NOT_ON_LAND
    if state.road[e] >= 0 or sea.ship[e] >= 0:
        return Reason.ROAD_OCCUPIED
    return None


def setup_pieces(state: GameState, sea: SeaState, c: int) -> list[tuple[int, bool]]:
    """(path, ship) a setup settlement on crossing c may take, in path order, roads first."""
    out: list[tuple[int, bool]] = []
    for ship in (False, True):
        for e in state.board.crossing_paths[c]:
            if sea_placement_rule(state, sea, SetupPlacement(c, e, ship)) is None:
                out.append((e, ship))
    return out


def place_piece(
    s: GameState, sea: SeaState, p: int, pl: SetupPlacement, events: list[Event]
) -> None:
    if pl.ship:
        place_ship(s, sea, p, pl.path, events, free=True)
    else:
        place_road(s, p, pl.path, events, free=True)
    # Oceania: a setup piece reaching fog would discover it (the boards keep the fog out of
    # reach of the start islands' pieces, so none does).
    discover(s, p, pl.path, events)


def gold_income(s: GameState, p: int, c: int, events: list[Event]) -> None:
    """The second settlement's card from each gold river next to it: the resource p holds
    fewest of (no `Gold:` preference is written in the setup), bank permitting."""
    board = s.board
    gold = GoldChoices()
    for h in board.crossing_hexes[c]:
        if board.hexes[h].terrain != Terrain.GOLD or board.hexes[h].number is None:
            continue
        res = gold.choose(p, s.hands[p])
        if s.bank is not None:
            if s.bank[res] == 0:
                continue
            s.bank[res] -= 1
        s.hands[p][res] += 1
        events.append(Produced(p, h, res, 1))


def end_of_setup(s: GameState, sea: SeaState, events: list[Event]) -> None:
    """Every player's home islands, in seat order, once all start settlements stand."""
    for p in range(s.settings.players):
        set_home(s, sea, p, events)


def automatic_placement(state: GameState, sea: SeaState) -> SetupPlacement:
    """As the base game's (`setup.automatic_placement`): the start site with the highest pip sum
    (ties: lowest label), with the piece towards the best site two steps away; a ship where the
    coast needs one."""
    board = state.board
    sites = [
        c
        for c in range(len(board.crossing_hexes))
        if settlement_site_rule(state, c) is None and setup_area_ok(state, sea, c)
    ]
    sites.sort(key=lambda x: (-board.crossing_pips[x], x))
    for c in sites:
        trial = state.copy()
        trial.owner[c] = 0  # stand-in to apply the distance rule around the new settlement
        trial.payees = None
        choice: tuple[tuple[int, int], int, bool] | None = None
        for e, ship in setup_pieces(state, sea, c):
            a, b = board.path_crossings[e]
            far = a if b == c else b
            near = [
                board.crossing_pips[n]
                for n in board.crossing_neighbors[far]
                if settlement_site_rule(trial, n) is None
            ]
            score = (max(near, default=0), -e)
            if choice is None or score > choice[0]:
                choice = (score, e, ship)
        if choice is not None:
            return SetupPlacement(c, choice[1], choice[2])
    raise ValueError("no start site left")
