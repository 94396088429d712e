"""The play-by-mail round of rules.md (seed 003 made exact), resolved by `resolve_round`.

Unless a test says otherwise the board is the default one (medium, seed 1), 4 players
(seats 0 rot, 1 blau, 2 gelb, 3 weiss), round 1 (build order 0, 1, 2, 3):

               A1 2:1 G  A2 ~      A3 3:1    A4 ~
          B1 ~      B2 11H    B3 12E    B4 9H     B5 3:1
     C1 3:1    C2 4H     C3 6L     C4 5L     C5 10G    C6 ~
D1 ~      D2 8H     D3 3E     D4 11G    D5 4G     D6 8W     D7 2:1 W
     E1 3:1    E2 10W    E3 Wüste  E4 9L     E5 3W     E6 ~
          F1 ~      F2 5E     F3 2G     F4 6W     F5 2:1 E
               G1 2:1 H  G2 ~      G3 2:1 L  G4 ~

`QUIET` is a 12: only B3 has it and tests leave B3 empty, so it pays nobody.
"""

from __future__ import annotations

import pytest
from helpers import Dice, crossing, game, hand, path, road, settle
from rules_fixtures import QUIET, give_card, hex_id, idle, of

from pbm.rules import Settings, new_game, place_setup, place_setup_automatic, resolve_round
from pbm.rules.events import (
    Built,
    CardBought,
    CardPlayed,
    Event,
    GameWon,
    MonopolyTaken,
    NmrRobberRoll,
    NoOrders,
    NothingToSteal,
    OrderFailed,
    PlentyTaken,
    Produced,
    ProductionBlocked,
    RobberMoved,
    Rolled,
    RoundStarted,
    SetupFailed,
    SetupPlaced,
    Stole,
    TitleChanged,
    TradeDone,
    TradeFailed,
)
from pbm.rules.layouts import KNIGHT, MONOPOLY, YEAR_OF_PLENTY
from pbm.rules.orders import (
    Alternatives,
    BuyCard,
    Knight,
    Monopoly,
    Road,
    RobberOrder,
    Settlement,
    SetupOrders,
    SetupPlacement,
    SubstituteBlock,
    Timing,
    TradeOffer,
    TurnOrders,
    YearOfPlenty,
)
from pbm.rules.resources import ERZ, HOLZ, LEHM, ZERO
from pbm.rules.setup import setup_player
from pbm.rules.state import GameState, Phase

QUIET4 = [QUIET] * 4
EIGHT = (4, 4)  # pays D2 (8H) and D6 (8W)
SEVEN = (3, 4)


# -- 1. Build order -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "round_", "expected"),
    [
        (4, 1, (0, 1, 2, 3)),
        (4, 2, (1, 2, 3, 0)),
        (4, 3, (2, 3, 0, 1)),
        (4, 4, (3, 0, 1, 2)),
        (4, 5, (0, 1, 2, 3)),
        (3, 2, (1, 2, 0)),
        (3, 6, (2, 0, 1)),
    ],
)
def test_build_order_rotates_each_round(
    players: int, round_: int, expected: tuple[int, ...]
) -> None:
    """rules.md 1: in round r seat (r-1) mod N starts; the i-th roll belongs to the i-th player."""
    s = game(players=players, round_=round_)
    _, events = resolve_round(s, idle(players), rng=Dice([QUIET] * players))

    (started,) = of(events, RoundStarted)
    assert started.build_order == expected
    assert tuple(e.player for e in of(events, Rolled)) == expected


def test_building_follows_rotated_order() -> None:
    """rules.md 1: the roll order of the round is also the order of building."""
    s = game(round_=3)  # build order 2, 3, 0, 1
    starts = {0: "C1 C2 D2", 1: "A1 B1 B2", 2: "D5 D6 E5", 3: "F2 G1 G2"}
    roads = {0: "C2 D2", 1: "A1 B2", 2: "D5 E5", 3: "F2 G1"}
    orders = {}
    for p in range(4):
        settle(s, p, starts[p])
        hand(s, p, "1H 1L")
        orders[p] = TurnOrders(builds=(Road(path(s, roads[p])),))

    _, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert [e.player for e in of(events, Built)] == [2, 3, 0, 1]


# -- 2. Production, roll by roll --------------------------------------------------------------


