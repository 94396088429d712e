"""Ships, the trade route, gold and special VP (issue 17, spec seafarers.md): worked cases on a
small two-island board."""

from __future__ import annotations

from pbm.rules.board import Board, HexSpec, Terrain
from pbm.rules.events import BankShort, Event, Produced
from pbm.rules.gold import GoldChoices
from pbm.rules.production import produce
from pbm.rules.reasons import Reason
from pbm.rules.resources import ERZ, GETREIDE, HOLZ, LEHM, WOLLE
from pbm.rules.route import trade_route_length
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.scenarios.data import Area, read_map
from pbm.rules.sea import MAX_SHIPS, SeaState, new_sea, sea_from_json
from pbm.rules.sea_events import ShipMoved, SpecialVP
from pbm.rules.ships import (
    movable_rule,
    movable_ships,
    move_rule,
    move_ship,
    place_ship,
    ship_rule,
    ship_sites,
)
from pbm.rules.special import earned, must_ship
from pbm.rules.state import GameState, Settings, new_game

# Island 1 (west, four hexes), island 2 (east, two hexes, one a gold river), sea between.
MAP = """
~ ~ ~ ~ ~ ~ ~ ~
 ~ 1 1 ~ ~ ~ 2 ~
~ 1 1 ~ ~ ~ 2 ~
 ~ ~ ~ ~ ~ ~ ~ ~
"""
GOLD_HEX = (2, 12)


def _board() -> Board:
    shape = read_map(MAP)
    specs = [HexSpec(r, x, Terrain.SEA) for r, x in shape.sea]
    for area, coords in shape.land.items():
        for r, x in coords:
            if (r, x) == GOLD_HEX:
                specs.append(HexSpec(r, x, Terrain.GOLD, None, 3, area=area))
            else:
                specs.append(HexSpec(r, x, Terrain.LAND, HOLZ, 5, area=area))
    return Board(specs, name="test", pirate_start=(2, 8))


BOARD = _board()
AT = {(h.row, h.x): h.id for h in BOARD.hexes}


def X(*coords: tuple[int, int]) -> int:
    return BOARD.crossing_id[tuple(sorted(AT[c] for c in coords))]


def P(a: tuple[int, int], b: tuple[int, int]) -> int:
    return BOARD.path_id[tuple(sorted((AT[a], AT[b])))]  # type: ignore[index]


# The east coast of island 1 and a ship line east from it, along row 1/2's sea.
HOME = X((1, 5), (2, 4), (2, 6))  # coast crossing of island 1
S1 = P((1, 5), (2, 6))  # coast side at HOME
C1 = X((1, 5), (1, 7), (2, 6))
S2 = P((1, 7), (2, 6))  # sea side after S1
C2 = X((1, 7), (2, 6), (2, 8))
S3 = P((2, 6), (2, 8))
FAR = P((1, 9), (2, 10))  # a sea side nowhere near the player


def _game() -> tuple[GameState, SeaState]:
    s = new_game(Settings.for_players(3), 1, board=BOARD)
    s.round = 3
    sea = new_sea(BOARD, "neue-ufer", 3, pirate=False)
    return s, sea


def _settle(s: GameState, p: int, c: int, city: bool = False) -> None:
    s.owner[c] = p
    s.level[c] = 2 if city else 1
    (s.cities if city else s.settlements)[p].append(c)


def _ship(s: GameState, sea: SeaState, p: int, e: int, built: int = 1) -> None:
    events: list[Event] = []
    r = s.round
    s.round = built
    place_ship(s, sea, p, e, events, free=True)
    s.round = r


