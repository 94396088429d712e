"""Every refusal names what the rule needs (issue 27): each reason of the rules is given by a
real check of the order it refuses, in the game kind it belongs to, and its texts, in every
language, fit that order: a ship refused speaks of ships (not of roads alone), a settlement of
its crossing, the robber of the robber. The texts checked are the report's (`RULES`, in the
line `describe` writes for the failed order) and the answer's at receipt (`RECEIPT`).

The notation's refusals that name a rule (ships only in Seafarers, the robber never at sea, …)
are triggered by mail lines, in both languages, the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from helpers import Dice, game, settle
from kron_fixtures import free_crossing, kron_game, settle_at

from pbm.notation import Context, OrderError, parse_mail
from pbm.notation.lines import parse_line
from pbm.notation.messages import receipt_text
from pbm.reports.describe import describe, rule_text
from pbm.rules import events as ev
from pbm.rules.board import Terrain
from pbm.rules.building import place_road, settlement_site_rule
from pbm.rules.kron import BAECKEREI, SCHMIEDE
from pbm.rules.layouts import MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from pbm.rules.legal import LegalMoves, action_rule
from pbm.rules.orders import (
    BuyCard,
    Castle,
    City,
    Make,
    MaritimeTrade,
    Monopoly,
    MoveShip,
    Residence,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    Ship,
    TradeOffer,
    TurnOrders,
    Workshop,
    YearOfPlenty,
    action_code,
)
from pbm.rules.pirate import hex_sides
from pbm.rules.reasons import Reason, specific
from pbm.rules.resources import BROT, HOLZ, WERKZEUG
from pbm.rules.round import resolve_round
from pbm.rules.ships import place_ship
from pbm.rules.state import GameState, Phase, Settings, new_game

LANGS = ("de", "en")

#: What a text is about, by language: a refusal must name the thing its rule is about.
TOPICS: dict[str, tuple[str, str]] = {
    "ship": (r"Schiff", r"\bship"),
    "road": (r"Straße", r"\broad"),
    "path": (r"Straße|Weg|Kante", r"road|path|side"),
    "settlement": (r"Siedlung", r"settlement"),
    "crossing": (r"Kreuzung", r"crossing"),
    "land": (r"Land", r"land"),
    "sea": (r"Meer", r"sea"),
    "taken": (r"besetzt", r"taken"),
    "robber": (r"Räuber", r"robber"),
    "pirate": (r"Pirat", r"pirate"),
    "number": (r"Zahl", r"number"),
    "card": (r"[Kk]arte", r"card"),
    "round": (r"Runde", r"round"),
    "bank": (r"Bank", r"bank"),
    "trade": (r"Handel|Rohstoff|Geschenk|Gleiches|selbst", r"trade|resource|gift|like|yourself"),
    "player": (r"Farbe|Spiel|Partner", r"player|partner"),
    "rate": (r"[Kk]urs", r"rate"),
    "resource": (r"Rohstoff", r"resource"),
    "distance": (r"Abstand", r"distance"),
    "pieces": (r"Figuren", r"pieces"),
    "piece": (r"Stück", r"piece"),
    "newcomer": (r"Neuling", r"newcomer"),
    "fog": (r"Nebel", r"fog"),
    "start": (r"Start", r"start"),
    "island": (r"Insel", r"island"),
    "seafarers": (r"Seefahrer", r"Seafarers"),
    "kronlande": (r"Kronlande", r"Kronlande"),
    "building": (r"Gebäude|Siedlung oder Stadt", r"building|settlement or city"),
    "workshop": (r"Werkstatt", r"workshop"),
    "good": (r"Ware", r"good"),
    "city": (r"Stadt", r"city"),
    "castle": (r"Burg", r"castle"),
    "goods": (r"Waren", r"goods"),
    "line": (r"Linie", r"line"),
}


@dataclass
class Case:
    """The order a rule refuses, on the state it refuses it in, with what its texts must
    name (`about`) and must not (`not_about`)."""

    state: GameState
    order: object
    about: tuple[str, ...]
    not_about: tuple[str, ...] = ()
    seat: int = 0
    #: How the rule is asked: the legal-move view (as the resolution checks, cost aside), the
    #: build's own check with its cost, or the events of a resolved round.
    ask: str = "view"
    #: The other seats' orders in that round ("round"), by seat.
    others: tuple[tuple[int, TurnOrders], ...] = ()


# -- states ------------------------------------------------------------------------------------


def _sea(scenario: str = "vier-inseln", seed: int = 1) -> GameState:
    """A Seafarers game in round 1 with nothing on the board."""
    s = new_game(Settings.for_scenario(scenario, 4), seed)
    s.phase, s.round, s.setup_step = Phase.ROUNDS, 1, 8
    return s


def _sea_setup(scenario: str = "vier-inseln", seed: int = 1) -> GameState:
    return new_game(Settings.for_scenario(scenario, 4), seed)


def _land_crossing(s: GameState, far_from: tuple[int, ...] = ()) -> int:
    """A free land crossing where a settlement may stand, touching no path of `far_from`."""
    b = s.board
    for c in range(len(b.crossing_hexes)):
        if settlement_site_rule(s, c) is None and not set(b.crossing_paths[c]) & set(far_from):
            return c
    raise AssertionError("no free crossing")


def _coast(s: GameState, seat: int = 0) -> tuple[int, int]:
    """A free coastal site and a free sea side at it: (crossing, path), the pirate's sides
    left out."""
    b = s.board
    sea = s.sea
    assert sea is not None
    near = set(hex_sides(s, sea.pirate)) if sea.pirate >= 0 else set()
    for c in range(len(b.crossing_hexes)):
        if settlement_site_rule(s, c) is not None:
            continue
        for e in b.crossing_paths[c]:
            if b.path_sea[e] and e not in near and sea.ship[e] < 0 and s.road[e] < 0:
                return c, e
    raise AssertionError("no coast")


def _own_ship(s: GameState, built: int = 0) -> tuple[int, int]:
    """Seat 0's settlement on a coast with one ship from it (built in round `built`): the
    front of an open line. Returns (crossing, ship's path)."""
    c, e = _coast(s)
    settle(s, 0, s.board.crossing_label(c))
    assert s.sea is not None
    place_ship(s, s.sea, 0, e, [], free=True)
    s.sea.built[e] = built
    return c, e


def _other_sea_side(s: GameState, *not_these: int) -> int:
    b, sea = s.board, s.sea
    assert sea is not None
    near = set(hex_sides(s, sea.pirate))
    return next(
        e
        for e in range(len(b.path_hexes))
        if b.path_sea[e] and sea.ship[e] < 0 and e not in not_these and e not in near
    )


def _land_path(s: GameState) -> int:
    b = s.board
    return next(e for e in range(len(b.path_hexes)) if b.path_land[e] and s.road[e] < 0)


def _number_hex(s: GameState) -> int:
    return next(
        h.id for h in s.board.hexes if h.is_land and h.number is not None and h.id != s.robber
    )


def _sea_hex(s: GameState) -> int:
    return next(h.id for h in s.board.hexes if h.terrain == Terrain.SEA)


# -- the cases, one a reason -------------------------------------------------------------------


def _not_land() -> Case:
    """A road between two sea hexes (a Seafarers board: every path of the base board touches
    land)."""
    s = _sea()
    b = s.board
    e = next(e for e in range(len(b.path_hexes)) if not b.path_land[e])
    return Case(s, Road(e), ("land",))


def _occupied() -> Case:
    s = game()
    c = _land_crossing(s)
    settle(s, 1, s.board.crossing_label(c))
    return Case(s, Settlement(c), ("taken",))


def _distance() -> Case:
    s = game()
    c = _land_crossing(s)
    settle(s, 1, s.board.crossing_label(c))
    n = next(n for n in s.board.crossing_neighbors[c] if s.board.crossing_land[n])
    return Case(s, Settlement(n), ("distance",))


def _road_not_connected() -> Case:
    s = game()
    return Case(s, Road(_land_path(s)), ("road",), ("ship", "settlement"))


def _road_not_connected_at_sea() -> Case:
    """Seafarers: a road where only a ship of the player's touches it."""
    s = _sea()
    c, e = _own_ship(s)
    b = s.board
    end = next(x for x in b.path_crossings[e] if x != c)
    road = next(f for f in b.crossing_paths[end] if b.path_land[f] and s.road[f] < 0)
    assert c not in b.path_crossings[road]
    return Case(s, Road(road), ("road",), ("settlement",))


def _settlement_not_connected() -> Case:
    s = game()
    return Case(s, Settlement(_land_crossing(s)), ("crossing", "road"), ("ship",))


def _settlement_not_reached() -> Case:
    s = _sea()
    return Case(s, Settlement(_land_crossing(s)), ("crossing", "road", "ship"))


def _no_pieces_left() -> Case:
    s = game()
    for _ in range(4):
        c = _land_crossing(s)
        settle(s, 0, s.board.crossing_label(c), city=True)
    c = _land_crossing(s)
    settle(s, 0, s.board.crossing_label(c))
    return Case(s, City(c), ("pieces",))


def _cannot_afford() -> Case:
    s = game()
    c = _land_crossing(s)
    settle(s, 0, s.board.crossing_label(c))
    return Case(s, City(c), ("card",), ask="cost")


def _not_own_settlement() -> Case:
    s = game()
    return Case(s, City(_land_crossing(s)), ("settlement",))


def _setup_base() -> GameState:
    return new_game(Settings.for_players(4), 1)


def _road_not_at_settlement() -> Case:
    s = _setup_base()
    c = _land_crossing(s)
    away = next(e for e in range(len(s.board.path_hexes)) if e not in s.board.crossing_paths[c])
    return Case(s, SetupPlacement(c, away), ("road", "settlement"), ("ship",))


def _road_occupied() -> Case:
    s = _setup_base()
    b = s.board
    c = _land_crossing(s)
    e = next(e for e in b.crossing_paths[c] if b.path_land[e])
    place_road(s, 1, e, [], free=True)
    return Case(s, SetupPlacement(c, e), ("path",), ("ship",))


def _road_not_on_land() -> Case:
    """A setup road between two sea hexes (a Seafarers board: every path of the base board
    touches land), at a coast that does not need a ship."""
    from pbm.rules.special import must_ship

    s = _sea_setup()
    assert s.sea is not None
    b = s.board
    legal = LegalMoves(s, 0)
    c = next(
        c
        for c in legal.sites()
        if legal.setup_pieces(c)
        and not must_ship(s, s.sea, c)
        and any(not b.path_land[e] for e in b.crossing_paths[c])
    )
    e = next(e for e in b.crossing_paths[c] if not b.path_land[e])
    return Case(s, SetupPlacement(c, e), ("land",), ("ship",))


def _sea_site(s: GameState) -> int:
    """A setup site of the scenario's start area that takes a ship."""
    legal = LegalMoves(s, 0)
    return next(c for c in legal.sites() if any(ship for _, ship in legal.setup_pieces(c)))


def _ship_not_at_settlement() -> Case:
    s = _sea_setup()
    c = _sea_site(s)
    b = s.board
    away = next(
        e for e in range(len(b.path_hexes)) if b.path_sea[e] and e not in b.crossing_paths[c]
    )
    return Case(s, SetupPlacement(c, away, True), ("ship", "settlement"), ("road",))


def _ship_side_occupied() -> Case:
    s = _sea_setup()
    c = _sea_site(s)
    e = next(e for e, ship in LegalMoves(s, 0).setup_pieces(c) if ship)
    assert s.sea is not None
    s.sea.ship[e] = 1
    s.sea.rebuild(4)
    return Case(s, SetupPlacement(c, e, True), ("taken",), ("road",))


def _robber_must_move() -> Case:
    s = game()
    return Case(s, RobberOrder(s.robber, (1,)), ("robber",))


def _robber_not_on_number() -> Case:
    s = game()
    return Case(s, RobberOrder(_sea_hex(s), (1,)), ("robber", "number"))


def _newcomer_protection() -> Case:
    s = game(newcomer_protection=True)
    h = _number_hex(s)
    c = s.board.hex_crossings[h][0]
    settle(s, 1, s.board.crossing_label(c))
    return Case(s, RobberOrder(h, (1,)), ("newcomer",))


def _no_robber_order() -> Case:
    return Case(game(), TurnOrders(), ("robber",), ask="round7")


def _card(card: str, round_: int = 0) -> GameState:
    s = game()
    s.cards[0].append((card, round_))
    return s


def _card_not_held() -> Case:
    return Case(game(), Monopoly(0), ("card",))


def _card_bought_this_round() -> Case:
    return Case(_card(MONOPOLY, 1), Monopoly(0), ("card", "round"))


def _one_card_per_round() -> Case:
    s = _card(MONOPOLY)
    s.last_card_round[0] = s.round
    return Case(s, Monopoly(0), ("card", "round"))


def _deck_empty() -> Case:
    s = game()
    s.deck = []
    return Case(s, BuyCard(), ("card",))


def _bank_empty() -> Case:
    s = _card(YEAR_OF_PLENTY)
    assert s.bank is not None
    s.bank[0] = s.bank[1] = 0
    return Case(s, YearOfPlenty(0, 1), ("bank",))


def _no_legal_road() -> Case:
    s = _card(ROAD_BUILDING)
    return Case(s, RoadBuilding(_land_path(s)), ("piece",))


_ONE = (1, 0, 0, 0, 0)
_NONE = (0, 0, 0, 0, 0)


def _no_gifts() -> Case:
    return Case(game(), TradeOffer(1, _NONE, _ONE), ("trade",))


def _like_for_like() -> Case:
    return Case(game(), TradeOffer(1, _ONE, _ONE), ("trade",))


def _trade_with_self() -> Case:
    return Case(game(), TradeOffer(0, _ONE, (0, 1, 0, 0, 0)), ("trade",))


def _no_such_player() -> Case:
    return Case(game(), TradeOffer(7, _ONE, (0, 1, 0, 0, 0)), ("player",))


def _not_confirmed() -> Case:
    s = game()
    s.hands[0] = [1, 0, 0, 0, 0]
    return Case(
        s, TurnOrders(trades=(TradeOffer(1, _ONE, (0, 1, 0, 0, 0)),)), ("player",), ask="round"
    )


def _terms_differ() -> Case:
    s = game()
    s.hands[0] = [1, 0, 0, 0, 0]
    s.hands[1] = [0, 2, 0, 0, 0]
    counter = TurnOrders(trades=(TradeOffer(0, (0, 2, 0, 0, 0), _ONE),))
    return Case(
        s,
        TurnOrders(trades=(TradeOffer(1, _ONE, (0, 1, 0, 0, 0)),)),
        ("player",),
        ask="round",
        others=((1, counter),),
    )


def _cards_not_held() -> Case:
    return Case(game(), MaritimeTrade(0, 4, 1, 1), ("card",), ask="cost")


def _below_rate() -> Case:
    return Case(game(), MaritimeTrade(0, 3, 1, 1), ("rate",))


def _pirate_on_harbour() -> Case:
    """Seat 0's settlement at a 3:1 harbour, the pirate on it, a trade at 3:1."""
    from rules_fixtures import pirate_on_own_harbour

    s = _sea()
    pirate_on_own_harbour(s)
    s.hands[0] = [3, 0, 0, 0, 0]
    return Case(s, MaritimeTrade(0, 3, 4, 1), ("pirate",))


def _same_resource() -> Case:
    return Case(game(), MaritimeTrade(0, 4, 0, 1), ("resource",))


def _not_sea() -> Case:
    s = _sea()
    b = s.board
    inland = next(e for e in range(len(b.path_hexes)) if b.path_land[e] and not b.path_sea[e])
    return Case(s, Ship(inland), ("sea",))


def _no_ships() -> Case:
    s = game()
    return Case(s, Ship(0), ("ship", "seafarers"), ("road",))


def _ship_not_connected() -> Case:
    """The tester's ship: at the far end of a road of the player's, where no building of the
    player's stands."""
    s = _sea()
    b = s.board
    for c in range(len(b.crossing_hexes)):
        if settlement_site_rule(s, c) is not None:
            continue
        for r in b.crossing_paths[c]:
            if not b.path_land[r]:
                continue
            end = next(x for x in b.path_crossings[r] if x != c)
            coast = [
                e
                for e in b.crossing_paths[end]
                if b.path_sea[e] and e not in hex_sides(s, s.sea.pirate)  # type: ignore[union-attr]
            ]
            if coast:
                settle(s, 0, b.crossing_label(c))
                place_road(s, 0, r, [], free=True)
                return Case(s, Ship(coast[0]), ("ship",))
    raise AssertionError("no road to a coast")


def _ship_same_place() -> Case:
    s = _sea()
    _, e = _own_ship(s)
    return Case(s, MoveShip(e, e), ("ship",))


def _ship_held_by_pirate() -> Case:
    s = _sea()
    assert s.sea is not None
    side = next(e for e in hex_sides(s, s.sea.pirate) if s.board.path_sea[e])
    s.sea.ship[side] = 0
    s.sea.built[side] = 0
    s.sea.rebuild(4)
    return Case(s, MoveShip(side, _other_sea_side(s, side)), ("ship", "pirate"))


def _unexplored() -> Case:
    s = _sea("ozeanien")
    b = s.board
    c = next(c for c in range(len(b.crossing_hexes)) if b.crossing_fog[c])
    return Case(s, Settlement(c), ("fog",))


def _next_to_pirate() -> Case:
    s = _sea()
    assert s.sea is not None
    side = next(e for e in hex_sides(s, s.sea.pirate) if s.board.path_sea[e])
    return Case(s, Ship(side), ("pirate",))


def _no_pirate() -> Case:
    s = _sea()
    assert s.sea is not None
    s.sea.pirate = -1
    return Case(s, RobberOrder(_sea_hex(s), (), True), ("pirate",))


def _pirate_not_on_sea() -> Case:
    s = _sea()
    return Case(s, RobberOrder(_number_hex(s), (), True), ("sea",))


def _pirate_must_move() -> Case:
    s = _sea()
    assert s.sea is not None
    return Case(s, RobberOrder(s.sea.pirate, (), True), ("pirate",))


def _not_own_ship() -> Case:
    s = _sea()
    e = _other_sea_side(s)
    return Case(s, MoveShip(e, _other_sea_side(s, e)), ("ship",))


def _ship_line_closed() -> Case:
    s = _sea()
    c, e = _own_ship(s)
    b = s.board
    assert s.sea is not None
    end = next(x for x in b.path_crossings[e] if x != c)
    near = set(hex_sides(s, s.sea.pirate))
    onward = next(f for f in b.crossing_paths[end] if f != e and b.path_sea[f] and f not in near)
    place_ship(s, s.sea, 0, onward, [], free=True)
    s.sea.built[onward] = 0
    return Case(s, MoveShip(e, _other_sea_side(s, e, onward)), ("ship", "line"))


def _ship_built_this_round() -> Case:
    s = _sea()
    _, e = _own_ship(s, built=1)
    return Case(s, MoveShip(e, _other_sea_side(s, e)), ("ship", "round"))


def _one_ship_move_per_round() -> Case:
    s = _sea()
    _, e = _own_ship(s)
    assert s.sea is not None
    s.sea.moved[0] = s.round
    return Case(s, MoveShip(e, _other_sea_side(s, e)), ("ship", "round"))


def _not_start_area() -> Case:
    s = _sea_setup("wueste", 2)
    assert s.sea is not None
    from pbm.rules.special import setup_area_ok

    legal = LegalMoves(s, 0)
    off = next(c for c in legal.sites() if not setup_area_ok(s, s.sea, c))
    return Case(s, SetupPlacement(off, s.board.crossing_paths[off][0]), ("start",))


def _ship_required() -> Case:
    s = _sea_setup("wueste", 2)
    assert s.sea is not None
    from pbm.rules.special import must_ship

    legal = LegalMoves(s, 0)
    coast = next(c for c in legal.sites() if must_ship(s, s.sea, c) and legal.setup_pieces(c))
    land = next(e for e in s.board.crossing_paths[coast] if s.board.path_land[e])
    return Case(s, SetupPlacement(coast, land), ("ship",))


def _other_start_island() -> Case:
    from pbm.rules.setup import place_setup_automatic

    s = _sea_setup("ueberfahrt", 3)
    for _ in range(4):
        s, _events = place_setup_automatic(s)
    home = s.board.crossing_areas[s.settlements[3][0]]
    other = 2 if home == (1,) else 1
    b = s.board
    c = next(
        c
        for c in range(len(b.crossing_hexes))
        if b.crossing_areas[c] == (other,) and settlement_site_rule(s, c) is None
    )
    return Case(s, SetupPlacement(c, b.crossing_paths[c][0]), ("island",), seat=3)


def _kron() -> GameState:
    return kron_game()


def _land_hex(s: GameState, n: int = 0) -> int:
    return [h.id for h in s.board.hexes if h.is_land and h.number is not None][n]


def _not_kronlande() -> Case:
    s = game()
    c = _land_crossing(s)
    settle(s, 0, s.board.crossing_label(c))
    return Case(s, Workshop(SCHMIEDE, c), ("kronlande",))


def _not_own_building() -> Case:
    s = _kron()
    return Case(s, Workshop(SCHMIEDE, free_crossing(s, _land_hex(s))), ("building",))


def _workshop_on_building() -> Case:
    s = _kron()
    c = settle_at(s, 0, free_crossing(s, _land_hex(s)))
    assert s.kron is not None
    from pbm.rules.workshops import place_workshop

    place_workshop(s, 0, Workshop(SCHMIEDE, c), [], free=True)
    return Case(s, Workshop(BAECKEREI, c), ("workshop",))


def _workshop_kind_held() -> Case:
    s = _kron()
    c = settle_at(s, 0, free_crossing(s, _land_hex(s)))
    far = _land_hex(s, -1)
    d = settle_at(s, 0, free_crossing(s, far))
    from pbm.rules.workshops import place_workshop

    place_workshop(s, 0, Workshop(SCHMIEDE, c), [], free=True)
    return Case(s, Workshop(SCHMIEDE, d), ("workshop",))


def _no_workshop() -> Case:
    return Case(_kron(), Make(BROT, 1), ("workshop",))


def _not_a_good() -> Case:
    return Case(_kron(), Make(HOLZ, 1), ("good",))


def _not_own_city() -> Case:
    s = _kron()
    c = settle_at(s, 0, free_crossing(s, _land_hex(s)))
    return Case(s, Castle(c), ("city",))


def _not_own_castle() -> Case:
    s = _kron()
    c = settle_at(s, 0, free_crossing(s, _land_hex(s)), level=2)
    return Case(s, Residence(c), ("castle",))


def _robber_next_to_castle() -> Case:
    s = _kron()
    h = next(x for x in s.board.robber_hexes if x != s.robber)
    settle_at(s, 1, free_crossing(s, h), level=3)
    return Case(s, RobberOrder(h, (1,)), ("castle",))


def _goods_not_with_bank() -> Case:
    return Case(_kron(), MaritimeTrade(WERKZEUG, 4, HOLZ, 1), ("goods",))


CASES: dict[Reason, Callable[[], Case]] = {
    Reason.NOT_LAND: _not_land,
    Reason.OCCUPIED: _occupied,
    Reason.DISTANCE_RULE: _distance,
    Reason.NOT_CONNECTED: _road_not_connected,
    Reason.SETTLEMENT_NOT_CONNECTED: _settlement_not_connected,
    Reason.SETTLEMENT_NOT_REACHED: _settlement_not_reached,
    Reason.NO_PIECES_LEFT: _no_pieces_left,
    Reason.CANNOT_AFFORD: _cannot_afford,
    Reason.NOT_OWN_SETTLEMENT: _not_own_settlement,
    Reason.ROAD_NOT_AT_SETTLEMENT: _road_not_at_settlement,
    Reason.ROAD_OCCUPIED: _road_occupied,
    Reason.ROAD_NOT_ON_LAND: _road_not_on_land,
    Reason.SHIP_NOT_AT_SETTLEMENT: _ship_not_at_settlement,
    Reason.SHIP_SIDE_OCCUPIED: _ship_side_occupied,
    Reason.ROBBER_MUST_MOVE: _robber_must_move,
    Reason.ROBBER_NOT_ON_NUMBER: _robber_not_on_number,
    Reason.NEWCOMER_PROTECTION: _newcomer_protection,
    Reason.NO_ROBBER_ORDER: _no_robber_order,
    Reason.CARD_NOT_HELD: _card_not_held,
    Reason.CARD_BOUGHT_THIS_ROUND: _card_bought_this_round,
    Reason.ONE_CARD_PER_ROUND: _one_card_per_round,
    Reason.DECK_EMPTY: _deck_empty,
    Reason.BANK_EMPTY: _bank_empty,
    Reason.NO_LEGAL_ROAD: _no_legal_road,
    Reason.NO_GIFTS: _no_gifts,
    Reason.LIKE_FOR_LIKE: _like_for_like,
    Reason.TRADE_WITH_SELF: _trade_with_self,
    Reason.NO_SUCH_PLAYER: _no_such_player,
    Reason.NOT_CONFIRMED_BY_PARTNER: _not_confirmed,
    Reason.TERMS_DIFFER: _terms_differ,
    Reason.CARDS_NOT_HELD: _cards_not_held,
    Reason.BELOW_HARBOUR_RATE: _below_rate,
    Reason.PIRATE_ON_HARBOUR: _pirate_on_harbour,
    Reason.SAME_RESOURCE: _same_resource,
    Reason.NOT_SEA: _not_sea,
    Reason.NO_SHIPS: _no_ships,
    Reason.SHIP_NOT_CONNECTED: _ship_not_connected,
    Reason.SHIP_SAME_PLACE: _ship_same_place,
    Reason.SHIP_HELD_BY_PIRATE: _ship_held_by_pirate,
    Reason.UNEXPLORED: _unexplored,
    Reason.NEXT_TO_PIRATE: _next_to_pirate,
    Reason.NO_PIRATE: _no_pirate,
    Reason.PIRATE_NOT_ON_SEA: _pirate_not_on_sea,
    Reason.PIRATE_MUST_MOVE: _pirate_must_move,
    Reason.NOT_OWN_SHIP: _not_own_ship,
    Reason.SHIP_LINE_CLOSED: _ship_line_closed,
    Reason.SHIP_BUILT_THIS_ROUND: _ship_built_this_round,
    Reason.ONE_SHIP_MOVE_PER_ROUND: _one_ship_move_per_round,
    Reason.NOT_START_AREA: _not_start_area,
    Reason.SHIP_REQUIRED: _ship_required,
    Reason.OTHER_START_ISLAND: _other_start_island,
    Reason.NOT_KRONLANDE: _not_kronlande,
    Reason.NOT_OWN_BUILDING: _not_own_building,
    Reason.WORKSHOP_ON_BUILDING: _workshop_on_building,
    Reason.WORKSHOP_KIND_HELD: _workshop_kind_held,
    Reason.NO_WORKSHOP: _no_workshop,
    Reason.NOT_A_GOOD: _not_a_good,
    Reason.NOT_OWN_CITY: _not_own_city,
    Reason.NOT_OWN_CASTLE: _not_own_castle,
    Reason.ROBBER_NEXT_TO_CASTLE: _robber_next_to_castle,
    Reason.GOODS_NOT_WITH_BANK: _goods_not_with_bank,
}


def _refused(case: Case) -> tuple[Reason | str | None, ev.Event | None]:
    """The reason the rules give for the case's order, and the event a round tells it by."""
    s, p, order = case.state, case.seat, case.order
    if case.ask == "cost":
        rule = action_rule(s, p, order, check_cost=True)  # type: ignore[arg-type]
    elif case.ask in ("round", "round7"):
        orders = {q: TurnOrders() for q in range(4)}
        orders[p] = order  # type: ignore[assignment]
        orders.update(case.others)
        rolls = [(3, 4)] if case.ask == "round7" else []
        _, events = resolve_round(s, orders, Dice(rolls + [(1, 1)] * 4))
        told = [e for e in events if isinstance(e, (ev.OrderFailed, ev.TradeFailed))]
        assert told, events
        return getattr(told[0], "rule", None) or getattr(told[0], "reason", None), told[0]
    else:
        rule = LegalMoves(s, p).problem(order)
    return rule, _event(case, rule)


def _event(case: Case, rule: Reason | None) -> ev.Event | None:
    """The event a round or the setup would tell the refusal by."""
    if rule is None:
        return None
    order = case.order
    if isinstance(order, SetupPlacement):
        return ev.SetupFailed(case.seat, 0, rule)
    if isinstance(order, TradeOffer):
        return ev.TradeFailed(case.seat, order.partner, order.give, order.get, rule)
    line = "robber" if isinstance(order, RobberOrder) else "build 1"
    return ev.OrderFailed(case.seat, line, rule, "", action_code(order))  # type: ignore[arg-type]


def _matches(topic: str, lang: str, text: str) -> bool:
    de, en = TOPICS[topic]
    return re.search(de if lang == "de" else en, text) is not None


def test_every_reason_has_a_case() -> None:
    assert set(CASES) == set(Reason)


@pytest.mark.parametrize("reason", list(Reason), ids=lambda r: r.value)
def test_every_reason_is_given_and_its_texts_fit_the_order(reason: Reason) -> None:
    case = CASES[reason]()
    rule, event = _refused(case)
    assert rule == reason, (reason, rule)
    for lang in LANGS:
        texts = {"report": rule_text(reason, lang), "receipt": receipt_text(reason, lang)}
        if event is not None:
            line = describe(event, case.state, lang)
            assert line is not None, event
            # A card play is not named in public (it would reveal a hidden card).
            if "could not be played" not in line and "konnte nicht gespielt" not in line:
                texts["line"] = line
        for where, text in texts.items():
            assert "_" not in text, (reason, lang, where, text)
            for topic in case.about:
                assert _matches(topic, lang, text), (reason, lang, where, topic, text)
            if where == "line":
                continue  # the line names the order too (a settlement's crossing, …)
            for topic in case.not_about:
                assert not _matches(topic, lang, text), (reason, lang, where, topic, text)


def test_the_report_line_names_the_order_and_why() -> None:
    """The tester's ship and settlement (issue 27), as the report tells them."""
    ship = _ship_not_connected()
    event = _event(ship, LegalMoves(ship.state, 0).problem(ship.order))
    assert describe(event, ship.state, "de").startswith("rot: Schiff ")  # type: ignore[arg-type, union-attr]
    assert "ein Schiff braucht an einem Ende ein eigenes Gebäude oder Schiff" in describe(
        event,  # type: ignore[arg-type]
        ship.state,
        "de",
    )
    assert "keine eigene Straße dorthin" not in describe(event, ship.state, "de")  # type: ignore[arg-type, operator]


@pytest.mark.parametrize(
    ("case", "piece", "new"),
    [
        (_ship_not_connected, "ship", Reason.SHIP_NOT_CONNECTED),
        (_settlement_not_reached, "settlement", Reason.SETTLEMENT_NOT_REACHED),
        (_settlement_not_connected, "settlement", Reason.SETTLEMENT_NOT_CONNECTED),
        (_road_not_connected, "road", Reason.NOT_CONNECTED),
    ],
)
def test_a_refusal_of_rules_2_reads_as_rules_3_would_tell_it(
    case: Callable[[], Case], piece: str, new: Reason
) -> None:
    """A game by rules 2 gave `not_connected` for a road, a settlement and a ship alike: its
    stored events read as the split reason of the order (the archive, a correction)."""
    c = case()
    old = c.state
    old.rules = 2
    assert LegalMoves(old, 0).problem(c.order) == Reason.NOT_CONNECTED
    assert specific(Reason.NOT_CONNECTED, piece, old.sea is not None) == new
    event = _event(c, Reason.NOT_CONNECTED)
    assert event is not None
    for lang in LANGS:
        assert rule_text(new, lang) in describe(event, old, lang)  # type: ignore[operator]


# -- the notation's refusals that name a rule --------------------------------------------------


@dataclass
class Line:
    """A mail line the notation refuses for a rule, on a board of a game kind."""

    text: dict[str, str]
    state: Callable[[], GameState]
    about: tuple[str, ...]
    not_about: tuple[str, ...] = ()


NOTATION: dict[str, Line] = {
    "ships_seafarers": Line(
        {"de": "Schiff 6L 5L", "en": "Ship 6B 5B"}, game, ("ship", "seafarers")
    ),
    "pirate_seafarers": Line({"de": "Pirat C3", "en": "Pirate C3"}, game, ("pirate", "seafarers")),
    "gold_seafarers": Line({"de": "Gold: Erz", "en": "Gold: ore"}, game, ("seafarers",)),
    "robber_no_number": Line(
        {"de": "Räuber Wüste, raube blau", "en": "Robber desert, steal blue"},
        game,
        ("robber", "number"),
    ),
    "robber_at_sea": Line(
        {"de": "Räuber Meer, raube blau", "en": "Robber sea, steal blue"},
        game,
        ("robber", "sea"),
        ("pirate",),
    ),
    "robber_at_sea_pirate": Line(
        {"de": "Räuber Meer, raube blau", "en": "Robber sea, steal blue"},
        _sea,
        ("robber", "sea", "pirate"),
    ),
    "pirate_on_sea": Line({"de": "Pirat C3", "en": "Pirate C3"}, _sea, ("pirate", "sea")),
    "pirate_no_victims": Line(
        {"de": "Pirat A1, raube blau", "en": "Pirate A1, steal blue"}, _sea, ("pirate", "ship")
    ),
    "kronlande_only": Line(
        {"de": "Schmiede C3 C4 D4", "en": "Smithy C3 C4 D4"}, game, ("kronlande",)
    ),
    "monopoly_no_goods": Line({"de": "Monopol Brot", "en": "Monopoly bread"}, _kron, ("resource",)),
    "goods_not_with_bank": Line(
        {"de": "Seehandel 4 Brot gegen 1H", "en": "Maritime 4 bread for 1L"},
        _kron,
        ("goods", "bank"),
    ),
    "trade_same_resource": Line(
        {"de": "Handel blau: gebe 2W, bekomme 2W", "en": "Trade blue: give 2W, get 2W"},
        game,
        ("resource", "trade"),
    ),
    "vp_card": Line({"de": "Siegpunkt", "en": "Victory point"}, game, ("card",)),
}


@pytest.mark.parametrize("key", sorted(NOTATION))
def test_the_notations_rule_refusals_fit_the_line(key: str) -> None:
    line = NOTATION[key]
    s = line.state()
    for lang in LANGS:
        with pytest.raises(OrderError) as info:
            parse_line(line.text[lang], Context(s.board, lang, s.colours, "round"))
        err = info.value
        assert err.key == key, (lang, err.key, err.message)
        text = err.localized(lang)
        assert len(err.candidates) <= 8
        for topic in line.about:
            assert _matches(topic, lang, text), (key, lang, topic, text)
        for topic in line.not_about:
            assert not _matches(topic, lang, text), (key, lang, topic, text)


def test_the_robber_sent_to_sea_gets_one_line_and_no_list_of_sea_hexes() -> None:
    """The tester's `Räuber Meer, raube blau` in a Four Islands game: the robber never goes to
    sea, the pirate does; no list of 60 sea hexes to choose from."""
    from pbm.rules.board import Terrain

    s = _sea()
    for lang, body, word in (
        ("de", "Räuber Meer, raube blau\n", "Pirat"),
        ("en", "Robber sea, steal blue\n", "Pirate"),
    ):
        parsed = parse_mail(body, Context(s.board, lang, s.colours, "round"))
        err = parsed.lines[0].error
        assert err is not None and err.candidates == []
        assert err.key == "robber_at_sea_pirate"
        # The example is a sea hex of this board (a fixed `Pirat D5` was land on many).
        example = re.search(rf"'{word} (\w+)'$", err.localized(lang))
        assert example is not None, err.localized(lang)
        label = example.group(1)
        assert s.board.hexes[s.board.label_index[label]].terrain == Terrain.SEA


@pytest.mark.parametrize("scenario", ["vier-inseln", "neue-ufer", "ozeanien", "wueste"])
def test_no_name_lists_more_than_eight_candidates(scenario: str) -> None:
    """Names of many places (the sea, harbours, deserts) never list them all: past eight the
    answer says how to name the place instead."""
    s = _sea(scenario)
    boards = [(s.board, s.colours), (game().board, game().colours), (_kron().board, ("rot",))]
    words = ("Meer", "Hafen", "3:1-Hafen", "Wüste", "Gold", "Meer Meer", "Meer Hafen")
    for board, colours in boards:
        for lang in LANGS:
            ctx = Context(board, lang, tuple(colours), "round")
            for w in words:
                for line in (
                    f"Räuber {w}",
                    f"Pirat {w}",
                    f"Straße {w} {w}",
                    f"Schiff {w} {w}",
                    f"Siedlung {w} {w} {w}",
                    f"Siedlung {w} {w}",
                    f"Straße {w}",
                    f"Schiff {w} {w} {w} - {w} {w} {w}",
                ):
                    try:
                        parse_line(line, ctx)
                    except OrderError as e:
                        assert len(e.candidates) <= 8, (line, e.key, len(e.candidates))


@pytest.mark.parametrize(
    ("event", "lang", "line"),
    [
        (ev.BankShort(0, 1, 0, 1), "en", "The bank has no L left for 1: blue gets none"),
        (ev.BankShort(0, 1, 0, 1), "de", "Die Bank hat kein H mehr für 1: blau bekommt nichts"),
        (ev.BankShort(0, 3, 2, 1), "en", "The bank has only 2L for 3: blue gets what is left"),
        (
            ev.BankShort(0, 3, 2, -1),
            "en",
            "2L left, and several players are owed 3 together: nobody gets any",
        ),
        (ev.BankShort(0, 1, 0, 1), "da", "Banken har ikke mere T til 1: blå får intet"),
    ],
)
def test_a_bank_shortage_says_who_gets_what(event: ev.Event, lang: str, line: str) -> None:
    """An empty bank pays nothing: not "the bank has only 0W: … gets what is left"."""
    text = describe(event, game(), lang)
    assert text is not None and line in text