def test_hex_robbed_by_second_roll_still_paid_on_first() -> None:
    """rules.md 2 / seed 003: a hex robbed by the 7 of roll 2 still paid out on roll 1."""
    s = game()
    settle(s, 2, "C1 C2 D2")  # on D2 (8H)
    settle(s, 3, "C6 D6 D7")  # on D6 (8W)
    d2 = hex_id(s, "D2")
    orders = idle(s1=TurnOrders(robber=RobberOrder(d2, (2,))))

    # Roll 1 (seat 0): 8. Roll 2 (seat 1): 7, robber to D2. Roll 3 (seat 2): 8 again.
    new, events = resolve_round(s, orders, rng=Dice([EIGHT, SEVEN, EIGHT, QUIET]))

    rolls = [events.index(e) for e in of(events, Rolled)]
    paid_d2 = [events.index(e) for e in of(events, Produced) if e.hex == d2]
    assert len(paid_d2) == 1 and rolls[0] < paid_d2[0] < rolls[1]  # roll 1 paid D2
    assert RobberMoved(1, d2, "seven") in events
    assert Stole(1, 2, HOLZ) in events  # the lumber of roll 1 was stolen
    blocked = events.index(ProductionBlocked(d2))
    assert rolls[2] < blocked < rolls[3]  # roll 3: D2 robbed
    # D6 paid on both eights.
    assert new.hands[3] == [0, 0, 2, 0, 0]
    assert new.hands[2] == [0, 0, 0, 0, 0]
    assert new.robber == d2


def _knight_on_d2(timing: Timing) -> tuple[GameState, list[Event]]:
    s = game()
    settle(s, 0, "C6 D6 D7")  # the knight's player lives on D6 (8W)
    settle(s, 1, "C1 C2 D2")  # the victim lives on D2 (8H)
    give_card(s, 0, KNIGHT)
    d2 = hex_id(s, "D2")
    orders = idle(s0=TurnOrders(knight=Knight(timing, RobberOrder(d2, (1,)))))
    return resolve_round(s, orders, rng=Dice([EIGHT, QUIET, QUIET, QUIET]))


def test_knight_before_roll_blocks_own_roll() -> None:
    """rules.md 2a / seed 003: a knight `vor Wurf` moves the robber before the player's roll."""
    new, events = _knight_on_d2(Timing.BEFORE_ROLL)
    d2 = hex_id(new, "D2")

    moved = events.index(RobberMoved(0, d2, "knight"))
    first_roll = events.index(of(events, Rolled)[0])
    assert moved < first_roll
    assert ProductionBlocked(d2) in events
    assert NothingToSteal(0, d2) in events  # the victim had no card yet
    assert new.hands[1] == [0, 0, 0, 0, 0]
    assert new.hands[0] == [0, 0, 1, 0, 0]  # D6 paid the knight's player


def test_knight_after_roll_lets_roll_pay() -> None:
    """rules.md 2d / seed 003: a knight `nach Wurf` moves the robber after the roll has paid."""
    new, events = _knight_on_d2(Timing.AFTER_ROLL)
    d2 = hex_id(new, "D2")

    first_roll = events.index(of(events, Rolled)[0])
    assert ProductionBlocked(d2) not in events
    assert events.index(Produced(1, d2, HOLZ, 1)) > first_roll
    assert events.index(RobberMoved(0, d2, "knight")) > events.index(Produced(1, d2, HOLZ, 1))
    assert Stole(0, 1, HOLZ) in events  # the card the roll just paid
    assert new.hands[0] == [1, 0, 1, 0, 0]
    assert new.knights[0] == 1


def test_monopoly_after_roll_takes_fresh_production() -> None:
    """rules.md 2d / seed 003: a monopoly is played after the roll and takes what it produced."""
    s = game()
    settle(s, 1, "C1 C2 D2", city=True)  # a city on D2 (8H): 2 lumber on an 8
    hand(s, 1, "1H")
    give_card(s, 0, MONOPOLY)

    new, events = resolve_round(
        s, idle(s0=TurnOrders(monopoly=Monopoly(HOLZ))), rng=Dice([EIGHT, QUIET, QUIET, QUIET])
    )

    taken = MonopolyTaken(0, 1, HOLZ, 3)
    assert events.index(taken) > events.index(Produced(1, hex_id(s, "D2"), HOLZ, 2))
    assert new.hands[0][HOLZ] == 3 and new.hands[1][HOLZ] == 0


# -- 3. Trading ---------------------------------------------------------------------------------

GIVE_1H: tuple[int, int, int, int, int] = (1, 0, 0, 0, 0)
GIVE_1E: tuple[int, int, int, int, int] = (0, 0, 0, 0, 1)
GIVE_1L: tuple[int, int, int, int, int] = (0, 1, 0, 0, 0)


