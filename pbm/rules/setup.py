"""The setup: snake order, ranked pre-submitted placements, automatic placement, second income."""

from __future__ import annotations

from .building import place_road, place_settlement, settlement_site_rule
from .events import Event, Produced, SetupFailed, SetupPlaced
from .orders import SetupOrders, SetupPlacement
from .piece_hooks import own_setup
from .reasons import Reason
from .state import GameState, Phase


def setup_sequence(players: int) -> list[int]:
    """Snake order 1, 2, …, N, N, …, 1 (as seats 0 … N-1)."""
    return list(range(players)) + list(range(players - 1, -1, -1))


def setup_player(state: GameState) -> int:
    """Whose turn it is to place, or -1 outside the setup."""
    if state.phase != Phase.SETUP:
        return -1
    return setup_sequence(state.settings.players)[state.setup_step]


def placement_rule(state: GameState, placement: SetupPlacement) -> Reason | None:
    own = own_setup(state)
    if own is not None:
        return own.placement_rule(state, placement)
    rule = settlement_site_rule(state, placement.crossing)
    if rule:
        return rule
    board = state.board
    e = placement.path
    if e not in board.crossing_paths[placement.crossing]:
        return Reason.ROAD_NOT_AT_SETTLEMENT
    if not board.path_land[e]:
        return Reason.ROAD_NOT_ON_LAND
    if state.road[e] >= 0:
        return Reason.ROAD_OCCUPIED
    return None


def place_setup(state: GameState, orders: SetupOrders) -> tuple[GameState, list[Event], bool]:
    """Place the first legal of the ranked placements for the player whose turn it is.

    Returns (new state, events, placed). When none is legal nothing is placed: the service asks
    the player again, and at the deadline calls `place_setup_automatic`.
    """
    p = setup_player(state)
    if p < 0:
        raise ValueError("not in setup")
    events: list[Event] = []
    for rank, placement in enumerate(orders.placements):
        rule = placement_rule(state, placement)
        if rule is None:
            s = state.copy()
            _place(s, p, placement, rank, False, events)
            return s, events, True
        events.append(SetupFailed(p, rank, rule))
    return state, events, False


def automatic_placement(state: GameState) -> SetupPlacement:
    """docs/rules-decisions.md ("Setup"): the legal crossing with the highest pip sum (ties:
    lowest label), with a road towards the best neighbouring crossing (the best free site two
    steps away)."""
    own = own_setup(state)
    if own is not None:
        return own.automatic_placement(state)
    board = state.board
    legal = [c for c in range(len(board.crossing_hexes)) if settlement_site_rule(state, c) is None]
    c = max(legal, key=lambda x: (board.crossing_pips[x], -x))
    trial = state.copy()
    trial.owner[c] = 0  # stand-in to apply the distance rule around the new settlement
    trial.payees = None
    best_path, best_score = -1, (-1, 0)
    for e in board.crossing_paths[c]:
        if not board.path_land[e] or state.road[e] >= 0:
            continue
        far = (
            board.path_crossings[e][0]
            if board.path_crossings[e][1] == c
            else board.path_crossings[e][1]
        )
        sites = [
            board.crossing_pips[n]
            for n in board.crossing_neighbors[far]
            if settlement_site_rule(trial, n) is None
        ]
        score = (max(sites, default=0), -e)
        if score > best_score:
            best_path, best_score = e, score
    return SetupPlacement(c, best_path)


def place_setup_automatic(state: GameState) -> tuple[GameState, list[Event]]:
    p = setup_player(state)
    s = state.copy()
    events: list[Event] = []
    _place(s, p, automatic_placement(state), 0, True, events)
    return s, events


def _place(
    s: GameState,
    p: int,
    placement: SetupPlacement,
    rank: int,
    automatic: bool,
    events: list[Event],
) -> None:
    events.append(SetupPlaced(p, placement.crossing, placement.path, automatic, rank))
    place_settlement(s, p, placement.crossing, events, free=True)
    own = own_setup(s)
    if own is not None:
        own.place_piece(s, p, placement, events)
    else:
        place_road(s, p, placement.path, events, free=True)
    n = s.settings.players
    if s.setup_step >= n:
        _second_income(s, p, placement.crossing, events)
        if own is not None:
            own.second_income(s, p, placement.crossing, events)
    s.setup_step += 1
    if s.setup_step == 2 * n:
        if own is not None:
            own.end(s, events)
        s.phase = Phase.ROUNDS
        s.round = 1


def _second_income(s: GameState, p: int, c: int, events: list[Event]) -> None:
    """The second settlement pays one card per adjacent producing hex, bank permitting."""
    board = s.board
    for h in board.crossing_hexes[c]:
        res = board.hexes[h].resource
        if res is None or board.hexes[h].number is None:
            continue
        if s.bank is not None:
            if s.bank[res] == 0:
                continue
            s.bank[res] -= 1
        s.hands[p][res] += 1
        events.append(Produced(p, h, res, 1))
