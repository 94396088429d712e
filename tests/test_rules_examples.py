"""The worked examples of seed 000 (the Danish rules almanac), played through the engine.

Unless a test says otherwise the board is the default one (medium, seed 1):

               A1 2:1 G  A2 ~      A3 3:1    A4 ~
          B1 ~      B2 11H    B3 12E    B4 9H     B5 3:1
     C1 3:1    C2 4H     C3 6L     C4 5L     C5 10G    C6 ~
D1 ~      D2 8H     D3 3E     D4 11G    D5 4G     D6 8W     D7 2:1 W
     E1 3:1    E2 10W    E3 Wüste  E4 9L     E5 3W     E6 ~
          F1 ~      F2 5E     F3 2G     F4 6W     F5 2:1 E
               G1 2:1 H  G2 ~      G3 2:1 L  G4 ~

Rolls are scripted with `Dice`; `QUIET` (a 12, paid only by the empty hex B3) fills the rolls
a test does not care about.
"""

from __future__ import annotations

from helpers import Dice, crossing, game, hand, path, road, settle
from rules_fixtures import QUIET, give_card, hex_id, idle, of

from pbm.rules import building, resolve_round
from pbm.rules.events import (
    BankShort,
    Built,
    CardBought,
    Discarded,
    Event,
    GameWon,
    MaritimeTraded,
    OrderFailed,
    Produced,
    RobberMoved,
    TitleChanged,
)
from pbm.rules.layouts import KNIGHT, VICTORY_POINT
from pbm.rules.orders import (
    BuyCard,
    City,
    DiscardPreference,
    Knight,
    MaritimeTrade,
    Road,
    RobberOrder,
    Settlement,
    Timing,
    TurnOrders,
)
from pbm.rules.resources import ERZ, HOLZ, LEHM, WOLLE
from pbm.rules.state import GameState, Phase

QUIET4 = [QUIET] * 4

# -- Longest road: "En handelsvej kan afbrydes!" ---------------------------------------------

WHITE, BLACK, RED = 0, 1, 2  # the almanac's colours, as seats

#: White's 7 roads along the border of rows C and D, from C1 C2 D2 to C5 D5 D6. The fourth
#: crossing on the way, C3 D3 D4, is the almanac's crossing "C" where black can settle.
WHITE_ROAD = ("C2 D2", "C2 D3", "C3 D3", "C3 D4", "C4 D4", "C4 D5", "C5 D5")
#: Black's 5 roads coming up from F2 F3 G2 to C3 D3 D4, through the desert's corners.
BLACK_ROAD = ("F2 F3", "E3 F3", "E3 E4", "D4 E3", "D3 D4")
#: Red's 5 roads along the top coast, from A1 B1 B2 to A3 A4 B4 (far from the others).
RED_ROAD = ("A1 B2", "A2 B2", "A2 B3", "A3 B3", "A3 B4")


def _road_race(with_red: bool) -> GameState:
    s = game()
    settle(s, WHITE, "C1 C2 D2")
    for p in WHITE_ROAD:
        road(s, WHITE, p)
    settle(s, BLACK, "F2 F3 G2")
    for p in BLACK_ROAD:
        road(s, BLACK, p)
    if with_red:
        settle(s, RED, "A1 B1 B2")
        for p in RED_ROAD:
            road(s, RED, p)
    hand(s, BLACK, "1H 1L 1W 1G")
    return s


def _black_settles_on_c(s: GameState) -> tuple[GameState, list[Event]]:
    c = crossing(s, "C3 D3 D4")
    return resolve_round(s, idle(s1=TurnOrders(builds=(Settlement(c),))), rng=Dice(QUIET4))


def test_longest_road_cut_by_settlement_moves_title() -> None:
    """Seed 000 Længste handelsvej: black's house on C cuts white's 7-road; black (5) takes it."""
    s = _road_race(with_red=False)
    assert s.longest_road == WHITE
    assert s.road_lengths[:2] == [7, 5]

    new, events = _black_settles_on_c(s)

    assert Built(BLACK, "settlement", crossing(s, "C3 D3 D4"), False) in events
    # White's road falls apart into 3 + 4; black's 5 is now the longest.
    assert new.road_lengths[WHITE] == 4
    assert TitleChanged("longest_road", WHITE, BLACK, 5) in events
    assert new.longest_road == BLACK
    assert new.visible_vp(BLACK) == 2 + 2 and new.visible_vp(WHITE) == 1


