"""Seafarers in the round and the setup (issue 17, step a): ship orders at their place in the
build order, moving a ship, road building placing ships, gold by the `Gold:` preference, the
setup with a ship and the "must" coasts, home islands, and the legal-move view listing ships."""

from __future__ import annotations

import random

import pytest
from helpers import Dice, hand

from pbm.rules.board import Terrain
from pbm.rules.events import Built, OrderFailed, Produced, SetupFailed
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import (
    MoveShip,
    Road,
    RoadBuilding,
    SetupOrders,
    SetupPlacement,
    Ship,
    TurnOrders,
)
from pbm.rules.reasons import Reason
from pbm.rules.resources import ERZ, HOLZ
from pbm.rules.round import resolve_round
from pbm.rules.sea_events import HomeIslands, ShipMoved
from pbm.rules.setup import place_setup, place_setup_automatic
from pbm.rules.sim import play_game
from pbm.rules.special import must_ship, setup_area_ok
from pbm.rules.state import GameState, Phase, Settings, new_game
from pbm.store import codec


def _after_setup(scenario: str, players: int = 4, seed: int = 3) -> GameState:
    for state, _ in play_game(Settings.for_scenario(scenario, players), seed, max_rounds=0):
        if state.phase == Phase.ROUNDS:
            return state
    raise AssertionError("setup did not end")


def _quiet(s: GameState) -> list[tuple[int, int]]:
    """Rolls (one per player) whose total pays nobody and is no 7."""
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        hexes = s.board.number_hexes.get(total, ())
        if all(all(s.owner[c] < 0 for c in s.board.hex_crossings[h]) for h in hexes):
            d1 = min(6, total - 1)
            return [(d1, total - d1)] * s.settings.players
    raise AssertionError("no quiet total")


def _sailor(s: GameState) -> int:
    """The first seat in build order that can build a ship."""
    return next(p for p in s.build_order() if LegalMoves(s, p).ships())


def _alone(s: GameState, p: int, o: TurnOrders) -> tuple[GameState, list]:
    orders: dict[int, TurnOrders | None] = {q: TurnOrders() for q in range(s.settings.players)}
    orders[p] = o
    return resolve_round(s, orders, Dice(_quiet(s)))


def test_setup_ends_with_home_islands_and_ships_on_must_coasts() -> None:
    s = new_game(Settings.for_scenario("vier-inseln", 4), 5)
    events: list = []
    while s.phase == Phase.SETUP:
        s, more = place_setup_automatic(s)
        events += more
    homes = [e for e in events if isinstance(e, HomeIslands)]
    assert [e.player for e in homes] == [0, 1, 2, 3]
    assert all(e.areas for e in homes)
    assert s.sea is not None and [tuple(h) for h in s.sea.home] == [e.areas for e in homes]
    # Every start settlement on a "must" coast took a ship, the others a road.
    ships = sum(1 for e in events if isinstance(e, Built) and e.piece == "ship")
    roads = sum(1 for e in events if isinstance(e, Built) and e.piece == "road")
    assert ships + roads == 8 and ships > 0


def test_setup_refuses_a_road_on_a_must_coast_and_a_site_off_the_start_islands() -> None:
    s = new_game(Settings.for_scenario("wueste", 4), 2)
    assert s.sea is not None
    legal = LegalMoves(s, 0)
    board = s.board
    coast = next(c for c in legal.sites() if must_ship(s, s.sea, c) and legal.setup_pieces(c))
    land = next(e for e in board.crossing_paths[coast] if board.path_land[e])
    ship = next(e for e, is_ship in legal.setup_pieces(coast) if is_ship)
    assert all(is_ship for _, is_ship in legal.setup_pieces(coast))
    new, events, placed = place_setup(s, SetupOrders((SetupPlacement(coast, land),)))
    assert not placed and events == [SetupFailed(0, 0, Reason.SHIP_REQUIRED)]
    new, events, placed = place_setup(s, SetupOrders((SetupPlacement(coast, ship, True),)))
    assert placed and new.sea is not None and new.sea.ship[ship] == 0
    # A crossing on land but off the start areas (beyond the desert, the islets).
    off = next(c for c in legal.sites() if not setup_area_ok(s, s.sea, c))
    assert legal.setup_pieces(off) == []
    e = board.crossing_paths[off][0]
    assert legal.problem(SetupPlacement(off, e)) == Reason.NOT_START_AREA