def test_a_ship_touches_an_own_building_or_ship() -> None:
    s, sea = _game()
    s.hands[0] = [1, 0, 1, 0, 0]
    assert ship_rule(s, sea, 0, S1) is Reason.SHIP_NOT_CONNECTED
    _settle(s, 0, HOME)
    assert ship_rule(s, sea, 0, S1) is None
    assert ship_rule(s, sea, 0, S2) is Reason.SHIP_NOT_CONNECTED
    _ship(s, sea, 0, S1)
    assert ship_rule(s, sea, 0, S2) is None  # continues its own ship
    assert ship_rule(s, sea, 0, FAR) is Reason.SHIP_NOT_CONNECTED
    assert ship_rule(s, sea, 1, S2) is Reason.SHIP_NOT_CONNECTED  # another's ship is no help
    inland = P((1, 3), (2, 4))
    assert ship_rule(s, sea, 0, inland) is Reason.NOT_SEA
    s.hands[0] = [0, 0, 1, 0, 0]
    assert ship_rule(s, sea, 0, S2) is Reason.CANNOT_AFFORD
    assert ship_rule(s, sea, 0, S2, check_cost=False) is None


def test_roads_and_ships_join_only_at_an_own_building() -> None:
    s, sea = _game()
    # A road of seat 0 ends at the coast crossing C0 with no building: no ship from there.
    c0 = X((1, 5), (0, 4), (0, 6))
    road = P((1, 5), (0, 4))
    s.road[road] = 0
    s.roads[0].append(road)
    coast = P((1, 5), (0, 6))
    assert c0 in BOARD.path_crossings[coast]
    assert ship_rule(s, sea, 0, coast, check_cost=False) is Reason.SHIP_NOT_CONNECTED
    _settle(s, 0, c0)
    assert ship_rule(s, sea, 0, coast, check_cost=False) is None


def test_a_side_holds_a_road_or_a_ship_and_the_pirate_blocks() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    s.road[S1] = 1
    assert ship_rule(s, sea, 0, S1, check_cost=False) is Reason.OCCUPIED
    s.road[S1] = -1
    sea.pirate = AT[(2, 6)]
    assert ship_rule(s, sea, 0, S1, check_cost=False) is Reason.NEXT_TO_PIRATE


def test_fifteen_ships() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    sea.ships[0] = list(range(100, 100 + MAX_SHIPS))
    assert ship_rule(s, sea, 0, S1, check_cost=False) is Reason.NO_PIECES_LEFT


def test_only_the_front_ship_of_an_open_line_moves() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    _ship(s, sea, 0, S1)
    _ship(s, sea, 0, S2)
    assert movable_rule(s, sea, 0, S1) is Reason.SHIP_LINE_CLOSED
    assert movable_rule(s, sea, 0, S2) is None
    assert movable_rule(s, sea, 1, S2) is Reason.NOT_OWN_SHIP
    assert movable_ships(s, sea, 0) == [S2]
    # The front ship may go wherever a new ship could, but not where only it connected.
    assert move_rule(s, sea, 0, S2, S3) is Reason.SHIP_NOT_CONNECTED
    other = P((1, 5), (1, 7))  # at C1, the far end of S1
    assert move_rule(s, sea, 0, S2, other) is None
    assert S3 not in ship_sites(s, sea, 0, without=S2)
    events: list[Event] = []
    move_ship(s, sea, 0, S2, other, events)
    assert events == [ShipMoved(0, S2, other)]
    assert sea.ship[S2] == -1 and sea.ship[other] == 0
    # One move a round; the moved ship cannot move again this round.
    assert movable_rule(s, sea, 0, other) is Reason.ONE_SHIP_MOVE_PER_ROUND
    s.round += 1
    assert movable_rule(s, sea, 0, other) is None


def test_no_move_of_a_ship_built_this_round_or_next_to_the_pirate() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    _ship(s, sea, 0, S1)
    _ship(s, sea, 0, S2, built=s.round)
    assert movable_rule(s, sea, 0, S2) is Reason.SHIP_BUILT_THIS_ROUND
    s.round += 1
    assert movable_rule(s, sea, 0, S2) is None
    sea.pirate = AT[(1, 7)]
    assert movable_rule(s, sea, 0, S2) is Reason.SHIP_HELD_BY_PIRATE
    sea.pirate = AT[(1, 9)]  # not next to S2, but next to a target
    assert move_rule(s, sea, 0, S2, P((1, 7), (1, 9))) is Reason.NEXT_TO_PIRATE