def test_longest_road_tie_after_cut_sets_title_aside() -> None:
    """Seed 000: after the cut two players tie for the longest road: the card is set aside."""
    s = _road_race(with_red=True)
    assert s.longest_road == WHITE

    new, events = _black_settles_on_c(s)

    assert new.road_lengths[:3] == [4, 5, 5]
    assert TitleChanged("longest_road", WHITE, -1, 5) in events
    assert new.longest_road == -1
    assert new.visible_vp(BLACK) == 2 and new.visible_vp(RED) == 1


def test_set_aside_longest_road_returns_to_sole_leader() -> None:
    """Seed 000: the set-aside card comes back when only one player has the longest road."""
    s, _ = _black_settles_on_c(_road_race(with_red=True))
    assert s.longest_road == -1 and s.round == 2
    hand(s, RED, "1H 1L")

    # Round 2 (build order 1, 2, 3, 0): red lengthens its road to 6.
    new, events = resolve_round(
        s, idle(s2=TurnOrders(builds=(Road(path(s, "A4 B4")),))), rng=Dice(QUIET4)
    )

    assert new.road_lengths[RED] == 6
    assert TitleChanged("longest_road", -1, RED, 6) in events
    assert new.longest_road == RED


def test_cut_holder_who_still_ties_keeps_the_title() -> None:
    """docs/rules-decisions.md: seed 000's set-aside after a cut is for a holder who falls
    behind; a holder still tying the longest keeps the card (titles move only when exceeded)."""
    s = game()
    s.longest_road, s.road_lengths = WHITE, [5, 5, 3, 0]
    events: list[Event] = []
    building.update_longest_road(s, events)
    assert (s.longest_road, events) == (WHITE, [])
    s.road_lengths = [4, 5, 5, 0]
    building.update_longest_road(s, events)
    assert (s.longest_road, events) == (-1, [TitleChanged("longest_road", WHITE, -1, 5)])


def test_a_road_may_run_up_to_a_foreign_settlement_but_not_on_from_it() -> None:
    """docs/rules-decisions.md, seed 003 "an eine fremde Siedlung angelegt …, wenn eine eigene
    Strasse dorthin fuehrt": up to the foreign building from one's own road, never past it."""
    s = game()
    settle(s, WHITE, "C1 C2 D2")
    road(s, WHITE, "C2 D2")
    settle(s, BLACK, "C2 C3 D3")  # at the far end of white's road
    assert building.road_rule(s, WHITE, path(s, "C2 D3"), check_cost=False) is None
    road(s, WHITE, "C2 D3")  # white's road now leads to black's settlement
    assert building.road_rule(s, WHITE, path(s, "C3 D3"), check_cost=False) == "not_connected"


# -- Slå syv: discarding ----------------------------------------------------------------------

SOREN, PETER, THOMAS = 0, 1, 2


def _seven_for_soren(
    thomas_discards: tuple[int, ...],
) -> tuple[GameState, GameState, list[Event]]:
    s = game()
    hand(s, SOREN, "2H 1L 1W 1G 1E")  # 6 cards
    hand(s, PETER, "1H 2L 1W 2G 1E")  # 7 cards
    hand(s, THOMAS, "4H 2L 3W 1G 1E")  # 11 cards
    orders = idle(
        s0=TurnOrders(robber=RobberOrder(hex_id(s, "B3"))),  # nobody lives at B3
        s2=TurnOrders(discard=DiscardPreference(thomas_discards)),
    )
    new, events = resolve_round(s, orders, rng=Dice([(3, 4), QUIET, QUIET, QUIET]))
    return s, new, events