def test_trade_stated_by_one_side_fails() -> None:
    """rules.md 3 / seed 003: a trade comes about only if both partners state it."""
    s = game()
    hand(s, 0, "1H")
    hand(s, 1, "1E")
    offer = TradeOffer(1, GIVE_1H, GIVE_1E)

    new, events = resolve_round(s, idle(s0=TurnOrders(trades=(offer,))), rng=Dice(QUIET4))

    assert of(events, TradeFailed) == [
        TradeFailed(0, 1, GIVE_1H, GIVE_1E, "not_confirmed_by_partner"),
    ]
    assert of(events, TradeDone) == []
    assert new.hands[0] == [1, 0, 0, 0, 0] and new.hands[1] == [0, 0, 0, 0, 1]


def test_trade_with_different_terms_fails_for_both() -> None:
    """rules.md 3: sides that do not match fail, and both are told."""
    s = game()
    hand(s, 0, "2H")
    hand(s, 1, "1E")
    orders = idle(
        s0=TurnOrders(trades=(TradeOffer(1, GIVE_1H, GIVE_1E),)),
        s1=TurnOrders(trades=(TradeOffer(0, GIVE_1E, (2, 0, 0, 0, 0)),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    # Each answered the other, on other terms: a counter-offer, said as such.
    assert {(e.player, e.reason) for e in of(events, TradeFailed)} == {
        (0, "terms_differ"),
        (1, "terms_differ"),
    }
    assert new.hands[0] == [2, 0, 0, 0, 0]


def test_matching_trade_executes() -> None:
    """rules.md 3: a trade stated by both sides with matching terms executes."""
    s = game()
    hand(s, 0, "1H")
    hand(s, 1, "1E")
    orders = idle(
        s0=TurnOrders(trades=(TradeOffer(1, GIVE_1H, GIVE_1E),)),
        s1=TurnOrders(trades=(TradeOffer(0, GIVE_1E, GIVE_1H),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, TradeDone) == [TradeDone(0, 1, GIVE_1H, GIVE_1E)]
    assert of(events, TradeFailed) == []
    assert new.hands[0] == [0, 0, 0, 0, 1] and new.hands[1] == [1, 0, 0, 0, 0]


def test_trade_fails_when_cards_spent_by_earlier_trade() -> None:
    """rules.md 3: trades run in order if both still hold the cards; a spent card fails the next."""
    s = game()
    hand(s, 0, "1H")  # one lumber, promised twice
    hand(s, 1, "1E")
    hand(s, 2, "1L")
    orders = idle(
        s0=TurnOrders(trades=(TradeOffer(1, GIVE_1H, GIVE_1E), TradeOffer(2, GIVE_1H, GIVE_1L))),
        s1=TurnOrders(trades=(TradeOffer(0, GIVE_1E, GIVE_1H),)),
        s2=TurnOrders(trades=(TradeOffer(0, GIVE_1L, GIVE_1H),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, TradeDone) == [TradeDone(0, 1, GIVE_1H, GIVE_1E)]
    assert {(e.player, e.partner, e.reason) for e in of(events, TradeFailed)} == {
        (0, 2, "cards_not_held"),
        (2, 0, "cards_not_held"),
    }
    assert new.hands[0] == [0, 0, 0, 0, 1] and new.hands[2] == [0, 1, 0, 0, 0]


def test_trades_ordered_by_earlier_build_position() -> None:
    """rules.md 3: trades execute by the earlier build-order position of their two parties."""
    s = game(round_=2)  # build order 1, 2, 3, 0
    hand(s, 0, "1H")
    hand(s, 1, "1E")
    hand(s, 3, "1L")
    # Seat 0 writes the trade with seat 3 first, but seat 1 builds before seat 3.
    orders = idle(
        s0=TurnOrders(trades=(TradeOffer(3, GIVE_1H, GIVE_1L), TradeOffer(1, GIVE_1H, GIVE_1E))),
        s1=TurnOrders(trades=(TradeOffer(0, GIVE_1E, GIVE_1H),)),
        s3=TurnOrders(trades=(TradeOffer(0, GIVE_1L, GIVE_1H),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    (done,) = of(events, TradeDone)
    assert {done.first, done.second} == {0, 1}
    assert new.hands[0] == [0, 0, 0, 0, 1] and new.hands[3] == [0, 1, 0, 0, 0]


def test_gifts_rejected() -> None:
    """rules.md 3 / seed 003: no gifts, even when both sides state them."""
    s = game()
    hand(s, 0, "1H")
    orders = idle(
        s0=TurnOrders(trades=(TradeOffer(1, GIVE_1H, ZERO),)),
        s1=TurnOrders(trades=(TradeOffer(0, ZERO, GIVE_1H),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, TradeDone) == []
    assert {(e.player, e.reason) for e in of(events, TradeFailed)} == {
        (0, "no_gifts"),
        (1, "no_gifts"),
    }
    assert new.hands[0] == [1, 0, 0, 0, 0] and new.hands[1] == [0, 0, 0, 0, 0]


def test_like_for_like_rejected() -> None:
    """rules.md 3: never like for like (the same resource on both sides)."""
    s = game()
    hand(s, 0, "2H")
    hand(s, 1, "1H 1E")
    two_h = (2, 0, 0, 0, 0)
    one_h_one_e = (1, 0, 0, 0, 1)
    orders = idle(
        s0=TurnOrders(trades=(TradeOffer(1, two_h, one_h_one_e),)),
        s1=TurnOrders(trades=(TradeOffer(0, one_h_one_e, two_h),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, TradeDone) == []
    assert {(e.player, e.reason) for e in of(events, TradeFailed)} == {
        (0, "like_for_like"),
        (1, "like_for_like"),
    }
    assert new.hands[0] == [2, 0, 0, 0, 0]


# -- 4. Building ----------------------------------------------------------------------------


def _builder() -> GameState:
    """Seat 0: a settlement at C2 D2 D3 with roads reaching C2 C3 D3 (too close to build on),
    C3 D3 D4 and, beyond it, C3 C4 D4 and D3 D4 E3; one settlement's worth of cards x2."""
    s = game()
    settle(s, 0, "C2 D2 D3")
    for p in ("C2 D3", "C3 D3", "C3 D4", "D3 D4"):
        road(s, 0, p)
    hand(s, 0, "2H 2L 2W 2G")
    return s


def test_oder_first_working_option_is_done() -> None:
    """rules.md 4 / notation `oder`: the first option of the line that works is done."""
    s = _builder()
    too_close, good, also_good = (crossing(s, c) for c in ("C2 C3 D3", "C3 D3 D4", "D3 D4 E3"))
    line = Alternatives((Settlement(too_close), Settlement(good), Settlement(also_good)))

    new, events = resolve_round(s, idle(s0=TurnOrders(builds=(line,))), rng=Dice(QUIET4))

    assert [e.where for e in of(events, Built)] == [good]
    assert new.owner[also_good] == -1
    assert new.hands[0] == [1, 1, 1, 1, 0]


def test_oder_all_options_failing_fails_the_line() -> None:
    """rules.md 4: a line whose options all fail is skipped with the reasons; the next runs."""
    s = _builder()
    too_close = crossing(s, "C2 C3 D3")
    unconnected = crossing(s, "C4 D4 D5")
    good = crossing(s, "C3 D3 D4")
    builds = (Alternatives((Settlement(too_close), Settlement(unconnected))), Settlement(good))

    _, events = resolve_round(s, idle(s0=TurnOrders(builds=builds)), rng=Dice(QUIET4))

    assert sorted(e.rule for e in of(events, OrderFailed)) == [
        "distance_rule",
        "settlement_not_connected",
    ]
    assert [e.where for e in of(events, Built)] == [good]


def test_ersatzbau_runs_after_a_failed_main_line() -> None:
    """rules.md 4 / seed 003 Ersatzbau: substitute builds run after the main lines if one failed."""
    s = _builder()
    too_close, good = crossing(s, "C2 C3 D3"), crossing(s, "C3 D3 D4")
    orders = TurnOrders(
        builds=(Settlement(too_close), Road(path(s, "C4 D4"))),
        substitutes=SubstituteBlock((Settlement(good),)),
    )

    new, events = resolve_round(s, idle(s0=orders), rng=Dice(QUIET4))

    assert of(events, OrderFailed) == [
        OrderFailed(0, "build 1", "distance_rule", "", f"settlement:{too_close}")
    ]
    # The substitute comes after all main lines, the road of main line 2 included.
    assert of(events, Built) == [
        Built(0, "road", path(s, "C4 D4"), False),
        Built(0, "settlement", good, False),
    ]
    assert new.owner[good] == 0


def test_ersatzbau_skipped_when_all_main_lines_succeed() -> None:
    """rules.md 4: the Ersatzbau block does not run when every main line succeeded."""
    s = _builder()
    good = crossing(s, "C3 D3 D4")
    orders = TurnOrders(
        builds=(Settlement(good),), substitutes=SubstituteBlock((Road(path(s, "C4 D4")),))
    )

    new, events = resolve_round(s, idle(s0=orders), rng=Dice(QUIET4))

    assert of(events, Built) == [Built(0, "settlement", good, False)]
    assert new.road[path(s, "C4 D4")] == -1
    assert of(events, OrderFailed) == []


def test_ersatzbau_runs_when_a_main_line_was_refused_at_receipt() -> None:
    """A main build refused when the mail came in failed: the block runs though every main
    line left (here none) succeeds. QA: `Settlement B7 B8 C8` refused, the substitute
    `Maritime 4G for 1W` under it never ran, and nobody said why."""
    s = _builder()
    good = crossing(s, "C3 D3 D4")
    orders = TurnOrders(substitutes=SubstituteBlock((Settlement(good),), main_refused=True))

    new, events = resolve_round(s, idle(s0=orders), rng=Dice(QUIET4))

    assert of(events, Built) == [Built(0, "settlement", good, False)]
    assert new.owner[good] == 0


def test_spot_taken_by_earlier_player_fails_for_later() -> None:
    """rules.md 4 / seed 003: a spot taken by an earlier player in build order fails for later."""
    s = game()
    target = crossing(s, "C3 D3 D4")
    neighbour = crossing(s, "C3 C4 D4")
    road(s, 0, "C3 D3")  # seat 0 reaches C3 D3 D4 from the north-west
    road(s, 1, "D3 D4")  # seat 1 reaches it from the south
    road(s, 2, "C4 D4")  # seat 2 reaches its neighbour C3 C4 D4
    for p in (0, 1, 2):
        hand(s, p, "1H 1L 1W 1G")
    orders = idle(
        s0=TurnOrders(builds=(Settlement(target),)),
        s1=TurnOrders(builds=(Settlement(target),)),
        s2=TurnOrders(builds=(Settlement(neighbour),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, Built) == [Built(0, "settlement", target, False)]
    assert [(e.player, e.rule) for e in of(events, OrderFailed)] == [
        (1, "occupied"),
        (2, "distance_rule"),
    ]
    assert new.hands[1] == [1, 1, 1, 1, 0] and new.hands[2] == [1, 1, 1, 1, 0]


# -- 5. End check -----------------------------------------------------------------------------

BREAKER, CLIMBER, HOLDER = 0, 1, 2


def _title_about_to_move() -> GameState:
    """HOLDER (2) has the longest road (7, C/D border); CLIMBER (1) has 8 VP in four cities and
    a 5-road on the top coast; BREAKER (0) can settle on C3 D3 D4 in the middle of HOLDER's
    road, which leaves CLIMBER alone with the longest road: 10 VP."""
    s = game()
    settle(s, HOLDER, "C1 C2 D2")
    for p in ("C2 D2", "C2 D3", "C3 D3", "C3 D4", "C4 D4", "C4 D5", "C5 D5"):
        road(s, HOLDER, p)
    for c in ("A1 B1 B2", "E4 E5 F4", "F2 G1 G2", "D5 D6 E5"):
        settle(s, CLIMBER, c, city=True)
    for p in ("A1 B2", "A2 B2", "A2 B3", "A3 B3", "A3 B4"):
        road(s, CLIMBER, p)
    settle(s, BREAKER, "D3 E2 E3")
    for p in ("D3 E3", "D3 D4"):
        road(s, BREAKER, p)
    hand(s, BREAKER, "2H 2L 1W 1G")
    assert s.longest_road == HOLDER and s.vp(CLIMBER) == 8
    return s


def _breaker_orders(s: GameState) -> TurnOrders:
    return TurnOrders(builds=(Settlement(crossing(s, "C3 D3 D4")), Road(path(s, "D4 E3"))))


def test_win_only_in_own_step_and_round_stops() -> None:
    """rules.md 5: a player who reaches the target in another's step wins in their own step."""
    s = _title_about_to_move()
    hand(s, CLIMBER, "1H 1L")
    hand(s, HOLDER, "1H 1L")
    orders = idle(
        s0=_breaker_orders(s),
        s1=TurnOrders(builds=(Road(path(s, "A4 B4")),)),
        s2=TurnOrders(builds=(Road(path(s, "C1 D2")),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    moved = events.index(TitleChanged("longest_road", HOLDER, CLIMBER, 5))
    won = events.index(GameWon(CLIMBER, 10, 1))
    built = of(events, Built)
    # BREAKER's step goes on after the title moved: no win in someone else's step. CLIMBER
    # wins the moment their own step comes (seed 000), before building anything.
    assert [(e.player, e.piece) for e in built] == [
        (BREAKER, "settlement"),
        (BREAKER, "road"),
    ]
    assert moved < events.index(built[1]) < won
    # The round stops at the winner: HOLDER (next in build order) does not build.
    assert won == len(events) - 1
    assert new.winner == CLIMBER and new.phase == Phase.ENDED


def test_win_at_own_build_step_without_build_lines() -> None:
    """Seed 000 Afslutning: holding the target when one's own step comes wins, with no builds."""
    s = _title_about_to_move()
    hand(s, HOLDER, "1H 1L")
    orders = idle(
        s0=_breaker_orders(s),
        s1=TurnOrders(),  # CLIMBER sends no build lines this round
        s2=TurnOrders(builds=(Road(path(s, "C1 D2")),)),
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert s.vp(CLIMBER) == 8 and new.vp(CLIMBER) == 10
    assert GameWon(CLIMBER, 10, 1) in events
    assert [e.player for e in of(events, Built)] == [BREAKER, BREAKER]  # HOLDER never builds
    assert new.winner == CLIMBER


def test_target_reached_after_own_step_wins_next_round() -> None:
    """rules.md 5: reaching the target after one's own step waits for one's next own step."""
    s = _title_about_to_move()
    s.round = 2  # build order 1, 2, 3, 0: BREAKER builds after CLIMBER
    hand(s, CLIMBER, "1H 1L")

    s, events = resolve_round(
        s,
        idle(s0=_breaker_orders(s), s1=TurnOrders(builds=(Road(path(s, "A4 B4")),))),
        rng=Dice(QUIET4),
    )
    assert s.longest_road == CLIMBER and s.vp(CLIMBER) == 10
    assert of(events, GameWon) == [] and s.winner == -1 and s.round == 3

    # Round 3: build order 2, 3, 0, 1. CLIMBER wins the moment their turn comes (seed 000),
    # before their own roll; the round stops there, before any trade or build.
    hand(s, HOLDER, "1H 1L")
    s, events = resolve_round(
        s, idle(s2=TurnOrders(builds=(Road(path(s, "C1 D2")),))), rng=Dice(QUIET4)
    )
    rolls = of(events, Rolled)
    assert [e.player for e in rolls] == [2, 3, 0]
    assert events[-1] == GameWon(CLIMBER, 10, 3)
    assert of(events, Built) == []
    assert s.winner == CLIMBER


def _army_about_to_win(timing: Timing) -> tuple[GameState, list[Event]]:
    """Seat 0 has 8 VP (four cities) and 2 knights; a third knight brings largest army: 10."""
    s = game()
    for c in ("A1 B1 B2", "A3 A4 B4", "C1 C2 D2", "E4 E5 F4"):
        settle(s, 0, c, city=True)
    s.knights[0] = 2
    give_card(s, 0, KNIGHT)
    knight = Knight(timing, RobberOrder(hex_id(s, "D6")))
    return resolve_round(s, idle(s0=TurnOrders(knight=knight)), rng=Dice(QUIET4))


def test_win_by_knight_after_roll_stops_the_round() -> None:
    """rules.md 5: a win in one's production step stops the round: no later roll, trade or build."""
    new, events = _army_about_to_win(Timing.AFTER_ROLL)

    assert [e.player for e in of(events, Rolled)] == [0]
    assert events[-2:] == [TitleChanged("largest_army", -1, 0, 3), GameWon(0, 10, 1)]
    assert new.winner == 0 and new.phase == Phase.ENDED and new.round == 1


def test_win_by_knight_before_roll_ends_before_the_roll() -> None:
    """rules.md 5: the win comes the moment the target is reached: before the player's own roll."""
    _, events = _army_about_to_win(Timing.BEFORE_ROLL)

    assert GameWon(0, 10, 1) in events
    assert of(events, Rolled) == []
    assert events[-1] == GameWon(0, 10, 1)


# -- NMR ------------------------------------------------------------------------------------


def _nmr_seven(roller_orders: TurnOrders | None) -> tuple[GameState, list[Event]]:
    s = game()
    settle(s, 1, "C1 C2 D2")  # the only settled hexes: C2 (4H) and D2 (8H)
    hand(s, 1, "2L")
    # Seat 0 rolls 7 (the round's rolls come first); the NMR robber rolls 7 (again), 2 (F3:
    # nobody there, again), then 8.
    dice = Dice([SEVEN, QUIET, QUIET, QUIET, SEVEN, (1, 1), EIGHT])
    return resolve_round(s, idle(s0=roller_orders), rng=dice)


def test_nmr_robber_rule() -> None:
    """rules.md NMR / seed 003: no orders and a 7: the GM rolls the robber's hex, then steals."""
    new, events = _nmr_seven(None)
    d2 = hex_id(new, "D2")

    assert NoOrders(0) in events
    assert of(events, NmrRobberRoll) == [
        NmrRobberRoll(0, 3, 4, ("seven",)),
        NmrRobberRoll(0, 1, 1, ("unsettled",)),  # F3 (2): nobody there
        NmrRobberRoll(0, 4, 4),
    ]
    assert RobberMoved(0, d2, "nmr") in events
    assert Stole(0, 1, LEHM) in events
    assert new.robber == d2
    assert new.hands[0] == [0, 1, 0, 0, 0] and new.hands[1] == [0, 1, 0, 0, 0]


def test_missing_robber_order_uses_nmr_rule() -> None:
    """rules.md 2c: a player with orders but no robber order gets the NMR robber rule."""
    new, events = _nmr_seven(TurnOrders())
    d2 = hex_id(new, "D2")

    assert NoOrders(0) not in events
    assert [(e.player, e.line, e.rule) for e in of(events, OrderFailed)] == [
        (0, "robber", "no_robber_order"),
    ]
    assert len(of(events, NmrRobberRoll)) == 3
    assert RobberMoved(0, d2, "nmr") in events
    assert Stole(0, 1, LEHM) in events


def test_illegal_robber_order_uses_nmr_rule() -> None:
    """rules.md 2c: an illegal robber order (the robber must move) gets the NMR robber rule."""
    s = game()
    new, events = _nmr_seven(TurnOrders(robber=RobberOrder(s.robber)))

    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [("robber", "robber_must_move")]
    assert RobberMoved(0, hex_id(new, "D2"), "nmr") in events


def test_nmr_player_receives_production_but_does_not_trade() -> None:
    """rules.md NMR / seed 003: without orders a player still gets production, but no trade."""
    s = game()
    settle(s, 0, "C1 C2 D2")  # on D2 (8H)
    hand(s, 1, "1E")
    orders = idle(s0=None, s1=TurnOrders(trades=(TradeOffer(0, GIVE_1E, GIVE_1H),)))

    new, events = resolve_round(s, orders, rng=Dice([EIGHT, QUIET, QUIET, QUIET]))

    assert NoOrders(0) in events
    assert new.hands[0] == [1, 0, 0, 0, 0]
    assert of(events, TradeDone) == []
    assert [e.reason for e in of(events, TradeFailed)] == ["not_confirmed_by_partner"]


# -- Development cards ----------------------------------------------------------------------


def test_one_development_card_per_round() -> None:
    """rules.md / seed 003: at most one development card is played per player per round."""
    s = game()
    settle(s, 1, "C1 C2 D2")
    hand(s, 1, "3H")
    give_card(s, 0, KNIGHT)
    give_card(s, 0, MONOPOLY)
    orders = idle(
        s0=TurnOrders(
            knight=Knight(Timing.AFTER_ROLL, RobberOrder(hex_id(s, "D6"))),
            monopoly=Monopoly(HOLZ),
        )
    )

    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, CardPlayed) == [CardPlayed(0, KNIGHT)]
    assert OrderFailed(0, "monopoly", "one_card_per_round", "", "monopoly:0") in events
    assert of(events, MonopolyTaken) == []
    assert new.hands[1] == [3, 0, 0, 0, 0]
    assert [c for c, _ in new.cards[0]] == [MONOPOLY]


def test_card_bought_this_round_cannot_be_played() -> None:
    """rules.md / seed 000: never a card bought in the same round; it can be played the next."""
    s = game()
    s.deck.append(YEAR_OF_PLENTY)  # the next card bought
    hand(s, 0, "1W 1G 1E")
    plenty = YearOfPlenty(HOLZ, LEHM)
    orders = idle(s0=TurnOrders(builds=(BuyCard(), plenty)))

    s, events = resolve_round(s, orders, rng=Dice(QUIET4))

    assert of(events, CardBought) == [CardBought(0, YEAR_OF_PLENTY, 1)]
    assert OrderFailed(0, "build 2", "card_bought_this_round", "", "plenty:0,1") in events
    assert of(events, PlentyTaken) == []

    s, events = resolve_round(s, idle(s0=TurnOrders(builds=(plenty,))), rng=Dice(QUIET4))
    assert of(events, PlentyTaken) == [PlentyTaken(0, (1, 1, 0, 0, 0))]
    assert s.hands[0] == [1, 1, 0, 0, 0]


# -- Setup ----------------------------------------------------------------------------------


def _setup_game() -> GameState:
    return new_game(Settings.for_players(4), seed=1)


def _place(s: GameState, site: str, way: str) -> tuple[GameState, list[Event]]:
    orders = SetupOrders((SetupPlacement(crossing(s, site), path(s, way)),))
    s, events, placed = place_setup(s, orders)
    assert placed
    return s, events


#: One legal placement per setup turn (snake order 0, 1, 2, 3, 3, 2, 1, 0), far apart.
SETUP_SITES = [
    ("A1 B1 B2", "A1 B2"),
    ("A3 A4 B4", "A3 B4"),
    ("C1 D1 D2", "C1 D2"),
    ("C6 D6 D7", "C6 D6"),
    ("D3 D4 E3", "D3 D4"),
    ("E2 F1 F2", "E2 F2"),
    ("F3 F4 G3", "F3 F4"),
    ("C4 C5 D5", "C4 C5"),
]


def test_setup_snake_order() -> None:
    """rules.md Setup / seed 000 Etableringsfase: snake order 1, 2, …, N, N, …, 1."""
    s = _setup_game()
    seats = []
    for site, way in SETUP_SITES:
        seats.append(setup_player(s))
        s, events = _place(s, site, way)
        assert of(events, SetupPlaced)[0].player == seats[-1]
    assert seats == [0, 1, 2, 3, 3, 2, 1, 0]
    assert s.phase == Phase.ROUNDS and s.round == 1
    assert all(len(s.settlements[p]) == 2 and len(s.roads[p]) == 2 for p in range(4))


def test_second_settlement_pays_one_card_per_producing_hex() -> None:
    """Seed 000 Etableringsfase: the 2nd house pays one card per adjacent land hex, not the 1st."""
    s = _setup_game()
    for site, way in SETUP_SITES[:4]:
        s, events = _place(s, site, way)
        assert of(events, Produced) == []
    assert all(h == [0, 0, 0, 0, 0] for h in s.hands)

    # Seat 3's second house: D3 (3E), D4 (11G) and the desert E3, which pays nothing.
    s, events = _place(s, *SETUP_SITES[4])
    assert sorted((e.player, e.resource, e.amount) for e in of(events, Produced)) == [
        (3, 3, 1),
        (3, ERZ, 1),
    ]
    assert s.hands[3] == [0, 0, 0, 1, 1]
    # Seat 2's second house: E2 (10W), F2 (5E) and the sea F1.
    s, events = _place(s, *SETUP_SITES[5])
    assert s.hands[2] == [0, 0, 1, 0, 1]


def test_ranked_setup_placements_first_legal_used() -> None:
    """rules.md Setup: of a ranked list (`oder`), the first legal placement is placed at once."""
    s = _setup_game()
    s, _ = _place(s, "C3 D3 D4", "C3 D3")  # seat 0
    taken = SetupPlacement(crossing(s, "C3 D3 D4"), path(s, "D3 D4"))
    too_close = SetupPlacement(crossing(s, "D3 D4 E3"), path(s, "D4 E3"))
    good = SetupPlacement(crossing(s, "D4 E3 E4"), path(s, "E3 E4"))
    later = SetupPlacement(crossing(s, "A1 B1 B2"), path(s, "A1 B2"))

    new, events, placed = place_setup(s, SetupOrders((taken, too_close, good, later)))

    assert placed
    assert of(events, SetupFailed) == [
        SetupFailed(1, 0, "occupied"),
        SetupFailed(1, 1, "distance_rule"),
    ]
    assert of(events, SetupPlaced) == [SetupPlaced(1, good.crossing, good.path, False, 2)]
    assert new.owner[good.crossing] == 1 and new.owner[later.crossing] == -1
    assert setup_player(new) == 2


def test_ranked_setup_placements_none_legal_places_nothing() -> None:
    """rules.md Setup: when no ranked placement is legal, nothing is placed; the turn waits."""
    s = _setup_game()
    s, _ = _place(s, "C3 D3 D4", "C3 D3")
    bad = SetupPlacement(crossing(s, "C3 D3 D4"), path(s, "D3 D4"))

    new, events, placed = place_setup(s, SetupOrders((bad,)))

    assert not placed
    assert of(events, SetupFailed) == [SetupFailed(1, 0, "occupied")]
    assert new.setup_step == 1 and setup_player(new) == 1


def test_setup_automatic_placement_highest_pip_sum() -> None:
    """rules.md Setup: a missed deadline places at the highest pip sum (ties: lowest label)."""
    s = _setup_game()
    # Pip sum 11 at B4 C4 C5 (9H 5L 10G), C3 C4 D4, C5 D5 D6 and E4 E5 F4: B4 C4 C5 is lowest.
    new, events = place_setup_automatic(s)
    (placed,) = of(events, SetupPlaced)
    assert placed.player == 0 and placed.automatic
    assert new.board.crossing_label(placed.crossing) == "B4 C4 C5"
    assert placed.path in new.board.crossing_paths[placed.crossing]
    assert new.road[placed.path] == 0

    # Next: B4 C4 C5's neighbours are out; C3 C4 D4 (6L 5L 11G) is the best left.
    new, events = place_setup_automatic(new)
    (placed,) = of(events, SetupPlaced)
    assert placed.player == 1
    assert new.board.crossing_label(placed.crossing) == "C3 C4 D4"