def test_a_closed_line_between_two_own_buildings_stays() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    _ship(s, sea, 0, S1)
    _ship(s, sea, 0, S2)
    _settle(s, 0, C2)  # the line now ends at an own building at both ends
    assert movable_ships(s, sea, 0) == []
    assert movable_rule(s, sea, 0, S2) is Reason.SHIP_LINE_CLOSED


def test_trade_route_joins_roads_and_ships_only_at_own_buildings() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    west = [P((2, 4), (1, 5)), P((1, 3), (1, 5))]  # two roads from HOME inland
    for e in west:
        s.road[e] = 0
        s.roads[0].append(e)
    _ship(s, sea, 0, S1)
    _ship(s, sea, 0, S2)
    _ship(s, sea, 0, S3)
    assert trade_route_length(s, sea, 0) == 5
    # Without the building between them, roads and ships do not join.
    s.owner[HOME], s.level[HOME] = -1, 0
    s.settlements[0].remove(HOME)
    assert trade_route_length(s, sea, 0) == 3
    # An opponent's building cuts the ship line.
    _settle(s, 1, C1)
    assert trade_route_length(s, sea, 0) == 2


def test_gold_pays_the_preference_left_to_right_and_repeating() -> None:
    s, _ = _game()
    gold = AT[GOLD_HEX]
    c_city, c_settlement = BOARD.hex_crossings[gold][0], BOARD.hex_crossings[gold][3]
    _settle(s, 0, c_city, city=True)
    _settle(s, 1, c_settlement)
    choices = GoldChoices({0: (ERZ, GETREIDE, WOLLE)})
    events: list[Event] = []
    produce(s, 3, events, choices)
    assert s.hands[0] == [0, 0, 0, 1, 1]
    # Seat 1 sent no preference: the resource it holds fewest of (ties H L W G E).
    assert s.hands[1] == [1, 0, 0, 0, 0]
    produce(s, 3, events, choices)  # the same round: the preference carries on
    assert s.hands[0] == [0, 0, 1, 1, 2]  # W, then E again
    assert s.hands[1] == [1, 1, 0, 0, 0]
    assert Produced(0, gold, ERZ, 1) in events


def test_gold_obeys_the_bank_shortage_rule() -> None:
    s, _ = _game()
    assert s.bank is not None
    gold = AT[GOLD_HEX]
    _settle(s, 0, BOARD.hex_crossings[gold][0], city=True)
    _settle(s, 1, BOARD.hex_crossings[gold][3])
    s.bank[ERZ] = 2
    events: list[Event] = []
    produce(s, 3, events, GoldChoices({0: (ERZ,), 1: (ERZ,)}))
    # Three ore owed by two players, two in the bank: nobody gets ore.
    assert s.hands[0][ERZ] == s.hands[1][ERZ] == 0
    assert BankShort(ERZ, 3, 2, -1) in events
    events = []
    s.owner[BOARD.hex_crossings[gold][3]] = -1
    produce(s, 3, events, GoldChoices({0: (ERZ,)}))
    assert s.hands[0][ERZ] == 2 and s.bank[ERZ] == 0


def test_gold_default_counts_the_cards_of_this_payout() -> None:
    s, _ = _game()
    gold = AT[GOLD_HEX]
    _settle(s, 0, BOARD.hex_crossings[gold][0], city=True)
    s.hands[0] = [2, 2, 0, 1, 0]
    produce(s, 3, [], GoldChoices())
    assert s.hands[0] == [2, 2, 1, 1, 1]