def test_seven_thomas_discards_five_of_eleven() -> None:
    """Seed 000 Slå syv: Søren 6 and Peter 7 keep all; Thomas 11 gives 5 (3 lumber, 2 wool)."""
    s, new, events = _seven_for_soren((HOLZ, HOLZ, HOLZ, WOLLE, WOLLE))

    assert of(events, Discarded) == [Discarded(THOMAS, (3, 0, 2, 0, 0), 0)]
    # Discards come first, then Søren moves the robber.
    assert events.index(of(events, Discarded)[0]) < events.index(of(events, RobberMoved)[0])
    assert new.hands[SOREN] == s.hands[SOREN]
    assert new.hands[PETER] == s.hands[PETER]
    assert new.hands[THOMAS] == [1, 2, 1, 1, 1]
    # The cards go back to the bank.
    assert new.bank is not None and s.bank is not None
    assert new.bank[HOLZ] == s.bank[HOLZ] + 3 and new.bank[WOLLE] == s.bank[WOLLE] + 2


def test_seven_discard_preference_then_random() -> None:
    """rules.md 2c: the `Abwurf` list is followed as far as it goes, the rest is drawn at random."""
    _, new, events = _seven_for_soren((HOLZ, HOLZ))

    (d,) = of(events, Discarded)
    assert d.player == THOMAS
    assert sum(d.cards) == 5
    assert d.at_random == 3
    assert d.cards[HOLZ] >= 2
    assert sum(new.hands[THOMAS]) == 6


# -- By: a city's double yield ------------------------------------------------------------------


def test_city_double_yield_the_eight_example() -> None:
    """Seed 000 By: an eight is rolled; black gets 3 ore (house 1 + city 2), white 2 lumber."""
    # Board seed 5 has the almanac's picture: an 8 on ore (D2) and an 8 on lumber (C5).
    #      C1 ~      C2 3G     C3 9H     C4 10H    C5 8H     C6 2:1 G
    # D1 2:1 E  D2 8E     D3 4G     D4 11E    D5 3W     D6 4G     D7 ~
    #      E1 ~      E2 10E    E3 5H     E4 6W     E5 11L    E6 2:1 H
    # Its 12 is F3, where nobody lives: (6, 6) is quiet here too.
    s = game(seed=5)
    black, white = 0, 1
    settle(s, black, "C1 C2 D2")  # top corner of 8E
    settle(s, black, "D2 E1 E2", city=True)  # bottom corner of 8E
    settle(s, white, "B4 B5 C5", city=True)  # top corner of 8H

    new, events = resolve_round(s, idle(), rng=Dice([(2, 6), QUIET, QUIET, QUIET]))

    assert new.hands[black] == [0, 0, 0, 0, 3]
    assert new.hands[white] == [2, 0, 0, 0, 0]
    paid = {(e.player, e.resource): 0 for e in of(events, Produced)}
    for e in of(events, Produced):
        paid[(e.player, e.resource)] += e.amount
    assert paid == {(black, ERZ): 3, (white, HOLZ): 2}


# -- Afstandsregel and the connection rule ----------------------------------------------------


def test_distance_rule_example() -> None:
    """Seed 000 Afstandsregel: no house next to a house or city; two crossings away is fine."""
    s = game()
    white, black = 0, 1
    # White: a house at C2 D2 D3 and roads to C2 C3 D3, C3 D3 D4 and D3 D4 E3.
    settle(s, white, "C2 D2 D3")
    for p in ("C2 D3", "C3 D3", "D3 D4"):
        road(s, white, p)
    # Black: a house at D3 E2 E3, next to the end of white's road.
    settle(s, black, "D3 E2 E3")
    rule = building.settlement_rule

    assert rule(s, white, crossing(s, "C2 C3 D3"), check_cost=False) == "distance_rule"  # own
    assert rule(s, white, crossing(s, "D3 D4 E3"), check_cost=False) == "distance_rule"  # black
    assert rule(s, white, crossing(s, "D3 E2 E3"), check_cost=False) == "occupied"
    assert rule(s, white, crossing(s, "C3 D3 D4"), check_cost=False) is None  # two steps away

    hand(s, white, "1H 1L 1W 1G")
    c = crossing(s, "C3 D3 D4")
    new, events = resolve_round(s, idle(s0=TurnOrders(builds=(Settlement(c),))), rng=Dice(QUIET4))
    assert Built(white, "settlement", c, False) in events
    assert new.owner[c] == white