def test_second_setup_settlement_pays_gold_as_the_fewest_held() -> None:
    s = new_game(Settings.for_scenario("neue-ufer", 3), 1)
    board = s.board
    gold = next(h.id for h in board.hexes if h.terrain == Terrain.GOLD)
    # Put the last setup placement on a crossing next to a gold river (the test lifts the
    # start-area rule by placing directly through the automatic helper's own pieces).
    from pbm.rules import sea_setup

    assert s.sea is not None
    s.setup_step = 2 * 3 - 1
    s.hands[0] = [1, 1, 0, 1, 1]  # Wolle is the fewest held
    events: list = []
    c = board.hex_crossings[gold][0]
    sea_setup.gold_income(s, 0, c, events)
    assert events == [Produced(0, gold, 2, 1)]
    assert s.hands[0][2] == 1


def test_a_ship_is_built_at_its_place_in_the_build_order() -> None:
    s = _after_setup("vier-inseln")
    p = _sailor(s)
    legal = LegalMoves(s, p)
    e = legal.ships()[0]
    hand(s, p, "1H 1W")
    new, events = _alone(s, p, TurnOrders(builds=(Ship(e),)))
    assert Built(p, "ship", e, False) in events
    assert new.sea is not None and new.sea.ship[e] == p and new.sea.built[e] == s.round
    assert new.hands[p][HOLZ] == 0
    # Without the cards the line fails as any build does, naming the cards missing.
    new, events = _alone(s.copy(), p, TurnOrders(builds=(Ship(e), Ship(e))))
    failed = [x for x in events if isinstance(x, OrderFailed)]
    assert [(f.line, f.rule) for f in failed] == [("build 2", Reason.OCCUPIED)]


def test_the_front_ship_moves_once_a_round_and_never_when_built_this_round() -> None:
    s = _after_setup("vier-inseln")
    p = _sailor(s)
    e = LegalMoves(s, p).ships()[0]
    hand(s, p, "1H 1W")
    s, _ = _alone(s, p, TurnOrders(builds=(Ship(e),)))
    assert s.sea is not None
    built_now = LegalMoves(s, p).ship_moves()
    assert all(m.source != e or s.sea.built[e] != s.round for m in built_now)
    moves = [m for m in LegalMoves(s, p).ship_moves() if m.source == e]
    assert moves, "a lone ship off a settlement is the front of an open line"
    m, m2 = moves[0], moves[-1]
    new, events = _alone(s, p, TurnOrders(builds=(m, MoveShip(m.target, m2.target))))
    assert ShipMoved(p, m.source, m.target) in events
    failed = [x for x in events if isinstance(x, OrderFailed)]
    assert [f.rule for f in failed] == [Reason.ONE_SHIP_MOVE_PER_ROUND]
    assert new.sea is not None and new.sea.ship[m.target] == p and new.sea.ship[e] == -1


def test_road_building_places_ships() -> None:
    s = _after_setup("vier-inseln")
    p = _sailor(s)
    e = LegalMoves(s, p).ships()[0]
    s.cards[p].append(("road_building", 0))
    s.deck.remove("road_building")
    after = LegalMoves(s, p).after(Ship(e))
    second = next(x for x in after.ships() if x != e)
    new, events = _alone(s, p, TurnOrders(builds=(RoadBuilding(e, second, True, True),)))
    assert Built(p, "ship", e, True) in events and Built(p, "ship", second, True) in events
    assert new.hands[p] == s.hands[p]


def test_gold_pays_the_preference_through_the_round() -> None:
    s = _after_setup("neue-ufer", 3, 1)
    board = s.board
    gold = next(h for h in board.hexes if h.terrain == Terrain.GOLD)
    c = next(x for x in board.hex_crossings[gold.id] if board.crossing_land[x] and s.owner[x] < 0)
    s.owner[c], s.level[c] = 0, 2  # a city of seat 0 on the gold river
    s.rebuild_indexes()
    assert gold.number is not None
    d1 = min(6, gold.number - 1)
    rolls = [(d1, gold.number - d1)] * 3
    orders = {0: TurnOrders(gold=(ERZ,)), 1: TurnOrders(), 2: TurnOrders()}
    before = s.hands[0][ERZ]
    new, events = resolve_round(s, orders, Dice(rolls))
    paid = [e for e in events if isinstance(e, Produced) and e.hex == gold.id]
    assert paid and all(e.resource == ERZ and e.player == 0 for e in paid)
    assert new.hands[0][ERZ] - before >= 2 * 3 - sum(
        e.amount
        for e in events
        if isinstance(e, Produced) and e.player == 0 and e.hex != gold.id and e.resource == ERZ
    )