def test_special_vp_per_scenario() -> None:
    sea = new_sea(BOARD, "neue-ufer", 3)
    info = {1: Area("a", "a", "", start=True), 2: Area("b", "b", "", bonus=True)}
    shores = SCENARIOS["neue-ufer"]
    assert earned(shores, info, sea, 0, (1,)) == []
    assert earned(shores, info, sea, 0, (2,)) == [(2, 1)]
    sea.specials[0].append((5, 2, 1))
    assert earned(shores, info, sea, 0, (2,)) == []  # only the first settlement there
    assert earned(shores, info, sea, 1, (2,)) == [(2, 1)]  # whoever else is there
    four = SCENARIOS["vier-inseln"]
    isles = {a: Area(str(a), str(a), "", start=True) for a in (1, 2, 3, 4)}
    sea = new_sea(BOARD, "vier-inseln", 3)
    sea.home[0] = (1, 2)
    assert earned(four, isles, sea, 0, (2,)) == []
    assert earned(four, isles, sea, 0, (3,)) == [(3, 1)]
    sea.specials[0].append((9, 3, 1))
    assert earned(four, isles, sea, 0, (4,)) == [(4, 2)]
    world = SCENARIOS["neue-welt"]
    assert earned(world, isles, sea, 0, (4,)) == [(4, 1)]
    assert SpecialVP(0, 9, 3, 1).to_json()["kind"] == "special_vp"


def test_must_ship_coasts_face_other_islands_not_the_frame() -> None:
    s, sea = _game()
    sea = new_sea(BOARD, "vier-inseln", 3)
    assert must_ship(s, sea, HOME)  # touches the inner sea (2, 6)
    frame_coast = X((1, 3), (0, 2), (0, 4))
    assert not must_ship(s, sea, frame_coast)
    assert not must_ship(s, new_sea(BOARD, "neue-ufer", 3), HOME)  # "should" is advice


def test_sea_state_round_trip() -> None:
    s, sea = _game()
    _settle(s, 0, HOME)
    _ship(s, sea, 0, S1)
    sea.moved[0] = 2
    sea.home[0] = (1,)
    sea.specials[0].append((HOME, 2, 1))
    back = sea_from_json(sea.to_json(), BOARD, 3)
    assert back == sea and back.ships == sea.ships
    copy = sea.copy()
    copy.ship[S2] = 1
    assert sea.ship[S2] == -1
    assert sum(1 for e in range(len(BOARD.path_hexes)) if BOARD.path_sea[e]) > 0
    assert (LEHM, WOLLE) == (1, 2)


def test_a_settlement_where_the_ship_line_reaches_land_and_its_special_vp() -> None:
    from pbm.rules.building import place_settlement, road_rule, settlement_rule
    from pbm.rules.state import Phase

    s = new_game(Settings.for_scenario("neue-ufer", 3), 1, board=BOARD)
    s.phase, s.round = Phase.ROUNDS, 3
    assert s.sea is not None
    sea = s.sea
    sea.pirate = -1
    _settle(s, 0, HOME)
    line = [S1, S2, P((1, 7), (2, 8)), P((2, 8), (1, 9)), P((1, 9), (2, 10)), P((2, 10), (1, 11))]
    for e in line:
        assert ship_rule(s, sea, 0, e, check_cost=False) is None, e
        _ship(s, sea, 0, e)
    landing = X((1, 11), (2, 10), (2, 12))  # island 2, next to the gold river
    s.hands[0] = [1, 1, 1, 1, 0]
    assert settlement_rule(s, 0, landing) is None
    assert settlement_rule(s, 1, landing) is Reason.SETTLEMENT_NOT_REACHED
    assert road_rule(s, 1, S1, check_cost=False) is Reason.OCCUPIED  # the side holds a ship
    events: list[Event] = []
    place_settlement(s, 0, landing, events, free=False)
    # Area 2 is a bonus islet in New Shores: +1 VP.
    assert SpecialVP(0, landing, 2, 1) in events
    # Two settlements, the special VP, and the trade route of six ships (the title).
    assert s.visible_vp(0) == 5 and s.longest_road == 0
    # The line now runs between two own buildings: closed, nothing moves.
    assert movable_ships(s, sea, 0) == []
    # The trade route counts the six ships.
    assert s.road_lengths[0] == 6