def test_settlement_must_touch_own_road() -> None:
    """Seed 000 Hus: a house needs a road of its own leading to it (crossing "C" of the example)."""
    s = game()
    white, black = 0, 1
    settle(s, white, "C2 D2 D3")
    road(s, white, "C2 D3")  # to C2 C3 D3
    road(s, black, "C3 D4")  # black's road touches C3 C4 D4 and C3 D3 D4
    hand(s, white, "2H 2L 2W 2G")

    # C3 C4 D4 keeps the distance rule but no white road leads there.
    c = crossing(s, "C3 C4 D4")
    assert building.settlement_rule(s, white, c) == "settlement_not_connected"
    # Neither does C3 D3 D4: black's road there does not count for white.
    c2 = crossing(s, "C3 D3 D4")
    assert building.settlement_rule(s, white, c2) == "settlement_not_connected"

    new, events = resolve_round(
        s, idle(s0=TurnOrders(builds=(Settlement(c), Settlement(c2)))), rng=Dice(QUIET4)
    )
    assert of(events, Built) == []
    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [
        ("build 1", "settlement_not_connected"),
        ("build 2", "settlement_not_connected"),
    ]
    assert new.hands[white] == [2, 2, 2, 2, 0]


# -- Søhandel and Havneplads --------------------------------------------------------------------


def _maritime(settlement: str, cards: str, *trades: MaritimeTrade) -> tuple[GameState, list[Event]]:
    s = game()
    settle(s, 0, settlement)
    hand(s, 0, cards)
    return resolve_round(s, idle(s0=TurnOrders(builds=trades)), rng=Dice(QUIET4))


def test_maritime_four_to_one_without_harbour() -> None:
    """Seed 000 Søhandel: Søren gives 4 ore for 1 lumber without a harbour; 3:1 is refused."""
    new, events = _maritime(
        "C3 D3 D4", "4E", MaritimeTrade(ERZ, 3, HOLZ), MaritimeTrade(ERZ, 4, HOLZ)
    )
    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [
        ("build 1", "below_harbour_rate"),
    ]
    assert of(events, MaritimeTraded) == [MaritimeTraded(0, ERZ, 4, HOLZ, 1)]
    assert new.hands[0] == [1, 0, 0, 0, 0]


def test_maritime_three_to_one_at_generic_harbour() -> None:
    """Seed 000 Almindelig havn: Søren gives 3 lumber for 1 ore at a 3:1 harbour."""
    # A3 A4 B4 touches the 3:1 harbour on A3.
    new, events = _maritime("A3 A4 B4", "3H", MaritimeTrade(HOLZ, 3, ERZ))
    assert of(events, MaritimeTraded) == [MaritimeTraded(0, HOLZ, 3, ERZ, 1)]
    assert new.hands[0] == [0, 0, 0, 0, 1]


def test_maritime_two_to_one_only_for_special_harbour_resource() -> None:
    """Seed 000 Specialhavn: at the wool harbour 2 wool buy 1 ore, but lumber is not 3:1 there."""
    # C6 D6 D7 touches the 2:1 wool harbour on D7.
    new, events = _maritime(
        "C6 D6 D7", "2W 3H", MaritimeTrade(WOLLE, 2, ERZ), MaritimeTrade(HOLZ, 3, ERZ)
    )
    assert of(events, MaritimeTraded) == [MaritimeTraded(0, WOLLE, 2, ERZ, 1)]
    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [
        ("build 2", "below_harbour_rate"),
    ]
    assert new.hands[0] == [3, 0, 0, 0, 1]


def test_maritime_four_wool_for_two_at_wool_harbour() -> None:
    """Seed 000 Specialhavn: with the wool harbour 4 wool buy 2 other cards."""
    new, events = _maritime("D6 D7 E6", "4W", MaritimeTrade(WOLLE, 4, LEHM, 2))
    assert of(events, MaritimeTraded) == [MaritimeTraded(0, WOLLE, 4, LEHM, 2)]
    assert new.hands[0] == [0, 2, 0, 0, 0]


# -- Råstofkort: the bank that cannot pay everyone ------------------------------------------