@pytest.mark.parametrize(
    "scenario", ["neue-ufer", "vier-inseln", "wueste", "neue-welt", "ueberfahrt"]
)
def test_every_listed_move_is_one_the_round_accepts(scenario: str) -> None:
    rng = random.Random(4)
    seen_moves = 0
    for state, _ in play_game(Settings.for_scenario(scenario, 3), 11, "random", max_rounds=30):
        if state.phase != Phase.ROUNDS or rng.random() < 0.7:
            continue
        for p in range(3):
            legal = LegalMoves(state, p)
            for order in legal:
                assert legal.problem(order) is None, order
                assert legal.certain_problem(order) is None, order
            for e in legal.ships():
                assert Ship(e) in legal
            seen_moves += len(legal.ship_moves())
    assert seen_moves > 0


def test_stored_orders_of_the_current_code_still_load() -> None:
    # An order set as pbm stored it before Seafarers (no gold, no ship flags).
    stored = (
        '[{"t":"TurnOrders","robber":{"t":"RobberOrder","hex":9,"victims":[1]},"discard":null,'
        '"knight":null,"monopoly":null,"trades":[],"builds":[{"t":"RoadBuilding","first":3,'
        '"second":4},{"t":"Road","path":7}],"substitutes":{"t":"SubstituteBlock","lines":[]}},'
        "null]"
    )
    loaded = codec.loads(stored)
    assert loaded[0].gold == () and loaded[0].builds[0] == RoadBuilding(3, 4)
    assert codec.dumps(loaded) == stored  # a base game's orders are stored exactly as before
    setup = '{"t":"SetupOrders","placements":[{"t":"SetupPlacement","crossing":5,"path":2}]}'
    assert codec.loads(setup) == SetupOrders((SetupPlacement(5, 2),))
    assert codec.dumps(codec.loads(setup)) == setup
    sea = TurnOrders(builds=(Ship(3), MoveShip(4, 5), RoadBuilding(1, 2, True)), gold=(4, 0))
    assert codec.loads(codec.dumps(sea)) == sea
    assert codec.loads(codec.dumps(SetupPlacement(1, 2, True))) == SetupPlacement(1, 2, True)
    assert codec.dumps(Road(1)) == '{"t":"Road","path":1}'


def test_the_log_names_ships_moves_special_vp_and_home_islands() -> None:
    from pbm.reports.describe import describe
    from pbm.rules.events import SetupPlaced
    from pbm.rules.sea_events import SpecialVP

    s = _after_setup("vier-inseln")
    assert s.sea is not None
    p = _sailor(s)
    e = LegalMoves(s, p).ships()[0]
    ship_at = next(x for x, q in enumerate(s.sea.ship) if q >= 0)
    c = s.settlements[p][0]
    lines = {
        lang: [
            describe(x, s, lang)
            for x in (
                Built(p, "ship", e, False),
                ShipMoved(p, ship_at, e),
                SpecialVP(p, c, 1, 2),
                HomeIslands(p, (1, 2)),
                SetupPlaced(s.sea.ship[ship_at], c, ship_at, False, 0),
            )
        ]
        for lang in ("de", "en")
    }
    assert lines["en"][0].endswith(f"builds a ship at {s.board.path_label(e)}")
    assert " moves a ship from " in lines["en"][1]
    # The island is named (issue 27): area 1 of the Four Islands is the north-west island.
    assert "+2 VP for the first settlement there (North-west island: " in lines["en"][2]
    assert lines["en"][3].endswith(
        "home islands (by the start settlements): North-west island, North-east island"
    )
    assert "+2 Sonderpunkte für die erste Siedlung dort (Nordwestinsel: " in lines["de"][2]
    assert ", ship " in lines["en"][4]
    assert "baut ein Schiff an" in lines["de"][0] and "versetzt ein Schiff" in lines["de"][1]
