"""Special victory points (Seafarers), per scenario; they belong to the building that earned
them and count as visible VP.

Spec `seafarers.md`, "Special victory points", after seed 001:
- `bonus_areas` (New Shores, Through the Desert): +1 for a player's first settlement on each
  bonus area (the small islands; beyond the desert belt), whoever else is there already;
- `foreign_1_2` (Four Islands): the islands of a player's start settlements are home; +1 for
  the first settlement on the first foreign island, +2 on each further foreign island;
- `foreign_1` (New World): +1 for the first settlement on each foreign island;
- `trade_lines` (The Great Crossing): nothing for settlements; +1 for each trade line, worked
  out from the board by `trade_lines.py`;
- `none` (Oceania): no special VP, every building counts as in the base game.
A settlement whose crossing touches two areas (the desert belt's edge) counts for each.
Setup settlements earn nothing: they make the home islands.
"""

from __future__ import annotations

from .events import Event
from .scenarios import Scenario, areas_of, scenario
from .scenarios.data import Area
from .sea import SeaState
from .sea_events import HomeIslands, SpecialVP
from .state import GameState


def areas(state: GameState, sea: SeaState) -> dict[int, Area]:
    seed = state.board_seed if state.board_seed is not None else state.seed
    return areas_of(sea.scenario, state.settings.players, seed)


def earned(
    sc: Scenario, area_info: dict[int, Area], sea: SeaState, p: int, crossing_areas: tuple[int, ...]
) -> list[tuple[int, int]]:
    """(area, vp) a new settlement of p touching `crossing_areas` earns."""
    if sc.special == "none":
        return []  # Oceania: no special VP (seed 001)
    if sc.special == "trade_lines":
        return []  # The Great Crossing pays for trade lines only (`trade_lines.py`)
    rewarded = {a for _, a, _ in sea.specials[p]}
    out: list[tuple[int, int]] = []
    for a in crossing_areas:
        if a in rewarded:
            continue
        if sc.special == "bonus_areas":
            if area_info[a].bonus:
                out.append((a, 1))
        elif a not in sea.home[p]:
            first = not rewarded and not out
            out.append((a, 1 if sc.special == "foreign_1" or first else 2))
    return out


def award(state: GameState, sea: SeaState, p: int, c: int, events: list[Event]) -> None:
    """After p's settlement on crossing c in the rounds."""
    sc = scenario(sea.scenario)
    for a, vp in earned(sc, areas(state, sea), sea, p, state.board.crossing_areas[c]):
        sea.specials[p].append((c, a, vp))
        events.append(SpecialVP(p, c, a, vp))


def set_home(state: GameState, sea: SeaState, p: int, events: list[Event]) -> None:
    """At the end of p's setup: the areas of p's start settlements are p's home islands."""
    board = state.board
    home = sorted({a for c in state.settlements[p] for a in board.crossing_areas[c]})
    sea.home[p] = tuple(home)
    events.append(HomeIslands(p, tuple(home)))


def setup_area_ok(state: GameState, sea: SeaState, c: int) -> bool:
    """A setup settlement stands on a start area and on no bonus area."""
    info = areas(state, sea)
    touched = state.board.crossing_areas[c]
    return any(info[a].start for a in touched) and not any(info[a].bonus for a in touched)


def start_island_ok(state: GameState, sea: SeaState, p: int, c: int) -> bool:
    """The Great Crossing: p's start settlements both stand on one of the two islands (seed
    001, scene 13), so a second one shares a start area with the first."""
    if scenario(sea.scenario).special != "trade_lines":
        return True
    placed = state.settlements[p] + state.cities[p] if p >= 0 else []
    if not placed:
        return True
    info = areas(state, sea)
    board = state.board
    own = {a for x in placed for a in board.crossing_areas[x] if info[a].start}
    return any(a in own for a in board.crossing_areas[c])


def must_ship(state: GameState, sea: SeaState, c: int) -> bool:
    """A setup settlement on crossing c takes a ship, not a road: the scenario says "must" and
    the crossing is a coast facing other islands (`open_coast`)."""
    if scenario(sea.scenario).ship_coast != "must":
        return False
    return open_coast(state, c)


def open_coast(state: GameState, c: int) -> bool:
    """Crossing c is a coast facing other islands: it touches a sea hex that is not the frame
    (where the scenario says so, a setup settlement there takes, or had better take, a ship)."""
    board = state.board
    return any(
        board.hexes[h].terrain == "sea" and h not in board.frame for h in board.crossing_hexes[c]
    )
