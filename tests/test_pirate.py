"""The pirate (issue 18, Seafarers II): a 7 or a knight moves the robber or the pirate; the
pirate robs every ship owner next to it, blocks ships on its sides and closes its hex's harbour;
the first usable of the robber and pirate orders counts, with none the NMR robber rule."""

from __future__ import annotations

import pytest
from helpers import Dice, hand

from pbm.rules.board import Harbor, Terrain
from pbm.rules.events import OrderFailed, RobberMoved, Stole
from pbm.rules.layouts import KNIGHT
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import (
    Knight,
    RobberOrder,
    Ship,
    Timing,
    TurnOrders,
    action_code,
    action_from_code,
)
from pbm.rules.pirate import hex_sides, pirate_hex_rule
from pbm.rules.reasons import Reason
from pbm.rules.round import resolve_round
from pbm.rules.sea_events import PirateMoved
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings
from pbm.rules.trade import harbour_rate
from pbm.store import codec


def _after_setup(scenario: str = "vier-inseln", players: int = 4, pirate: bool = True) -> GameState:
    settings = Settings.for_scenario(scenario, players, pirate=pirate)
    for state, _ in play_game(settings, 3, max_rounds=0):
        if state.phase == Phase.ROUNDS:
            return state
    raise AssertionError("setup did not end")


def _target(s: GameState) -> int:
    """A sea hex off the frame, not the pirate's, with no ship next to it yet."""
    assert s.sea is not None
    return next(
        h.id
        for h in s.board.hexes
        if h.terrain == Terrain.SEA
        and h.id not in s.board.frame
        and h.id != s.sea.pirate
        and all(s.sea.ship[e] < 0 for e in hex_sides(s, h.id))
    )


def _ships_at(s: GameState, h: int, seats: list[int]) -> list[int]:
    """Put a ship of each seat on a free side of hex h (test set-up, no rules)."""
    assert s.sea is not None
    free = [e for e in hex_sides(s, h) if s.sea.ship[e] < 0 and s.road[e] < 0]
    for e, q in zip(free, seats, strict=False):
        s.sea.ship[e] = q
        s.sea.built[e] = 0
    s.sea.rebuild(s.settings.players)
    return free[: len(seats)]


def _quiet(s: GameState) -> tuple[int, int]:
    """Dice whose total pays nobody and is no 7."""
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        hexes = s.board.number_hexes.get(total, ())
        if all(all(s.owner[c] < 0 for c in s.board.hex_crossings[h]) for h in hexes):
            d1 = min(6, total - 1)
            return (d1, total - d1)
    raise AssertionError("no quiet total")


def _seven_for(s: GameState, p: int, o: TurnOrders) -> tuple[GameState, list]:
    """p rolls a 7 (everyone else a total that pays nobody) with orders o; the others send
    empty orders."""
    rolls = [(3, 4) if q == p else _quiet(s) for q in s.build_order()]
    orders: dict[int, TurnOrders | None] = {q: TurnOrders() for q in range(s.settings.players)}
    orders[p] = o
    return resolve_round(s, orders, Dice(rolls))


def test_the_pirate_robs_each_ship_owner_next_to_it_once() -> None:
    s = _after_setup()
    p = s.build_order()[0]
    others = [q for q in range(4) if q != p]
    h = _target(s)
    _ships_at(s, h, [others[0], others[0], others[1], p])
    for q in range(4):
        hand(s, q, "1H 1L")
    new, events = _seven_for(s, p, TurnOrders(robber=RobberOrder(h, pirate=True)))
    assert PirateMoved(p, h, "seven") in events
    assert new.sea is not None and new.sea.pirate == h
    assert [(e.thief, e.victim) for e in events if isinstance(e, Stole)] == [
        (p, others[0]),
        (p, others[1]),
    ]
    assert sum(new.hands[p]) == 4 and sum(new.hands[others[0]]) == 1
    assert sum(new.hands[others[2]]) == 2  # no ship there
    assert new.robber == s.robber  # the robber stays


