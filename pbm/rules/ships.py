"""Ships (Seafarers): where they may be built, which may be moved, and placing them.

Spec `seafarers.md`, "Ships": a ship stands on a side that touches sea (two sea hexes, or a
coast). A new ship touches the player's own building or one of their ships; roads and ships
join only at the player's own building, so a ship never continues a road directly, nor a road a
ship; an opponent's building cuts a line as it cuts a road. A side holds a road or a ship.

Moving (docs/rules-decisions.md, "Seafarers: ships"): a ship may be moved when one of its ends
touches neither an own building nor another own ship (it is the front of an open line). A ship
with both ends held (inside a line, or closing one between two own buildings) stays. At most one
move a round, never a ship built (or moved) this round, never a ship next to the pirate, never
onto a side next to the pirate; the target must be a side where a new ship could be built
without the ship being moved.
"""

from __future__ import annotations

from . import trade_lines
from .events import Built, Event
from .reasons import SPLIT_RULES, Reason
from .resources import COST_SHIP, can_pay
from .sea import MAX_SHIPS, SeaState
from .sea_events import ShipMoved
from .state import GameState


def next_to_pirate(state: GameState, sea: SeaState, e: int) -> bool:
    return sea.pirate >= 0 and sea.pirate in state.board.path_hexes[e]


def ship_connects(state: GameState, sea: SeaState, p: int, e: int, without: int = -1) -> bool:
    """A ship on `e` touches p's building, or p's ship (other than `without`) at a crossing no
    opponent holds."""
    board = state.board
    owner = state.owner
    ship = sea.ship
    for c in board.path_crossings[e]:
        o = owner[c]
        if o == p:
            return True
        if o >= 0:
            continue  # an opponent's building cuts the line
        for f in board.crossing_paths[c]:
            if f != e and f != without and ship[f] == p:
                return True
    return False


def ship_site_rule(
    state: GameState, sea: SeaState, p: int, e: int, without: int = -1
) -> Reason | None:
    """Board rules for a ship on `e` (built, placed, or moved there from `without`)."""
    if not state.board.path_sea[e]:
        return Reason.NOT_SEA
    if state.road[e] >= 0 or sea.ship[e] >= 0:
        return Reason.OCCUPIED
    if next_to_pirate(state, sea, e):
        return Reason.NEXT_TO_PIRATE
    if not ship_connects(state, sea, p, e, without):
        return Reason.NOT_CONNECTED if state.rules < SPLIT_RULES else Reason.SHIP_NOT_CONNECTED
    return None


def ship_rule(
    state: GameState, sea: SeaState, p: int, e: int, check_cost: bool = True
) -> Reason | None:
    rule = ship_site_rule(state, sea, p, e)
    if rule:
        return rule
    if len(sea.ships[p]) >= MAX_SHIPS:
        return Reason.NO_PIECES_LEFT
    if check_cost and not can_pay(state.hands[p], COST_SHIP):
        return Reason.CANNOT_AFFORD
    return None


def free_end(state: GameState, sea: SeaState, p: int, e: int) -> bool:
    """One end of p's ship on `e` touches neither p's building nor another of p's ships."""
    board = state.board
    for c in board.path_crossings[e]:
        if state.owner[c] == p:
            continue
        if not any(f != e and sea.ship[f] == p for f in board.crossing_paths[c]):
            return True
    return False


def movable_rule(state: GameState, sea: SeaState, p: int, e: int) -> Reason | None:
    """May p move the ship on `e` this round?"""
    if sea.ship[e] != p:
        return Reason.NOT_OWN_SHIP
    if sea.moved[p] == state.round:
        return Reason.ONE_SHIP_MOVE_PER_ROUND
    if sea.built[e] == state.round:
        return Reason.SHIP_BUILT_THIS_ROUND
    if next_to_pirate(state, sea, e):
        return Reason.NEXT_TO_PIRATE if state.rules < SPLIT_RULES else Reason.SHIP_HELD_BY_PIRATE
    if not free_end(state, sea, p, e):
        return Reason.SHIP_LINE_CLOSED
    return None


def move_rule(state: GameState, sea: SeaState, p: int, source: int, target: int) -> Reason | None:
    rule = movable_rule(state, sea, p, source)
    if rule:
        return rule
    if target == source:
        return Reason.OCCUPIED if state.rules < SPLIT_RULES else Reason.SHIP_SAME_PLACE
    return ship_site_rule(state, sea, p, target, without=source)


def movable_ships(state: GameState, sea: SeaState, p: int) -> list[int]:
    return [e for e in sea.ships[p] if movable_rule(state, sea, p, e) is None]


def ship_sites(state: GameState, sea: SeaState, p: int, without: int = -1) -> list[int]:
    """Every side a ship of p could go to (cost and piece count aside), in path order."""
    board = state.board
    seen: set[int] = set()
    crossings = set(state.settlements[p]) | set(state.cities[p])
    for f in sea.ships[p]:
        if f != without:
            crossings.update(board.path_crossings[f])
    for c in sorted(crossings):
        for e in board.crossing_paths[c]:
            if e not in seen and ship_site_rule(state, sea, p, e, without) is None:
                seen.add(e)
    return sorted(seen)


def place_ship(
    state: GameState, sea: SeaState, p: int, e: int, events: list[Event], free: bool
) -> None:
    from .building import pay

    if not free:
        pay(state, p, COST_SHIP, events)
    sea.ship[e] = p
    sea.built[e] = state.round
    sea.ships[p].append(e)
    events.append(Built(p, "ship", e, free))
    _remeasure(state, p, events)
    trade_lines.update(state, p, events)


def _remeasure(state: GameState, p: int, events: list[Event]) -> None:
    """The trade route of p after a ship came or went (only while the state carries the sea)."""
    if state.sea is None:
        return
    from .building import longest_road_length, update_longest_road

    state.road_lengths[p] = longest_road_length(state, p)
    update_longest_road(state, events)


def move_ship(
    state: GameState, sea: SeaState, p: int, source: int, target: int, events: list[Event]
) -> None:
    sea.ship[source] = -1
    sea.built[source] = -1
    sea.ships[p].remove(source)
    sea.ship[target] = p
    # A moved ship counts as new this round: it cannot move again (one move a round anyway).
    sea.built[target] = state.round
    sea.ships[p].append(target)
    sea.moved[p] = state.round
    events.append(ShipMoved(p, source, target))
    _remeasure(state, p, events)
    # The Great Crossing: a front ship moved away cuts the line it was part of.
    trade_lines.update(state, p, events)