def test_bank_short_two_players_owed_nobody_gets_it() -> None:
    """Seed 000 Råstofkort / seed 002: the bank cannot pay both players owed ore: nobody gets it."""
    s = game()
    # A 3 pays D3 (3E) and E5 (3W).
    settle(s, 0, "C3 D3 D4")  # owed 1 ore
    settle(s, 1, "D2 D3 E2", city=True)  # owed 2 ore
    settle(s, 2, "D5 D6 E5")  # owed 1 wool
    assert s.bank is not None
    s.bank[ERZ] = 2

    new, events = resolve_round(s, idle(), rng=Dice([(1, 2), QUIET, QUIET, QUIET]))

    assert BankShort(ERZ, 3, 2, -1) in events
    assert new.hands[0][ERZ] == 0 and new.hands[1][ERZ] == 0
    assert new.bank is not None and new.bank[ERZ] == 2
    # Wool is not short: it is paid as usual.
    assert new.hands[2] == [0, 0, 1, 0, 0]


def test_bank_short_single_player_gets_what_is_left() -> None:
    """rules.md (seed 002): when only one player is owed the short resource, they get the rest."""
    s = game()
    settle(s, 1, "D2 D3 E2", city=True)  # owed 2 ore on a 3
    assert s.bank is not None
    s.bank[ERZ] = 1

    new, events = resolve_round(s, idle(), rng=Dice([(1, 2), QUIET, QUIET, QUIET]))

    assert BankShort(ERZ, 2, 1, 1) in events
    assert new.hands[1][ERZ] == 1
    assert new.bank is not None and new.bank[ERZ] == 0


# -- Afslutning på spillet: the 10th point bought as a VP card ----------------------------------


def test_tenth_point_bought_as_vp_card_wins_at_once() -> None:
    """Seed 000 Afslutning: the VP card bought with the 10th point wins at once (build step)."""
    s = game()
    for c in ("A1 B1 B2", "A3 A4 B4", "C1 C2 D2"):
        settle(s, 0, c, city=True)
    for c in ("C4 D4 D5", "E2 F1 F2", "F3 F4 G3"):
        settle(s, 0, c)
    assert s.vp(0) == 9
    s.deck.append(VICTORY_POINT)  # the next card bought
    hand(s, 0, "1H 1L 1W 1G 1E")
    settle(s, 1, "E4 E5 F4")
    hand(s, 1, "1H 1L")
    orders = idle(
        s0=TurnOrders(builds=(BuyCard(), Road(path(s, "C4 D5")))),
        s1=TurnOrders(builds=(Road(path(s, "E4 E5")),)),
    )
    new, events = resolve_round(s, orders, rng=Dice(QUIET4))

    bought = of(events, CardBought)
    assert bought == [CardBought(0, VICTORY_POINT, 1)]
    assert of(events, GameWon) == [GameWon(0, 10, 1)]
    assert events.index(GameWon(0, 10, 1)) == events.index(bought[0]) + 1
    # Nothing after the win: neither 0's road nor seat 1's build step.
    assert of(events, Built) == []
    assert new.winner == 0 and new.phase == Phase.ENDED


# -- Piece limits ---------------------------------------------------------------------------

#: Five crossings far enough apart for one player.
FIVE_SITES = ("A1 B1 B2", "A3 A4 B4", "C1 C2 D2", "C4 D4 D5", "E2 F1 F2")


def test_sixth_settlement_refused() -> None:
    """Seed 000 Etableringsfase / rules.md: 5 settlements per player; a sixth is refused."""
    s = game()
    for c in FIVE_SITES:
        settle(s, 0, c)
    road(s, 0, "E3 E4")  # leads to the free site D4 E3 E4
    hand(s, 0, "1H 1L 1W 1G")
    c = crossing(s, "D4 E3 E4")

    new, events = resolve_round(s, idle(s0=TurnOrders(builds=(Settlement(c),))), rng=Dice(QUIET4))

    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [("build 1", "no_pieces_left")]
    assert new.owner[c] == -1
    assert len(new.settlements[0]) == 5