def test_no_ship_next_to_the_pirate_and_its_harbour_closed() -> None:
    s = _after_setup()
    assert s.sea is not None
    p = s.build_order()[0]
    harbour = next(h for h in s.board.hexes if h.harbor is not None)
    assert isinstance(harbour.harbor, Harbor)
    c = next(c for c in range(len(s.owner)) if s.board.crossing_harbor[c] is harbour.harbor)
    s.settlements[p].append(c)
    s.owner[c] = p
    r = harbour.harbor.resource
    before = harbour_rate(s, p, 0 if r is None else r)
    assert before in (2, 3)
    s.sea.pirate = harbour.id
    assert harbour_rate(s, p, 0 if r is None else r) == 4
    legal = LegalMoves(s, p)
    # The legal-move view the bots trade by agrees: no rate of the closed harbour.
    assert legal.bank_rates() == [harbour_rate(s, p, x) for x in range(5)]
    assert not set(legal.ships()) & set(hex_sides(s, harbour.id))
    side = next(e for e in hex_sides(s, harbour.id) if s.road[e] < 0 and s.sea.ship[e] < 0)
    assert legal.problem(Ship(side)) in (Reason.NEXT_TO_PIRATE, Reason.SHIP_NOT_CONNECTED)


def test_the_first_usable_of_robber_and_pirate_counts() -> None:
    s = _after_setup()
    assert s.sea is not None
    p = s.build_order()[0]
    h = _target(s)
    land = s.board.robber_hexes[0]
    stay = RobberOrder(s.sea.pirate, pirate=True)  # must move: unusable
    new, events = _seven_for(s, p, TurnOrders(robber=stay, robber_else=RobberOrder(land)))
    assert RobberMoved(p, land, "seven") in events
    assert new.sea is not None and new.sea.pirate == s.sea.pirate
    failed = [e for e in events if isinstance(e, OrderFailed)]
    assert failed == []  # the second order was used: nothing failed
    new, events = _seven_for(
        s, p, TurnOrders(robber=RobberOrder(h, pirate=True), robber_else=RobberOrder(land))
    )
    assert PirateMoved(p, h, "seven") in events
    assert not any(isinstance(e, RobberMoved) for e in events)


def test_neither_usable_logs_both_and_the_nmr_rule_moves_the_robber() -> None:
    s = _after_setup()
    assert s.sea is not None
    p = s.build_order()[0]
    land = next(h for h in s.board.robber_hexes if h != s.robber)
    s.robber = land
    o = TurnOrders(robber=RobberOrder(s.sea.pirate, pirate=True), robber_else=RobberOrder(land))
    new, events = _seven_for(s, p, o)
    failed = [(e.line, e.rule, e.action) for e in events if isinstance(e, OrderFailed)]
    assert failed == [
        ("robber", Reason.PIRATE_MUST_MOVE, f"pirate:{s.sea.pirate}"),
        ("robber", Reason.ROBBER_MUST_MOVE, f"robber:{land}"),
    ]
    moved = [e for e in events if isinstance(e, RobberMoved)]
    assert len(moved) == 1 and moved[0].cause == "nmr"
    assert new.sea is not None and new.sea.pirate == s.sea.pirate


def test_a_knight_moves_the_pirate() -> None:
    s = _after_setup()
    p = s.build_order()[0]
    h = _target(s)
    s.cards[p].append((KNIGHT, 0))
    knight = Knight(Timing.AFTER_ROLL, RobberOrder(h, pirate=True))
    assert LegalMoves(s, p).problem(knight) is None
    order = s.build_order()
    new, events = resolve_round(
        s,
        {q: TurnOrders(knight=knight) if q == p else TurnOrders() for q in range(4)},
        Dice([_quiet(s)] * len(order)),
    )
    assert PirateMoved(p, h, "knight") in events
    assert new.knights[p] == 1