def test_city_frees_a_settlement_piece() -> None:
    """Seed 000 Hus: with all five houses built, a house must become a city before a new one."""
    s = game()
    for c in FIVE_SITES:
        settle(s, 0, c)
    road(s, 0, "E3 E4")
    hand(s, 0, "1H 1L 1W 3G 3E")
    c = crossing(s, "D4 E3 E4")
    builds = (City(crossing(s, "A1 B1 B2")), Settlement(c))

    new, events = resolve_round(s, idle(s0=TurnOrders(builds=builds)), rng=Dice(QUIET4))

    assert of(events, OrderFailed) == []
    assert new.owner[c] == 0
    assert len(new.settlements[0]) == 5 and len(new.cities[0]) == 1


def test_fifth_city_refused() -> None:
    """rules.md: 4 cities per player; upgrading a fifth settlement is refused."""
    s = game()
    for c in FIVE_SITES[:4]:
        settle(s, 0, c, city=True)
    settle(s, 0, FIVE_SITES[4])
    hand(s, 0, "2G 3E")

    new, events = resolve_round(
        s, idle(s0=TurnOrders(builds=(City(crossing(s, FIVE_SITES[4])),))), rng=Dice(QUIET4)
    )

    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [("build 1", "no_pieces_left")]
    assert len(new.cities[0]) == 4
    assert new.hands[0] == [0, 0, 0, 2, 3]


def test_sixteenth_road_refused() -> None:
    """rules.md: 15 roads per player; a sixteenth is refused."""
    s = game()
    settle(s, 0, "C1 D1 D2")
    # 10 roads along the C/D border and 5 along the top coast: 15.
    for p in ("C1 D2", *WHITE_ROAD, "C5 D6", "C6 D6", *RED_ROAD):
        road(s, 0, p)
    assert len(s.roads[0]) == 15
    hand(s, 0, "1H 1L")

    new, events = resolve_round(
        s, idle(s0=TurnOrders(builds=(Road(path(s, "A4 B4")),))), rng=Dice(QUIET4)
    )

    assert [(e.line, e.rule) for e in of(events, OrderFailed)] == [("build 1", "no_pieces_left")]
    assert len(new.roads[0]) == 15


# -- Ridder: largest army -------------------------------------------------------------------


def _knight(s: GameState, label: str) -> TurnOrders:
    return TurnOrders(knight=Knight(Timing.AFTER_ROLL, RobberOrder(hex_id(s, label))))


def test_largest_army_at_third_knight() -> None:
    """Seed 000 Ridder: the player who first has 3 knights in front of them gets the card."""
    s = game()
    s.knights[0] = 1
    give_card(s, 0, KNIGHT)
    give_card(s, 0, KNIGHT)

    s, events = resolve_round(s, idle(s0=_knight(s, "D2")), rng=Dice(QUIET4))
    assert s.knights[0] == 2
    assert of(events, TitleChanged) == [] and s.largest_army == -1

    s, events = resolve_round(s, idle(s0=_knight(s, "D6")), rng=Dice(QUIET4))
    assert s.knights[0] == 3
    assert of(events, TitleChanged) == [TitleChanged("largest_army", -1, 0, 3)]
    assert s.largest_army == 0 and s.visible_vp(0) == 2


def test_largest_army_moves_only_when_strictly_exceeded() -> None:
    """Seed 000 Ridder: the card passes only to a player with one knight more than the holder."""
    s = game()
    s.knights[1] = 3
    s.largest_army = 1
    s.knights[0] = 2
    give_card(s, 0, KNIGHT)
    give_card(s, 0, KNIGHT)

    s, events = resolve_round(s, idle(s0=_knight(s, "D2")), rng=Dice(QUIET4))
    assert s.knights[0] == 3
    assert of(events, TitleChanged) == [] and s.largest_army == 1  # 3 is not more than 3

    # Round 2: seat 0 builds last, but knights are played in the production step.
    s, events = resolve_round(s, idle(s0=_knight(s, "D6")), rng=Dice(QUIET4))
    assert s.knights[0] == 4
    assert of(events, TitleChanged) == [TitleChanged("largest_army", 1, 0, 4)]
    assert s.largest_army == 0