def test_without_the_pirate_and_on_land_the_order_is_refused() -> None:
    s = _after_setup(pirate=False)
    assert s.sea is not None and s.sea.pirate == -1
    p = s.build_order()[0]
    h = _target(s)
    legal = LegalMoves(s, p)
    assert legal.pirate_hexes() == []
    assert legal.certain_problem(RobberOrder(h, pirate=True)) == Reason.NO_PIRATE
    _new, events = _seven_for(s, p, TurnOrders(robber=RobberOrder(h, pirate=True)))
    assert any(isinstance(e, RobberMoved) and e.cause == "nmr" for e in events)
    s = _after_setup()
    assert s.sea is not None
    legal = LegalMoves(s, p)
    land = s.board.robber_hexes[0]
    assert legal.certain_problem(RobberOrder(land, pirate=True)) == Reason.PIRATE_NOT_ON_SEA
    assert legal.certain_problem(RobberOrder(s.sea.pirate, pirate=True)) == (
        Reason.PIRATE_MUST_MOVE
    )
    assert h in legal.pirate_hexes() and s.sea.pirate not in legal.pirate_hexes()
    assert all(pirate_hex_rule(s, x) is None for x in legal.pirate_hexes())


@pytest.mark.parametrize(
    "order",
    [
        RobberOrder(20, pirate=True),
        Knight(Timing.AFTER_ROLL, RobberOrder(20, pirate=True)),
        Knight(Timing.BEFORE_ROLL, RobberOrder(9, (1, 2))),
    ],
)
def test_codes_and_the_store_read_the_pirate_back(order: RobberOrder | Knight) -> None:
    assert action_from_code(action_code(order)) == order
    o = TurnOrders(robber=RobberOrder(9, (1,)), robber_else=RobberOrder(20, pirate=True))
    assert codec.from_data(codec.to_data(o)) == o
    # A base game's orders are stored as before: no pirate, no second robber order.
    data = codec.to_data(TurnOrders(robber=RobberOrder(9, (1,))))
    assert "robber_else" not in data and "pirate" not in data["robber"]


def test_the_log_and_the_text_map_follow_the_pirate() -> None:
    from pbm.reports.describe import describe_all
    from pbm.reports.text_map import draw

    s = _after_setup()
    assert s.sea is not None
    p = s.build_order()[0]
    h = _target(s)
    before = draw(s, "de")
    new, events = _seven_for(s, p, TurnOrders(robber=RobberOrder(h, pirate=True)))
    after = draw(new, "de")
    # Once on the board, once in the legend.
    assert before.count("<P>") == after.count("<P>") == 2 and before != after
    label = s.board.hexes[h].label
    de = describe_all(events, new, "de")
    assert any(f"Pirat von rot nach {label}" in line for line in de), de
    en = describe_all(events, new, "en")
    assert any(f"red moves the pirate to {label}" in line for line in en), en
    # A pirate order that fails names the pirate, in the report's words.
    stay = RobberOrder(new.sea.pirate if new.sea else -1, pirate=True)
    _new, events = _seven_for(new, p, TurnOrders(robber=stay))
    failed = [x for x in describe_all(events, new, "en") if "pirate order" in x]
    assert failed and "the robber's hex is rolled" in failed[0] and "(NMR robber rule)" in failed[0]


@pytest.mark.parametrize("bot", ["autopilot", "random"])
def test_the_bots_move_the_pirate_and_only_where_it_may_go(bot: str) -> None:
    moved = 0
    failed: list[str] = []
    for seed in range(1, 6):
        for _state, events in play_game(Settings.for_scenario("wueste", 4), seed, bot):
            moved += sum(1 for e in events if isinstance(e, PirateMoved))
            failed += [
                e.rule
                for e in events
                if isinstance(e, OrderFailed) and e.action.startswith("pirate")
            ]
    assert moved > 0
    # Another player's 7 earlier in the round may have moved the pirate onto the hex named.
    assert set(failed) <= {Reason.PIRATE_MUST_MOVE}


def test_the_board_picture_follows_the_pirate() -> None:
    import io

    from PIL import Image

    from pbm.reports.picture import board_png

    s = _after_setup()
    assert s.sea is not None
    moved = s.copy()
    assert moved.sea is not None
    moved.sea.pirate = _target(s)
    a = Image.open(io.BytesIO(board_png(s))).convert("RGB")
    b = Image.open(io.BytesIO(board_png(moved))).convert("RGB")
    # Only the pirate's hull moved: the pictures differ, and the same number of near-black
    # pixels of its hull are drawn in each.
    assert a.tobytes() != b.tobytes()
    dark = [
        dict((c, n) for n, c in img.getcolors(1 << 24) or []).get((20, 20, 20), 0) for img in (a, b)
    ]
    assert dark[0] == dark[1] > 0
